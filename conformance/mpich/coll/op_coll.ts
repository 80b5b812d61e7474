// MPICH test/mpi/coll/op_coll.c: MPI_SUM of 10 ints with each reduction and its nonblocking form
// (reduce and ireduce to roots 0 and size - 1, allreduce, reduce_scatter, reduce_scatter_block,
// scan, exscan), the receive buffer's unused part left alone; a failed check aborts, as the C's
// my_assert. MTest's memory types (device buffers) are host memory in phit: one pass.
import { assert, type MTest, type MTestResult } from '../mtest.ts';

const COUNT = 10;
// 0xdeadbeef as a C int
const DEADBEEF = 0xdeadbeef | 0;

export default async function opColl(mt: MTest): Promise<MTestResult> {
  const { mpi } = mt;
  const rank = mpi.rank;
  const size = mpi.size;
  const buf = new Int32Array(COUNT * size);
  const recvbuf = new Int32Array(COUNT * size);
  const recvcounts = new Int32Array(size);
  const myAssert = (cond: boolean, what: string): void => assert(cond, what);

  // buf[i] = rank + i, recvbuf[i] = 0xdeadbeef for the first COUNT
  const fill = (): void => {
    for (let i = 0; i < COUNT; ++i) {
      buf[i] = rank + i;
      recvbuf[i] = DEADBEEF;
    }
  };
  const sumOfAll = (i: number): number => (size * (size - 1)) / 2 + i * size;
  const checkSum = (name: string): void => {
    for (let i = 0; i < COUNT; ++i) {
      if (recvbuf[i] !== sumOfAll(i)) mt.printf(`got ${name}[${i}]=${recvbuf[i]}, expected ${sumOfAll(i)}`);
      myAssert(recvbuf[i] === sumOfAll(i), `${name}[i] == ((size * (size - 1) / 2) + (i * size))`);
    }
  };
  // block i of buf holds rank + i; every recvbuf int is 0xdeadbeef
  const fillBlocks = (): void => {
    for (let i = 0; i < size; ++i) {
      recvcounts[i] = COUNT;
      for (let j = 0; j < COUNT; ++j) {
        buf[i * COUNT + j] = rank + i;
        recvbuf[i * COUNT + j] = DEADBEEF;
      }
    }
  };
  const checkScattered = (): void => {
    for (let j = 0; j < COUNT; ++j) myAssert(recvbuf[j] === size * rank + ((size - 1) * size) / 2, 'recvbuf_h[j] == (size * rank + ((size - 1) * size) / 2)');
    // check we didn't corrupt the rest of the recvbuf
    for (let i = 1; i < size; ++i) {
      for (let j = 0; j < COUNT; ++j) myAssert(recvbuf[i * COUNT + j] === DEADBEEF, 'recvbuf_h[i * COUNT + j] == 0xdeadbeef');
    }
  };
  const scanOf = (i: number): number => (rank * (rank + 1)) / 2 + i * (rank + 1);

  const testOpCollWithRoot = async (root: number): Promise<void> => {
    // MPI_Reduce
    fill();
    await mpi.reduce(buf, recvbuf, COUNT, mpi.INT, mpi.SUM, root);
    if (rank === root) checkSum('recvbuf');
    // MPI_Ireduce
    fill();
    await mpi.ireduce(buf, recvbuf, COUNT, mpi.INT, mpi.SUM, root).wait();
    if (rank === root) checkSum('recvbuf_h');
    // MPI_Allreduce
    fill();
    await mpi.allreduce(buf, recvbuf, COUNT, mpi.INT, mpi.SUM);
    checkSum('recvbuf_h');
    // MPI_Iallreduce
    fill();
    await mpi.iallreduce(buf, recvbuf, COUNT, mpi.INT, mpi.SUM).wait();
    checkSum('recvbuf_h');
    // MPI_Reduce_scatter
    fillBlocks();
    await mpi.reduceScatter(buf, recvbuf, recvcounts, mpi.INT, mpi.SUM);
    checkScattered();
    // MPI_Ireduce_scatter
    fillBlocks();
    await mpi.ireduceScatter(buf, recvbuf, recvcounts, mpi.INT, mpi.SUM).wait();
    checkScattered();
    // MPI_Reduce_scatter_block
    fillBlocks();
    await mpi.reduceScatterBlock(buf, recvbuf, COUNT, mpi.INT, mpi.SUM);
    checkScattered();
    // MPI_Ireduce_scatter_block
    fillBlocks();
    await mpi.ireduceScatterBlock(buf, recvbuf, COUNT, mpi.INT, mpi.SUM).wait();
    checkScattered();
    // MPI_Scan
    fill();
    await mpi.scan(buf, recvbuf, COUNT, mpi.INT, mpi.SUM);
    for (let i = 0; i < COUNT; ++i) myAssert(recvbuf[i] === scanOf(i), 'recvbuf_h[i] == ((rank * (rank + 1) / 2) + (i * (rank + 1)))');
    // MPI_Iscan
    fill();
    await mpi.iscan(buf, recvbuf, COUNT, mpi.INT, mpi.SUM).wait();
    for (let i = 0; i < COUNT; ++i) myAssert(recvbuf[i] === scanOf(i), 'recvbuf_h[i] == ((rank * (rank + 1) / 2) + (i * (rank + 1)))');
    // MPI_Exscan
    fill();
    await mpi.exscan(buf, recvbuf, COUNT, mpi.INT, mpi.SUM);
    for (let i = 0; i < COUNT; ++i) if (rank !== 0) myAssert(recvbuf[i] === scanOf(i) - (rank + i), 'recvbuf_h[i] == ((rank * (rank + 1) / 2) + (i * (rank + 1)) - (rank + i))');
    // MPI_Iexscan
    fill();
    await mpi.iexscan(buf, recvbuf, COUNT, mpi.INT, mpi.SUM).wait();
    for (let i = 0; i < COUNT; ++i) if (rank !== 0) myAssert(recvbuf[i] === scanOf(i) - (rank + i), 'recvbuf_h[i] == ((rank * (rank + 1) / 2) + (i * (rank + 1)) - (rank + i))');
  };

  await testOpCollWithRoot(0);
  await testOpCollWithRoot(size - 1);
  return mt.finalize(0);
}
