// MPICH test/mpi/datatype/typefree.c: a dup of MPI_INT, freed (a leak check under a memory checker).
import type { MTest, MTestResult } from '../mtest.ts';

export default async function typefree(mt: MTest): Promise<MTestResult> {
  const { mpi } = mt;
  const type = mpi.typeDup(mpi.INT);
  mpi.typeFree(type);
  return mt.finalize(0);
}
