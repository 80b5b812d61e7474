// MPICH test/mpi/rma/mutex_bench.c, built four times with mcs_mutex.c (mcs_mutex.ts): every rank
// takes and gives back one MCS mutex (tail at rank 0) 1000 times, half of the ranks with
// MCS_Mutex_lock, the other half spinning on MCS_Mutex_trylock, so that compare-and-swap and
// fetch-and-op contend for the tail pointer. The test checks nothing but completion (its timing is
// printed only when verbose, which is 0). The builds:
//   mutex_bench              MPI_Win_allocate, hint alloc_shm=false; odd ranks trylock
//   mutex_bench_shared       (USE_WIN_SHARED) the mutex on MPI_Comm_split_type(SHARED) of the
//                            world, its window MPI_Win_allocate_shared
//   mutex_bench_shm          (USE_WIN_ALLOC_SHM) MPI_Win_allocate, hint alloc_shm=true
//   mutex_bench_shm_ordered  (USE_WIN_ALLOC_SHM, USE_CONTIGUOUS_RANK) the same, the lower half
//                            of the ranks trylock
import type { MTest, MTestResult } from '../mtest.ts';
import { McsMutex, type McsWindow } from './mcs_mutex.ts';

const NUM_ITER = 1000;

function mutexBenchBuild(kind: McsWindow, contiguousRank: boolean): (mt: MTest) => Promise<MTestResult> {
  return async (mt) => {
    const { mpi } = mt;
    const rank = mpi.rank;
    const nproc = mpi.size;
    const mtxComm = kind === 'shared' ? await mpi.splitType(mpi.COMM_TYPE_SHARED, rank) : mpi;
    if (!mtxComm) throw new Error('MPI_Comm_split_type gave MPI_COMM_NULL');
    const mcsMtx = await McsMutex.create(mpi, 0, mtxComm, kind);
    await mpi.barrier();
    for (let i = 0; i < NUM_ITER; i++) {
      // combining trylock and lock makes CAS and fetch-and-op contend for the tail pointer
      if (contiguousRank ? rank < nproc / 2 : rank % 2 === 1) {
        while (!(await mcsMtx.trylock()));
      } else {
        await mcsMtx.lock();
      }
      await mcsMtx.unlock();
    }
    await mpi.barrier();
    await mcsMtx.free();
    if (mtxComm !== mpi) await mtxComm.free();
    return mt.finalize(0);
  };
}

/** mutex_bench. */
export const mutexBench = mutexBenchBuild('no_alloc_shm', false);
/** mutex_bench_shared. */
export const mutexBenchShared = mutexBenchBuild('shared', false);
/** mutex_bench_shm. */
export const mutexBenchShm = mutexBenchBuild('alloc_shm', false);
/** mutex_bench_shm_ordered. */
export const mutexBenchShmOrdered = mutexBenchBuild('alloc_shm', true);
