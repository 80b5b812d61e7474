import type { ArrayType, SkeletonArray } from '../fabric/skeleton.ts';
import type { Placement } from './placement.ts';
import type { Dmapp } from './dmapp/dmapp.ts';
import type { Shmem } from './shmem/shmem.ts';
import type { Gni } from './ugni/gni.ts';
import type { Mpi } from './mpi/mpi.ts';
import type { Proc } from './proc.ts';

/** Work for `ctx.compute`: a time, or flops and bytes costed by the machine's processor model. */
export type Work = number | { readonly ps?: number; readonly ns?: number; readonly us?: number; readonly flops?: number; readonly bytes?: number };

/** What a rank program can see of the machine it runs on. */
export interface MachineView {
  readonly name: string;
  readonly title: string;
  readonly nodes: number;
  readonly ppn: number;
  /** How ranks were laid out on the nodes. */
  readonly placement: Placement;
  /** Node a rank runs on. */
  nodeOf(rank: number): number;
  /** Router-to-router hops between the nodes of two ranks on a quiet network. */
  hops(rankA: number, rankB: number): number;
  /** NIC features of the run's machine (after `set` overrides), for apps that report them. */
  readonly nic: NicFeatures;
  /** Hits and misses so far of a node's AMO cache and IOMMU PTE cache (zeros where not modelled). */
  nicStats(node: number): NicStats;
}

/** What a NIC has: FMA unit, AMO cache entries (0: none), IOMMU PTE cache entries (0: not modelled), vMDH heap and its page size, and whether MPI uses its collective engine by default. */
export interface NicFeatures {
  readonly fma: boolean;
  readonly amoCacheEntries: number;
  readonly pteCacheEntries: number;
  readonly vmdh: boolean;
  readonly heapPageBytes: number;
  /** Whether MPI's allreduce and barrier of one item use the collective engine unasked (`mpi.collectiveEngine`). */
  readonly collectiveEngine: boolean;
}

/** Cache counters of one NIC. */
export interface NicStats {
  readonly amo: { readonly hits: number; readonly misses: number };
  readonly pte: { readonly hits: number; readonly misses: number };
}

/** The context handed to a rank program. */
export interface RankContext {
  readonly rank: number;
  readonly size: number;
  readonly mpi: Mpi;
  readonly dmapp: Dmapp;
  /** OpenSHMEM over DMAPP. */
  readonly shmem: Shmem;
  /** uGNI over the NIC. */
  readonly gni: Gni;
  readonly machine: MachineView;
  /** Simulated time in microseconds. */
  now(): number;
  /**
   * Spends CPU time: a number is picoseconds; `{us}`/`{ns}`/`{ps}` give a time; `{flops, bytes}`
   * is costed by the processor model (the slower of compute and memory traffic).
   */
  compute(work: Work): Promise<void>;
  /**
   * A buffer of `count` elements of `Type` (`ctx.alloc(Float64Array, n)`) for bulk data: a new
   * zeroed array, or in a skeleton run a skeleton buffer that costs no memory and whose bytes
   * never move (it reads as zeros; every skeleton buffer shares one store).
   */
  alloc<T extends SkeletonArray>(Type: ArrayType<T>, count: number): T;
  /** Whether this is a skeleton run (`skeleton: true`, `--skeleton`): sizes move, bytes do not. */
  readonly skeleton: boolean;
}

/** A rank program: one async function run by every rank. */
export type RankProgram<R = unknown> = (ctx: RankContext) => Promise<R>;

/** Builds the context of one rank. */
export function makeContext(proc: Proc, size: number, mpi: Mpi, dmapp: Dmapp, shmem: Shmem, gni: Gni, machine: MachineView): RankContext {
  const cpu = proc.machine.config.cpu;
  return {
    rank: proc.rank,
    size,
    mpi,
    dmapp,
    shmem,
    gni,
    machine,
    now: () => proc.time() / 1e6,
    compute: (work: Work) => proc.cpu(workPs(work, cpu.flopsPerPs, cpu.memBytesPerPs), 'compute'),
    alloc: <T extends SkeletonArray>(Type: ArrayType<T>, count: number): T => {
      if (typeof Type !== 'function' || typeof Type.BYTES_PER_ELEMENT !== 'number') throw new RangeError(`alloc: expected a typed-array class such as Float64Array, got ${String(Type)}`);
      if (!Number.isInteger(count) || count < 0) throw new RangeError(`alloc: count=${count} must be a non-negative integer`);
      return proc.skeleton ? proc.skeleton.alloc(Type, count) : new Type(count);
    },
    skeleton: proc.skeleton !== null,
  };
}

function workPs(work: Work, flopsPerPs: number, bytesPerPs: number): number {
  if (typeof work === 'number') {
    if (!Number.isFinite(work) || work < 0) throw new RangeError(`compute: expected a non-negative number of ps, got ${work}`);
    if (work > MAX_COMPUTE_PS) throw new RangeError(`compute: ${work} ps is more than ${MAX_COMPUTE_PS / 1e12} s of simulated time in one call`);
    return work;
  }
  if (work === null || typeof work !== 'object') throw new RangeError(`compute: expected ps or {us|ns|ps|flops|bytes}, got ${String(work)}`);
  let t = (work.ps ?? 0) + (work.ns ?? 0) * 1e3 + (work.us ?? 0) * 1e6;
  const f = (work.flops ?? 0) / flopsPerPs;
  const m = (work.bytes ?? 0) / bytesPerPs;
  t += Math.max(f, m);
  if (!Number.isFinite(t) || t < 0) throw new RangeError(`compute: work must be non-negative, got ${JSON.stringify(work)}`);
  if (t > MAX_COMPUTE_PS) throw new RangeError(`compute: ${JSON.stringify(work)} is more than ${MAX_COMPUTE_PS / 1e12} s of simulated time in one call`);
  return Math.round(t);
}

/** Most simulated time one compute call may take (ps): an hour, well inside the engine's exact integer clock (2^53 ps). */
const MAX_COMPUTE_PS = 3600e12;
