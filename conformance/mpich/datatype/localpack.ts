// MPICH test/mpi/datatype/localpack.c: MPI_Pack of an int and two doubles into one buffer, then
// MPI_Unpack of them in the same order.
import type { MTest, MTestResult } from '../mtest.ts';

const BUF_SIZE = 16384;

export default async function localpack(mt: MTest): Promise<MTestResult> {
  const { mpi } = mt;
  let errs = 0;
  const verbose = mt.argv[0] === '-v';
  const buffer = new Uint8Array(BUF_SIZE);
  const n = Int32Array.of(10);
  const a = Float64Array.of(1.1);
  const b = Float64Array.of(2.2);
  let pos = 0;
  pos = mpi.pack(n, 1, mpi.INT, buffer, pos);
  pos = mpi.pack(a, 1, mpi.DOUBLE, buffer, pos);
  pos = mpi.pack(b, 1, mpi.DOUBLE, buffer, pos);
  const size = pos;
  pos = 0;
  n[0] = 0;
  a[0] = 0;
  b[0] = 0;
  const packed = buffer.subarray(0, size);
  pos = mpi.unpack(packed, pos, n, 1, mpi.INT);
  pos = mpi.unpack(packed, pos, a, 1, mpi.DOUBLE);
  mpi.unpack(packed, pos, b, 1, mpi.DOUBLE);
  // check the results
  if (n[0] !== 10) {
    errs++;
    if (verbose) mt.printf(`Wrong value for n; got ${n[0]} expected 10`);
  }
  if (a[0] !== 1.1) {
    errs++;
    if (verbose) mt.printf(`Wrong value for a; got ${a[0]} expected 1.1`);
  }
  if (b[0] !== 2.2) {
    errs++;
    if (verbose) mt.printf(`Wrong value for b; got ${b[0]} expected 2.2`);
  }
  return mt.finalize(errs);
}
