// MPICH test/mpi/datatype/tresized.c: MPI_INT resized to an extent of 3 ints: sent as that type,
// received once as contiguous ints and once as the resized type, 1 to 32,768 elements.
import type { MTest, MTestResult } from '../mtest.ts';

export default async function tresized(mt: MTest): Promise<MTestResult> {
  const { mpi } = mt;
  let errs = 0;
  const comm = mpi.COMM_WORLD;
  const rank = comm.rank;
  const size = comm.size;
  const source = 0;
  const dest = size - 1;
  const newtype = mpi.typeCommit(mpi.typeCreateResized(mpi.INT, 0, 3 * 4));
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
