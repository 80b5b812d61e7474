// MPICH test/mpi/coll/redscat2.c: MPI_Reduce_scatter must not commute non-commutative operations
// and must perform all of them, for blocks of 1 to 128 ints.
import type { MTest, MTestResult } from '../mtest.ts';
import { ncOps } from './redscat-nc.ts';

const MAX_BLOCK_SIZE = 256;

export default async function redscat2(mt: MTest): Promise<MTestResult> {
  const comm = mt.mpi.COMM_WORLD;
  const size = comm.size;
  const rank = comm.rank;
  const ops = ncOps(mt);
  let err = 0;
  for (let blockSize = 1; blockSize < MAX_BLOCK_SIZE; blockSize *= 2) {
    const sendbuf = new Int32Array(blockSize * size);
    const recvbuf = new Int32Array(blockSize).fill(0xdeadbeef | 0);
    for (let i = 0; i < size * blockSize; i++) sendbuf[i] = rank + i;
    const recvcounts = new Int32Array(size).fill(blockSize);
    await comm.reduceScatter(sendbuf, recvbuf, recvcounts, ops.left);
    for (let i = 0; i < blockSize; ++i) if (recvbuf[i] !== rank * blockSize + i) ++err;
    await comm.reduceScatter(sendbuf, recvbuf, recvcounts, ops.right);
    for (let i = 0; i < blockSize; ++i) if (recvbuf[i] !== size - 1 + rank * blockSize + i) ++err;
    await comm.reduceScatter(sendbuf, recvbuf, recvcounts, ops.ncSum);
    for (let i = 0; i < blockSize; ++i) {
      const x = rank * blockSize + i;
      if (recvbuf[i] !== size * x + ((size - 1) * size) / 2) ++err;
    }
  }
  return mt.finalize(err + ops.errors());
}
