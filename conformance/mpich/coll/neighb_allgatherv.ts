// MPICH test/mpi/coll/neighb_allgatherv.c: MPI_Neighbor_allgatherv on a non-periodic 1-D grid, the
// neighbours' ranks landing in swapped slots (displacements 1, 0).
import type { MTest, MTestResult } from '../mtest.ts';
import { checker, DEADBEEF } from './neighb-common.ts';

export default async function neighbAllgatherv(mt: MTest): Promise<MTestResult> {
  const { mpi } = mt;
  const { check, errs } = checker(mt);
  const wrank = mpi.rank;
  const wsize = mpi.size;
  const recvbuf = Int32Array.of(DEADBEEF, DEADBEEF);
  const recvcounts = [1, 1];
  const displs = [1, 0];
  const cart = (await mpi.cartCreate([wsize], [false], false))!;
  const sendbuf = Int32Array.of(wrank);
  await cart.neighborAllgatherv(sendbuf, recvbuf, recvcounts, displs);
  if (wrank === 0) check(recvbuf[1] === DEADBEEF, 'recvbuf[1] == 0xdeadbeef');
  else check(recvbuf[1] === wrank - 1, 'recvbuf[1] == wrank - 1');
  if (wrank === wsize - 1) check(recvbuf[0] === DEADBEEF, 'recvbuf[0] == 0xdeadbeef');
  else check(recvbuf[0] === wrank + 1, 'recvbuf[0] == wrank + 1');
  await cart.free();
  return mt.finalize(errs());
}
