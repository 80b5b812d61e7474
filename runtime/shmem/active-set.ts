import { PSYNC_SIGNAL, SYNC_VALUE, type Group } from './collectives.ts';
import { ShmemLocks } from './locks.ts';
import { PeSet } from './pe-set.ts';
import { checkOpType, REDUCE_ALIGN, REDUCE_BYTES, type ReduceElemType, type ReduceOp } from './reduce-ops.ts';
import { ShmemError, type Symmetric } from './symmetric.ts';
import type { ShmemTeam } from './team.ts';

/** Counters a pSync holds: one per dissemination round, enough for any job. */
const PSYNC_ROUNDS = 32;

/**
 * The active-set collectives of OpenSHMEM 1.4 and earlier (deprecated in 1.5, still in most SHMEM
 * codes): `barrier`, `sync`, `broadcast32/64`, `collect32/64`, `fcollect32/64`,
 * `alltoall32/64`, `alltoalls32/64` and the typed
 * `..._to_all` reductions, over the PEs `PE_start + i * 2^logPE_stride`, i < PE_size, with a
 * user's symmetric `pSync` (and `pWrk` for reductions).
 *
 * The pSync is the synchronisation workspace, as in SGI's and Cray's SHMEM: its first
 * PSYNC_ROUNDS words are the dissemination counters of the set's syncs (an AMO add of 2^32 per
 * signal, consumed by the PE it signals), and `collect`'s size word follows; it holds SYNC_VALUE
 * again when the call returns. As the specification requires, each PE checks its pSync on entry
 * (every word SYNC_VALUE, give or take signals of PEs already in this call) and that every PE of
 * the set passes the same PE_start, logPE_stride, PE_size (and root and counts): either fails
 * with one line naming the PEs and the values. Data moves as in the team collectives; `pWrk` is
 * checked for size but not needed (a reduction gets every PE's block).
 */
export class ShmemActiveSet extends ShmemLocks {
  /** What every element of a pSync holds between calls (SHMEM_SYNC_VALUE). */
  readonly SYNC_VALUE = SYNC_VALUE;
  /**
   * Elements (longs) of a pSync, one size for every call (SHMEM_BARRIER_SYNC_SIZE,
   * SHMEM_SYNC_SIZE, SHMEM_BCAST_SYNC_SIZE, SHMEM_REDUCE_SYNC_SIZE, SHMEM_COLLECT_SYNC_SIZE,
   * SHMEM_ALLTOALL_SYNC_SIZE, SHMEM_ALLTOALLS_SYNC_SIZE): the dissemination counters and
   * collect's size word. One size, so that a pSync sized or initialised by one constant serves
   * a call that needs another's (tests-uh's collects test initialises SHMEM_BCAST_SYNC_SIZE
   * elements of a pSync of SHMEM_COLLECT_SYNC_SIZE); every call checks all of them.
   */
  readonly BARRIER_SYNC_SIZE = PSYNC_ROUNDS + 1;
  readonly SYNC_SIZE = PSYNC_ROUNDS + 1;
  readonly BCAST_SYNC_SIZE = PSYNC_ROUNDS + 1;
  readonly REDUCE_SYNC_SIZE = PSYNC_ROUNDS + 1;
  readonly COLLECT_SYNC_SIZE = PSYNC_ROUNDS + 1;
  readonly ALLTOALL_SYNC_SIZE = PSYNC_ROUNDS + 1;
  readonly ALLTOALLS_SYNC_SIZE = PSYNC_ROUNDS + 1;
  /** The least elements of a reduction's pWrk (SHMEM_REDUCE_MIN_WRKDATA_SIZE); it needs max(nreduce / 2 + 1, this). */
  readonly REDUCE_MIN_WRKDATA_SIZE = 16;

  /** Completes this PE's puts and atomics (the default context's quiet), then synchronises the active set (shmem_barrier). */
  async barrier(PE_start: number, logPE_stride: number, PE_size: number, pSync: Symmetric): Promise<void> {
    const g = this.activeSet('barrier', PE_start, logPE_stride, PE_size, pSync, this.BARRIER_SYNC_SIZE, {});
    await this.quiet();
    await this.disseminate('barrier', g);
  }

  /** Synchronises the PEs of `team` (1.5 shmem_sync, as `teamSync`), or of an active set (1.4 shmem_sync); completes nothing. */
  sync(team: ShmemTeam | null): Promise<void>;
  sync(PE_start: number, logPE_stride: number, PE_size: number, pSync: Symmetric): Promise<void>;
  async sync(...a: unknown[]): Promise<void> {
    if (typeof a[0] !== 'number') {
      await this.disseminate('sync', this.teamGroup('sync', this.checkTeam('sync', 'team', a[0] as ShmemTeam | null), {}, 'teamSync'));
      return;
    }
    const [start, log, size, pSync] = a as [number, number, number, Symmetric];
    await this.disseminate('sync', this.activeSet('sync', start, log, size, pSync, this.SYNC_SIZE, {}));
  }

  /** `nelems` 4-byte elements of `source` on the set's PE `PE_root` to `dest` on the others (shmem_broadcast32); the root's `dest` is left alone. */
  async broadcast32(dest: Symmetric, source: Symmetric, nelems: number, PE_root: number, PE_start: number, logPE_stride: number, PE_size: number, pSync: Symmetric): Promise<void> {
    return this.broadcastSet('broadcast32', 4, dest, source, nelems, PE_root, PE_start, logPE_stride, PE_size, pSync);
  }
  /** As `broadcast32`, 8-byte elements (shmem_broadcast64). */
  async broadcast64(dest: Symmetric, source: Symmetric, nelems: number, PE_root: number, PE_start: number, logPE_stride: number, PE_size: number, pSync: Symmetric): Promise<void> {
    return this.broadcastSet('broadcast64', 8, dest, source, nelems, PE_root, PE_start, logPE_stride, PE_size, pSync);
  }
  /** Concatenates every set PE's `nelems` 4-byte elements (counts may differ) into `dest` on each, in set order (shmem_collect32). */
  async collect32(dest: Symmetric, source: Symmetric, nelems: number, PE_start: number, logPE_stride: number, PE_size: number, pSync: Symmetric): Promise<void> {
    return this.collectSet('collect32', 4, false, dest, source, nelems, PE_start, logPE_stride, PE_size, pSync);
  }
  /** As `collect32`, 8-byte elements (shmem_collect64). */
  async collect64(dest: Symmetric, source: Symmetric, nelems: number, PE_start: number, logPE_stride: number, PE_size: number, pSync: Symmetric): Promise<void> {
    return this.collectSet('collect64', 8, false, dest, source, nelems, PE_start, logPE_stride, PE_size, pSync);
  }
  /** Concatenates every set PE's `nelems` 4-byte elements (the same count everywhere) into `dest` on each (shmem_fcollect32). */
  async fcollect32(dest: Symmetric, source: Symmetric, nelems: number, PE_start: number, logPE_stride: number, PE_size: number, pSync: Symmetric): Promise<void> {
    return this.collectSet('fcollect32', 4, true, dest, source, nelems, PE_start, logPE_stride, PE_size, pSync);
  }
  /** As `fcollect32`, 8-byte elements (shmem_fcollect64). */
  async fcollect64(dest: Symmetric, source: Symmetric, nelems: number, PE_start: number, logPE_stride: number, PE_size: number, pSync: Symmetric): Promise<void> {
    return this.collectSet('fcollect64', 8, true, dest, source, nelems, PE_start, logPE_stride, PE_size, pSync);
  }

  /** Block j (`nelems` 4-byte elements) of `source` to block `me` of `dest` on the set's PE j, for every PE j of the set (shmem_alltoall32). */
  async alltoall32(dest: Symmetric, source: Symmetric, nelems: number, PE_start: number, logPE_stride: number, PE_size: number, pSync: Symmetric): Promise<void> {
    return this.alltoallSet('alltoall32', 4, dest, source, nelems, PE_start, logPE_stride, PE_size, pSync);
  }
  /** As `alltoall32`, 8-byte elements (shmem_alltoall64). */
  async alltoall64(dest: Symmetric, source: Symmetric, nelems: number, PE_start: number, logPE_stride: number, PE_size: number, pSync: Symmetric): Promise<void> {
    return this.alltoallSet('alltoall64', 8, dest, source, nelems, PE_start, logPE_stride, PE_size, pSync);
  }
  /** Strided `alltoall32`: on the set's PE j, element (me * nelems + k) * dst of `dest` gets element (j * nelems + k) * sst of `source`, k < nelems (shmem_alltoalls32). */
  async alltoalls32(dest: Symmetric, source: Symmetric, dst: number, sst: number, nelems: number, PE_start: number, logPE_stride: number, PE_size: number, pSync: Symmetric): Promise<void> {
    return this.alltoallsSet('alltoalls32', 4, dest, source, dst, sst, nelems, PE_start, logPE_stride, PE_size, pSync);
  }
  /** As `alltoalls32`, 8-byte elements (shmem_alltoalls64). */
  async alltoalls64(dest: Symmetric, source: Symmetric, dst: number, sst: number, nelems: number, PE_start: number, logPE_stride: number, PE_size: number, pSync: Symmetric): Promise<void> {
    return this.alltoallsSet('alltoalls64', 8, dest, source, dst, sst, nelems, PE_start, logPE_stride, PE_size, pSync);
  }

  // the typed reductions of 1.4 (shmem_TYPE_OP_to_all), with the operators the 1.4 specification
  // gives each type (§9.9.7): and, or, xor on short, int, long, longlong; min and max also on
  // float, double, longdouble; sum and prod also on complexf and complexd. short is int16, int
  // int32, long and longlong int64, float float32, double float64, longdouble the 16-byte
  // longdouble, complexf and complexd pairs of float32 and float64 (real part first)

  /** shmem_int_sum_to_all */
  async intSumToAll(dest: Symmetric, source: Symmetric, nreduce: number, PE_start: number, logPE_stride: number, PE_size: number, pWrk: Symmetric, pSync: Symmetric): Promise<void> {
    return this.toAll('intSumToAll', 'sum', 'int32', dest, source, nreduce, PE_start, logPE_stride, PE_size, pWrk, pSync);
  }
  /** shmem_int_prod_to_all */
  async intProdToAll(dest: Symmetric, source: Symmetric, nreduce: number, PE_start: number, logPE_stride: number, PE_size: number, pWrk: Symmetric, pSync: Symmetric): Promise<void> {
    return this.toAll('intProdToAll', 'prod', 'int32', dest, source, nreduce, PE_start, logPE_stride, PE_size, pWrk, pSync);
  }
  /** shmem_int_min_to_all */
  async intMinToAll(dest: Symmetric, source: Symmetric, nreduce: number, PE_start: number, logPE_stride: number, PE_size: number, pWrk: Symmetric, pSync: Symmetric): Promise<void> {
    return this.toAll('intMinToAll', 'min', 'int32', dest, source, nreduce, PE_start, logPE_stride, PE_size, pWrk, pSync);
  }
  /** shmem_int_max_to_all */
  async intMaxToAll(dest: Symmetric, source: Symmetric, nreduce: number, PE_start: number, logPE_stride: number, PE_size: number, pWrk: Symmetric, pSync: Symmetric): Promise<void> {
    return this.toAll('intMaxToAll', 'max', 'int32', dest, source, nreduce, PE_start, logPE_stride, PE_size, pWrk, pSync);
  }
  /** shmem_int_and_to_all */
  async intAndToAll(dest: Symmetric, source: Symmetric, nreduce: number, PE_start: number, logPE_stride: number, PE_size: number, pWrk: Symmetric, pSync: Symmetric): Promise<void> {
    return this.toAll('intAndToAll', 'and', 'int32', dest, source, nreduce, PE_start, logPE_stride, PE_size, pWrk, pSync);
  }
  /** shmem_int_or_to_all */
  async intOrToAll(dest: Symmetric, source: Symmetric, nreduce: number, PE_start: number, logPE_stride: number, PE_size: number, pWrk: Symmetric, pSync: Symmetric): Promise<void> {
    return this.toAll('intOrToAll', 'or', 'int32', dest, source, nreduce, PE_start, logPE_stride, PE_size, pWrk, pSync);
  }
  /** shmem_int_xor_to_all */
  async intXorToAll(dest: Symmetric, source: Symmetric, nreduce: number, PE_start: number, logPE_stride: number, PE_size: number, pWrk: Symmetric, pSync: Symmetric): Promise<void> {
    return this.toAll('intXorToAll', 'xor', 'int32', dest, source, nreduce, PE_start, logPE_stride, PE_size, pWrk, pSync);
  }
  /** shmem_long_sum_to_all */
  async longSumToAll(dest: Symmetric, source: Symmetric, nreduce: number, PE_start: number, logPE_stride: number, PE_size: number, pWrk: Symmetric, pSync: Symmetric): Promise<void> {
    return this.toAll('longSumToAll', 'sum', 'int64', dest, source, nreduce, PE_start, logPE_stride, PE_size, pWrk, pSync);
  }
  /** shmem_long_prod_to_all */
  async longProdToAll(dest: Symmetric, source: Symmetric, nreduce: number, PE_start: number, logPE_stride: number, PE_size: number, pWrk: Symmetric, pSync: Symmetric): Promise<void> {
    return this.toAll('longProdToAll', 'prod', 'int64', dest, source, nreduce, PE_start, logPE_stride, PE_size, pWrk, pSync);
  }
  /** shmem_long_min_to_all */
  async longMinToAll(dest: Symmetric, source: Symmetric, nreduce: number, PE_start: number, logPE_stride: number, PE_size: number, pWrk: Symmetric, pSync: Symmetric): Promise<void> {
    return this.toAll('longMinToAll', 'min', 'int64', dest, source, nreduce, PE_start, logPE_stride, PE_size, pWrk, pSync);
  }
  /** shmem_long_max_to_all */
  async longMaxToAll(dest: Symmetric, source: Symmetric, nreduce: number, PE_start: number, logPE_stride: number, PE_size: number, pWrk: Symmetric, pSync: Symmetric): Promise<void> {
    return this.toAll('longMaxToAll', 'max', 'int64', dest, source, nreduce, PE_start, logPE_stride, PE_size, pWrk, pSync);
  }
  /** shmem_long_and_to_all */
  async longAndToAll(dest: Symmetric, source: Symmetric, nreduce: number, PE_start: number, logPE_stride: number, PE_size: number, pWrk: Symmetric, pSync: Symmetric): Promise<void> {
    return this.toAll('longAndToAll', 'and', 'int64', dest, source, nreduce, PE_start, logPE_stride, PE_size, pWrk, pSync);
  }
  /** shmem_long_or_to_all */
  async longOrToAll(dest: Symmetric, source: Symmetric, nreduce: number, PE_start: number, logPE_stride: number, PE_size: number, pWrk: Symmetric, pSync: Symmetric): Promise<void> {
    return this.toAll('longOrToAll', 'or', 'int64', dest, source, nreduce, PE_start, logPE_stride, PE_size, pWrk, pSync);
  }
  /** shmem_long_xor_to_all */
  async longXorToAll(dest: Symmetric, source: Symmetric, nreduce: number, PE_start: number, logPE_stride: number, PE_size: number, pWrk: Symmetric, pSync: Symmetric): Promise<void> {
    return this.toAll('longXorToAll', 'xor', 'int64', dest, source, nreduce, PE_start, logPE_stride, PE_size, pWrk, pSync);
  }
  /** shmem_longlong_sum_to_all */
  async longlongSumToAll(dest: Symmetric, source: Symmetric, nreduce: number, PE_start: number, logPE_stride: number, PE_size: number, pWrk: Symmetric, pSync: Symmetric): Promise<void> {
    return this.toAll('longlongSumToAll', 'sum', 'int64', dest, source, nreduce, PE_start, logPE_stride, PE_size, pWrk, pSync);
  }
  /** shmem_longlong_prod_to_all */
  async longlongProdToAll(dest: Symmetric, source: Symmetric, nreduce: number, PE_start: number, logPE_stride: number, PE_size: number, pWrk: Symmetric, pSync: Symmetric): Promise<void> {
    return this.toAll('longlongProdToAll', 'prod', 'int64', dest, source, nreduce, PE_start, logPE_stride, PE_size, pWrk, pSync);
  }
  /** shmem_longlong_min_to_all */
  async longlongMinToAll(dest: Symmetric, source: Symmetric, nreduce: number, PE_start: number, logPE_stride: number, PE_size: number, pWrk: Symmetric, pSync: Symmetric): Promise<void> {
    return this.toAll('longlongMinToAll', 'min', 'int64', dest, source, nreduce, PE_start, logPE_stride, PE_size, pWrk, pSync);
  }
  /** shmem_longlong_max_to_all */
  async longlongMaxToAll(dest: Symmetric, source: Symmetric, nreduce: number, PE_start: number, logPE_stride: number, PE_size: number, pWrk: Symmetric, pSync: Symmetric): Promise<void> {
    return this.toAll('longlongMaxToAll', 'max', 'int64', dest, source, nreduce, PE_start, logPE_stride, PE_size, pWrk, pSync);
  }
  /** shmem_longlong_and_to_all */
  async longlongAndToAll(dest: Symmetric, source: Symmetric, nreduce: number, PE_start: number, logPE_stride: number, PE_size: number, pWrk: Symmetric, pSync: Symmetric): Promise<void> {
    return this.toAll('longlongAndToAll', 'and', 'int64', dest, source, nreduce, PE_start, logPE_stride, PE_size, pWrk, pSync);
  }
  /** shmem_longlong_or_to_all */
  async longlongOrToAll(dest: Symmetric, source: Symmetric, nreduce: number, PE_start: number, logPE_stride: number, PE_size: number, pWrk: Symmetric, pSync: Symmetric): Promise<void> {
    return this.toAll('longlongOrToAll', 'or', 'int64', dest, source, nreduce, PE_start, logPE_stride, PE_size, pWrk, pSync);
  }
  /** shmem_longlong_xor_to_all */
  async longlongXorToAll(dest: Symmetric, source: Symmetric, nreduce: number, PE_start: number, logPE_stride: number, PE_size: number, pWrk: Symmetric, pSync: Symmetric): Promise<void> {
    return this.toAll('longlongXorToAll', 'xor', 'int64', dest, source, nreduce, PE_start, logPE_stride, PE_size, pWrk, pSync);
  }
  /** shmem_double_sum_to_all */
  async doubleSumToAll(dest: Symmetric, source: Symmetric, nreduce: number, PE_start: number, logPE_stride: number, PE_size: number, pWrk: Symmetric, pSync: Symmetric): Promise<void> {
    return this.toAll('doubleSumToAll', 'sum', 'float64', dest, source, nreduce, PE_start, logPE_stride, PE_size, pWrk, pSync);
  }
  /** shmem_double_prod_to_all */
  async doubleProdToAll(dest: Symmetric, source: Symmetric, nreduce: number, PE_start: number, logPE_stride: number, PE_size: number, pWrk: Symmetric, pSync: Symmetric): Promise<void> {
    return this.toAll('doubleProdToAll', 'prod', 'float64', dest, source, nreduce, PE_start, logPE_stride, PE_size, pWrk, pSync);
  }
  /** shmem_double_min_to_all */
  async doubleMinToAll(dest: Symmetric, source: Symmetric, nreduce: number, PE_start: number, logPE_stride: number, PE_size: number, pWrk: Symmetric, pSync: Symmetric): Promise<void> {
    return this.toAll('doubleMinToAll', 'min', 'float64', dest, source, nreduce, PE_start, logPE_stride, PE_size, pWrk, pSync);
  }
  /** shmem_double_max_to_all */
  async doubleMaxToAll(dest: Symmetric, source: Symmetric, nreduce: number, PE_start: number, logPE_stride: number, PE_size: number, pWrk: Symmetric, pSync: Symmetric): Promise<void> {
    return this.toAll('doubleMaxToAll', 'max', 'float64', dest, source, nreduce, PE_start, logPE_stride, PE_size, pWrk, pSync);
  }
  /** shmem_short_sum_to_all */
  async shortSumToAll(dest: Symmetric, source: Symmetric, nreduce: number, PE_start: number, logPE_stride: number, PE_size: number, pWrk: Symmetric, pSync: Symmetric): Promise<void> {
    return this.toAll('shortSumToAll', 'sum', 'int16', dest, source, nreduce, PE_start, logPE_stride, PE_size, pWrk, pSync);
  }
  /** shmem_short_prod_to_all */
  async shortProdToAll(dest: Symmetric, source: Symmetric, nreduce: number, PE_start: number, logPE_stride: number, PE_size: number, pWrk: Symmetric, pSync: Symmetric): Promise<void> {
    return this.toAll('shortProdToAll', 'prod', 'int16', dest, source, nreduce, PE_start, logPE_stride, PE_size, pWrk, pSync);
  }
  /** shmem_short_min_to_all */
  async shortMinToAll(dest: Symmetric, source: Symmetric, nreduce: number, PE_start: number, logPE_stride: number, PE_size: number, pWrk: Symmetric, pSync: Symmetric): Promise<void> {
    return this.toAll('shortMinToAll', 'min', 'int16', dest, source, nreduce, PE_start, logPE_stride, PE_size, pWrk, pSync);
  }
  /** shmem_short_max_to_all */
  async shortMaxToAll(dest: Symmetric, source: Symmetric, nreduce: number, PE_start: number, logPE_stride: number, PE_size: number, pWrk: Symmetric, pSync: Symmetric): Promise<void> {
    return this.toAll('shortMaxToAll', 'max', 'int16', dest, source, nreduce, PE_start, logPE_stride, PE_size, pWrk, pSync);
  }
  /** shmem_short_and_to_all */
  async shortAndToAll(dest: Symmetric, source: Symmetric, nreduce: number, PE_start: number, logPE_stride: number, PE_size: number, pWrk: Symmetric, pSync: Symmetric): Promise<void> {
    return this.toAll('shortAndToAll', 'and', 'int16', dest, source, nreduce, PE_start, logPE_stride, PE_size, pWrk, pSync);
  }
  /** shmem_short_or_to_all */
  async shortOrToAll(dest: Symmetric, source: Symmetric, nreduce: number, PE_start: number, logPE_stride: number, PE_size: number, pWrk: Symmetric, pSync: Symmetric): Promise<void> {
    return this.toAll('shortOrToAll', 'or', 'int16', dest, source, nreduce, PE_start, logPE_stride, PE_size, pWrk, pSync);
  }
  /** shmem_short_xor_to_all */
  async shortXorToAll(dest: Symmetric, source: Symmetric, nreduce: number, PE_start: number, logPE_stride: number, PE_size: number, pWrk: Symmetric, pSync: Symmetric): Promise<void> {
    return this.toAll('shortXorToAll', 'xor', 'int16', dest, source, nreduce, PE_start, logPE_stride, PE_size, pWrk, pSync);
  }
  /** shmem_float_sum_to_all */
  async floatSumToAll(dest: Symmetric, source: Symmetric, nreduce: number, PE_start: number, logPE_stride: number, PE_size: number, pWrk: Symmetric, pSync: Symmetric): Promise<void> {
    return this.toAll('floatSumToAll', 'sum', 'float32', dest, source, nreduce, PE_start, logPE_stride, PE_size, pWrk, pSync);
  }
  /** shmem_float_prod_to_all */
  async floatProdToAll(dest: Symmetric, source: Symmetric, nreduce: number, PE_start: number, logPE_stride: number, PE_size: number, pWrk: Symmetric, pSync: Symmetric): Promise<void> {
    return this.toAll('floatProdToAll', 'prod', 'float32', dest, source, nreduce, PE_start, logPE_stride, PE_size, pWrk, pSync);
  }
  /** shmem_float_min_to_all */
  async floatMinToAll(dest: Symmetric, source: Symmetric, nreduce: number, PE_start: number, logPE_stride: number, PE_size: number, pWrk: Symmetric, pSync: Symmetric): Promise<void> {
    return this.toAll('floatMinToAll', 'min', 'float32', dest, source, nreduce, PE_start, logPE_stride, PE_size, pWrk, pSync);
  }
  /** shmem_float_max_to_all */
  async floatMaxToAll(dest: Symmetric, source: Symmetric, nreduce: number, PE_start: number, logPE_stride: number, PE_size: number, pWrk: Symmetric, pSync: Symmetric): Promise<void> {
    return this.toAll('floatMaxToAll', 'max', 'float32', dest, source, nreduce, PE_start, logPE_stride, PE_size, pWrk, pSync);
  }
  /** shmem_longdouble_sum_to_all (16-byte elements, each a double and 8 bytes of padding: see ReduceElemType) */
  async longdoubleSumToAll(dest: Symmetric, source: Symmetric, nreduce: number, PE_start: number, logPE_stride: number, PE_size: number, pWrk: Symmetric, pSync: Symmetric): Promise<void> {
    return this.toAll('longdoubleSumToAll', 'sum', 'longdouble', dest, source, nreduce, PE_start, logPE_stride, PE_size, pWrk, pSync);
  }
  /** shmem_longdouble_prod_to_all (16-byte elements, each a double and 8 bytes of padding: see ReduceElemType) */
  async longdoubleProdToAll(dest: Symmetric, source: Symmetric, nreduce: number, PE_start: number, logPE_stride: number, PE_size: number, pWrk: Symmetric, pSync: Symmetric): Promise<void> {
    return this.toAll('longdoubleProdToAll', 'prod', 'longdouble', dest, source, nreduce, PE_start, logPE_stride, PE_size, pWrk, pSync);
  }
  /** shmem_longdouble_min_to_all (16-byte elements, each a double and 8 bytes of padding: see ReduceElemType) */
  async longdoubleMinToAll(dest: Symmetric, source: Symmetric, nreduce: number, PE_start: number, logPE_stride: number, PE_size: number, pWrk: Symmetric, pSync: Symmetric): Promise<void> {
    return this.toAll('longdoubleMinToAll', 'min', 'longdouble', dest, source, nreduce, PE_start, logPE_stride, PE_size, pWrk, pSync);
  }
  /** shmem_longdouble_max_to_all (16-byte elements, each a double and 8 bytes of padding: see ReduceElemType) */
  async longdoubleMaxToAll(dest: Symmetric, source: Symmetric, nreduce: number, PE_start: number, logPE_stride: number, PE_size: number, pWrk: Symmetric, pSync: Symmetric): Promise<void> {
    return this.toAll('longdoubleMaxToAll', 'max', 'longdouble', dest, source, nreduce, PE_start, logPE_stride, PE_size, pWrk, pSync);
  }
  /** shmem_complexf_sum_to_all */
  async complexfSumToAll(dest: Symmetric, source: Symmetric, nreduce: number, PE_start: number, logPE_stride: number, PE_size: number, pWrk: Symmetric, pSync: Symmetric): Promise<void> {
    return this.toAll('complexfSumToAll', 'sum', 'complexf', dest, source, nreduce, PE_start, logPE_stride, PE_size, pWrk, pSync);
  }
  /** shmem_complexf_prod_to_all */
  async complexfProdToAll(dest: Symmetric, source: Symmetric, nreduce: number, PE_start: number, logPE_stride: number, PE_size: number, pWrk: Symmetric, pSync: Symmetric): Promise<void> {
    return this.toAll('complexfProdToAll', 'prod', 'complexf', dest, source, nreduce, PE_start, logPE_stride, PE_size, pWrk, pSync);
  }
  /** shmem_complexd_sum_to_all */
  async complexdSumToAll(dest: Symmetric, source: Symmetric, nreduce: number, PE_start: number, logPE_stride: number, PE_size: number, pWrk: Symmetric, pSync: Symmetric): Promise<void> {
    return this.toAll('complexdSumToAll', 'sum', 'complexd', dest, source, nreduce, PE_start, logPE_stride, PE_size, pWrk, pSync);
  }
  /** shmem_complexd_prod_to_all */
  async complexdProdToAll(dest: Symmetric, source: Symmetric, nreduce: number, PE_start: number, logPE_stride: number, PE_size: number, pWrk: Symmetric, pSync: Symmetric): Promise<void> {
    return this.toAll('complexdProdToAll', 'prod', 'complexd', dest, source, nreduce, PE_start, logPE_stride, PE_size, pWrk, pSync);
  }

  private async broadcastSet(call: string, e: number, dest: Symmetric, source: Symmetric, nelems: number, root: number, start: number, log: number, size: number, pSync: Symmetric): Promise<void> {
    this.checkCount(call, 'nelems', nelems);
    if (!Number.isInteger(root) || root < 0 || root >= size) throw new ShmemError(`${call}: PE_root=${root} is not a PE of the active set (0..${size - 1}, numbers within the set)`);
    this.checkSetBlock(call, 'dest', dest, nelems * e, e);
    this.checkSetBlock(call, 'source', source, nelems * e, e);
    const g = this.activeSet(call, start, log, size, pSync, this.BCAST_SYNC_SIZE, { PE_root: root, nelems });
    await this.groupBroadcast(call, g, dest, source, nelems * e, root, false);
  }

  private async collectSet(call: string, e: number, fixed: boolean, dest: Symmetric, source: Symmetric, nelems: number, start: number, log: number, size: number, pSync: Symmetric): Promise<void> {
    this.checkCount(call, 'nelems', nelems);
    this.checkSetBlock(call, 'source', source, nelems * e, e);
    if (fixed) this.checkSetBlock(call, 'dest', dest, nelems * e * size, e);
    else if (dest !== null) {
      // checked against the total once the sizes are in; null is fine when every PE gives nothing (Annex C)
      this.checkSym(call, 'dest', dest);
      if (dest.offset % e !== 0) throw new ShmemError(`${call}: dest is at byte offset ${dest.offset}, not aligned to ${e}-byte elements`);
    }
    const g = this.activeSet(call, start, log, size, pSync, this.COLLECT_SYNC_SIZE, fixed ? { nelems } : {});
    if (fixed) await this.groupFcollect(call, g, dest, source, nelems * e);
    else await this.groupCollect(call, g, dest, source, nelems * e);
  }

  private async alltoallSet(call: string, e: number, dest: Symmetric, source: Symmetric, nelems: number, start: number, log: number, size: number, pSync: Symmetric): Promise<void> {
    this.checkCount(call, 'nelems', nelems);
    this.checkSetBlock(call, 'dest', dest, nelems * e * size, e);
    this.checkSetBlock(call, 'source', source, nelems * e * size, e);
    const g = this.activeSet(call, start, log, size, pSync, this.ALLTOALL_SYNC_SIZE, { nelems });
    await this.groupAlltoall(call, g, dest, source, nelems * e);
  }

  private async alltoallsSet(call: string, e: number, dest: Symmetric, source: Symmetric, dst: number, sst: number, nelems: number, start: number, log: number, size: number, pSync: Symmetric): Promise<void> {
    this.checkStride(call, dst, sst, nelems);
    // the last element each side touches: block size-1, element nelems-1
    const span = (st: number): number => (nelems === 0 ? 0 : ((size * nelems - 1) * st + 1) * e);
    this.checkSetBlock(call, 'dest', dest, span(dst), e);
    this.checkSetBlock(call, 'source', source, span(sst), e);
    const g = this.activeSet(call, start, log, size, pSync, this.ALLTOALLS_SYNC_SIZE, { dst, sst, nelems });
    await this.groupAlltoalls(call, g, dest, source, dst, sst, nelems, e);
  }

  private async toAll(call: string, op: ReduceOp, type: ReduceElemType, dest: Symmetric, source: Symmetric, nreduce: number, start: number, log: number, size: number, pWrk: Symmetric, pSync: Symmetric): Promise<void> {
    const e = REDUCE_BYTES[type];
    checkOpType(call, op, type);
    this.checkCount(call, 'nreduce', nreduce);
    this.checkSetBlock(call, 'dest', dest, nreduce * e, REDUCE_ALIGN[type]);
    this.checkSetBlock(call, 'source', source, nreduce * e, REDUCE_ALIGN[type]);
    const need = Math.max(Math.floor(nreduce / 2) + 1, this.REDUCE_MIN_WRKDATA_SIZE);
    this.checkSym(call, 'pWrk', pWrk);
    if (pWrk.bytes < need * e) throw new ShmemError(`${call}: pWrk has ${Math.floor(pWrk.bytes / e)} elements, fewer than the ${need} needed (max(nreduce / 2 + 1, REDUCE_MIN_WRKDATA_SIZE))`);
    const g = this.activeSet(call, start, log, size, pSync, this.REDUCE_SYNC_SIZE, { nreduce });
    await this.groupReduce(call, g, op, type, dest, source, nreduce, e);
  }

  /** Checks a block of `bytes` at a symmetric `s`, aligned to `align` bytes (its elements'); 0 bytes may be any address (Annex C). */
  private checkSetBlock(call: string, arg: string, s: Symmetric, bytes: number, align: number): void {
    if (bytes === 0) return;
    this.checkSym(call, arg, s);
    this.checkRange(call, arg, s, bytes);
    if (s.offset % align !== 0) throw new ShmemError(`${call}: ${arg} is at byte offset ${s.offset}, not aligned to ${align}-byte elements`);
  }

  /**
   * The active set PE_start, logPE_stride, PE_size of `call` as a group whose counters are the
   * first words of `pSync` (`words` longs): checks the triplet, that this PE is in it, the pSync
   * and its values, and that every PE of the set passes the same triplet and `args`.
   */
  private activeSet(call: string, start: number, log: number, size: number, pSync: Symmetric, words: number, args: Readonly<Record<string, number>>): Group {
    const npes = this.dmapp.npes;
    for (const [k, v] of [['PE_start', start], ['logPE_stride', log], ['PE_size', size]] as const) {
      if (!Number.isInteger(v) || v < (k === 'PE_size' ? 1 : 0)) throw new ShmemError(`${call}: ${k}=${v} must be a ${k === 'PE_size' ? 'positive' : 'non-negative'} integer`);
    }
    const triplet = `PE_start=${start}, logPE_stride=${log}, PE_size=${size}`;
    const stride = size === 1 ? 1 : 2 ** log;
    const last = start + (size - 1) * stride;
    if (last >= npes) throw new ShmemError(`${call}: ${triplet} names PE ${last}, but the PEs are 0..${npes - 1}`);
    const pes = PeSet.strided(start, stride, size);
    const me = pes.index(this.dmapp.pe);
    if (me < 0) throw new ShmemError(`${call}: PE ${this.dmapp.pe} is not in the active set ${triplet} (${pes.describe()})`);
    this.checkSym(call, 'pSync', pSync);
    if (pSync.offset % 8 !== 0) throw new ShmemError(`${call}: pSync is at byte offset ${pSync.offset}, not aligned to the 8-byte long`);
    if (pSync.bytes < 8 * words) throw new ShmemError(`${call}: pSync has ${Math.floor(pSync.bytes / 8)} longs, fewer than the ${words} this call needs`);
    const view = new DataView(pSync.segment.local.buffer, pSync.segment.local.byteOffset + pSync.offset, 8 * words);
    for (let k = 0; k < words; k++) {
      const v = view.getBigInt64(8 * k, true);
      // a counter may already hold signals of PEs ahead in this call; the size word may not
      const d = v - SYNC_VALUE;
      if (k < PSYNC_ROUNDS ? d < 0n || d % PSYNC_SIGNAL !== 0n : d !== 0n) {
        throw new ShmemError(`${call}: pSync[${k}]=${v} on PE ${this.dmapp.pe} is not SYNC_VALUE (${SYNC_VALUE}): set every element to SYNC_VALUE before first use, and reuse a pSync only when no PE still uses it`);
      }
    }
    const key = `pSync@${pSync.segment.id}:${pSync.offset}`;
    this.job.agreement.enter(key, `the pSync at segment ${pSync.segment.id} byte ${pSync.offset}`, pes, this.dmapp.pe, { call, args: { PE_start: start, logPE_stride: log, PE_size: size, ...args } });
    return { label: `the active set ${triplet}`, pes, me, seg: pSync.segment, counters: pSync.offset, scratch: pSync.offset + 8 * PSYNC_ROUNDS, nextEpoch: null };
  }
}
