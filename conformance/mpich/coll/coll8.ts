// MPICH test/mpi/coll/coll8.c: MPI_Reduce with SUM, MIN and MAX to rank 0, then MPI_Bcast.
import type { MTest, MTestResult } from '../mtest.ts';

export default async function coll8(mt: MTest): Promise<MTestResult> {
  const { mpi } = mt;
  const rank = mpi.rank;
  const size = mpi.size;
  let errors = 0;
  const data = Int32Array.of(rank);
  const result = Int32Array.of(-100);
  await mpi.reduce(data, result, mpi.SUM, 0);
  await mpi.bcast(result, 0);
  let correct = 0;
  for (let i = 0; i < size; i++) correct += i;
  if (result[0] !== correct) errors++;
  await mpi.reduce(data, result, mpi.MIN, 0);
  await mpi.bcast(result, 0);
  if (result[0] !== 0) errors++;
  await mpi.reduce(data, result, mpi.MAX, 0);
  await mpi.bcast(result, 0);
  if (result[0] !== size - 1) errors++;
  return mt.finalize(errors);
}
