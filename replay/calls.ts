/**
 * The MPI calls of a trace as the replay issues them: every reader (SimGrid time-independent,
 * DUMPI, OTF2) turns its records into these, one rank at a time, and the replay program
 * (`replay.ts`) issues each through phit's MPI. Sizes are bytes; ranks are relative to the
 * call's communicator; communicators and requests are the trace's own handles (numbers).
 */

/** The trace handle of MPI_COMM_WORLD (DUMPI's number for it; the SimGrid reader uses it for every call). */
export const WORLD = 2;
/** The trace handle of MPI_COMM_SELF. */
export const SELF = 3;
/** A receive from any source. */
export const ANY_SOURCE = -1;
/** A receive with any tag. */
export const ANY_TAG = -1;
/** A send or receive with no partner (MPI_PROC_NULL): nothing moves. */
export const PROC_NULL = -3;

/** Reduction ops a trace can name (DUMPI records them; SimGrid does not, and gets `sum`). */
export type TraceOp = 'sum' | 'max' | 'min' | 'prod' | 'land' | 'band' | 'lor' | 'bor' | 'lxor' | 'bxor' | 'minloc' | 'maxloc' | 'replace';

/** Send modes of MPI's point-to-point calls. */
export type SendMode = 'standard' | 'sync' | 'ready' | 'buffered';

/** The fields every call has: the traced function's name (`MPI_Isend`, or SimGrid's `isend`). */
interface Named {
  readonly name: string;
}

/** A point-to-point send; `req` set for a nonblocking one (the request handle it made). */
export interface SendCall extends Named {
  readonly call: 'send';
  readonly mode: SendMode;
  readonly comm: number;
  readonly peer: number;
  readonly tag: number;
  readonly bytes: number;
  readonly req?: number;
}

/** A point-to-point receive; `req` set for a nonblocking one. */
export interface RecvCall extends Named {
  readonly call: 'recv';
  readonly comm: number;
  readonly peer: number;
  readonly tag: number;
  readonly bytes: number;
  readonly req?: number;
}

/** MPI_Sendrecv. */
export interface SendrecvCall extends Named {
  readonly call: 'sendrecv';
  readonly comm: number;
  readonly dest: number;
  readonly sendTag: number;
  readonly sendBytes: number;
  readonly source: number;
  readonly recvTag: number;
  readonly recvBytes: number;
}

/**
 * Completion calls on the requests the trace names (`reqs`; `null`: every request this rank
 * has pending, as SimGrid's waitall). A request the replay already completed is passed over.
 */
export interface CompletionCall extends Named {
  readonly call: 'wait' | 'waitall' | 'waitany' | 'waitsome' | 'test' | 'testall' | 'testany' | 'testsome';
  readonly reqs: readonly number[] | null;
}

/** A collective with one block of data per rank (or none: barrier). */
export interface CollCall extends Named {
  readonly call: 'barrier' | 'bcast' | 'reduce' | 'allreduce' | 'scan' | 'exscan' | 'alltoall' | 'allgather' | 'gather' | 'scatter';
  readonly comm: number;
  /** Elements per rank (bcast, reductions: the buffer; alltoall, allgather, gather, scatter: one rank's block). */
  readonly count: number;
  /** Bytes of one element. */
  readonly typeBytes: number;
  readonly root: number;
  readonly op: TraceOp;
  /** Flops SimGrid charges after a reduction (its trace's comp_size), else 0. */
  readonly flops: number;
  /** A nonblocking collective (MPI_Ibcast, ...): the request it made. */
  readonly req?: number;
}

/** A collective with a count per rank, in elements of `typeBytes`. */
export interface VCollCall extends Named {
  readonly call: 'alltoallv' | 'allgatherv' | 'gatherv' | 'scatterv' | 'reduceScatter';
  readonly comm: number;
  readonly typeBytes: number;
  /** alltoallv: elements to each rank; allgatherv, gatherv: this rank's send count (one entry); scatterv: counts at the root. */
  readonly sendCounts: readonly number[] | null;
  /** alltoallv: elements from each rank; allgatherv, gatherv (root), reduceScatter: counts per rank; scatterv: this rank's (one entry). */
  readonly recvCounts: readonly number[] | null;
  readonly root: number;
  readonly op: TraceOp;
  readonly flops: number;
  /** A nonblocking collective (MPI_Igatherv, ...): the request it made. */
  readonly req?: number;
}

/** A communicator made from `comm` (split by color and key, or a duplicate); `newComm` is the trace's handle, or null where the rank got MPI_COMM_NULL. */
export interface CommCall extends Named {
  readonly call: 'split' | 'dup' | 'free';
  readonly comm: number;
  readonly color: number;
  readonly key: number;
  readonly newComm: number | null;
}

/** A persistent request made (MPI_Send_init, MPI_Recv_init, ...): `op` is the send or receive (with `req`) each start of it issues. */
export interface InitCall extends Named {
  readonly call: 'init';
  readonly req: number;
  readonly op: SendCall | RecvCall;
}

/** MPI_Start (one request) and MPI_Startall: persistent requests started. */
export interface StartCall extends Named {
  readonly call: 'start';
  readonly reqs: readonly number[];
}

/** MPI_Request_free and MPI_Cancel of one request. */
export interface RequestCall extends Named {
  readonly call: 'requestFree' | 'cancel';
  readonly req: number;
}

/** MPI_Probe (blocking) and MPI_Iprobe of a message from `peer` with `tag` on `comm`. */
export interface ProbeCall extends Named {
  readonly call: 'probe' | 'iprobe';
  readonly comm: number;
  readonly peer: number;
  readonly tag: number;
}

/** A window made on `comm` (MPI_Win_create; MPI_Win_allocate too): `bytes` of this rank's memory, in units of `dispUnit` bytes. `win` is the trace's handle. */
export interface WinCreateCall extends Named {
  readonly call: 'winCreate';
  readonly comm: number;
  readonly win: number;
  readonly bytes: number;
  readonly dispUnit: number;
}

/** A one-sided transfer: `count` elements of `typeBytes` to or from rank `target` of the window at displacement `disp` (units of the target's dispUnit); `op` for an accumulate. */
export interface RmaCall extends Named {
  readonly call: 'put' | 'get' | 'accumulate';
  readonly win: number;
  readonly target: number;
  readonly disp: number;
  readonly count: number;
  readonly typeBytes: number;
  readonly op: TraceOp;
}

/**
 * A window's synchronisation, or its release (winFree): fence, the start/complete and post/wait
 * (test) epochs of `group` (ranks of the window's communicator), lock and unlock of `target`.
 */
export interface WinSyncCall extends Named {
  readonly call: 'winFree' | 'fence' | 'winStart' | 'winComplete' | 'winPost' | 'winWait' | 'winTest' | 'lock' | 'unlock';
  readonly win: number;
  /** winStart, winPost: the ranks of the epoch; else null. */
  readonly group: readonly number[] | null;
  /** lock, unlock: the target rank; else -1. */
  readonly target: number;
  /** lock: exclusive (MPI_LOCK_EXCLUSIVE) or shared. */
  readonly exclusive: boolean;
  /** MPI_MODE_* assertions (fence, start, post, lock) as DUMPI numbers them: NOCHECK 1, NOSTORE 2, NOPUT 4, NOPRECEDE 8, NOSUCCEED 16. */
  readonly assert: number;
  /** winTest: whether the test ended the exposure epoch. */
  readonly flag?: boolean;
}

/** Time between two calls: a duration (DUMPI's clocks, SimGrid's sleep) or flops (SimGrid's compute). */
export interface ComputeCall extends Named {
  readonly call: 'compute';
  readonly ps: number;
  readonly flops: number;
}

/** A call that moves nothing and costs nothing in the replay (MPI_Comm_rank, MPI_Wtime, MPI_Init, ...). */
export interface LocalCall extends Named {
  readonly call: 'local';
}

/** A call the replay does not issue; with `--unsupported map` its `nearest` supported call runs instead (null: none, so skipped). */
export interface UnsupportedCall extends Named {
  readonly call: 'unsupported';
  readonly nearest: TraceCall | null;
}

/** One call of a trace. */
export type TraceCall =
  | SendCall | RecvCall | SendrecvCall | CompletionCall | CollCall | VCollCall | CommCall | InitCall | StartCall | RequestCall | ProbeCall
  | WinCreateCall | RmaCall | WinSyncCall | ComputeCall | LocalCall | UnsupportedCall;

/** One rank's calls, read as they are needed. */
export interface RankTrace {
  /** The next call, or null after the last. Throws a TraceFormatError on a bad or truncated file. */
  next(): TraceCall | null;
}

/** A trace on disk: its ranks and a reader for each. */
export interface TraceSource {
  /** The format's name (`simgrid`, `dumpi`, `otf2`). */
  readonly format: string;
  /** The file named on the command line. */
  readonly path: string;
  readonly ranks: number;
  /** What the replay should say once about the trace (on stderr), if anything. */
  readonly warnings?: readonly string[];
  /** A fresh reader of `rank`'s calls. */
  open(rank: number): RankTrace;
}

/** A bad or truncated trace file: one line naming the file, the byte offset or line, and what was expected. */
export class TraceFormatError extends RangeError {
  constructor(message: string) {
    super(message);
    this.name = 'TraceFormatError';
  }
}
