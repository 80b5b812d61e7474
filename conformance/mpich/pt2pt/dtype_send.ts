// MPICH test/mpi/pt2pt/dtype_send.c: 128 isends, issends and irsends of an indexed-block type
// freed while the sends are in flight.
import type { MTest, MTestResult } from '../mtest.ts';
import type { Request } from '../../../runtime/mpi/mpi.ts';

const NUM_LOOPS = 128;

export default async function dtypeSend(mt: MTest): Promise<MTestResult> {
  const { mpi } = mt;
  const rank = mpi.rank;
  if (mpi.size < 2) throw new Error('Must run with at least 2 processes');
  const sndBuf = new Int32Array(3);
  const rcvBuf = new Int32Array(3);
  const count = 2;
  const displs: number[] = [];
  for (let i = 0; i < count; i++) displs[i] = i * 2;
  const req: Request[] = [];
  const other = rank === 0 ? 1 : 0;
  const make = () => mpi.typeCommit(mpi.typeCreateIndexedBlock(count, 1, displs, mpi.INT));
  await mpi.barrier();
  // isends
  let newtype = make();
  if (rank === 0) for (let i = 0; i < NUM_LOOPS; i++) req[i] = mpi.isend(sndBuf, 1, newtype, other, 0);
  else for (let i = 0; i < NUM_LOOPS; i++) await mpi.recv(rcvBuf, 1, newtype, other, 0);
  mpi.typeFree(newtype);
  if (rank === 0) await mpi.waitAll(req);
  await mpi.barrier();
  // issends
  newtype = make();
  if (rank === 0) for (let i = 0; i < NUM_LOOPS; i++) req[i] = mpi.issend(sndBuf, 1, newtype, other, 0);
  else for (let i = 0; i < NUM_LOOPS; i++) await mpi.recv(rcvBuf, 1, newtype, other, 0);
  mpi.typeFree(newtype);
  if (rank === 0) await mpi.waitAll(req);
  await mpi.barrier();
  // irsends
  newtype = make();
  if (rank === 0) {
    await mpi.barrier();
    for (let i = 0; i < NUM_LOOPS; i++) req[i] = mpi.irsend(sndBuf, 1, newtype, other, 0);
  } else {
    for (let i = 0; i < NUM_LOOPS; i++) req[i] = mpi.irecv(rcvBuf, 1, newtype, other, 0);
    await mpi.barrier();
  }
  mpi.typeFree(newtype);
  await mpi.waitAll(req);
  await mpi.barrier();
  return mt.finalize(0);
}
