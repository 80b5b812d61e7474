// MPICH test/mpi/datatype/tfree.c: a vector type freed while an MPI_Irecv with it is pending, then
// 1024 new types made: the receive still lands with the freed type's layout.
import type { MTest, MTestResult } from '../mtest.ts';
import type { Datatype } from '../../../runtime/mpi/mpi.ts';

const VEC_NELM = 128;
const VEC_STRIDE = 8;

export default async function tfree(mt: MTest): Promise<MTestResult> {
  const { mpi } = mt;
  let errs = 0;
  const comm = mpi;
  const rank = comm.rank;
  const size = comm.size;
  if (size < 2) throw new Error('This test requires at least two processes.');
  const source = 0;
  const dest = size - 1;
  // a simple non-contiguous type, an irecv with it, the type freed, then many new types: if the
  // freed type's space were reused, this may show it
  const strideType = mpi.typeVector(VEC_NELM, 1, VEC_STRIDE, mpi.INT);
  mpi.typeCommit(strideType);
  const none = new Int32Array(0);
  if (rank === dest) {
    const buf = new Int32Array(VEC_NELM * VEC_STRIDE);
    for (let i = 0; i < VEC_NELM * VEC_STRIDE; i++) buf[i] = -i;
    const req = comm.irecv(buf, 1, strideType, source, 0);
    mpi.typeFree(strideType);
    const tmpType: Datatype[] = [];
    for (let i = 0; i < 1024; i++) {
      tmpType[i] = mpi.typeVector(VEC_NELM, 1, 1, mpi.INT);
      mpi.typeCommit(tmpType[i]!);
    }
    await comm.sendrecv(none, 0, mpi.INT, source, 1, none, 0, mpi.INT, source, 1);
    await mpi.wait(req);
    for (let i = 0; i < VEC_NELM; i++) {
      if (buf[VEC_STRIDE * i] !== i) {
        errs++;
        if (errs < 10) mt.printf(`buf[${VEC_STRIDE * i}] = ${buf[VEC_STRIDE * i]}, expected ${i}`);
      }
    }
    for (let i = 0; i < 1024; i++) mpi.typeFree(tmpType[i]!);
  } else if (rank === source) {
    const buf = new Int32Array(VEC_NELM);
    for (let i = 0; i < VEC_NELM; i++) buf[i] = i;
    // synchronize with the receiver
    await comm.sendrecv(none, 0, mpi.INT, dest, 1, none, 0, mpi.INT, dest, 1);
    await comm.send(buf, VEC_NELM, mpi.INT, dest, 0);
  }
  // clean up the strideType
  if (rank !== dest) mpi.typeFree(strideType);
  return mt.finalize(errs);
}
