// MPICH test/mpi/rma/mcs_mutex.c and mcs_mutex.h: the MCS queue mutex over MPI-3 RMA, used by
// mutex_bench. Each rank of a duplicate of the communicator owns two ints of a window: its next
// pointer (element 0, MCS_MTX_ELEM_DISP) and, at the tail rank, the queue's tail (element 1,
// MCS_MTX_TAIL_DISP); both start at MPI_PROC_NULL, and the window stays in a lock_all epoch from
// create to free. lock swaps the caller into the tail (MPI_Fetch_and_op REPLACE) and, behind a
// previous tail, writes itself into that rank's next pointer and waits for a zero-byte message
// from it; trylock compare-and-swaps the tail from MPI_PROC_NULL to itself; unlock reads its next
// pointer (MPI_Fetch_and_op NO_OP), and with none compare-and-swaps the tail back to
// MPI_PROC_NULL, polling its next pointer (with MPI_Iprobe) until a successor that swapped in
// meanwhile has written it; then sends the successor its notification. The C build's flags pick
// the window: `shared` (USE_WIN_SHARED) MPI_Win_allocate_shared, else MPI_Win_allocate with the
// hint alloc_shm true (USE_WIN_ALLOC_SHM) or false.
import type { Comm, Info, Mpi, Win } from '../../../runtime/mpi/mpi.ts';
import { assert } from '../mtest.ts';

const MCS_MUTEX_TAG = 100;
const MCS_MTX_ELEM_DISP = 0;
const MCS_MTX_TAIL_DISP = 1;

/** The window MCS_Mutex_create makes, as the C build's flags choose it. */
export type McsWindow = 'shared' | 'alloc_shm' | 'no_alloc_shm';

/** An MCS mutex (struct mcs_mutex_s). */
export class McsMutex {
  private constructor(
    private readonly mpi: Mpi,
    private readonly tailRank: number,
    private readonly comm: Comm,
    private readonly window: Win,
    private readonly base: Int32Array,
    private readonly winInfo: Info | null,
  ) {}

  /** MCS_Mutex_create: collective on `comm`; `tailRank` holds the tail pointer. */
  static async create(mpi: Mpi, tailRank: number, comm: Comm, kind: McsWindow): Promise<McsMutex> {
    const dup = await comm.dup();
    let winInfo: Info | null = null;
    let made;
    if (kind === 'shared') {
      made = await dup.winAllocateShared(2 * 4, 4, null);
    } else {
      winInfo = mpi.infoCreate();
      winInfo.set('alloc_shm', kind === 'alloc_shm' ? 'true' : 'false');
      made = await dup.winAllocate(2 * 4, 4, winInfo);
    }
    const base = new Int32Array(made.buf.buffer, made.buf.byteOffset, 2);
    const hdl = new McsMutex(mpi, tailRank, dup, made.win, base, winInfo);
    await made.win.lockAll(0);
    base[0] = mpi.PROC_NULL;
    base[1] = mpi.PROC_NULL;
    await made.win.sync();
    await dup.barrier();
    return hdl;
  }

  /** MCS_Mutex_free: collective on the ranks of the communicator it was made on. */
  async free(): Promise<void> {
    await this.window.unlockAll();
    await this.window.free();
    await this.comm.free();
    this.winInfo?.free();
  }

  /** MCS_Mutex_lock. */
  async lock(): Promise<void> {
    const { mpi, comm, window } = this;
    const rank = comm.rank;
    const prev = new Int32Array(1);
    // this store is safe, since it cannot happen concurrently with a remote write
    this.base[MCS_MTX_ELEM_DISP] = mpi.PROC_NULL;
    await window.sync();
    await window.fetchAndOp(Int32Array.of(rank), prev, mpi.INT, this.tailRank, MCS_MTX_TAIL_DISP, mpi.REPLACE);
    await window.flush(this.tailRank);
    // if there was a previous tail, update their next pointer and wait for notification
    if (prev[0] !== mpi.PROC_NULL) {
      const p = prev[0]!;
      await window.accumulate(Int32Array.of(rank), 1, mpi.INT, p, MCS_MTX_ELEM_DISP, 1, mpi.INT, mpi.REPLACE);
      await window.flush(p);
      await comm.recv(new Uint8Array(0), 0, mpi.BYTE, p, MCS_MUTEX_TAG);
    }
  }

  /** MCS_Mutex_trylock: whether the mutex was acquired. */
  async trylock(): Promise<boolean> {
    const { mpi, comm, window } = this;
    const rank = comm.rank;
    const tail = new Int32Array(1);
    const nil = Int32Array.of(mpi.PROC_NULL);
    this.base[MCS_MTX_ELEM_DISP] = mpi.PROC_NULL;
    await window.sync();
    // check if the lock is available and claim it if it is
    await window.compareAndSwap(Int32Array.of(rank), nil, tail, mpi.INT, this.tailRank, MCS_MTX_TAIL_DISP);
    await window.flush(this.tailRank);
    return tail[0] === nil[0];
  }

  /** MCS_Mutex_unlock. */
  async unlock(): Promise<void> {
    const { mpi, comm, window } = this;
    const rank = comm.rank;
    const nproc = comm.size;
    const next = new Int32Array(1);
    await window.sync();
    // read my next pointer; fetch-and-op, since another rank may write it concurrently
    await window.fetchAndOp(null, next, mpi.INT, rank, MCS_MTX_ELEM_DISP, mpi.NO_OP);
    await window.flush(rank);
    if (next[0] === mpi.PROC_NULL) {
      const tail = new Int32Array(1);
      // am I at the tail of the queue? If not, wait for my successor to write my next pointer
      await window.compareAndSwap(Int32Array.of(mpi.PROC_NULL), Int32Array.of(rank), tail, mpi.INT, this.tailRank, MCS_MTX_TAIL_DISP);
      await window.flush(this.tailRank);
      if (tail[0] !== rank) {
        assert(tail[0]! >= 0 && tail[0]! < nproc, 'tail >= 0 && tail < nproc');
        for (;;) {
          await window.fetchAndOp(null, next, mpi.INT, rank, MCS_MTX_ELEM_DISP, mpi.NO_OP);
          await window.flush(rank);
          if (next[0] !== mpi.PROC_NULL) break;
          await mpi.iprobe(mpi.ANY_SOURCE, mpi.ANY_TAG);
        }
      }
    }
    // notify the next waiting process
    if (next[0] !== mpi.PROC_NULL) await comm.send(new Uint8Array(0), 0, mpi.BYTE, next[0]!, MCS_MUTEX_TAG);
  }
}
