// MPICH test/mpi/datatype/zeroparms.c: types of zero blocks (MPI_Type_create_hvector and
// MPI_Type_indexed with count 0) commit, free and carry an empty MPI_Sendrecv to self without
// spurious errors.
import type { MTest, MTestResult } from '../mtest.ts';

export default async function zeroparms(mt: MTest): Promise<MTestResult> {
  const { mpi } = mt;
  const b = new Int32Array(1);
  const d = new Int32Array(1);
  // a legitimate type: no spurious errors
  let newtype = mpi.typeCreateHvector(0, 1, 10, mpi.DOUBLE);
  mpi.typeCommit(newtype);
  mpi.typeFree(newtype);
  newtype = mpi.typeIndexed(0, b, d, mpi.DOUBLE);
  mpi.typeCommit(newtype);
  await mpi.sendrecv(b, 1, newtype, 0, 0, d, 0, newtype, 0, 0);
  mpi.typeFree(newtype);
  return mt.finalize(0);
}
