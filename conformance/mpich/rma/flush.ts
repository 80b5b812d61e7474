// MPICH test/mpi/rma/flush.c: MPI_Win_flush_all of an empty epoch, then a token passed round a
// ring of ranks, each swapping its rank into rank 0's int by MPI_Get_accumulate (REPLACE) and
// MPI_Win_flush, getting the previous rank's.
import type { MTest, MTestResult } from '../mtest.ts';

const ITER = 100;

export default async function flush(mt: MTest): Promise<MTestResult> {
  const { mpi } = mt;
  let errors = 0;
  const rank = mpi.rank;
  const nproc = mpi.size;
  if (nproc < 2) throw new Error('MPI_Abort: must be run with two or more processes');
  let buf: Int32Array | null = null;
  let mem: Uint8Array | null = null;
  if (rank === 0) {
    mem = mpi.allocMem(4, mpi.INFO_NULL);
    buf = new Int32Array(mem.buffer, mem.byteOffset, 1);
    buf[0] = nproc - 1;
  }
  const window = await mpi.winCreate(buf ?? new Uint8Array(0), 1, mpi.INFO_NULL);
  // flush of an empty epoch
  await window.lock(mpi.LOCK_SHARED, 0, 0);
  await window.flushAll();
  await window.unlock(0);
  await mpi.barrier();
  // third-party communication, through rank 0
  await window.lock(mpi.LOCK_SHARED, 0, 0);
  const empty = new Uint8Array(0);
  for (let i = 0; i < ITER; i++) {
    const val = Int32Array.of(-1);
    // a ring: rank 0 first, then each passes the token to its right
    if (rank > 0) await mpi.recv(empty, 0, mpi.BYTE, rank - 1, 0);
    await window.getAccumulate(Int32Array.of(rank), 1, mpi.INT, val, 1, mpi.INT, 0, 0, 1, mpi.INT, mpi.REPLACE);
    await window.flush(0);
    const exp = (rank + nproc - 1) % nproc;
    if (val[0] !== exp) {
      mt.printf(`${rank} - Got ${val[0]}, expected ${exp}`);
      errors++;
    }
    if (rank < nproc - 1) await mpi.send(empty, 0, mpi.BYTE, rank + 1, 0);
    await mpi.barrier();
  }
  await window.unlock(0);
  await window.free();
  if (mem) mpi.freeMem(mem);
  return mt.finalize(errors);
}
