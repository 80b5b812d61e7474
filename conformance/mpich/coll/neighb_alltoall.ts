// MPICH test/mpi/coll/neighb_alltoall.c: MPI_Neighbor_alltoall on a non-periodic 1-D grid: -(r+1)
// to the left neighbour, r+1 to the right.
import type { MTest, MTestResult } from '../mtest.ts';
import { checker, DEADBEEF } from './neighb-common.ts';

export default async function neighbAlltoall(mt: MTest): Promise<MTestResult> {
  const { mpi } = mt;
  const { check, errs } = checker(mt);
  const wrank = mpi.rank;
  const wsize = mpi.size;
  const sendbuf = Int32Array.of(-(wrank + 1), wrank + 1);
  const recvbuf = Int32Array.of(DEADBEEF, DEADBEEF);
  const cart = (await mpi.cartCreate([wsize], [false], false))!;
  await cart.neighborAlltoall(sendbuf, recvbuf);
  if (wrank === 0) check(recvbuf[0] === DEADBEEF, 'recvbuf[0] == 0xdeadbeef');
  else check(recvbuf[0] === wrank, 'recvbuf[0] == wrank');
  if (wrank === wsize - 1) check(recvbuf[1] === DEADBEEF, 'recvbuf[1] == 0xdeadbeef');
  else check(recvbuf[1] === -(wrank + 2), 'recvbuf[1] == -(wrank + 2)');
  await cart.free();
  return mt.finalize(errs());
}
