// MPICH test/mpi/rma/contention_put.c: every rank puts 1000 doubles, one per exclusive-lock epoch
// and as 8 MPI_BYTEs, into its own slot of every rank's window (in target order, so all ranks
// contend for each target in turn). The window's memory comes from MPI_Alloc_mem in C: a plain
// typed array here.
import { assert, type MTest, type MTestResult } from '../mtest.ts';

const MAXELEMS = 6400;
const COUNT = 1000;
const verbose = false;

export default async function contentionPut(mt: MTest): Promise<MTestResult> {
  const { mpi } = mt;
  const nproc = mpi.size;
  const me = mpi.rank;
  assert(COUNT <= MAXELEMS, 'COUNT <= MAXELEMS');
  if (me === 0 && verbose) mt.printf(`Test starting on ${nproc} processes`);
  const testPut = async (): Promise<number> => {
    let errs = 0;
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
    }
    await mpi.barrier();
    // the right data arrived (the same data representation everywhere)
    for (let i = 0; i < nproc; i++) {
      for (let j = 0; j < COUNT; j++) {
        if (dstBuf[i * MAXELEMS + j] !== 1.0 + i) {
          errs++;
          mt.printf(`dst_buf[${i * MAXELEMS + j}] = ${dstBuf[i * MAXELEMS + j]!.toExponential(6)}, expected ${(1.0 + i).toExponential(6)}`);
        }
      }
    }
    await dstWin.free();
    return errs;
  };
  const errs = await testPut();
  await mpi.barrier();
  return mt.finalize(errs);
}
