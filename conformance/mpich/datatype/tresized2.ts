// MPICH test/mpi/datatype/tresized2.c: MPI_INT resized to lower bound -4 and extent 12 ("* INT *",
// the int still at displacement 0): 1 to 32,768 of it sent from rank 0 to the last rank, received
// once as plain ints and once as the resized type.
import type { MTest, MTestResult } from '../mtest.ts';

export default async function tresized2(mt: MTest): Promise<MTestResult> {
  const { mpi } = mt;
  let errs = 0;
  const comm = mpi;
  // the sender and the receiver
  const rank = comm.rank;
  const size = comm.size;
  const source = 0;
  const dest = size - 1;
  // an int-sized pad before the int, and the extent still 3 ints
  const newtype = mpi.typeCreateResized(mpi.INT, -4, 3 * 4);
  mpi.typeCommit(newtype);
  for (let count = 1; count < 65000; count = count * 2) {
    const buf = new Int32Array(count * 3).fill(-1);
    if (rank === source) {
      for (let i = 0; i < count; i++) buf[3 * i] = i;
      await comm.send(buf, count, newtype, dest, 0);
      await comm.send(buf, count, newtype, dest, 1);
    } else if (rank === dest) {
      await comm.recv(buf, count, mpi.INT, source, 0);
      for (let i = 0; i < count; i++) {
        if (buf[i] !== i) {
          errs++;
          if (errs < 10) mt.printf(`buf[${i}] = ${buf[i]}`);
        }
      }
      buf.fill(-1);
      await comm.recv(buf, count, newtype, source, 1);
      for (let i = 0; i < count; i++) {
        if (buf[3 * i] !== i) {
          errs++;
          if (errs < 10) mt.printf(`buf[3*${i}] = ${buf[i]}`);
        }
      }
    }
  }
  mpi.typeFree(newtype);
  return mt.finalize(errs);
}
