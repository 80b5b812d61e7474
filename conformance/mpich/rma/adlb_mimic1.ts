// MPICH test/mpi/rma/adlb_mimic1.c: one target (rank 0), one server (rank 1) and origins (the
// other ranks), each origin owning 1 MB of the target's window (MPI_Alloc_mem'd, zeroed). 500
// times, each origin puts 1 MB of ones into its part under a shared lock, then tells the server;
// the server forwards the origin's rank to the target, which gets the part's last byte under a
// shared lock on itself (an error unless it is 1), zeroes the part and tells the origin to go on.
import type { MTest, MTestResult } from '../mtest.ts';

const NUM_TIMES = 500;
const MAX_BUF_SIZE = 400 * 1024 * 1024;
const PUT_SIZE = 1024 * 1024;

export default async function adlbMimic1(mt: MTest): Promise<MTestResult> {
  const { mpi } = mt;
  let errs = 0;
  const commSize = mpi.size;
  const commRank = mpi.rank;
  if (commSize <= 2) throw new Error('MPI_Abort: This test requires at least 3 processes');
  const maxBufSize = commSize * PUT_SIZE;
  if (maxBufSize > MAX_BUF_SIZE) throw new Error(`MPI_Abort: Too many processes in COMM_WORLD (max is ${MAX_BUF_SIZE / PUT_SIZE})`);
  mpi.setErrhandler(mpi.ERRORS_RETURN);
  const rmaWinAddr = mpi.allocMem(maxBufSize, mpi.INFO_NULL);
  rmaWinAddr.fill(0);
  const win = await mpi.winCreate(rmaWinAddr, 1, mpi.INFO_NULL);
  // it is not necessary to use MPI_Alloc_mem for memory that is not part of the window
  const localBuf = mpi.allocMem(PUT_SIZE, mpi.INFO_NULL);
  localBuf.fill(1);
  const empty = new Int32Array(0);
  await mpi.barrier();
  if (commRank === 0) {
    // target
    const byRank = new Int32Array(1);
    const check = new Int8Array(1);
    for (let i = 0; i < NUM_TIMES * (commSize - 2); i++) {
      // wait for the server to tell who put data into my window, and check the last byte of it
      await mpi.recv(byRank, 1, mpi.INT, 1, 0);
      const by = byRank[0]!;
      await win.lock(mpi.LOCK_SHARED, 0, 0);
      await win.get(check, 1, mpi.CHAR, 0, (by + 1) * PUT_SIZE - 1, 1, mpi.CHAR);
      await win.unlock(0);
      if (check[0] !== 1) errs++;
      // reset the buffer to zero for the next round, and tell the origin that I am ready
      rmaWinAddr.fill(0, by * PUT_SIZE, (by + 1) * PUT_SIZE);
      await mpi.send(empty, 0, mpi.INT, by, 0);
    }
  } else if (commRank === 1) {
    // server
    for (let i = 0; i < NUM_TIMES * (commSize - 2); i++) {
      const status = await mpi.recv(empty, 0, mpi.INT, mpi.ANY_SOURCE, 0);
      await mpi.send(Int32Array.of(status.source), 1, mpi.INT, 0, 0);
    }
  } else {
    // origin
    for (let i = 0; i < NUM_TIMES; i++) {
      await win.lock(mpi.LOCK_SHARED, 0, 0);
      await win.put(localBuf, PUT_SIZE, mpi.CHAR, 0, commRank * PUT_SIZE, PUT_SIZE, mpi.CHAR);
      await win.unlock(0);
      await mpi.send(empty, 0, mpi.INT, 1, 0);
      await mpi.recv(empty, 0, mpi.INT, 0, 0);
    }
  }
  await win.free();
  mpi.freeMem(rmaWinAddr);
  mpi.freeMem(localBuf);
  return mt.finalize(errs);
}
