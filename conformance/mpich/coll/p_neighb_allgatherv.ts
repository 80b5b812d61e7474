// MPICH test/mpi/coll/p_neighb_allgatherv.c: MPI_Neighbor_allgatherv_init (persistent, MPI 4.0), started and waited ten times,
// each time with the checks of neighb_allgatherv.c: on a non-periodic 1-D grid, the
// neighbours' ranks landing in swapped slots (displacements 1, 0).
import type { MTest, MTestResult } from '../mtest.ts';
import { checker, DEADBEEF } from './neighb-common.ts';

export default async function pNeighbAllgatherv(mt: MTest): Promise<MTestResult> {
  const { mpi } = mt;
  const { check, errs } = checker(mt);
  const wrank = mpi.rank;
  const wsize = mpi.size;
  const recvbuf = Int32Array.of(DEADBEEF, DEADBEEF);
  const recvcounts = [1, 1];
  const displs = [1, 0];
  const cart = (await mpi.cartCreate([wsize], [false], false))!;
  const sendbuf = Int32Array.of(wrank);
  // the info argument of the original is MPI_INFO_NULL-like here: phit's persistent collectives take no hints
  const req = cart.neighborAllgathervInit(sendbuf, recvbuf, recvcounts, displs);
  for (let i = 0; i < 10; ++i) {
    mpi.start(req);
    await mpi.wait(req);
    if (wrank === 0) check(recvbuf[1] === DEADBEEF, 'recvbuf[1] == 0xdeadbeef');
    else check(recvbuf[1] === wrank - 1, 'recvbuf[1] == wrank - 1');
    if (wrank === wsize - 1) check(recvbuf[0] === DEADBEEF, 'recvbuf[0] == 0xdeadbeef');
    else check(recvbuf[0] === wrank + 1, 'recvbuf[0] == wrank + 1');
  }
  mpi.requestFree(req);
  await cart.free();
  return mt.finalize(errs());
}
