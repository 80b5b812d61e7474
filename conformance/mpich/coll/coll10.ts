// MPICH test/mpi/coll/coll10.c: a non-commutative op must be applied in rank order (inoutvec =
// invec op inoutvec, MPI-1 4.9.4), whatever the root: the op fails if its operands come out of order.
import { userOp, type MTest, type MTestResult } from '../mtest.ts';

const BAD_ANSWER = 100000;

export default async function coll10(mt: MTest): Promise<MTestResult> {
  const { mpi } = mt;
  const size = mpi.size;
  let errors = 0;
  const assoc = (invec: Int32Array, inoutvec: Int32Array, len: number): void => {
    for (let i = 0; i < len; i++) {
      if (inoutvec[i]! <= invec[i]!) {
        mt.printf(`[${mpi.rank}] inout[0] = ${inoutvec[0]}, in[0] = ${invec[0]}`);
        inoutvec[i] = BAD_ANSWER;
      } else {
        inoutvec[i] = invec[i]!;
      }
    }
  };
  const data = Int32Array.of(mpi.rank);
  const result = Int32Array.of(-100);
  const op = userOp(mpi, assoc, false);
  await mpi.reduce(data, result, op, size - 1);
  await mpi.bcast(result, size - 1);
  if (result[0] === BAD_ANSWER) errors++;
  return mt.finalize(errors);
}
