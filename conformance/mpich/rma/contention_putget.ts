// MPICH test/mpi/rma/contention_putget.c: contention_put.c's 1000 single-double puts per target,
// each followed by as many gets of the same slots, one per exclusive-lock epoch; only that it
// completes is checked. The window's memory comes from MPI_Alloc_mem in C: a plain typed array
// here.
import { assert, type MTest, type MTestResult } from '../mtest.ts';

const MAXELEMS = 6400;
const COUNT = 1000;
const verbose = false;

export default async function contentionPutget(mt: MTest): Promise<MTestResult> {
  const { mpi } = mt;
  const nproc = mpi.size;
  const me = mpi.rank;
  assert(COUNT <= MAXELEMS, 'COUNT <= MAXELEMS');
  if (me === 0 && verbose) mt.printf(`Test starting on ${nproc} processes`);
  const testPut = async (): Promise<void> => {
    const dstBuf = new Float64Array(nproc * MAXELEMS);
    const dstWin = await mpi.winCreate(dstBuf, 1);
    const srcBuf = new Float64Array(MAXELEMS).fill(me + 1.0);
    const srcBytes = new Uint8Array(srcBuf.buffer);
    await dstWin.lock(mpi.LOCK_EXCLUSIVE, me, 0);
    dstBuf.fill(0.0);
    await dstWin.unlock(me);
    await mpi.barrier();
    for (let i = 0; i < nproc; i++) {
      const target = i;
      for (let j = 0; j < COUNT; j++) {
        if (verbose) mt.printf(`${me} -> ${target} [${j}]`);
        await dstWin.lock(mpi.LOCK_EXCLUSIVE, target, 0);
        await dstWin.put(srcBytes.subarray(j * 8), 8, mpi.BYTE, target, (me * MAXELEMS + j) * 8, 8, mpi.BYTE);
        await dstWin.unlock(target);
      }
      for (let j = 0; j < COUNT; j++) {
        if (verbose) mt.printf(`${me} <- ${target} [${j}]`);
        await dstWin.lock(mpi.LOCK_EXCLUSIVE, target, 0);
        await dstWin.get(srcBytes.subarray(j * 8), 8, mpi.BYTE, target, (me * MAXELEMS + j) * 8, 8, mpi.BYTE);
        await dstWin.unlock(target);
      }
    }
    await mpi.barrier();
    await dstWin.free();
  };
  await testPut();
  await mpi.barrier();
  const result = await mt.finalize(0);
  if (me === 0 && verbose) mt.printf('Test completed.');
  return result;
}
