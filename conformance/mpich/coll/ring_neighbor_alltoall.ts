// MPICH test/mpi/coll/ring_neighbor_alltoall.c: MPI_Neighbor_alltoall on a periodic ring of one or
// two ranks, where both neighbours are the same rank (or the rank itself): the blocks must not mix.
import type { MTest, MTestResult } from '../mtest.ts';

export default async function ringNeighborAlltoall(mt: MTest): Promise<MTestResult> {
  const { mpi } = mt;
  const size = mpi.size;
  if (size > 2) throw new Error('run this test with 1 or 2 processes');
  const newcomm = (await mpi.cartCreate([size], [true], true))!;
  const sbuf = Int32Array.of(-1, 1);
  const rbuf = Int32Array.of(0, 0);
  await newcomm.neighborAlltoall(sbuf, rbuf);
  await newcomm.free();
  let errs = 0;
  if (rbuf[0] !== 1 || rbuf[1] !== -1) {
    mt.printf(`expected rbuf to be (1,-1), but found (${rbuf[0]},${rbuf[1]})`);
    errs++;
  }
  return mt.finalize(errs);
}
