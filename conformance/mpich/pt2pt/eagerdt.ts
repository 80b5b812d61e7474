// MPICH test/mpi/pt2pt/eagerdt.c: 30 derived-datatype messages (30 blocks of 10 ints,
// MPI_Type_create_indexed_block) sent eagerly with no posted receive, so that the sender may have
// to queue them, while the receiver sleeps 2 s.
import type { MTest, MTestResult } from '../mtest.ts';
import type { Request } from '../../../runtime/mpi/mpi.ts';

const MAX_MSGS = 30;

export default async function eagerdt(mt: MTest): Promise<MTestResult> {
  const { mpi } = mt;
  const errs = 0;
  const comm = mpi.COMM_WORLD;
  const rank = comm.rank;
  const size = comm.size;
  const source = 0;
  const dest = size - 1;
  const indices: number[] = [];
  for (let i = 0; i < 30; i++) indices[i] = i * 40;
  // 30 blocks of size 10
  const dtype = mpi.typeCommit(mpi.typeCreateIndexedBlock(30, 10, indices, mpi.INT));
  const { extent } = mpi.typeGetExtent(dtype);
  const bufs: Int32Array[] = [];
  for (let i = 0; i < MAX_MSGS; i++) bufs[i] = new Int32Array(extent / 4);
  const buf = new Int32Array(10 * 30);
  await mpi.barrier();
  if (rank === dest) {
    await mt.sleep(2);
    for (let i = 0; i < MAX_MSGS; i++) await comm.recv(buf, source, i);
  } else if (rank === source) {
    const req: Request[] = [];
    for (let i = 0; i < MAX_MSGS; i++) req[i] = comm.isend(bufs[i]!, 1, dtype, dest, i);
    await comm.waitAll(req);
  }
  mpi.typeFree(dtype);
  return mt.finalize(errs);
}
