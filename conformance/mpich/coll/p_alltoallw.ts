// MPICH test/mpi/coll/p_alltoallw.c: alltoallw1.c's transpose of a 20 x 30 matrix of floats
// distributed by rows, with MPI_Alltoallw_init (persistent, MPI 4.0; started and waited ten
// times; its info argument carries no hints) in place of MPI_Alltoallw.
import type { MTest, MTestResult } from '../mtest.ts';
import { transposeTest, type AlltoallwCall } from './alltoallw1.ts';

const persistent: AlltoallwCall = async (comm, ...args) => {
  const req = comm.alltoallwInit(...args);
  for (let i = 0; i < 10; ++i) {
    comm.start(req);
    await comm.wait(req);
  }
  comm.requestFree(req);
};

export default function pAlltoallw(mt: MTest): Promise<MTestResult> {
  return transposeTest(mt, persistent);
}
