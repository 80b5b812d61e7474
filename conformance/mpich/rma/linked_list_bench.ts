// MPICH test/mpi/rma/linked_list_bench_lock_all.c, linked_list_bench_lock_excl.c and
// linked_list_bench_lock_shr.c (built twice: linked_list_bench_lock_shr, and with
// -DUSE_MODE_NOCHECK linked_list_bench_lock_shr_nocheck): the distributed linked list as a
// benchmark. Rank 0 attaches the head element (value 0, its own) to a dynamic window and
// broadcasts its address; the 1000 elements are dealt out to the ranks (1000 / nproc each, one
// more for the first 1000 % nproc, the head counting as one of rank 0's), and rank p appends its
// next element only when the tail is at rank p - 1: it writes the element's 16-byte pointer into
// the tail's next in one call; otherwise it reads the tail's next and chases it if it is not nil,
// else calls MPI_Iprobe pollint times (pollint doubling up to nproc while the tail stays, halving
// down to 1 when it moves). Rank 0 then walks the list in a lock_all epoch and each rank must have
// inserted its share. The sources differ in their synchronisation and calls only:
//   lock_all             one lock_all epoch with MPI_Win_flush; MPI_Accumulate REPLACE and
//                        MPI_Get_accumulate NO_OP of MPI_BYTEs
//   lock_excl            an exclusive lock/unlock around each call; MPI_Put, MPI_Get (USE_ACC
//                        is not defined in MPICH's build)
//   lock_shr[_nocheck]   a shared lock (with MPI_MODE_NOCHECK) around each call; MPI_Accumulate
//                        REPLACE and MPI_Get_accumulate NO_OP
// The C test's timing is printed only with print_perf, which is 0. Layout and check: llist.ts.
import type { Mpi, Win } from '../../../runtime/mpi/mpi.ts';
import type { MTest, MTestResult } from '../mtest.ts';
import { checkList, ELEM_BYTES, LocalElems, NEXT_RANK, NIL, PTR_BYTES, ptrBytes, readPtr, type LlistPtr } from './llist.ts';

const NUM_ELEMS = 1000;
const MIN_NPROBE = 1;

/** How one of the sources writes and reads a tail's next pointer. */
interface Access {
  /** Before the appends (lock_all), and after them (unlock_all). */
  readonly begin: () => Promise<void>;
  readonly end: () => Promise<void>;
  /** Writes the 16 bytes of `ptr` into next of the element at `at` on `rank`. */
  readonly append: (rank: number, at: number, ptr: Uint8Array) => Promise<void>;
  /** Reads next of the element at `at` on `rank` into the 16 bytes of `ptr`. */
  readonly chase: (rank: number, at: number, ptr: Uint8Array) => Promise<void>;
}

function linkedListBenchBuild(access: (mpi: Mpi, win: Win) => Access): (mt: MTest) => Promise<MTestResult> {
  return async (mt) => {
    const { mpi } = mt;
    let errs = 0;
    const procid = mpi.rank;
    const nproc = mpi.size;
    const maxNprobe = nproc;
    let pollint = 0;
    const win = await mpi.winCreateDynamic(mpi.INFO_NULL);
    const a = access(mpi, win);
    const elems = new LocalElems(mpi, win);
    // process 0 creates the head node and broadcasts its address
    const headDisp = new BigInt64Array(1);
    if (procid === 0) headDisp[0] = BigInt(elems.alloc(procid));
    await mpi.bcast(headDisp, 1, mpi.LONG, 0);
    const head: LlistPtr = { rank: 0, disp: Number(headDisp[0]) };
    let tail = head;
    // all processes append NUM_ELEMS elements to the list; rank 0 has already appended one
    const share = (r: number): number => Math.floor(NUM_ELEMS / nproc) + (r < NUM_ELEMS % nproc ? 1 : 0);
    const myNelem = share(procid);
    await mpi.barrier();
    await a.begin();
    for (let i = procid === 0 ? 1 : 0; i < myNelem; i++) {
      const newElem: LlistPtr = { rank: procid, disp: elems.alloc(procid) };
      let success = false;
      while (!success) {
        if (tail.rank === (procid + nproc - 1) % nproc) {
          // the tail is at my left neighbour: append my element
          await a.append(tail.rank, tail.disp + NEXT_RANK, ptrBytes(newElem));
          success = true;
          tail = newElem;
        } else {
          // otherwise, chase the tail
          const next = new Uint8Array(PTR_BYTES);
          await a.chase(tail.rank, tail.disp + NEXT_RANK, next);
          const nextTail = readPtr(next);
          if (nextTail.rank !== NIL.rank) {
            tail = nextTail;
            pollint = Math.max(MIN_NPROBE, Math.trunc(pollint / 2));
          } else {
            for (let j = 0; j < pollint; j++) await mpi.iprobe(mpi.ANY_SOURCE, mpi.ANY_TAG);
            pollint = Math.min(maxNprobe, pollint * 2);
          }
        }
      }
    }
    await a.end();
    await mpi.barrier();
    // traverse the list and verify that all processes inserted exactly the correct number of elements
    if (procid === 0) {
      await win.lockAll(0);
      errs += await checkList(mt, head, false, share, async (p, elem) => {
        await win.get(elem, ELEM_BYTES, mpi.BYTE, p.rank, p.disp, ELEM_BYTES, mpi.BYTE);
        await win.flush(p.rank);
      });
      await win.unlockAll();
    }
    await win.free();
    elems.freeAll();
    return mt.finalize(errs);
  };
}

const none = async (): Promise<void> => {};

/** linked_list_bench_lock_all.c: one lock_all epoch, a flush after each call. */
export const linkedListBenchLockAll = linkedListBenchBuild((mpi, win) => ({
  begin: () => win.lockAll(0),
  end: () => win.unlockAll(),
  append: async (rank, at, ptr) => {
    await win.accumulate(ptr, PTR_BYTES, mpi.BYTE, rank, at, PTR_BYTES, mpi.BYTE, mpi.REPLACE);
    await win.flush(rank);
  },
  chase: async (rank, at, ptr) => {
    await win.getAccumulate(null, 0, mpi.BYTE, ptr, PTR_BYTES, mpi.BYTE, rank, at, PTR_BYTES, mpi.BYTE, mpi.NO_OP);
    await win.flush(rank);
  },
}));

/** linked_list_bench_lock_excl.c: an exclusive lock around each put and get. */
export const linkedListBenchLockExcl = linkedListBenchBuild((mpi, win) => ({
  begin: none,
  end: none,
  append: async (rank, at, ptr) => {
    await win.lock(mpi.LOCK_EXCLUSIVE, rank, 0);
    await win.put(ptr, PTR_BYTES, mpi.BYTE, rank, at, PTR_BYTES, mpi.BYTE);
    await win.unlock(rank);
  },
  chase: async (rank, at, ptr) => {
    await win.lock(mpi.LOCK_EXCLUSIVE, rank, 0);
    await win.get(ptr, PTR_BYTES, mpi.BYTE, rank, at, PTR_BYTES, mpi.BYTE);
    await win.unlock(rank);
  },
}));

function lockShr(noCheck: boolean): (mpi: Mpi, win: Win) => Access {
  return (mpi, win) => ({
    begin: none,
    end: none,
    append: async (rank, at, ptr) => {
      await win.lock(mpi.LOCK_SHARED, rank, noCheck ? mpi.MODE_NOCHECK : 0);
      await win.accumulate(ptr, PTR_BYTES, mpi.BYTE, rank, at, PTR_BYTES, mpi.BYTE, mpi.REPLACE);
      await win.unlock(rank);
    },
    chase: async (rank, at, ptr) => {
      await win.lock(mpi.LOCK_SHARED, rank, noCheck ? mpi.MODE_NOCHECK : 0);
      await win.getAccumulate(null, 0, mpi.BYTE, ptr, PTR_BYTES, mpi.BYTE, rank, at, PTR_BYTES, mpi.BYTE, mpi.NO_OP);
      await win.unlock(rank);
    },
  });
}

/** linked_list_bench_lock_shr.c: a shared lock around each call. */
export const linkedListBenchLockShr = linkedListBenchBuild(lockShr(false));
/** linked_list_bench_lock_shr_nocheck: the same with MPI_MODE_NOCHECK. */
export const linkedListBenchLockShrNocheck = linkedListBenchBuild(lockShr(true));
