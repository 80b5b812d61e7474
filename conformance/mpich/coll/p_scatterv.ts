// MPICH test/mpi/coll/p_scatterv.c: scatterv.c's scatter of a Fortran-order matrix to a 2-D grid
// with MPI_Scatterv_init (persistent, MPI 4.0): started ten times, each checked (as in the
// original, only the last start's error count is kept), then an MPI_IN_PLACE request at the root
// started twice. The info argument of the original carries no hints.
import type { MTest, MTestResult } from '../mtest.ts';
import { scattervSetup } from './scatterv.ts';

export default async function pScatterv(mt: MTest): Promise<MTestResult> {
  const { mpi } = mt;
  const { comm2d, nx, ny, recvbuf, sendbuf, sendcounts, scdispls, block, set, check } = await scattervSetup(mt);
  let errs = 0;
  const req1 = comm2d.scattervInit(sendbuf, sendcounts, scdispls, block, recvbuf, nx * ny, mpi.DOUBLE, 0);
  for (let i = 0; i < 10; ++i) {
    set();
    mpi.start(req1);
    await mpi.wait(req1);
    if ((errs = check(false))) mt.printf('Failed to transfer data');
  }
  mpi.requestFree(req1);
  // once more, with MPI_IN_PLACE at the root
  const req2 = comm2d.scattervInit(sendbuf, sendcounts, scdispls, block, mpi.rank === 0 ? mpi.IN_PLACE : recvbuf, nx * ny, mpi.DOUBLE, 0);
  for (let i = 0; i < 2; ++i) {
    set();
    mpi.start(req2);
    await mpi.wait(req2);
    const errsInPlace = check(mpi.rank === 0);
    if (errsInPlace) mt.printf('Failed to transfer data (MPI_IN_PLACE)');
    errs += errsInPlace;
  }
  mpi.requestFree(req2);
  mpi.typeFree(block);
  await comm2d.free();
  return mt.finalize(errs);
}
