import type { CollOptions } from './constants.ts';
import { CollComm } from './comm-coll.ts';
import { IN_PLACE } from './constants.ts';
import type { Datatype } from './datatype.ts';
import type { Op, ReduceArray } from './ops.ts';
import { PersistentRequest } from './persistent.ts';
import { MpiError, type Request } from './request.ts';

/**
 * Persistent collectives (MPI 4.0 §6.13): `allreduceInit(...)` and the others bind a
 * collective's arguments to an inactive request; each `start` (or `startAll`) runs the
 * nonblocking collective once with the buffers' data of then (short or long, datatype, form), and a wait or test completes it and
 * leaves the request ready for the next start. Persistent collectives match in the order of their
 * init calls (every rank makes its inits, like its collective calls, in the same order); a rank
 * may start its requests in any order. The arguments are checked at each start (against the
 * other ranks' starts of the same request). The request's allocation (mpi.requestOverhead) is
 * paid once, at the init.
 */
export class PersistentCollComm extends CollComm {
  /** Persistent barrier (MPI_Barrier_init): each `start` runs one ibarrier with these arguments. */
  barrierInit(opts?: CollOptions): Request {
    return this.collInit('barrierInit', () => this.ibarrier(opts));
  }

  /** Persistent bcast (MPI_Bcast_init): each `start` runs one ibcast with these arguments. */
  bcastInit(buf: ReduceArray, root: number, opts?: CollOptions): Request;
  /** MPI_Bcast_init's long form: `count` elements of `datatype` at `buf`. */
  bcastInit(buf: ArrayBufferView, count: number, datatype: Datatype, root: number, opts?: CollOptions): Request;
  bcastInit(...a: unknown[]): Request {
    return this.collInit('bcastInit', () => (this.ibcast as (...x: unknown[]) => Request)(...a));
  }

  /** Persistent reduce (MPI_Reduce_init): each `start` runs one ireduce with these arguments. */
  reduceInit(sendBuf: ReduceArray | typeof IN_PLACE, recvBuf: ReduceArray | null, op: Op, root: number, opts?: CollOptions): Request;
  /** MPI_Reduce_init's long form: `count` elements of `datatype` (predefined, or contiguous of one) from each rank. */
  reduceInit(sendBuf: ArrayBufferView | typeof IN_PLACE, recvBuf: ArrayBufferView | null, count: number, datatype: Datatype, op: Op, root: number, opts?: CollOptions): Request;
  reduceInit(...a: unknown[]): Request {
    return this.collInit('reduceInit', () => (this.ireduce as (...x: unknown[]) => Request)(...a));
  }

  /** Persistent allreduce (MPI_Allreduce_init): each `start` runs one iallreduce with these arguments. */
  allreduceInit(sendBuf: ReduceArray | typeof IN_PLACE, recvBuf: ReduceArray, op: Op, opts?: CollOptions): Request;
  /** MPI_Allreduce_init's long form: `count` elements of `datatype` (predefined, or contiguous of one). */
  allreduceInit(sendBuf: ArrayBufferView | typeof IN_PLACE, recvBuf: ArrayBufferView, count: number, datatype: Datatype, op: Op, opts?: CollOptions): Request;
  allreduceInit(...a: unknown[]): Request {
    return this.collInit('allreduceInit', () => (this.iallreduce as (...x: unknown[]) => Request)(...a));
  }

  /** Persistent allgather (MPI_Allgather_init): each `start` runs one iallgather with these arguments. */
  allgatherInit(sendBuf: ReduceArray | typeof IN_PLACE, recvBuf: ReduceArray, opts?: CollOptions): Request;
  /** MPI_Allgather_init's long form: `sendCount` elements of `sendType` from each rank, `recvCount` elements of `recvType` per rank received. */
  allgatherInit(sendBuf: ArrayBufferView | typeof IN_PLACE, sendCount: number, sendType: Datatype | null, recvBuf: ArrayBufferView, recvCount: number, recvType: Datatype, opts?: CollOptions): Request;
  allgatherInit(...a: unknown[]): Request {
    return this.collInit('allgatherInit', () => (this.iallgather as (...x: unknown[]) => Request)(...a));
  }

  /** Persistent allgatherv (MPI_Allgatherv_init): each `start` runs one iallgatherv with these arguments. */
  allgathervInit(sendBuf: ReduceArray | typeof IN_PLACE, recvBuf: ReduceArray, counts: ArrayLike<number>, displs: ArrayLike<number>, opts?: CollOptions): Request;
  /** MPI_Allgatherv_init's long form: rank r's block is `recvCounts[r]` elements of `recvType` at `displs[r]` extents of it. */
  allgathervInit(sendBuf: ArrayBufferView | typeof IN_PLACE, sendCount: number, sendType: Datatype | null, recvBuf: ArrayBufferView, recvCounts: ArrayLike<number>, displs: ArrayLike<number>, recvType: Datatype, opts?: CollOptions): Request;
  allgathervInit(...a: unknown[]): Request {
    return this.collInit('allgathervInit', () => (this.iallgatherv as (...x: unknown[]) => Request)(...a));
  }

  /** Persistent alltoall (MPI_Alltoall_init): each `start` runs one ialltoall with these arguments. */
  alltoallInit(sendBuf: ReduceArray | typeof IN_PLACE, recvBuf: ReduceArray, opts?: CollOptions): Request;
  /** MPI_Alltoall_init's long form: `sendCount` elements of `sendType` to each rank, `recvCount` of `recvType` from each. */
  alltoallInit(sendBuf: ArrayBufferView | typeof IN_PLACE, sendCount: number, sendType: Datatype | null, recvBuf: ArrayBufferView, recvCount: number, recvType: Datatype, opts?: CollOptions): Request;
  alltoallInit(...a: unknown[]): Request {
    return this.collInit('alltoallInit', () => (this.ialltoall as (...x: unknown[]) => Request)(...a));
  }

  /** Persistent alltoallv (MPI_Alltoallv_init): each `start` runs one ialltoallv with these arguments. */
  alltoallvInit(sendBuf: ReduceArray | typeof IN_PLACE, sendCounts: ArrayLike<number> | null, sendDispls: ArrayLike<number> | null, recvBuf: ReduceArray, recvCounts: ArrayLike<number>, recvDispls: ArrayLike<number>, opts?: CollOptions): Request;
  /** MPI_Alltoallv_init's long form: counts in elements of `sendType`/`recvType`, displacements in their extents. */
  alltoallvInit(sendBuf: ArrayBufferView | typeof IN_PLACE, sendCounts: ArrayLike<number> | null, sendDispls: ArrayLike<number> | null, sendType: Datatype | null, recvBuf: ArrayBufferView, recvCounts: ArrayLike<number>, recvDispls: ArrayLike<number>, recvType: Datatype, opts?: CollOptions): Request;
  alltoallvInit(...a: unknown[]): Request {
    return this.collInit('alltoallvInit', () => (this.ialltoallv as (...x: unknown[]) => Request)(...a));
  }

  /** Persistent reduceScatter (MPI_Reduce_scatter_init): each `start` runs one ireduceScatter with these arguments. */
  reduceScatterInit(sendBuf: ReduceArray | typeof IN_PLACE, recvBuf: ReduceArray, recvCounts: ArrayLike<number>, op: Op, opts?: CollOptions): Request;
  /** MPI_Reduce_scatter_init's long form: counts in elements of `datatype` (predefined, or contiguous of one). */
  reduceScatterInit(sendBuf: ArrayBufferView | typeof IN_PLACE, recvBuf: ArrayBufferView, recvCounts: ArrayLike<number>, datatype: Datatype, op: Op, opts?: CollOptions): Request;
  reduceScatterInit(...a: unknown[]): Request {
    return this.collInit('reduceScatterInit', () => (this.ireduceScatter as (...x: unknown[]) => Request)(...a));
  }

  /** Persistent reduceScatterBlock (MPI_Reduce_scatter_block_init): each `start` runs one ireduceScatterBlock with these arguments. */
  reduceScatterBlockInit(sendBuf: ReduceArray | typeof IN_PLACE, recvBuf: ReduceArray, op: Op, opts?: CollOptions): Request;
  /** MPI_Reduce_scatter_block_init's long form: `recvCount` elements of `datatype` per rank. */
  reduceScatterBlockInit(sendBuf: ArrayBufferView | typeof IN_PLACE, recvBuf: ArrayBufferView, recvCount: number, datatype: Datatype, op: Op, opts?: CollOptions): Request;
  reduceScatterBlockInit(...a: unknown[]): Request {
    return this.collInit('reduceScatterBlockInit', () => (this.ireduceScatterBlock as (...x: unknown[]) => Request)(...a));
  }

  /** Persistent gather (MPI_Gather_init): each `start` runs one igather with these arguments. */
  gatherInit(sendBuf: ReduceArray | typeof IN_PLACE, recvBuf: ReduceArray | null, root: number, opts?: CollOptions): Request;
  /** MPI_Gather_init's long form: `recvCount` elements of `recvType` per rank at the root (recv arguments matter there only). */
  gatherInit(sendBuf: ArrayBufferView, sendCount: number, sendType: Datatype, recvBuf: ArrayBufferView | null, recvCount: number, recvType: Datatype | null, root: number, opts?: CollOptions): Request;
  gatherInit(...a: unknown[]): Request {
    return this.collInit('gatherInit', () => (this.igather as (...x: unknown[]) => Request)(...a));
  }

  /** Persistent gatherv (MPI_Gatherv_init): each `start` runs one igatherv with these arguments. */
  gathervInit(sendBuf: ReduceArray | typeof IN_PLACE, recvBuf: ReduceArray | null, counts: ArrayLike<number> | null, displs: ArrayLike<number> | null, root: number, opts?: CollOptions): Request;
  /** MPI_Gatherv_init's long form: rank r's block is `recvCounts[r]` elements of `recvType` at `displs[r]` extents of it (at the root). */
  gathervInit(sendBuf: ArrayBufferView | typeof IN_PLACE, sendCount: number, sendType: Datatype, recvBuf: ArrayBufferView | null, recvCounts: ArrayLike<number> | null, displs: ArrayLike<number> | null, recvType: Datatype | null, root: number, opts?: CollOptions): Request;
  gathervInit(...a: unknown[]): Request {
    return this.collInit('gathervInit', () => (this.igatherv as (...x: unknown[]) => Request)(...a));
  }

  /** Persistent scatter (MPI_Scatter_init): each `start` runs one iscatter with these arguments. */
  scatterInit(sendBuf: ReduceArray | null, recvBuf: ReduceArray | typeof IN_PLACE, root: number, opts?: CollOptions): Request;
  /** MPI_Scatter_init's long form: `sendCount` elements of `sendType` per rank from the root (send arguments matter there only). */
  scatterInit(sendBuf: ArrayBufferView | null, sendCount: number, sendType: Datatype | null, recvBuf: ArrayBufferView, recvCount: number, recvType: Datatype, root: number, opts?: CollOptions): Request;
  scatterInit(...a: unknown[]): Request {
    return this.collInit('scatterInit', () => (this.iscatter as (...x: unknown[]) => Request)(...a));
  }

  /** Persistent scatterv (MPI_Scatterv_init): each `start` runs one iscatterv with these arguments. */
  scattervInit(sendBuf: ReduceArray | null, counts: ArrayLike<number> | null, displs: ArrayLike<number> | null, recvBuf: ReduceArray | typeof IN_PLACE, root: number, opts?: CollOptions): Request;
  /** MPI_Scatterv_init's long form: block r is `sendCounts[r]` elements of `sendType` at `displs[r]` extents of it (at the root). */
  scattervInit(sendBuf: ArrayBufferView | null, sendCounts: ArrayLike<number> | null, displs: ArrayLike<number> | null, sendType: Datatype | null, recvBuf: ArrayBufferView | typeof IN_PLACE, recvCount: number, recvType: Datatype, root: number, opts?: CollOptions): Request;
  scattervInit(...a: unknown[]): Request {
    return this.collInit('scattervInit', () => (this.iscatterv as (...x: unknown[]) => Request)(...a));
  }

  /** Persistent scan (MPI_Scan_init): each `start` runs one iscan with these arguments. */
  scanInit(sendBuf: ReduceArray | typeof IN_PLACE, recvBuf: ReduceArray, op: Op, opts?: CollOptions): Request;
  /** MPI_Scan_init's long form: `count` elements of `datatype` (predefined, or contiguous of one). */
  scanInit(sendBuf: ArrayBufferView | typeof IN_PLACE, recvBuf: ArrayBufferView, count: number, datatype: Datatype, op: Op, opts?: CollOptions): Request;
  scanInit(...a: unknown[]): Request {
    return this.collInit('scanInit', () => (this.iscan as (...x: unknown[]) => Request)(...a));
  }

  /** Persistent exscan (MPI_Exscan_init): each `start` runs one iexscan with these arguments. */
  exscanInit(sendBuf: ReduceArray | typeof IN_PLACE, recvBuf: ReduceArray, op: Op, opts?: CollOptions): Request;
  /** MPI_Exscan_init's long form: `count` elements of `datatype` (predefined, or contiguous of one). */
  exscanInit(sendBuf: ArrayBufferView | typeof IN_PLACE, recvBuf: ArrayBufferView, count: number, datatype: Datatype, op: Op, opts?: CollOptions): Request;
  exscanInit(...a: unknown[]): Request {
    return this.collInit('exscanInit', () => (this.iexscan as (...x: unknown[]) => Request)(...a));
  }
  /**
   * Persistent alltoallw (MPI_Alltoallw_init): each `start` runs one ialltoallw with these
   * arguments (blocks of their own datatypes at byte displacements).
   */
  alltoallwInit(sendBuf: ArrayBufferView | typeof IN_PLACE, sendCounts: ArrayLike<number> | null, sendDispls: ArrayLike<number> | null, sendTypes: readonly Datatype[] | null, recvBuf: ArrayBufferView, recvCounts: ArrayLike<number>, recvDispls: ArrayLike<number>, recvTypes: readonly Datatype[], opts?: CollOptions): Request {
    return this.collInit('alltoallwInit', () => this.ialltoallw(sendBuf, sendCounts, sendDispls, sendTypes, recvBuf, recvCounts, recvDispls, recvTypes, opts));
  }

  protected collInit(call: string, startOp: () => Request): Request {
    this.live(call);
    const P = this.world.params;
    const pin = this.reserveCall({ call });
    if (P.requestOverheadPs > 0) this.proc.charge(P.requestOverheadPs);
    return new PersistentRequest(this.proc, P.testOverheadPs, `${call}()`, this.world.progressOf(this.proc.rank), () => this.startPinned(pin, () => named(call, startOp)));
  }
}

/**
 * Runs a start's nonblocking collective; an argument error it raises names the persistent call
 * (`bcastInit (at start): root=9 ...`), not the nonblocking one it runs.
 */
function named(call: string, startOp: () => Request): Request {
  try {
    return startOp();
  } catch (e) {
    if (!(e instanceof MpiError)) throw e;
    throw new MpiError(e.errorClass, e.message.slice(e.errorClass.length + 2).replace(/^[A-Za-z]+/, `${call} (at start)`));
  }
}
