import type { CollOptions } from './constants.ts';
import { CollComm } from './comm-coll.ts';
import { IN_PLACE } from './constants.ts';
import type { Op, ReduceArray } from './ops.ts';
import { PersistentRequest } from './persistent.ts';
import type { Request } from './request.ts';

/**
 * Persistent collectives (MPI 4.0 §6.13): `allreduceInit(...)` and the others bind a
 * collective's arguments to an inactive request; each `start` (or `startAll`) runs the
 * nonblocking collective once with the buffers' data of then, and a wait or test completes it and
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
  bcastInit(buf: ReduceArray, root: number, opts?: CollOptions): Request {
    return this.collInit('bcastInit', () => this.ibcast(buf, root, opts));
  }

  /** Persistent reduce (MPI_Reduce_init): each `start` runs one ireduce with these arguments. */
  reduceInit(sendBuf: ReduceArray | typeof IN_PLACE, recvBuf: ReduceArray | null, op: Op, root: number, opts?: CollOptions): Request {
    return this.collInit('reduceInit', () => this.ireduce(sendBuf, recvBuf, op, root, opts));
  }

  /** Persistent allreduce (MPI_Allreduce_init): each `start` runs one iallreduce with these arguments. */
  allreduceInit(sendBuf: ReduceArray | typeof IN_PLACE, recvBuf: ReduceArray, op: Op, opts?: CollOptions): Request {
    return this.collInit('allreduceInit', () => this.iallreduce(sendBuf, recvBuf, op, opts));
  }

  /** Persistent allgather (MPI_Allgather_init): each `start` runs one iallgather with these arguments. */
  allgatherInit(sendBuf: ReduceArray | typeof IN_PLACE, recvBuf: ReduceArray, opts?: CollOptions): Request {
    return this.collInit('allgatherInit', () => this.iallgather(sendBuf, recvBuf, opts));
  }

  /** Persistent allgatherv (MPI_Allgatherv_init): each `start` runs one iallgatherv with these arguments. */
  allgathervInit(sendBuf: ReduceArray | typeof IN_PLACE, recvBuf: ReduceArray, counts: ArrayLike<number>, displs: ArrayLike<number>, opts?: CollOptions): Request {
    return this.collInit('allgathervInit', () => this.iallgatherv(sendBuf, recvBuf, counts, displs, opts));
  }

  /** Persistent alltoall (MPI_Alltoall_init): each `start` runs one ialltoall with these arguments. */
  alltoallInit(sendBuf: ReduceArray | typeof IN_PLACE, recvBuf: ReduceArray, opts?: CollOptions): Request {
    return this.collInit('alltoallInit', () => this.ialltoall(sendBuf, recvBuf, opts));
  }

  /** Persistent alltoallv (MPI_Alltoallv_init): each `start` runs one ialltoallv with these arguments. */
  alltoallvInit(sendBuf: ReduceArray | typeof IN_PLACE, sendCounts: ArrayLike<number> | null, sendDispls: ArrayLike<number> | null, recvBuf: ReduceArray, recvCounts: ArrayLike<number>, recvDispls: ArrayLike<number>, opts?: CollOptions): Request {
    return this.collInit('alltoallvInit', () => this.ialltoallv(sendBuf, sendCounts, sendDispls, recvBuf, recvCounts, recvDispls, opts));
  }

  /** Persistent reduceScatter (MPI_Reduce_scatter_init): each `start` runs one ireduceScatter with these arguments. */
  reduceScatterInit(sendBuf: ReduceArray | typeof IN_PLACE, recvBuf: ReduceArray, recvCounts: ArrayLike<number>, op: Op, opts?: CollOptions): Request {
    return this.collInit('reduceScatterInit', () => this.ireduceScatter(sendBuf, recvBuf, recvCounts, op, opts));
  }

  /** Persistent reduceScatterBlock (MPI_Reduce_scatter_block_init): each `start` runs one ireduceScatterBlock with these arguments. */
  reduceScatterBlockInit(sendBuf: ReduceArray | typeof IN_PLACE, recvBuf: ReduceArray, op: Op, opts?: CollOptions): Request {
    return this.collInit('reduceScatterBlockInit', () => this.ireduceScatterBlock(sendBuf, recvBuf, op, opts));
  }

  /** Persistent gather (MPI_Gather_init): each `start` runs one igather with these arguments. */
  gatherInit(sendBuf: ReduceArray | typeof IN_PLACE, recvBuf: ReduceArray | null, root: number, opts?: CollOptions): Request {
    return this.collInit('gatherInit', () => this.igather(sendBuf, recvBuf, root, opts));
  }

  /** Persistent gatherv (MPI_Gatherv_init): each `start` runs one igatherv with these arguments. */
  gathervInit(sendBuf: ReduceArray | typeof IN_PLACE, recvBuf: ReduceArray | null, counts: ArrayLike<number> | null, displs: ArrayLike<number> | null, root: number, opts?: CollOptions): Request {
    return this.collInit('gathervInit', () => this.igatherv(sendBuf, recvBuf, counts, displs, root, opts));
  }

  /** Persistent scatter (MPI_Scatter_init): each `start` runs one iscatter with these arguments. */
  scatterInit(sendBuf: ReduceArray | null, recvBuf: ReduceArray | typeof IN_PLACE, root: number, opts?: CollOptions): Request {
    return this.collInit('scatterInit', () => this.iscatter(sendBuf, recvBuf, root, opts));
  }

  /** Persistent scatterv (MPI_Scatterv_init): each `start` runs one iscatterv with these arguments. */
  scattervInit(sendBuf: ReduceArray | null, counts: ArrayLike<number> | null, displs: ArrayLike<number> | null, recvBuf: ReduceArray | typeof IN_PLACE, root: number, opts?: CollOptions): Request {
    return this.collInit('scattervInit', () => this.iscatterv(sendBuf, counts, displs, recvBuf, root, opts));
  }

  /** Persistent scan (MPI_Scan_init): each `start` runs one iscan with these arguments. */
  scanInit(sendBuf: ReduceArray | typeof IN_PLACE, recvBuf: ReduceArray, op: Op, opts?: CollOptions): Request {
    return this.collInit('scanInit', () => this.iscan(sendBuf, recvBuf, op, opts));
  }

  /** Persistent exscan (MPI_Exscan_init): each `start` runs one iexscan with these arguments. */
  exscanInit(sendBuf: ReduceArray | typeof IN_PLACE, recvBuf: ReduceArray, op: Op, opts?: CollOptions): Request {
    return this.collInit('exscanInit', () => this.iexscan(sendBuf, recvBuf, op, opts));
  }

  protected collInit(call: string, startOp: () => Request): Request {
    this.live(call);
    const P = this.world.params;
    const pin = this.reserveCall({ call });
    if (P.requestOverheadPs > 0) this.proc.charge(P.requestOverheadPs);
    return new PersistentRequest(this.proc, P.testOverheadPs, `${call}()`, this.world.progressOf(this.proc.rank), () => this.startPinned(pin, startOp));
  }
}
