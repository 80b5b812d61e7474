/**
 * One point of a collective study: a collective with one algorithm at one size on one machine,
 * timed as OSU does (a warm-up call, then the mean over calls, the largest over ranks), with the
 * fabric's link utilisation over the timed calls' run. `phit collectives --study` runs a matrix
 * of these in worker threads (cli/coll-study.ts).
 */
import type { MachineSpec } from '../fabric/machines/spec.ts';
import type { Comm } from './mpi/comm.ts';
import { SUM } from './mpi/ops.ts';
import { simulate } from './simulate.ts';
import { ALGORITHMS, query, SELECTORS, type Collective, type SelectorName } from './mpi/coll/index.ts';

/** The collectives a study runs (those whose every rank contributes the same size). */
export const STUDY_COLLECTIVES = ['barrier', 'bcast', 'reduce', 'allreduce', 'allgather', 'alltoall', 'reduceScatterBlock', 'gather', 'scatter', 'scan', 'exscan'] as const;
export type StudyCollective = (typeof STUDY_COLLECTIVES)[number];

/** One point to run: plain data, as sent to a worker thread. */
export interface StudyTask {
  readonly machine: string;
  readonly spec: MachineSpec;
  readonly nodes: number;
  readonly ppn: number;
  readonly collective: StudyCollective;
  readonly algorithm: string;
  /** Bytes each rank contributes (per block for the gathering and all-to-all collectives). */
  readonly bytes: number;
  readonly iterations: number;
  readonly set: Readonly<Record<string, string>>;
}

/** What one point measured. */
export interface StudyPoint {
  readonly machine: string;
  readonly nodes: number;
  readonly algorithm: string;
  readonly bytes: number;
  /** Mean time per call, the largest over ranks (us); null when the run failed. */
  readonly us: number | null;
  /** Link utilisation over the run: the busiest link class's mean and the busiest link. */
  readonly meanLinkUtil: number | null;
  readonly maxLinkUtil: number | null;
  readonly error?: string;
}

/** Elements of 8 bytes for `bytes` (at least one). */
const elems = (bytes: number): number => Math.max(1, Math.round(bytes / 8));

/** One call of the collective on buffers made once per point. */
function caller(c: StudyCollective, mpi: Comm, bytes: number, alg: string): () => Promise<void> {
  const n = mpi.size;
  const m = elems(bytes);
  const a = new Float64Array(c === 'alltoall' || c === 'reduceScatterBlock' || (c === 'scatter' && mpi.rank === 0) ? m * n : m).fill(mpi.rank + 1);
  const b = new Float64Array(c === 'allgather' || c === 'alltoall' || (c === 'gather' && mpi.rank === 0) ? m * n : m);
  const opts = { algorithm: alg };
  switch (c) {
    case 'barrier':
      return () => mpi.barrier(opts);
    case 'bcast':
      return () => mpi.bcast(a, 0, opts);
    case 'reduce':
      return () => mpi.reduce(a, mpi.rank === 0 ? b : null, SUM, 0, opts);
    case 'allreduce':
      return () => mpi.allreduce(a, b, SUM, opts);
    case 'allgather':
      return () => mpi.allgather(a, b, opts);
    case 'alltoall':
      return () => mpi.alltoall(a, b, opts);
    case 'reduceScatterBlock':
      return () => mpi.reduceScatterBlock(a, b, SUM, opts);
    case 'gather':
      return () => mpi.gather(a, mpi.rank === 0 ? b : null, 0, opts);
    case 'scatter':
      return () => mpi.scatter(mpi.rank === 0 ? a : null, b, 0, opts);
    case 'scan':
      return () => mpi.scan(a, b, SUM, opts);
    case 'exscan':
      return () => mpi.exscan(a, b, SUM, opts);
  }
}

/** Runs one point of a study. */
export async function runStudyPoint(t: StudyTask): Promise<StudyPoint> {
  const base = { machine: t.machine, nodes: t.nodes, algorithm: t.algorithm, bytes: t.bytes };
  try {
    const per: number[] = [];
    const r = await simulate({
      machine: t.spec,
      nodes: t.nodes,
      ppn: t.ppn,
      set: t.set,
      metrics: true,
      program: async ({ mpi }) => {
        const call = caller(t.collective, mpi, t.bytes, t.algorithm);
        await call();
        await mpi.barrier();
        const t0 = mpi.wtime();
        for (let i = 0; i < t.iterations; i++) await call();
        per[mpi.rank] = ((mpi.wtime() - t0) * 1e6) / t.iterations;
      },
    });
    const classes = r.metrics!.fabric.linkClasses;
    return {
      ...base,
      us: Number(Math.max(...per).toFixed(4)),
      meanLinkUtil: classes.length > 0 ? Math.max(...classes.map((c) => c.utilisation)) : 0,
      maxLinkUtil: classes.length > 0 ? Math.max(...classes.map((c) => c.maxUtilisation)) : 0,
    };
  } catch (e) {
    return { ...base, us: null, meanLinkUtil: null, maxLinkUtil: null, error: (e instanceof Error ? e.message : String(e)).split('\n')[0]! };
  }
}

/** The algorithms a study of `c` runs: every library algorithm (the collective engine is not one). */
export function studyAlgorithms(c: StudyCollective): string[] {
  return Object.keys(ALGORITHMS[c]);
}

/**
 * What a library's rules (`selector`, default MPICH's) pick for `c` at `bytes` per rank on `ranks`
 * ranks, `ppn` of them per node (sizes as chooseAlgorithm takes them); for allreduce and barrier
 * the flat choice, before any SMP-aware path.
 */
export function selectorChoice(c: StudyCollective, ranks: number, bytes: number, selector: SelectorName = 'mpich', ppn = 1): string {
  const b = elems(bytes) * 8;
  const size = c === 'allgather' || c === 'reduceScatterBlock' ? b * ranks : b;
  return SELECTORS[selector].choose(query(c as Collective, ranks, size, true, Math.ceil(ranks / ppn), Math.min(ppn, ranks)));
}
