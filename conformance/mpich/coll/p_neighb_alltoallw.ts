// MPICH test/mpi/coll/p_neighb_alltoallw.c: MPI_Neighbor_alltoallw_init (persistent, MPI 4.0), started and waited ten times,
// each time with the checks of neighb_alltoallw.c: on a non-periodic 1-D grid, the
// received blocks in swapped slots (receive byte displacements 4, 0).
import type { MTest, MTestResult } from '../mtest.ts';
import { checker, DEADBEEF } from './neighb-common.ts';

export default async function pNeighbAlltoallw(mt: MTest): Promise<MTestResult> {
  const { mpi } = mt;
  const { check, errs } = checker(mt);
  const wrank = mpi.rank;
  const wsize = mpi.size;
  const recvbuf = Int32Array.of(DEADBEEF, DEADBEEF);
  const sendcounts = [1, 1];
  const recvcounts = [1, 1];
  const sdispls = [0, 4];
  const rdispls = [4, 0];
  const sendtypes = [mpi.INT, mpi.INT];
  const recvtypes = [mpi.INT, mpi.INT];
  // (wrap)--> 0 <--> 1 <--> ... <--> p-1 <--(wrap)
  const cart = (await mpi.cartCreate([wsize], [false], false))!;
  const sendbuf = Int32Array.of(-(wrank + 1), wrank + 1);
  // one send to each neighbour (rank-1 and rank+1) and one receive from each, in opposite slots
  // the info argument of the original is MPI_INFO_NULL-like here: phit's persistent collectives take no hints
  const req = cart.neighborAlltoallwInit(sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts, rdispls, recvtypes);
  for (let i = 0; i < 10; ++i) {
    mpi.start(req);
    await mpi.wait(req);
    if (wrank === 0) check(recvbuf[1] === DEADBEEF, 'recvbuf[1] == 0xdeadbeef');
    else check(recvbuf[1] === wrank, 'recvbuf[1] == wrank');
    if (wrank === wsize - 1) check(recvbuf[0] === DEADBEEF, 'recvbuf[0] == 0xdeadbeef');
    else check(recvbuf[0] === -(wrank + 2), 'recvbuf[0] == -(wrank + 2)');
  }
  mpi.requestFree(req);
  await cart.free();
  return mt.finalize(errs());
}
