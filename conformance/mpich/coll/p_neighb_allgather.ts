// MPICH test/mpi/coll/p_neighb_allgather.c: MPI_Neighbor_allgather_init (persistent, MPI 4.0), started and waited ten times,
// each time with the checks of neighb_allgather.c: on a non-periodic 1-D grid: each
// rank gets its left and right neighbours' ranks; the edges' missing neighbours leave the buffer.
import type { MTest, MTestResult } from '../mtest.ts';
import { checker, DEADBEEF } from './neighb-common.ts';

export default async function pNeighbAllgather(mt: MTest): Promise<MTestResult> {
  const { mpi } = mt;
  const { check, errs } = checker(mt);
  const wrank = mpi.rank;
  const wsize = mpi.size;
  const recvbuf = Int32Array.of(DEADBEEF, DEADBEEF);
  // (wrap)--> 0 <--> 1 <--> ... <--> p-1 <--(wrap)
  const cart = (await mpi.cartCreate([wsize], [false], false))!;
  const sendbuf = Int32Array.of(wrank);
  // the info argument of the original is MPI_INFO_NULL-like here: phit's persistent collectives take no hints
  const req = cart.neighborAllgatherInit(sendbuf, recvbuf);
  for (let i = 0; i < 10; ++i) {
    mpi.start(req);
    await mpi.wait(req);
    if (wrank === 0) check(recvbuf[0] === DEADBEEF, 'recvbuf[0] == 0xdeadbeef');
    else check(recvbuf[0] === wrank - 1, 'recvbuf[0] == wrank - 1');
    if (wrank === wsize - 1) check(recvbuf[1] === DEADBEEF, 'recvbuf[1] == 0xdeadbeef');
    else check(recvbuf[1] === wrank + 1, 'recvbuf[1] == wrank + 1');
  }
  mpi.requestFree(req);
  await cart.free();
  return mt.finalize(errs());
}
