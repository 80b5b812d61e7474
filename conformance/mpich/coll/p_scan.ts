// MPICH test/mpi/coll/p_scan.c: MPI_Scan_init of one int per rank with MPI_SUM (twice), a
// commutative user sum (twice) and a non-commutative user op that checks the order of its
// operands, each request started and waited 10 times. (The C test passes an empty MPI_Info, which
// phit's init calls do not take.)
import { userOp, type MTest, type MTestResult } from '../mtest.ts';

const BAD_ANSWER = 100000;

export default async function pScan(mt: MTest): Promise<MTestResult> {
  const { mpi } = mt;
  let errors = 0;
  const comm = mpi;
  const addem = (invec: Int32Array, inoutvec: Int32Array, len: number): void => {
    for (let i = 0; i < len; i++) inoutvec[i]! += invec[i]!;
  };
  // inoutvec[i] = invec[i] op inoutvec[i] (MPI-1 4.9.4): the order matters, and it is the
  // ranks' order in the communicator, whatever the root
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
  const rank = comm.rank;
  const data = Int32Array.of(rank);
  const result = Int32Array.of(-100);
  let correctResult = 0;
  for (let i = 0; i <= rank; i++) correctResult += i;
  const runs: [typeof mpi.SUM, string][] = [
    [mpi.SUM, 'Error suming ints with scan'],
    [mpi.SUM, 'Error summing ints with scan (2)'],
    [opAddem, 'Error summing ints with scan (userop)'],
    [opAddem, 'Error summing ints with scan (userop2)'],
  ];
  for (const [op, msg] of runs) {
    if (op === opAddem && msg.endsWith('(userop)')) {
      data[0] = rank;
      result[0] = -100;
    }
    const req = comm.scanInit(data, result, op);
    for (let i = 0; i < 10; ++i) {
      mpi.start(req);
      await mpi.wait(req);
      if (result[0] !== correctResult) {
        mt.printf(`[${rank}] ${msg}`);
        errors++;
      }
    }
    mpi.requestFree(req);
  }
  const req = comm.scanInit(data, result, opAssoc);
  for (let i = 0; i < 10; ++i) {
    result[0] = -100;
    data[0] = rank;
    mpi.start(req);
    await mpi.wait(req);
    if (result[0] === BAD_ANSWER) {
      mt.printf(`[${rank}] Error scanning with non-commutative op`);
      errors++;
    }
  }
  mpi.requestFree(req);
  return mt.finalize(errors);
}
