/**
 * What the intercommunicator tests share: 8 ranks on xe6, and MPI_COMM_WORLD split into two groups
 * joined by an intercommunicator.
 */
import type { Comm, InterComm, Mpi } from '../runtime/mpi/mpi.ts';
import type { RankContext } from '../runtime/rank.ts';
import { simulate, type SimulateOptions } from '../runtime/simulate.ts';
import { rejection } from './helpers.ts';

export type Program = (ctx: RankContext) => Promise<unknown>;

/** 8 ranks on xe6 (4 nodes, 2 per node) unless told otherwise. */
export async function run(program: Program, opts: Partial<SimulateOptions> = {}): Promise<readonly unknown[]> {
  const r = await simulate({ machine: 'xe6', nodes: 4, ppn: 2, ...opts, program });
  return r.rankResults;
}

/** The message of the error the run of `program` ends with (8 ranks on xe6 unless told otherwise). */
export async function failure(program: Program, opts: Partial<SimulateOptions> = {}): Promise<string> {
  return String(await rejection(simulate({ machine: 'xe6', nodes: 4, ppn: 2, ...opts, program })));
}

/**
 * MPI_COMM_WORLD split into the left group, world ranks 0..cut-1, and the right group, the
 * others, joined by an intercommunicator whose leaders are rank `leader` of each group.
 */
export async function halves(mpi: Mpi, cut = 3, leader = 0): Promise<{ left: boolean; half: Comm; ic: InterComm }> {
  const left = mpi.rank < cut;
  const half = (await mpi.split(left ? 0 : 1, mpi.rank))!;
  const ic = await half.intercommCreate(leader, mpi, left ? cut + leader : leader, 7);
  return { left, half, ic };
}

/** World ranks of the left (0..2) and right (3..7) groups of `halves`. */
export const LEFT = [0, 1, 2];
export const RIGHT = [3, 4, 5, 6, 7];

/** The values rank `w` (world) contributes: `n` elements w * 100 + i. */
export function data(w: number, n: number): Int32Array {
  return Int32Array.from({ length: n }, (_, i) => w * 100 + i);
}
