/** What the OpenSHMEM tests share: a run that returns every PE's result, and seeded values per PE and element. */
import { expect } from 'vitest';
import type { RankContext } from '../runtime/rank.ts';
import { simulate } from '../runtime/simulate.ts';

/** Runs `program` and returns every rank's result. */
export async function run<R>(machine: string, nodes: number, ppn: number, program: (ctx: RankContext) => Promise<R>): Promise<readonly R[]> {
  const r = await simulate({ machine, nodes, ppn, program });
  expect(r.simulatedTimeUs).toBeGreaterThan(0);
  return r.rankResults;
}

/** A deterministic value of PE `pe`, element `j` (seeded, no Math.random). */
export function val(pe: number, j: number, salt: number): number {
  let x = (pe * 7919 + j * 104729 + salt * 1299709) >>> 0;
  x ^= x << 13;
  x ^= x >>> 17;
  x ^= x << 5;
  return ((x >>> 0) % 2001) - 1000;
}
