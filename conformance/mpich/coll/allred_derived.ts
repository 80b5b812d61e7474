// MPICH test/mpi/coll/allred_derived.c: MPI_Allreduce (and with MPI_IN_PLACE) of 10 elements of a
// vector type of n ints (blocklength 1, stride 1; n = 1, 2, 4, ..., 8,192) with a commutative user
// sum, on every intracommunicator of MTest with at least 2 ranks.
import { userOp, type MTest, type MTestResult } from '../mtest.ts';

const MAX_BLOCKLEN = 10000;
const IS_COMMUTATIVE = true;

export default async function allredDerived(mt: MTest): Promise<MTestResult> {
  const { mpi } = mt;
  let errs = 0;
  // parameters of the vector type of MPI_INT
  let gBlocklen = 1;
  const gStride = 1;
  const uop = (cin: Int32Array, cout: Int32Array, count: number): void => {
    let k = 0;
    for (let i = 0; i < count; i++) {
      for (let j = 0; j < gBlocklen; j++) {
        cout[k]! += cin[k]!;
        k += gStride;
      }
    }
  };
  const initBuf = (p: Int32Array, count: number, rank: number): void => {
    let k = 0;
    for (let i = 0; i < count; i++) {
      for (let j = 0; j < gBlocklen; j++) {
        p[k] = rank + i + j;
        k += gStride;
      }
    }
  };
  const checkResult = (p: Int32Array, count: number, size: number): number => {
    let lerrs = 0;
    let k = 0;
    for (let i = 0; i < count; i++) {
      for (let j = 0; j < gBlocklen; j++) {
        const exp = (size * (size - 1)) / 2 + (i + j) * size;
        if (p[k] !== exp) {
          lerrs++;
          if (errs + lerrs < 10) mt.printf(`[${i} - ${j}] expected ${exp}, got ${p[k]}, ${mt.getIntracommName()}`);
        }
        k += gStride;
      }
    }
    return lerrs;
  };
  for await (const comm of mt.intracomms(2, true)) {
    if (!comm) continue;
    const rank = comm.rank;
    const size = comm.size;
    const count = 10;
    for (let n = 1; n < MAX_BLOCKLEN; n *= 2) {
      gBlocklen = n;
      // the user function sees one element of the datatype as gBlocklen ints (phit ops have no
      // MPI_Op_free: one op per blocklength instead of C's one op)
      const op = userOp(mpi, uop, IS_COMMUTATIVE, gBlocklen);
      const extent = gBlocklen * gStride;
      const datatype = mpi.typeVector(gBlocklen, 1, gStride, mpi.INT);
      mpi.typeCommit(datatype);
      const buf = new Int32Array(extent * count);
      const bufout = new Int32Array(extent * count);
      initBuf(buf, count, rank);
      await comm.allreduce(buf, bufout, count, datatype, op);
      errs += checkResult(bufout, count, size);
      // do it again using MPI_IN_PLACE
      initBuf(bufout, count, rank);
      await comm.allreduce(mpi.IN_PLACE, bufout, count, datatype, op);
      errs += checkResult(bufout, count, size);
      mpi.typeFree(datatype);
    }
  }
  return mt.finalize(errs);
}
