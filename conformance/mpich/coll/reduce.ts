// MPICH test/mpi/coll/reduce.c: MPI_Reduce with every root, 1 to 65,536 ints, plain and
// MPI_IN_PLACE, over MTest's intracommunicators (host memory).
import type { MTest, MTestResult } from '../mtest.ts';

export default async function reduce(mt: MTest): Promise<MTestResult> {
  const { mpi } = mt;
  let errs = 0;
  const minsize = 2;
  const checkBuf = (size: number, count: number, buf: Int32Array): void => {
    for (let i = 0; i < count; i++) {
      const result = i * size;
      if (buf[i] !== result) {
        errs++;
        if (errs < 10) mt.printf(`buf[${i}] = ${buf[i]} expected ${result}`);
      }
    }
  };
  const setSend = (buf: Int32Array): void => {
    for (let i = 0; i < buf.length; i++) buf[i] = i;
  };
  for await (const comm of mt.intracomms(minsize, true)) {
    if (!comm) continue;
    const rank = comm.rank;
    const size = comm.size;
    for (let count = 1; count < 130000; count = count * 2) {
      const recvbuf = new Int32Array(count);
      const sendbuf = new Int32Array(count);
      for (let root = 0; root < size; root++) {
        setSend(sendbuf);
        recvbuf.fill(-1);
        await comm.reduce(sendbuf, recvbuf, mpi.SUM, root);
        if (rank === root) checkBuf(size, count, recvbuf);
        // again with MPI_IN_PLACE
        if (rank === root) {
          setSend(recvbuf);
          await comm.reduce(mpi.IN_PLACE, recvbuf, mpi.SUM, root);
        } else {
          setSend(sendbuf);
          await comm.reduce(sendbuf, null, mpi.SUM, root);
        }
        if (rank === root) checkBuf(size, count, recvbuf);
      }
    }
  }
  return mt.finalize(errs);
}
