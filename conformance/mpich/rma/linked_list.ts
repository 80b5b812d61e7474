// MPICH test/mpi/rma/linked_list.c, linked_list_fop.c and linked_list_lockall.c: the MPI-3
// distributed linked list. Rank 0 attaches the list's root element (value -1) to a dynamic window
// and broadcasts its address; every rank then appends 32 elements of its own concurrently: it
// compare-and-swaps its rank into the tail's next.rank where that is nil; on success it writes
// its element's address into the tail's next.disp and probes 100 times, else it reads next.disp
// until the appender has written it, and chases the tail there. Rank 0 then walks the list and
// each rank must have inserted 32 elements. The three sources differ in their synchronisation and
// calls only:
//   linked_list          exclusive lock/unlock around each call; MPI_Put, MPI_Get of next.disp
//   linked_list_fop      shared lock with MPI_MODE_NOCHECK; MPI_Fetch_and_op REPLACE and NO_OP
//   linked_list_lockall  one lock_all epoch with MPI_Win_flush; MPI_Accumulate REPLACE and
//                        MPI_Get_accumulate NO_OP (the walk in a lock_all epoch of its own)
// The list's layout and its check are in llist.ts.
import type { Mpi, Win } from '../../../runtime/mpi/mpi.ts';
import type { MTest, MTestResult } from '../mtest.ts';
import { checkList, ELEM_BYTES, LocalElems, NEXT_DISP, NEXT_RANK, NIL, type LlistPtr } from './llist.ts';

const NUM_ELEMS = 32;
const NPROBE = 100;

/** How one of the three sources reaches the list's elements. */
interface Access {
  /** Before the appends (lock_all), and after them (unlock_all). */
  readonly begin: () => Promise<void>;
  readonly end: () => Promise<void>;
  /** Runs `call` on `rank` under the source's synchronisation (a lock/unlock pair, or a flush after it). */
  readonly sync: (rank: number, call: () => Promise<void>) => Promise<void>;
  /** Writes `disp` into next.disp of the element at `at`. */
  readonly setNextDisp: (at: number, rank: number, disp: BigInt64Array) => Promise<void>;
  /** Reads next.disp of the element at `at` into `disp`. */
  readonly getNextDisp: (at: number, rank: number, disp: BigInt64Array) => Promise<void>;
}

function linkedListBuild(access: (mpi: Mpi, win: Win) => Access): (mt: MTest) => Promise<MTestResult> {
  return async (mt) => {
    const { mpi } = mt;
    let errs = 0;
    const procid = mpi.rank;
    const win = await mpi.winCreateDynamic(mpi.INFO_NULL);
    const a = access(mpi, win);
    const elems = new LocalElems(mpi, win);
    // process 0 creates the head node and broadcasts its address
    const headDisp = new BigInt64Array(1);
    if (procid === 0) headDisp[0] = BigInt(elems.alloc(-1));
    await mpi.bcast(headDisp, 1, mpi.LONG, 0);
    const head: LlistPtr = { rank: 0, disp: Number(headDisp[0]) };
    let tail = head;
    await a.begin();
    // all processes concurrently append NUM_ELEMS elements to the list
    for (let i = 0; i < NUM_ELEMS; i++) {
      const newElem: LlistPtr = { rank: procid, disp: elems.alloc(procid) };
      let success: boolean;
      do {
        const nextRank = Int32Array.of(NIL.rank);
        const t = tail;
        await a.sync(t.rank, () => win.compareAndSwap(Int32Array.of(newElem.rank), Int32Array.of(NIL.rank), nextRank, mpi.INT, t.rank, t.disp + NEXT_RANK));
        success = nextRank[0] === NIL.rank;
        if (success) {
          await a.setNextDisp(t.disp + NEXT_DISP, t.rank, BigInt64Array.of(BigInt(newElem.disp)));
          tail = newElem;
          // for implementations that use pt-to-pt messaging, force progress for other ranks' RMA operations
          for (let j = 0; j < NPROBE; j++) await mpi.iprobe(mpi.ANY_SOURCE, mpi.ANY_TAG);
        } else {
          // the tail pointer is stale: fetch the displacement, maybe several times while it is being updated
          const nextDisp = BigInt64Array.of(BigInt(NIL.disp));
          do {
            await a.getNextDisp(t.disp + NEXT_DISP, t.rank, nextDisp);
          } while (Number(nextDisp[0]) === NIL.disp);
          tail = { rank: nextRank[0]!, disp: Number(nextDisp[0]) };
        }
      } while (!success);
    }
    await a.end();
    await mpi.barrier();
    // traverse the list and verify that all processes inserted exactly the correct number of elements
    if (procid === 0) {
      await a.begin();
      errs += await checkList(mt, head, true, () => NUM_ELEMS, (p, elem) => a.sync(p.rank, () => win.get(elem, ELEM_BYTES, mpi.BYTE, p.rank, p.disp, ELEM_BYTES, mpi.BYTE)));
      await a.end();
    }
    await win.free();
    elems.freeAll();
    return mt.finalize(errs);
  };
}

/** linked_list.c: an exclusive lock on the tail's rank around each call. */
export const linkedList = linkedListBuild((mpi, win) => {
  const sync = async (rank: number, call: () => Promise<void>): Promise<void> => {
    await win.lock(mpi.LOCK_EXCLUSIVE, rank, 0);
    await call();
    await win.unlock(rank);
  };
  const none = async (): Promise<void> => {};
  return {
    begin: none,
    end: none,
    sync,
    setNextDisp: (at, rank, disp) => sync(rank, () => win.put(disp, 1, mpi.LONG, rank, at, 1, mpi.LONG)),
    getNextDisp: (at, rank, disp) => sync(rank, () => win.get(disp, 1, mpi.LONG, rank, at, 1, mpi.LONG)),
  };
});

/** linked_list_fop.c: a shared lock with MPI_MODE_NOCHECK; fetch-and-op REPLACE and NO_OP. */
export const linkedListFop = linkedListBuild((mpi, win) => {
  const sync = async (rank: number, call: () => Promise<void>): Promise<void> => {
    await win.lock(mpi.LOCK_SHARED, rank, mpi.MODE_NOCHECK);
    await call();
    await win.unlock(rank);
  };
  const none = async (): Promise<void> => {};
  return {
    begin: none,
    end: none,
    sync,
    setNextDisp: (at, rank, disp) => sync(rank, () => win.fetchAndOp(disp, new BigInt64Array(1), mpi.LONG, rank, at, mpi.REPLACE)),
    getNextDisp: (at, rank, disp) => sync(rank, () => win.fetchAndOp(null, disp, mpi.LONG, rank, at, mpi.NO_OP)),
  };
});

/** linked_list_lockall.c: one lock_all epoch, a flush after each call; accumulate REPLACE and get-accumulate NO_OP. */
export const linkedListLockall = linkedListBuild((mpi, win) => {
  const sync = async (rank: number, call: () => Promise<void>): Promise<void> => {
    await call();
    await win.flush(rank);
  };
  return {
    begin: () => win.lockAll(0),
    end: () => win.unlockAll(),
    sync,
    setNextDisp: (at, rank, disp) => sync(rank, () => win.accumulate(disp, 1, mpi.LONG, rank, at, 1, mpi.LONG, mpi.REPLACE)),
    getNextDisp: (at, rank, disp) => sync(rank, () => win.getAccumulate(null, 0, mpi.BYTE, disp, 1, mpi.LONG, rank, at, 1, mpi.LONG, mpi.NO_OP)),
  };
});
