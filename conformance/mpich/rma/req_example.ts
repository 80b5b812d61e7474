// MPICH test/mpi/rma/req_example.c (and req_example_shm, -DUSE_WIN_ALLOC_SHM: the hint
// alloc_shm=true in place of false): the request-based RMA example of the MPI standard. In a
// lock_all epoch on an MPI_Win_allocate window, 100 steps each MPI_Rget 1000 doubles of the next
// rank's window, wait, compute on them and MPI_Rput them back from one of ten buffers, a buffer
// reused once MPI_Waitany says its put completed locally. The test checks nothing but completion.
import type { Request } from '../../../runtime/mpi/mpi.ts';
import type { MTest, MTestResult } from '../mtest.ts';
import { assert } from '../mtest.ts';

const NSTEPS = 100;
const N = 1000;
const M = 10;

function reqExampleBuild(allocShm: boolean): (mt: MTest) => Promise<MTestResult> {
  return async (mt) => {
    const { mpi } = mt;
    const errors = 0;
    const rank = mpi.rank;
    const nproc = mpi.size;
    let junk = 0;
    const compute = (step: number, data: Float64Array): void => {
      for (let i = 0; i < N; i++) junk += data[i]! * step;
    };
    const putReq: (Request | null)[] = new Array<Request | null>(M).fill(null);
    const data = Array.from({ length: M }, () => new Float64Array(N));
    assert(M < NSTEPS, 'M < NSTEPS');
    const winInfo = mpi.infoCreate();
    winInfo.set('alloc_shm', allocShm ? 'true' : 'false');
    const { win } = await mpi.winAllocate(NSTEPS * N * 8, 8, winInfo);
    await win.lockAll(0);
    for (let i = 0; i < NSTEPS; i++) {
      const target = (rank + 1) % nproc;
      const j = i < M ? i : (await mpi.waitAny(putReq)).index;
      const getReq = await win.rget(data[j]!, N, mpi.DOUBLE, target, i * N, N, mpi.DOUBLE);
      await mpi.wait(getReq);
      compute(i, data[j]!);
      putReq[j] = await win.rput(data[j]!, N, mpi.DOUBLE, target, i * N, N, mpi.DOUBLE);
    }
    await mpi.waitAll(putReq);
    await win.unlockAll();
    await win.free();
    winInfo.free();
    mt.printfMsg(1, `junk ${junk}`);
    return mt.finalize(errors);
  };
}

export default reqExampleBuild(false);
/** req_example_shm. */
export const reqExampleShm = reqExampleBuild(true);
