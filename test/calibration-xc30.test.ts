/**
 * The xc30 preset's one-sided latencies against the Aries paper, seed 001_68348b17bd328203.txt
 * ("Aries Performance", figure ids A21, A22 from SEED-FIGURES.md), on a quiet network. A put or
 * get latency runs from issue to the source's completion event (DESIGN.md); the paper measures
 * between nodes on neighbouring Aries one green hop apart. Each figure within 15 %; A23's put
 * bandwidth as well, and the MPI figures (A21's 8-byte latency, A25's ping-pong and streaming
 * bandwidth) with the pingpong app.
 */
import { describe, expect, it } from 'vitest';
import { resolveParams, type Row } from '../apps/app.ts';
import { pingpong } from '../apps/pingpong.ts';
import { simulate } from '../runtime/simulate.ts';
import { putgetOn, slope } from './helpers.ts';

const SEED = 'seed 001_68348b17bd328203.txt';
/** Node 4 sits on the Aries next to node 0's, one green hop away (4 nodes per Aries, 16 Aries per chassis). */
const GREEN_NEIGHBOUR = 4;

const within = (model: number, paper: number, tolerance = 0.15): boolean => Math.abs(model - paper) / paper <= tolerance;

describe(`xc30 one-sided latency and bandwidth (${SEED} "Aries Performance")`, () => {
  it('A21: an 8-byte put one green hop apart takes 0.8 us, a 64 or 128-byte one little more', async () => {
    const rows = await putgetOn('xc30', 8, GREEN_NEIGHBOUR, { minBytes: '8', maxBytes: '128', ops: 'put' });
    const at = (b: number): number => rows.find((r) => r.bytes === b)!.latencyUs;
    expect(rows[0]!.hops).toBe(1);
    expect(within(at(8), 0.8), `8-byte put ${at(8)} us`).toBe(true);
    expect(at(128) / at(8)).toBeLessThan(1.1);
    expect(at(128)).toBeGreaterThan(at(8));
  });

  it('A21: an 8-byte get takes 1.6 us (a host-memory read at the target), 128 bytes little more', async () => {
    const rows = await putgetOn('xc30', 8, GREEN_NEIGHBOUR, { minBytes: '8', maxBytes: '128', ops: 'get' });
    const at = (b: number): number => rows.find((r) => r.bytes === b)!.latencyUs;
    expect(within(at(8), 1.6), `8-byte get ${at(8)} us`).toBe(true);
    expect(at(128) / at(8)).toBeLessThan(1.1);
  });

  it('A22: about 100 ns per router hop one way, minimal routes between groups within 500 ns of hops', async () => {
    // two groups: targets on the same Aries, one green, one black, green + black, and in the other group
    const points: { x: number; y: number }[] = [];
    for (const target of [1, 4, 64, 68, 400, 700]) {
      const [put] = await putgetOn('xc30', 768, target, { minBytes: '8', maxBytes: '8', ops: 'put', iterations: '2' });
      points.push({ x: put!.hops, y: put!.latencyUs });
    }
    expect(new Set(points.map((p) => p.x)).size).toBeGreaterThanOrEqual(4);
    expect(Math.max(...points.map((p) => p.x))).toBeGreaterThanOrEqual(3);
    // the round trip crosses every hop twice
    const oneWayNs = (slope(points) / 2) * 1000;
    expect(within(oneWayNs, 100), `${oneWayNs.toFixed(1)} ns per hop`).toBe(true);
    const longest = points.reduce((a, p) => (p.x > a.x ? p : a));
    expect(longest.x).toBeLessThanOrEqual(5);
    expect(longest.x * oneWayNs).toBeLessThanOrEqual(500);
  });

  it('A23: one node puts to its green neighbour at up to about 10 GB/s, spread beyond the one green link of the minimal route', async () => {
    const [put] = await putgetOn('xc30', 8, GREEN_NEIGHBOUR, { minBytes: '1MiB', maxBytes: '1MiB', ops: 'put' });
    expect(within(put!.bandwidthGBs, 10), `${put!.bandwidthGBs} GB/s`).toBe(true);
    // one green link carries 5.25 GB/s raw, less than 4 GB/s of payload: adaptive routing must use others
    expect(put!.bandwidthGBs).toBeGreaterThan(5.25);
  });
});


/** Rows of the pingpong app between node 0 and its green neighbour (8 nodes, one rank each). */
async function mpiRows(params: Record<string, string>): Promise<Row[]> {
  const p = resolveParams(pingpong, { peer: String(GREEN_NEIGHBOUR), ...params });
  const r = await simulate({ machine: 'xc30', nodes: 8, program: (ctx) => pingpong.main(ctx, p) });
  return [...(r.result as unknown as { rows: Row[] }).rows];
}

const gbs = (rows: readonly Row[], bytes: number): number => rows.find((r) => r.bytes === bytes)!.bandwidthGBs as number;

describe(`xc30 MPI latency and bandwidth (${SEED} "Aries Performance", Figure 14)`, () => {
  it('A21: an 8-byte MPI message takes 1.3 us one way, one green hop apart', async () => {
    const [r] = await mpiRows({ minBytes: '8', maxBytes: '8' });
    expect(within(r!.latencyUs as number, 1.3), `8-byte MPI latency ${r!.latencyUs} us`).toBe(true);
  });

  it('A25: IMB ping-pong, one transfer active at a time, reaches 8.5 GB/s at 4 MiB (one BTE channel)', async () => {
    const rows = await mpiRows({ minBytes: '1MiB', maxBytes: '4MiB', iterations: '2' });
    expect(within(gbs(rows, 4 << 20), 8.5), `4 MiB ping-pong ${gbs(rows, 4 << 20)} GB/s`).toBe(true);
    // the curve has flattened: a channel's rate, not the per-message cost, sets it
    expect(gbs(rows, 4 << 20) / gbs(rows, 1 << 20)).toBeLessThan(1.05);
  });

  it('A25: streaming (OSU bandwidth, a window of messages) reaches up to 9.7 GB/s, above the ping-pong figure', async () => {
    const stream = await mpiRows({ mode: 'stream', window: '8', minBytes: '1MiB', maxBytes: '4MiB', iterations: '1' });
    const pp = await mpiRows({ minBytes: '4MiB', maxBytes: '4MiB', iterations: '2' });
    for (const bytes of [1 << 20, 4 << 20]) {
      expect(within(gbs(stream, bytes), 9.7), `${bytes}-byte streaming ${gbs(stream, bytes)} GB/s`).toBe(true);
    }
    // several block transfers at once share the NIC beyond one channel's rate
    expect(gbs(stream, 4 << 20)).toBeGreaterThan(gbs(pp, 4 << 20) * 1.1);
  });
});
