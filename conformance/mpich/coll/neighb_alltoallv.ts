// MPICH test/mpi/coll/neighb_alltoallv.c: MPI_Neighbor_alltoallv on a non-periodic 1-D grid, the
// received blocks in swapped slots (receive displacements 1, 0).
import type { MTest, MTestResult } from '../mtest.ts';
import { checker, DEADBEEF } from './neighb-common.ts';

export default async function neighbAlltoallv(mt: MTest): Promise<MTestResult> {
  const { mpi } = mt;
  const { check, errs } = checker(mt);
  const wrank = mpi.rank;
  const wsize = mpi.size;
  const recvbuf = Int32Array.of(DEADBEEF, DEADBEEF);
  const sendcounts = [1, 1];
  const recvcounts = [1, 1];
  const sdispls = [0, 1];
  const rdispls = [1, 0];
  const cart = (await mpi.cartCreate([wsize], [false], false))!;
  const sendbuf = Int32Array.of(-(wrank + 1), wrank + 1);
  await cart.neighborAlltoallv(sendbuf, sendcounts, sdispls, recvbuf, recvcounts, rdispls);
  if (wrank === 0) check(recvbuf[1] === DEADBEEF, 'recvbuf[1] == 0xdeadbeef');
  else check(recvbuf[1] === wrank, 'recvbuf[1] == wrank');
  if (wrank === wsize - 1) check(recvbuf[0] === DEADBEEF, 'recvbuf[0] == 0xdeadbeef');
  else check(recvbuf[0] === -(wrank + 2), 'recvbuf[0] == -(wrank + 2)');
  await cart.free();
  return mt.finalize(errs());
}
