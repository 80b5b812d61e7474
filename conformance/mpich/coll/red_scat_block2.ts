// MPICH test/mpi/coll/red_scat_block2.c: redscat2.c with MPI_Reduce_scatter_block.
import type { MTest, MTestResult } from '../mtest.ts';
import { ncOps } from './redscat-nc.ts';

const MAX_BLOCK_SIZE = 256;

export default async function redScatBlock2(mt: MTest): Promise<MTestResult> {
  const comm = mt.mpi.COMM_WORLD;
  const size = comm.size;
  const rank = comm.rank;
  const ops = ncOps(mt);
  let err = 0;
  for (let blockSize = 1; blockSize < MAX_BLOCK_SIZE; blockSize *= 2) {
    const sendbuf = new Int32Array(blockSize * size);
    const recvbuf = new Int32Array(blockSize).fill(0xdeadbeef | 0);
    for (let i = 0; i < size * blockSize; i++) sendbuf[i] = rank + i;
    await comm.reduceScatterBlock(sendbuf, recvbuf, ops.left);
    for (let i = 0; i < blockSize; ++i) if (recvbuf[i] !== rank * blockSize + i) ++err;
    await comm.reduceScatterBlock(sendbuf, recvbuf, ops.right);
    for (let i = 0; i < blockSize; ++i) if (recvbuf[i] !== size - 1 + rank * blockSize + i) ++err;
    await comm.reduceScatterBlock(sendbuf, recvbuf, ops.ncSum);
    for (let i = 0; i < blockSize; ++i) {
      const x = rank * blockSize + i;
      if (recvbuf[i] !== size * x + ((size - 1) * size) / 2) ++err;
    }
  }
  return mt.finalize(err + ops.errors());
}
