// MPICH test/mpi/rma/manyrma2.c, built as manyrma2 (MPI_Win_create over malloc'd memory) and
// manyrma2_shm (-DUSE_WIN_ALLOCATE: MPI_Win_allocate): many small RMA operations per epoch. Every
// rank targets the next one (its neighbours' groups serve PSCW). The testlist runs the default
// choice: accumulates (MPI_SUM of sz ints, sz = 1 and 2) with fence synchronisation, cnt = 1, 2,
// 4, ... 16384 accumulates at consecutive places per epoch, 8 epochs each after a barrier. The
// arguments -put, -acc, -fence, -lock, -pscw, -maxsz n and -maxcount n choose the other runs as
// in the C test. A size's loop over cnt stops early when one cnt takes more than 5 s of
// MPI_Wtime (simulated time here); the test checks nothing but completion.
import type { Group, Win } from '../../../runtime/mpi/mpi.ts';
import type { MTest, MTestResult } from '../mtest.ts';

const MAX_COUNT = (65536 * 4) / 16;
const MAX_RMA_SIZE = 2;
const MAX_RUNS = 8;
const MAX_ITER_TIME = 5.0;

const SYNC_FENCE = 1;
const SYNC_LOCK = 2;
const SYNC_PSCW = 4;
const RMA_PUT = 1;
const RMA_ACC = 2;

type Sync = 'fence' | 'lock' | 'pscw';

function manyrma2Build(useWinAllocate: boolean): (mt: MTest) => Promise<MTestResult> {
  return async (mt) => {
    const { mpi } = mt;
    let syncChoice = SYNC_FENCE;
    let rmaChoice = RMA_ACC;
    let maxSz = MAX_RMA_SIZE;
    let maxCount = MAX_COUNT;
    // the C test's argument loop: the first -put/-acc or -fence/-lock/-pscw replaces the default
    let rmaSet = false;
    let syncSet = false;
    const argv = mt.argv;
    for (let i = 0; i < argv.length; i++) {
      const a = argv[i]!;
      if (a === '-put' || a === '-acc') {
        rmaChoice = (rmaSet ? rmaChoice : 0) | (a === '-put' ? RMA_PUT : RMA_ACC);
        rmaSet = true;
      } else if (a === '-fence' || a === '-lock' || a === '-pscw') {
        syncChoice = (syncSet ? syncChoice : 0) | (a === '-fence' ? SYNC_FENCE : a === '-lock' ? SYNC_LOCK : SYNC_PSCW);
        syncSet = true;
      } else if (a === '-maxsz') {
        maxSz = Number.parseInt(argv[++i] ?? '', 10);
      } else if (a === '-maxcount') {
        maxCount = Number.parseInt(argv[++i] ?? '', 10);
      } else {
        throw new Error(`MPI_Abort: Unrecognized argument ${a}; valid: [ -put ] [ -acc ] [ -lock ] [ -fence ] [ -pscw ] [ -maxsz msgsize ] [ -maxcount n ]`);
      }
    }
    const wrank = mpi.rank;
    const wsize = mpi.size;
    const destRank = (wrank + 1) % wsize;
    const srcRank = (wrank - 1 + wsize) % wsize;
    // groups for PSCW
    const wgroup = mpi.group;
    const accessGroup = wgroup.incl([destRank]);
    const exposureGroup = wgroup.incl([srcRank]);
    const arraysize = maxSz * MAX_COUNT;
    let win: Win;
    if (useWinAllocate) {
      win = (await mpi.winAllocate(arraysize * 4, 4, mpi.INFO_NULL)).win;
    } else {
      const arraybuffer = new Int32Array(arraysize);
      win = await mpi.winCreate(arraybuffer, 4, mpi.INFO_NULL);
    }
    if (maxCount > MAX_COUNT) throw new Error(`MPI_Abort: MaxCount must not exceed ${MAX_COUNT}`);
    const run = async (acc: boolean, sync: Sync): Promise<void> => {
      for (let sz = 1; sz <= maxSz; sz += sz) {
        for (let cnt = 1; cnt <= maxCount; cnt *= 2) {
          const start = mpi.wtime();
          await runOps(mt, win, destRank, cnt, sz, acc, sync, exposureGroup, accessGroup);
          if (mpi.wtime() - start > MAX_ITER_TIME) break;
        }
      }
    };
    if (syncChoice & SYNC_FENCE && rmaChoice & RMA_ACC) await run(true, 'fence');
    if (syncChoice & SYNC_LOCK && rmaChoice & RMA_ACC) await run(true, 'lock');
    if (syncChoice & SYNC_FENCE && rmaChoice & RMA_PUT) await run(false, 'fence');
    if (syncChoice & SYNC_LOCK && rmaChoice & RMA_PUT) await run(false, 'lock');
    if (syncChoice & SYNC_PSCW && rmaChoice & RMA_PUT) await run(false, 'pscw');
    if (syncChoice & SYNC_PSCW && rmaChoice & RMA_ACC) await run(true, 'pscw');
    await win.free();
    return mt.finalize(0);
  };
}

/** RunAccFence, RunAccLock, RunPutFence, RunPutLock, RunPutPSCW and RunAccPSCW: MAX_RUNS epochs of `cnt` operations of `sz` ints. */
async function runOps(mt: MTest, win: Win, destRank: number, cnt: number, sz: number, acc: boolean, sync: Sync, exposureGroup: Group, accessGroup: Group): Promise<void> {
  const { mpi } = mt;
  const buf = new Int32Array(sz);
  // the accumulates' buffer holds 0 .. sz-1; the puts' is left as malloc gives it (zeroes here)
  if (acc) for (let i = 0; i < sz; i++) buf[i] = i;
  for (let k = 0; k < MAX_RUNS; k++) {
    await mpi.barrier();
    if (sync === 'fence') await win.fence(0);
    else if (sync === 'lock') await win.lock(mpi.LOCK_SHARED, destRank, 0);
    else {
      await win.post(exposureGroup, 0);
      await win.start(accessGroup, 0);
    }
    let j = 0;
    for (let i = 0; i < cnt; i++) {
      if (acc) await win.accumulate(buf, sz, mpi.INT, destRank, j, sz, mpi.INT, mpi.SUM);
      else await win.put(buf, sz, mpi.INT, destRank, j, sz, mpi.INT);
      j += sz;
    }
    if (sync === 'fence') await win.fence(0);
    else if (sync === 'lock') await win.unlock(destRank);
    else {
      await win.complete();
      await win.wait();
    }
  }
}

/** manyrma2. */
export const manyrma2 = manyrma2Build(false);
/** manyrma2_shm. */
export const manyrma2Shm = manyrma2Build(true);
