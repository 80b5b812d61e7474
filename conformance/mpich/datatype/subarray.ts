// MPICH test/mpi/datatype/subarray.c: a C-order subarray (the first half of the first two
// dimensions of a 64 x 8 x 512 array of doubles) sent and received.
import type { MTest, MTestResult } from '../mtest.ts';

const X = 64;
const Y = 8;
const Z = 512;

export default async function subarray(mt: MTest): Promise<MTestResult> {
  const { mpi } = mt;
  let errs = 0;
  const myrank = mpi.rank;
  const array = new Float64Array(X * Y * Z).fill(myrank === 0 ? 2.0 : -2.0);
  const arraySize = [X, Y, Z];
  const arraySubsize = [X / 2, Y / 2, Z];
  const arrayStart = [0, 0, 0];
  const sub = mpi.typeCommit(mpi.typeCreateSubarray(3, arraySize, arraySubsize, arrayStart, mpi.ORDER_C, mpi.DOUBLE));
  if (myrank === 0) {
    await mpi.send(array, 1, sub, 1, 0);
  } else {
    await mpi.recv(array, 1, sub, 0, 0);
    for (let i = arrayStart[0]!; i < arraySubsize[0]!; ++i) {
      for (let j = arrayStart[1]!; j < arraySubsize[1]!; ++j) {
        for (let k = arrayStart[2]!; k < arraySubsize[2]!; ++k) if (array[(i * Y + j) * Z + k] !== 2.0) ++errs;
      }
    }
  }
  mpi.typeFree(sub);
  return mt.finalize(errs);
}
