// MPICH test/mpi/coll/reduce_local.c: MPI_Reduce_local with MPI_SUM and with a non-commutative
// user op (inoutvec = 2 * invec + inoutvec) on 0, 1, 2, 4, ... 32768 ints.
import type { MTest, MTestResult } from '../mtest.ts';
import type { ReduceArray } from '../../../runtime/mpi/mpi.ts';

const MAX_BUF_ELEMENTS = 65000;

export default async function reduceLocal(mt: MTest): Promise<MTestResult> {
  const { mpi } = mt;
  let errs = 0;
  let uopErrs = 0;
  const inbuf = new Int32Array(MAX_BUF_ELEMENTS);
  const inoutbuf = new Int32Array(MAX_BUF_ELEMENTS);
  const counts: number[] = [];
  for (let count = 0; count < MAX_BUF_ELEMENTS; count = count > 0 ? count * 2 : count + 1) counts.push(count);
  for (const count of counts) {
    for (let i = 0; i < count; ++i) {
      inbuf[i] = i;
      inoutbuf[i] = i;
    }
    mpi.reduceLocal(inbuf, inoutbuf, count, mpi.INT, mpi.SUM);
    for (let i = 0; i < count; ++i)
      if (inbuf[i] !== i) {
        ++errs;
        if (inoutbuf[i] !== 2 * i) ++errs;
      }
  }
  // user-defined ops too: phit's op function takes (inout, input) with inout the left operand,
  // so C's inoutvec = invec * 2 + inoutvec is inout = inout * 2 + input
  const uop = mpi.opCreate((inout: ReduceArray, input: ReduceArray) => {
    if (!(inout instanceof Int32Array) || !(input instanceof Int32Array)) {
      ++uopErrs;
      mt.printf('invalid datatype passed to user_op');
      return;
    }
    for (let i = 0; i < inout.length; ++i) inout[i] = inout[i]! * 2 + input[i]!;
  }, false);
  for (const count of counts) {
    for (let i = 0; i < count; ++i) {
      inbuf[i] = i;
      inoutbuf[i] = i;
    }
    mpi.reduceLocal(inbuf, inoutbuf, count, mpi.INT, uop);
    errs += uopErrs;
    for (let i = 0; i < count; ++i)
      if (inbuf[i] !== i) {
        ++errs;
        if (inoutbuf[i] !== 3 * i) ++errs;
      }
  }
  return mt.finalize(errs);
}
