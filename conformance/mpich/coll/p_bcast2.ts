// MPICH test/mpi/coll/p_bcast2.c: MPI_Bcast_init of 10 ints from rank 0, then of the first 17
// bytes of the buffer as signed chars (to stress scatter/allgather implementations), each started
// once. (The C test passes an empty MPI_Info, which phit's init calls do not take.)
import { assert, type MTest, type MTestResult } from '../mtest.ts';

const COUNT = 10;
const PRIME = 17;

export default async function pBcast2(mt: MTest): Promise<MTestResult> {
  const { mpi } = mt;
  let errs = 0;
  const rank = mpi.rank;
  const size = mpi.size;
  const buf = new Int32Array(COUNT * size);
  for (let i = 0; i < COUNT; ++i) buf[i] = rank === 0 ? i : 0xdeadbeef | 0;
  let req = mpi.bcastInit(buf.subarray(0, COUNT), 0);
  mpi.start(req);
  await mpi.wait(req);
  mpi.requestFree(req);
  for (let i = 0; i < COUNT; ++i) {
    if (buf[i] !== i) mt.printf(`buf[${i}]=${buf[i]} i=${i}`);
    assert(buf[i] === i, 'buf[i] == i');
  }
  // broadcast again, designed to stress scatter/allgather implementations
  const bufAlias = new Int8Array(buf.buffer, buf.byteOffset, buf.byteLength);
  assert(COUNT * size * 4 > PRIME, 'COUNT * size * sizeof(int) > PRIME');
  for (let i = 0; i < PRIME; ++i) bufAlias[i] = rank === 0 ? i : 0xdb;
  for (let i = PRIME; i < COUNT * size * 4; ++i) bufAlias[i] = 0xbf;
  req = mpi.bcastInit(bufAlias.subarray(0, PRIME), 0);
  mpi.start(req);
  await mpi.wait(req);
  mpi.requestFree(req);
  for (let i = 0; i < PRIME; ++i) {
    if (bufAlias[i] !== i) {
      errs++;
      if (errs < 10) mt.printf(`buf_alias[${i}]=${bufAlias[i]} i=${i}`);
    }
    assert(bufAlias[i] === i, 'buf_alias[i] == i');
  }
  return mt.finalize(errs);
}
