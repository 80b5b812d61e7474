// MPICH test/mpi/rma/rputget.c: rank 1 moves two blocks of N ints (N = 20, 2500) between an
// indexed-block origin (a gap of one int) and an indexed-block target in rank 0's MPI_Win_allocate
// window, by MPI_Put, MPI_Get, MPI_Rput and MPI_Rget (waiting for the request) in a lock_all epoch,
// then flushes. Like the C source, it checks no value (its "TODO: verify results"): it passes when
// every call completes.
import type { MTest, MTestResult } from '../mtest.ts';

type OpKind = 'PUT' | 'GET' | 'RPUT' | 'RGET';

export default async function rputget(mt: MTest): Promise<MTestResult> {
  const { mpi } = mt;
  let errs = 0;
  const rank = mpi.rank;
  const nproc = mpi.size;
  if (nproc !== 2) {
    if (rank === 0) mt.printf('Error: must be run with two processes');
    throw new Error('MPI_Abort: must be run with two processes');
  }
  const testRputget = async (opType: OpKind, N: number): Promise<number> => {
    const bufSize = rank === 0 ? N * 2 * 4 : 0;
    const { win } = await mpi.winAllocate(bufSize, 4, mpi.INFO_NULL);
    await win.lockAll(0);
    await mpi.barrier();
    if (rank === 1) {
      // origin
      const origin = new Int32Array(N * 2 + 1);
      for (let i = 0; i < N; ++i) {
        origin[i] = i;
        origin[N + 1 + i] = N + i;
      }
      const originType = mpi.typeCreateIndexedBlock(2, N, [0, N + 1], mpi.INT);
      const targetType = mpi.typeCreateIndexedBlock(2, N, [0, N], mpi.INT);
      mpi.typeCommit(originType);
      mpi.typeCommit(targetType);
      switch (opType) {
        case 'PUT':
          await win.put(origin, 1, originType, 0, 0, 1, targetType);
          break;
        case 'GET':
          await win.get(origin, 1, originType, 0, 0, 1, targetType);
          break;
        case 'RPUT':
          await mpi.wait(await win.rput(origin, 1, originType, 0, 0, 1, targetType));
          break;
        case 'RGET':
          await mpi.wait(await win.rget(origin, 1, originType, 0, 0, 1, targetType));
          break;
      }
      await win.flush(0);
      mpi.typeFree(targetType);
      mpi.typeFree(originType);
    }
    await mpi.barrier();
    await win.unlockAll();
    await win.free();
    return 0;
  };
  const counts = [20, 2500];
  const ops: OpKind[] = ['PUT', 'GET', 'RPUT', 'RGET'];
  for (let i = 0; i < 2; i++) for (let j = 0; j < 4; j++) errs += await testRputget(ops[j]!, counts[i]!);
  return mt.finalize(errs);
}
