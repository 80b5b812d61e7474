/**
 * halo3d's `exchange` param: the app's own face buffers (sendrecv), vector datatypes over the
 * array (datatype) and one neighborAlltoallw (neighbor) leave the same halo, and their times
 * differ by exactly what the library's packing of non-contiguous faces costs.
 */
import { describe, expect, it } from 'vitest';
import { resolveParams, type Row } from '../apps/app.ts';
import { findApp } from '../apps/index.ts';
import { simulate, type SimulateOptions } from '../runtime/simulate.ts';

const EXCHANGES = ['sendrecv', 'datatype', 'neighbor'] as const;

async function halo(raw: Record<string, string>, opts: Partial<SimulateOptions> = {}): Promise<{ row: Row; timeUs: number }> {
  const app = findApp('halo3d');
  const params = resolveParams(app, raw);
  const r = await simulate({ machine: 'xe6', nodes: 8, ...opts, program: (ctx) => app.main(ctx, params) });
  return { row: r.result!.rows[0]!, timeUs: r.simulatedTimeUs };
}

describe('halo3d exchange=sendrecv|datatype|neighbor on xe6, 8 ranks', () => {
  it.each(EXCHANGES)('%s: every face-halo cell holds the neighbour\'s cell, weak and periodic, and strong with uneven blocks and open edges', async (exchange) => {
    const weak = await halo({ exchange, nx: '6', ny: '5', nz: '4', iterations: '3' });
    expect(weak.row).toMatchObject({ exchange, procGrid: '2x2x2', localGrid: '6x5x4', bytesPerIteration: 2 * 8 * (5 * 4 + 6 * 4 + 6 * 5), check: 'passed' });
    // 2x2x2 ranks over 7x5x9 cells: rank 0 holds 4x3x5 and has one neighbour per dimension
    const strong = await halo({ exchange, nx: '7', ny: '5', nz: '9', scaling: 'strong', periodic: '0', iterations: '2' });
    expect(strong.row).toMatchObject({ exchange, localGrid: '4x3x5', globalGrid: '7x5x9', bytesPerIteration: 8 * (3 * 5 + 4 * 5 + 4 * 3), check: 'passed' });
  });

  it('sendrecv keeps the figures it had before the param (README: 127.2 us per iteration)', async () => {
    const { row } = await halo({});
    expect(row).toMatchObject({ exchange: 'sendrecv', timePerIterationUs: 127.2, commUs: 223.7, check: 'passed' });
  });

  it('with packing almost free (mpi.packBlock=0, copies at 100 bytes/ps) datatype and neighbor take the time of sendrecv plus what is left of packing, to the picosecond', async () => {
    const set = { 'mpi.packBlock': '0ns', 'mpi.copyBandwidth': '100000GB/s' };
    const times = await Promise.all(EXCHANGES.map(async (exchange) => (await halo({ exchange, nx: '16', ny: '16', nz: '16', iterations: '3' }, { set })).timeUs));
    expect(times[2]).toBe(times[1]);
    // 3 iterations x 6 faces packed and 6 unpacked, each 2 KiB at 100 bytes/ps: 21 ps (rounded up)
    expect(Math.round((times[1]! - times[0]!) * 1e6)).toBe(3 * 12 * Math.ceil(2048 / 100));
  });

  it('at xe6\'s packing cost datatype and neighbor are slower than sendrecv by the faces the library packs and unpacks, all on the critical path', async () => {
    // measured (32^3 per rank, 10 iterations): sendrecv 127.2 us per iteration, datatype and neighbor 170.8.
    // sendrecv's faces are filled by the app inside its compute phase, at no cost; the datatypes make the
    // library pack each of the 6 faces before it sends and unpack each as it lands: per face 8 KiB at
    // mpi.copyBandwidth (5 GB/s: 1.638 us) plus mpi.packBlock (5.5 ns) per block: 32 rows of 32 doubles for
    // the x and y faces, 1,024 single doubles for the z faces.
    const [sendrecv, datatype, neighbor] = await Promise.all(EXCHANGES.map(async (exchange) => (await halo({ exchange })).row));
    const face = (blocks: number): number => 8192 / 5000 + blocks * 0.0055;
    const packing = 10 * 2 * 2 * (face(32) + face(32) + face(1024));
    for (const row of [datatype!, neighbor!]) {
      expect(row.check).toBe('passed');
      expect(row.computeUs).toBe(sendrecv!.computeUs);
      const extra = (row.timeUs as number) - (sendrecv!.timeUs as number);
      expect(extra).toBeGreaterThan(0.99 * packing);
      expect(extra).toBeLessThan(1.01 * packing);
    }
  });

  it.each(['datatype', 'neighbor'])('%s as a skeleton run: the same time, the check skipped', async (exchange) => {
    const raw = { exchange, nx: '8', ny: '8', nz: '8', iterations: '2' };
    const real = await halo(raw);
    const skeleton = await halo(raw, { skeleton: true });
    expect(skeleton.timeUs).toBe(real.timeUs);
    expect(skeleton.row.check).toBe('skipped (skeleton run)');
  });
});
