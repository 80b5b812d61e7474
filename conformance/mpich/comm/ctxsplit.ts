// MPICH test/mpi/comm/ctxsplit.c: 100,000 splits (each rank joining at random, by C's rand()) and
// frees must not leak context ids; a split with MPI_UNDEFINED gives MPI_COMM_NULL.
import { CRand, type MTest, type MTestResult } from '../mtest.ts';

export default async function ctxsplit(mt: MTest): Promise<MTestResult> {
  const { mpi } = mt;
  let errs = 0;
  const nLoop = 100000;
  const rank = mpi.rank;
  // rand() without srand() starts as srand(1)
  const c = new CRand(1);
  const startTime = mpi.wtime();
  for (let i = 0; i < nLoop; i++) {
    if (rank === 0 && i % 100 === 0) {
      const rate = mpi.wtime() - startTime;
      mt.printfMsg(10, rate > 0 ? `After ${i} (${i / rate})` : `After ${i}`);
    }
    const randval = c.rand();
    if (randval % (rank + 2) === 0) {
      const newcomm = (await mpi.split(1, rank))!;
      await newcomm.free();
    } else {
      const newcomm = await mpi.split(mpi.UNDEFINED, rank);
      if (newcomm !== null) {
        errs++;
        mt.printf('Created a non-null communicator with MPI_UNDEFINED');
      }
    }
  }
  return mt.finalize(errs);
}
