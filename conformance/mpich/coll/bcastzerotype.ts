// MPICH test/mpi/coll/bcastzerotype.c: MPI_Bcast of 10 elements of a zero-size type (a contiguous
// type of 0 ints) must leave every rank's buffer untouched.
import { assert, type MTest, type MTestResult } from '../mtest.ts';

const NELEM = 10;

export default async function bcastzerotype(mt: MTest): Promise<MTestResult> {
  const { mpi } = mt;
  const wrank = mpi.rank;
  // a random non-zero sized buffer (C's malloc of NELEM ints, filled as chars)
  const buf = new Int8Array(NELEM * 4);
  for (let i = 0; i < NELEM; i++) buf[i] = wrank * NELEM + i;
  const type = mpi.typeContiguous(0, mpi.INT);
  mpi.typeCommit(type);
  const typeSize = mpi.typeSize(type);
  assert(typeSize === 0, 'type_size == 0');
  // do the broadcast, which will break on some MPI implementations
  await mpi.bcast(buf, NELEM, type, 0);
  // check that the buffer remains unmolested
  for (let i = 0; i < NELEM; i++) assert(buf[i] === wrank * NELEM + i, 'buf[i] == wrank * NELEM + i');
  mpi.typeFree(type);
  return mt.finalize(0);
}
