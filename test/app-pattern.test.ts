/**
 * The `pattern` app: bulk MPI messages in the synthetic traffic patterns of `phit traffic`, with
 * real data checked on every receiver and the same timing in a skeleton run.
 */
import { describe, expect, it } from 'vitest';
import { resolveParams, type Row } from '../apps/app.ts';
import { findApp } from '../apps/index.ts';
import { simulate } from '../runtime/simulate.ts';

async function run(nodes: number, raw: Record<string, string>, skeleton = false): Promise<{ row: Row; simUs: number; mpiMessages: number }> {
  const a = findApp('pattern');
  const p = resolveParams(a, raw);
  const r = await simulate({ machine: 'xe6', nodes, skeleton, program: (ctx) => a.main(ctx, p) });
  const rows = (r.result as { rows: Row[] }).rows;
  return { row: rows[0]!, simUs: r.simulatedTimeUs, mpiMessages: r.mpiMessages };
}

describe('pattern app', () => {
  it('tornado on 8 ranks: every rank sends one message a round, real data checked, bandwidth below the NIC peak', async () => {
    const { row } = await run(8, { pattern: 'tornado', bytes: '64KiB', rounds: '2' });
    expect(row.pattern).toBe('tornado');
    expect(row.ranks).toBe(8);
    expect(row.mbsMin as number).toBeGreaterThan(0);
    expect(row.mbsMin as number).toBeLessThanOrEqual(row.mbsMean as number);
    expect(row.mbsMean as number).toBeLessThanOrEqual(row.mbsMax as number);
    // Gemini injects well under 10 GB/s per NIC
    expect(row.mbsMax as number).toBeLessThan(10_000);
  });

  it('uniform draws: a rank may receive from several senders or none, and every message arrives intact', async () => {
    const { row } = await run(16, { pattern: 'uniform', bytes: '4KiB', rounds: '3', seed: '7' });
    expect(row.mbsMean as number).toBeGreaterThan(0);
  });

  it('on a 64-node torus bit complement (every message across the machine) gets less bandwidth per rank than tornado', async () => {
    const far = await run(64, { pattern: 'bitcomplement', bytes: '64KiB', rounds: '1' });
    const ring = await run(64, { pattern: 'tornado', bytes: '64KiB', rounds: '1' });
    expect(far.row.mbsMean as number).toBeLessThan(0.8 * (ring.row.mbsMean as number));
  });

  it('a skeleton run moves sizes only and predicts the same times', async () => {
    const params = { pattern: 'tornado', bytes: '128KiB', rounds: '1' };
    const real = await run(8, params);
    const skel = await run(8, params, true);
    expect(skel.simUs).toBe(real.simUs);
    expect(skel.row).toEqual(real.row);
  });

  it('worstcase needs the ranks of a group; bad patterns are refused with the reason', async () => {
    await expect(run(8, { pattern: 'worstcase' })).rejects.toThrow(/worstcase applies to dragonflies only/);
    const { row } = await run(8, { pattern: 'worstcase', group: '4', bytes: '8KiB', rounds: '1' });
    expect(row.mbsMean as number).toBeGreaterThan(0);
    await expect(run(6, { pattern: 'bitcomplement' })).rejects.toThrow(/power-of-two/);
    expect(() => resolveParams(findApp('pattern'), { pattern: 'hotspot' })).toThrow(/pattern/);
  });
});
