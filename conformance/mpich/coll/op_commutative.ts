// MPICH test/mpi/coll/op_commutative.c: MPI_Op_commutative of every predefined op and of a user op
// created commutative and non-commutative (phit's ops carry it as `op.commutative`).
import { userOp, type MTest, type MTestResult } from '../mtest.ts';

export default async function opCommutative(mt: MTest): Promise<MTestResult> {
  const { mpi } = mt;
  let errs = 0;
  const userFn = (invec: Int32Array, inoutvec: Int32Array, len: number): void => {
    for (let i = 0; i < len; ++i) inoutvec[i] = invec[i]! * 2 + inoutvec[i]!;
  };
  // make sure that user-defined ops work too
  const cUop = userOp(mpi, userFn, true);
  const ncUop = userOp(mpi, userFn, false);
  // every predefined reduction operation (MPI-2.1 section 5.9.2) is commutative
  for (const op of [mpi.MAX, mpi.MIN, mpi.SUM, mpi.PROD, mpi.LAND, mpi.BAND, mpi.LOR, mpi.BOR, mpi.LXOR, mpi.BXOR, mpi.MAXLOC, mpi.MINLOC]) {
    if (!op.commutative) ++errs;
  }
  if (!cUop.commutative) ++errs;
  // also check our non-commutative user-defined operation
  if (ncUop.commutative) ++errs;
  return mt.finalize(errs);
}
