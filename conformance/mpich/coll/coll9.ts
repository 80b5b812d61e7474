// MPICH test/mpi/coll/coll9.c: MPI_Reduce with a commutative user-defined sum, then MPI_Bcast.
import { userOp, type MTest, type MTestResult } from '../mtest.ts';

export default async function coll9(mt: MTest): Promise<MTestResult> {
  const { mpi } = mt;
  const size = mpi.size;
  let errors = 0;
  const addem = (invec: Int32Array, inoutvec: Int32Array, len: number): void => {
    for (let i = 0; i < len; i++) inoutvec[i]! += invec[i]!;
  };
  const data = Int32Array.of(mpi.rank);
  const result = Int32Array.of(-100);
  const op = userOp(mpi, addem, true);
  await mpi.reduce(data, result, op, 0);
  await mpi.bcast(result, 0);
  let correct = 0;
  for (let i = 0; i < size; i++) correct += i;
  if (result[0] !== correct) errors++;
  return mt.finalize(errors);
}
