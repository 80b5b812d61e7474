// MPICH test/mpi/coll/scantst.c: MPI_Scan with MPI_SUM, a commutative user sum, and a
// non-commutative op that fails when its operands come out of rank order.
import { userOp, type MTest, type MTestResult } from '../mtest.ts';

const BAD_ANSWER = 100000;

export default async function scantst(mt: MTest): Promise<MTestResult> {
  const { mpi } = mt;
  let errors = 0;
  const addem = (invec: Int32Array, inoutvec: Int32Array, len: number): void => {
    for (let i = 0; i < len; i++) inoutvec[i]! += invec[i]!;
  };
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
  const opAssoc = userOp(mpi, assoc, false);
  const opAddem = userOp(mpi, addem, true);
  const comm = mpi.COMM_WORLD;
  const rank = comm.rank;
  const data = Int32Array.of(rank);
  const result = Int32Array.of(-100);
  let correct = 0;
  for (let i = 0; i <= rank; i++) correct += i;
  await comm.scan(data, result, mpi.SUM);
  if (result[0] !== correct) {
    mt.printf(`[${rank}] Error suming ints with scan`);
    errors++;
  }
  await comm.scan(data, result, mpi.SUM);
  if (result[0] !== correct) {
    mt.printf(`[${rank}] Error summing ints with scan (2)`);
    errors++;
  }
  result[0] = -100;
  await comm.scan(data, result, opAddem);
  if (result[0] !== correct) {
    mt.printf(`[${rank}] Error summing ints with scan (userop)`);
    errors++;
  }
  await comm.scan(data, result, opAddem);
  if (result[0] !== correct) {
    mt.printf(`[${rank}] Error summing ints with scan (userop2)`);
    errors++;
  }
  result[0] = -100;
  await comm.scan(data, result, opAssoc);
  if (result[0] === BAD_ANSWER) {
    mt.printf(`[${rank}] Error scanning with non-commutative op`);
    errors++;
  }
  return mt.finalize(errors);
}
