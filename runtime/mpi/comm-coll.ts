import { IN_PLACE, type CollOptions } from './constants.ts';
import type { Datatype } from './datatype.ts';
import * as typed from './datatype-coll.ts';
import type { Op, ReduceArray } from './ops.ts';
import { MpiError, Request } from './request.ts';
import { CollBase, checkOp, collBuf, pairedCounts, rootCounts, sameShape, sameType } from './comm-coll-base.ts';

export { checkOp, collBuf, sameShape, sameType, tagged } from './comm-coll-base.ts';

/**
 * A communicator's collectives (MPI chapter 6): blocking and nonblocking, short forms on typed
 * arrays and long forms (buffer, count, datatype), run over CollBase's schedule driver.
 */
export class CollComm extends CollBase {
  /** Blocks until every rank of the communicator has called barrier. */
  async barrier(opts?: CollOptions): Promise<void> {
    this.agree({ call: 'barrier', algorithm: opts?.algorithm });
    if (this.useCe('barrier', opts)) await this.ceReduce('barrier', null, null, undefined);
    else if (this.useNodeAware(opts)) await this.smpReduce('barrier', null, null, undefined);
    else await this.collective(this.algorithm('barrier', 0, undefined, opts).fn(this.transport), 'barrier');
  }

  /** Nonblocking barrier (MPI_Ibarrier): its request completes once every rank has called it. */
  ibarrier(opts?: CollOptions): Request {
    this.agree({ call: 'ibarrier', algorithm: opts?.algorithm });
    return this.launch(this.algorithm('barrier', 0, undefined, opts).fn(this.transport), 'ibarrier', false);
  }

  /** Copies the root's `buf` into every rank's `buf` (MPI_Bcast). */
  bcast(buf: ReduceArray, root: number, opts?: CollOptions): Promise<void>;
  /** MPI_Bcast's long form: `count` elements of `datatype` at `buf`. */
  bcast(buf: ArrayBufferView, count: number, datatype: Datatype, root: number, opts?: CollOptions): Promise<void>;
  async bcast(...a: unknown[]): Promise<void> {
    if (typed.longForm(a, 3)) return typed.bcastLong(this, this.packer, a) as Promise<void>;
    const [buf, root, opts] = a as [ReduceArray, number, CollOptions?];
    await this.finish(this.bcastIn('bcast', buf, root, opts, true));
  }

  /** Nonblocking bcast (MPI_Ibcast): starts it and returns its request; it progresses inside this rank's MPI calls. */
  ibcast(buf: ReduceArray, root: number, opts?: CollOptions): Request;
  /** MPI_Bcast's nonblocking long form: `count` elements of `datatype` at `buf`. */
  ibcast(buf: ArrayBufferView, count: number, datatype: Datatype, root: number, opts?: CollOptions): Request;
  ibcast(...a: unknown[]): Request {
    if (typed.longForm(a, 3)) return typed.bcastLong(this, this.packer, a, 'nonblocking', 'ibcast') as Request;
    const [buf, root, opts] = a as [ReduceArray, number, CollOptions?];
    return this.bcastIn('ibcast', buf, root, opts, false);
  }

  private bcastIn(call: string, buf: ReduceArray, root: number, opts: CollOptions | undefined, blocking: boolean): Request {
    const b = collBuf(call, 'buf', buf);
    this.checkRoot(call, root);
    this.agree({ call, root, ...this.dataSignature(b, 'elements in buf'), algorithm: opts?.algorithm });
    return this.launch(this.algorithm('bcast', b.byteLength, undefined, opts).fn(this.transport, b, root), call, blocking);
  }

  /** Combines every rank's `sendBuf` with `op` into the root's `recvBuf` (MPI_Reduce; `recvBuf` matters at the root only). */
  reduce(sendBuf: ReduceArray | typeof IN_PLACE, recvBuf: ReduceArray | null, op: Op, root: number, opts?: CollOptions): Promise<void>;
  /** MPI_Reduce's long form: `count` elements of `datatype` (predefined, or contiguous of one) from each rank. */
  reduce(sendBuf: ArrayBufferView | typeof IN_PLACE, recvBuf: ArrayBufferView | null, count: number, datatype: Datatype, op: Op, root: number, opts?: CollOptions): Promise<void>;
  async reduce(...a: unknown[]): Promise<void> {
    if (typed.longForm(a, 5)) return typed.reduceLong(this, this.packer, a) as Promise<void>;
    const [sendBuf, recvBuf, op, root, opts] = a as [ReduceArray | typeof IN_PLACE, ReduceArray | null, Op, number, CollOptions?];
    await this.finish(this.reduceIn('reduce', sendBuf, recvBuf, op, root, opts, true));
  }

  /** Nonblocking reduce (MPI_Ireduce): starts it and returns its request; it progresses inside this rank's MPI calls. */
  ireduce(sendBuf: ReduceArray | typeof IN_PLACE, recvBuf: ReduceArray | null, op: Op, root: number, opts?: CollOptions): Request;
  /** MPI_Reduce's nonblocking long form: `count` elements of `datatype` (predefined, or contiguous of one) from each rank. */
  ireduce(sendBuf: ArrayBufferView | typeof IN_PLACE, recvBuf: ArrayBufferView | null, count: number, datatype: Datatype, op: Op, root: number, opts?: CollOptions): Request;
  ireduce(...a: unknown[]): Request {
    if (typed.longForm(a, 5)) return typed.reduceLong(this, this.packer, a, 'nonblocking', 'ireduce') as Request;
    const [sendBuf, recvBuf, op, root, opts] = a as [ReduceArray | typeof IN_PLACE, ReduceArray | null, Op, number, CollOptions?];
    return this.reduceIn('ireduce', sendBuf, recvBuf, op, root, opts, false);
  }

  private reduceIn(call: string, sendBuf: ReduceArray | typeof IN_PLACE, recvBuf: ReduceArray | null, op: Op, root: number, opts: CollOptions | undefined, blocking: boolean): Request {
    this.checkRoot(call, root);
    const atRoot = this.rank === root;
    if (atRoot && !recvBuf) throw new MpiError('MPI_ERR_BUFFER', 'reduce: the root needs a recvBuf');
    if (sendBuf === IN_PLACE && !atRoot) throw new MpiError('MPI_ERR_BUFFER', 'reduce: only the root may pass mpi.IN_PLACE');
    const send = sendBuf === IN_PLACE ? this.copyOf(collBuf(call, 'recvBuf', recvBuf)) : collBuf(call, 'sendBuf', sendBuf);
    const recv = atRoot ? collBuf(call, 'recvBuf', recvBuf) : null;
    if (recv) sameShape(call, send, recv);
    checkOp(call, op, send);
    this.agree({ call, root, op, ...this.dataSignature(send, 'elements in sendBuf'), algorithm: opts?.algorithm });
    return this.launch(this.algorithm('reduce', send.byteLength, op, opts).fn(this.transport, send, recv, op, root), call, blocking);
  }

  /** Combines every rank's `sendBuf` with `op` into every rank's `recvBuf` (MPI_Allreduce). */
  allreduce(sendBuf: ReduceArray | typeof IN_PLACE, recvBuf: ReduceArray, op: Op, opts?: CollOptions): Promise<void>;
  /** MPI_Allreduce's long form: `count` elements of `datatype` (predefined, or contiguous of one). */
  allreduce(sendBuf: ArrayBufferView | typeof IN_PLACE, recvBuf: ArrayBufferView, count: number, datatype: Datatype, op: Op, opts?: CollOptions): Promise<void>;
  async allreduce(...a: unknown[]): Promise<void> {
    if (typed.longForm(a, 4)) return typed.reduceAllLong('allreduce', this.packer, (s, r, op, o) => this.allreduce(s, r, op, o), (s, r, op, o) => this.iallreduce(s, r, op, o), a) as Promise<void>;
    const [sendBuf, recvBuf, op, opts] = a as [ReduceArray | typeof IN_PLACE, ReduceArray, Op, CollOptions?];
    const recv = collBuf('allreduce', 'recvBuf', recvBuf);
    const send = this.allreduceSend('allreduce', sendBuf, recv, op, opts);
    if (this.useCe('allreduce', opts, op, send)) await this.ceReduce('allreduce', send, recv, op);
    else if (this.useNodeAware(opts, op, send.byteLength)) await this.smpReduce('allreduce', send, recv, op);
    else await this.collective(this.algorithm('allreduce', send.byteLength, op, opts, send.length).fn(this.transport, send, recv, op), 'allreduce');
  }

  /**
   * Nonblocking allreduce (MPI_Iallreduce): starts it and returns its request. It runs the
   * library's software algorithm (never the node-aware form or the collective engine, as MPICH's
   * nonblocking schedules do not), progressing inside this rank's MPI calls.
   */
  iallreduce(sendBuf: ReduceArray | typeof IN_PLACE, recvBuf: ReduceArray, op: Op, opts?: CollOptions): Request;
  /** MPI_Allreduce's nonblocking long form: `count` elements of `datatype` (predefined, or contiguous of one). */
  iallreduce(sendBuf: ArrayBufferView | typeof IN_PLACE, recvBuf: ArrayBufferView, count: number, datatype: Datatype, op: Op, opts?: CollOptions): Request;
  iallreduce(...a: unknown[]): Request {
    if (typed.longForm(a, 4)) return typed.reduceAllLong('iallreduce', this.packer, (s, r, op, o) => this.allreduce(s, r, op, o), (s, r, op, o) => this.iallreduce(s, r, op, o), a, 'nonblocking') as Request;
    const [sendBuf, recvBuf, op, opts] = a as [ReduceArray | typeof IN_PLACE, ReduceArray, Op, CollOptions?];
    const recv = collBuf('iallreduce', 'recvBuf', recvBuf);
    const send = this.allreduceSend('iallreduce', sendBuf, recv, op, opts);
    return this.launch(this.algorithm('allreduce', send.byteLength, op, opts, send.length).fn(this.transport, send, recv, op), 'iallreduce', false);
  }

  /** Checks an allreduce's arguments (`recv` checked already) against this rank's and the others'; returns its send buffer. */
  private allreduceSend(call: string, sendBuf: ReduceArray | typeof IN_PLACE, recv: ReduceArray, op: Op, opts: CollOptions | undefined): ReduceArray {
    const send = sendBuf === IN_PLACE ? this.copyOf(recv) : collBuf(call, 'sendBuf', sendBuf);
    sameShape(call, send, recv);
    checkOp(call, op, send);
    // the call's signature is written out (not spread from dataSignature): one object per call
    this.agree({ call, op, type: send.constructor.name, count: send.length, countName: 'elements in sendBuf', algorithm: opts?.algorithm });
    return send;
  }

  /** Every rank's `sendBuf`, in rank order, into every rank's `recvBuf` (MPI_Allgather; recvBuf holds size x sendBuf). */
  allgather(sendBuf: ReduceArray | typeof IN_PLACE, recvBuf: ReduceArray, opts?: CollOptions): Promise<void>;
  /** MPI_Allgather's long form: `sendCount` elements of `sendType` from each rank, `recvCount` elements of `recvType` per rank received. */
  allgather(sendBuf: ArrayBufferView | typeof IN_PLACE, sendCount: number, sendType: Datatype | null, recvBuf: ArrayBufferView, recvCount: number, recvType: Datatype, opts?: CollOptions): Promise<void>;
  async allgather(...a: unknown[]): Promise<void> {
    if (typed.longForm(a, 3)) return typed.allgatherLong(this, this.packer, a) as Promise<void>;
    const [sendBuf, recvBuf, opts] = a as [ReduceArray | typeof IN_PLACE, ReduceArray, CollOptions?];
    await this.finish(this.allgatherIn('allgather', sendBuf, recvBuf, opts, true));
  }

  /** Nonblocking allgather (MPI_Iallgather): starts it and returns its request; it progresses inside this rank's MPI calls. */
  iallgather(sendBuf: ReduceArray | typeof IN_PLACE, recvBuf: ReduceArray, opts?: CollOptions): Request;
  /** MPI_Allgather's nonblocking long form: `sendCount` elements of `sendType` from each rank, `recvCount` elements of `recvType` per rank received. */
  iallgather(sendBuf: ArrayBufferView | typeof IN_PLACE, sendCount: number, sendType: Datatype | null, recvBuf: ArrayBufferView, recvCount: number, recvType: Datatype, opts?: CollOptions): Request;
  iallgather(...a: unknown[]): Request {
    if (typed.longForm(a, 3)) return typed.allgatherLong(this, this.packer, a, 'nonblocking', 'iallgather') as Request;
    const [sendBuf, recvBuf, opts] = a as [ReduceArray | typeof IN_PLACE, ReduceArray, CollOptions?];
    return this.allgatherIn('iallgather', sendBuf, recvBuf, opts, false);
  }

  private allgatherIn(call: string, sendBuf: ReduceArray | typeof IN_PLACE, recvBuf: ReduceArray, opts: CollOptions | undefined, blocking: boolean): Request {
    const recv = collBuf(call, 'recvBuf', recvBuf);
    if (recv.length % this.size !== 0) throw new MpiError('MPI_ERR_COUNT', `${call}: recvBuf has ${recv.length} elements, not a multiple of the ${this.size} ranks`);
    const k = recv.length / this.size;
    const send = sendBuf === IN_PLACE ? this.copyOf(recv, this.rank * k, this.rank * k + k) : collBuf(call, 'sendBuf', sendBuf);
    sameType(call, send, recv);
    if (send.length !== k) throw new MpiError('MPI_ERR_COUNT', `${call}: recvBuf (${recv.length} elements) must hold ${this.size} x sendBuf (${send.length})`);
    this.agree({ call, ...this.dataSignature(send, 'elements per rank'), algorithm: opts?.algorithm });
    return this.launch(this.algorithm('allgather', recv.byteLength, undefined, opts).fn(this.transport, send, recv), call, blocking);
  }

  /** Rank r's `sendBuf` into every rank's recvBuf at `displs[r]`, `counts[r]` elements (MPI_Allgatherv). */
  allgatherv(sendBuf: ReduceArray | typeof IN_PLACE, recvBuf: ReduceArray, counts: ArrayLike<number>, displs: ArrayLike<number>, opts?: CollOptions): Promise<void>;
  /** MPI_Allgatherv's long form: rank r's block is `recvCounts[r]` elements of `recvType` at `displs[r]` extents of it. */
  allgatherv(sendBuf: ArrayBufferView | typeof IN_PLACE, sendCount: number, sendType: Datatype | null, recvBuf: ArrayBufferView, recvCounts: ArrayLike<number>, displs: ArrayLike<number>, recvType: Datatype, opts?: CollOptions): Promise<void>;
  async allgatherv(...a: unknown[]): Promise<void> {
    if (typed.longForm(a, 5)) return typed.allgathervLong(this, this.packer, a) as Promise<void>;
    const [sendBuf, recvBuf, counts, displs, opts] = a as [ReduceArray | typeof IN_PLACE, ReduceArray, ArrayLike<number>, ArrayLike<number>, CollOptions?];
    await this.finish(this.allgathervIn('allgatherv', sendBuf, recvBuf, counts, displs, opts, true));
  }

  /** Nonblocking allgatherv (MPI_Iallgatherv): starts it and returns its request; it progresses inside this rank's MPI calls. */
  iallgatherv(sendBuf: ReduceArray | typeof IN_PLACE, recvBuf: ReduceArray, counts: ArrayLike<number>, displs: ArrayLike<number>, opts?: CollOptions): Request;
  /** MPI_Allgatherv's nonblocking long form: rank r's block is `recvCounts[r]` elements of `recvType` at `displs[r]` extents of it. */
  iallgatherv(sendBuf: ArrayBufferView | typeof IN_PLACE, sendCount: number, sendType: Datatype | null, recvBuf: ArrayBufferView, recvCounts: ArrayLike<number>, displs: ArrayLike<number>, recvType: Datatype, opts?: CollOptions): Request;
  iallgatherv(...a: unknown[]): Request {
    if (typed.longForm(a, 5)) return typed.allgathervLong(this, this.packer, a, 'nonblocking', 'iallgatherv') as Request;
    const [sendBuf, recvBuf, counts, displs, opts] = a as [ReduceArray | typeof IN_PLACE, ReduceArray, ArrayLike<number>, ArrayLike<number>, CollOptions?];
    return this.allgathervIn('iallgatherv', sendBuf, recvBuf, counts, displs, opts, false);
  }

  private allgathervIn(call: string, sendBuf: ReduceArray | typeof IN_PLACE, recvBuf: ReduceArray, counts: ArrayLike<number>, displs: ArrayLike<number>, opts: CollOptions | undefined, blocking: boolean): Request {
    const recv = collBuf(call, 'recvBuf', recvBuf);
    this.checkBlocks(call, 'counts', 'displs', counts, displs, recv.length);
    // in place: this rank's block is already at displs[rank] of recvBuf
    const send = sendBuf === IN_PLACE ? this.copyOf(recv, displs[this.rank]!, displs[this.rank]! + counts[this.rank]!) : collBuf(call, 'sendBuf', sendBuf);
    sameType(call, send, recv);
    if (send.length !== counts[this.rank]) throw new MpiError('MPI_ERR_COUNT', `${call}: sendBuf has ${send.length} elements but counts[${this.rank}] is ${counts[this.rank]}`);
    this.agree({ call, type: send.constructor.name, counts, countsName: 'counts', algorithm: opts?.algorithm });
    let total = 0;
    for (let r = 0; r < this.size; r++) total += counts[r]!;
    return this.launch(this.algorithm('allgatherv', total * recv.BYTES_PER_ELEMENT, undefined, opts).fn(this.transport, send, recv, counts, displs), call, blocking);
  }

  /** Block j of every rank's `sendBuf` to rank j, into block i of rank j's `recvBuf` (MPI_Alltoall; equal blocks). */
  alltoall(sendBuf: ReduceArray | typeof IN_PLACE, recvBuf: ReduceArray, opts?: CollOptions): Promise<void>;
  /** MPI_Alltoall's long form: `sendCount` elements of `sendType` to each rank, `recvCount` of `recvType` from each. */
  alltoall(sendBuf: ArrayBufferView | typeof IN_PLACE, sendCount: number, sendType: Datatype | null, recvBuf: ArrayBufferView, recvCount: number, recvType: Datatype, opts?: CollOptions): Promise<void>;
  async alltoall(...a: unknown[]): Promise<void> {
    if (typed.longForm(a, 3)) return typed.alltoallLong(this, this.packer, a) as Promise<void>;
    const [sendBuf, recvBuf, opts] = a as [ReduceArray | typeof IN_PLACE, ReduceArray, CollOptions?];
    await this.finish(this.alltoallIn('alltoall', sendBuf, recvBuf, opts, true));
  }

  /** Nonblocking alltoall (MPI_Ialltoall): starts it and returns its request; it progresses inside this rank's MPI calls. */
  ialltoall(sendBuf: ReduceArray | typeof IN_PLACE, recvBuf: ReduceArray, opts?: CollOptions): Request;
  /** MPI_Alltoall's nonblocking long form: `sendCount` elements of `sendType` to each rank, `recvCount` of `recvType` from each. */
  ialltoall(sendBuf: ArrayBufferView | typeof IN_PLACE, sendCount: number, sendType: Datatype | null, recvBuf: ArrayBufferView, recvCount: number, recvType: Datatype, opts?: CollOptions): Request;
  ialltoall(...a: unknown[]): Request {
    if (typed.longForm(a, 3)) return typed.alltoallLong(this, this.packer, a, 'nonblocking', 'ialltoall') as Request;
    const [sendBuf, recvBuf, opts] = a as [ReduceArray | typeof IN_PLACE, ReduceArray, CollOptions?];
    return this.alltoallIn('ialltoall', sendBuf, recvBuf, opts, false);
  }

  private alltoallIn(call: string, sendBuf: ReduceArray | typeof IN_PLACE, recvBuf: ReduceArray, opts: CollOptions | undefined, blocking: boolean): Request {
    const recv = collBuf(call, 'recvBuf', recvBuf);
    const send = sendBuf === IN_PLACE ? this.copyOf(recv) : collBuf(call, 'sendBuf', sendBuf);
    sameShape(call, send, recv);
    if (send.length % this.size !== 0) throw new MpiError('MPI_ERR_COUNT', `${call}: ${send.length} elements do not split into ${this.size} equal blocks`);
    this.agree({ call, ...this.dataSignature(send, 'elements in sendBuf'), algorithm: opts?.algorithm });
    return this.launch(this.algorithm('alltoall', (send.byteLength / this.size) | 0, undefined, opts).fn(this.transport, send, recv), call, blocking);
  }

  /** MPI_Alltoallv: `sendCounts[j]` elements from `sendDispls[j]` go to rank j, landing at its `recvDispls[i]`. */
  alltoallv(sendBuf: ReduceArray | typeof IN_PLACE, sendCounts: ArrayLike<number> | null, sendDispls: ArrayLike<number> | null, recvBuf: ReduceArray, recvCounts: ArrayLike<number>, recvDispls: ArrayLike<number>, opts?: CollOptions): Promise<void>;
  /** MPI_Alltoallv's long form: counts in elements of `sendType`/`recvType`, displacements in their extents. */
  alltoallv(sendBuf: ArrayBufferView | typeof IN_PLACE, sendCounts: ArrayLike<number> | null, sendDispls: ArrayLike<number> | null, sendType: Datatype | null, recvBuf: ArrayBufferView, recvCounts: ArrayLike<number>, recvDispls: ArrayLike<number>, recvType: Datatype, opts?: CollOptions): Promise<void>;
  async alltoallv(...a: unknown[]): Promise<void> {
    if (typed.longForm(a, 7)) return typed.alltoallvLong(this, this.packer, a) as Promise<void>;
    const [sendBuf, sendCounts, sendDispls, recvBuf, recvCounts, recvDispls, opts] = a as [ReduceArray | typeof IN_PLACE, ArrayLike<number> | null, ArrayLike<number> | null, ReduceArray, ArrayLike<number>, ArrayLike<number>, CollOptions?];
    await this.finish(this.alltoallvIn('alltoallv', sendBuf, sendCounts, sendDispls, recvBuf, recvCounts, recvDispls, opts, true));
  }

  /** Nonblocking alltoallv (MPI_Ialltoallv): starts it and returns its request; it progresses inside this rank's MPI calls. */
  ialltoallv(sendBuf: ReduceArray | typeof IN_PLACE, sendCounts: ArrayLike<number> | null, sendDispls: ArrayLike<number> | null, recvBuf: ReduceArray, recvCounts: ArrayLike<number>, recvDispls: ArrayLike<number>, opts?: CollOptions): Request;
  /** MPI_Alltoallv's nonblocking long form: counts in elements of `sendType`/`recvType`, displacements in their extents. */
  ialltoallv(sendBuf: ArrayBufferView | typeof IN_PLACE, sendCounts: ArrayLike<number> | null, sendDispls: ArrayLike<number> | null, sendType: Datatype | null, recvBuf: ArrayBufferView, recvCounts: ArrayLike<number>, recvDispls: ArrayLike<number>, recvType: Datatype, opts?: CollOptions): Request;
  ialltoallv(...a: unknown[]): Request {
    if (typed.longForm(a, 7)) return typed.alltoallvLong(this, this.packer, a, 'nonblocking', 'ialltoallv') as Request;
    const [sendBuf, sendCounts, sendDispls, recvBuf, recvCounts, recvDispls, opts] = a as [ReduceArray | typeof IN_PLACE, ArrayLike<number> | null, ArrayLike<number> | null, ReduceArray, ArrayLike<number>, ArrayLike<number>, CollOptions?];
    return this.alltoallvIn('ialltoallv', sendBuf, sendCounts, sendDispls, recvBuf, recvCounts, recvDispls, opts, false);
  }

  private alltoallvIn(call: string, sendBuf: ReduceArray | typeof IN_PLACE, sendCounts: ArrayLike<number> | null, sendDispls: ArrayLike<number> | null, recvBuf: ReduceArray, recvCounts: ArrayLike<number>, recvDispls: ArrayLike<number>, opts: CollOptions | undefined, blocking: boolean): Request {
    const recv = collBuf(call, 'recvBuf', recvBuf);
    // in place: the data to send is in recvBuf, laid out as it will be received (sendCounts and sendDispls are ignored)
    const send = sendBuf === IN_PLACE ? this.copyOf(recv) : collBuf(call, 'sendBuf', sendBuf);
    if (sendBuf === IN_PLACE) {
      sendCounts = recvCounts;
      sendDispls = recvDispls;
    }
    sameType(call, send, recv);
    this.checkBlocks(call, 'sendCounts', 'sendDispls', sendCounts, sendDispls, send.length);
    this.checkBlocks(call, 'recvCounts', 'recvDispls', recvCounts, recvDispls, recv.length);
    this.agree({ call, type: send.constructor.name, algorithm: opts?.algorithm, data: { send: Int32Array.from(sendCounts!), recv: Int32Array.from(recvCounts) }, cross: pairedCounts });
    const alg = this.algorithm('alltoallv', 0, undefined, opts).fn(this.transport, send, sendCounts!, sendDispls!, recv, recvCounts, recvDispls);
    return this.launch(alg, call, blocking);
  }

  /**
   * MPI_Alltoallw: `sendCounts[j]` elements of `sendTypes[j]` from byte `sendDispls[j]` of
   * `sendBuf` go to rank j and land as `recvCounts[i]` elements of `recvTypes[i]` at byte
   * `recvDispls[i]` of its `recvBuf`; every pair's bytes must agree. With `IN_PLACE` the send
   * arguments are ignored (null allowed) and what goes out is read from `recvBuf`.
   */
  async alltoallw(sendBuf: ArrayBufferView | typeof IN_PLACE, sendCounts: ArrayLike<number> | null, sendDispls: ArrayLike<number> | null, sendTypes: readonly Datatype[] | null, recvBuf: ArrayBufferView, recvCounts: ArrayLike<number>, recvDispls: ArrayLike<number>, recvTypes: readonly Datatype[], opts?: CollOptions): Promise<void> {
    await typed.alltoallw(this, this.packer, [sendBuf, sendCounts, sendDispls, sendTypes, recvBuf, recvCounts, recvDispls, recvTypes, opts]);
  }

  /** Nonblocking alltoallw (MPI_Ialltoallw): alltoallw's arguments, a request back; the data lands when the request's completion is taken. */
  ialltoallw(sendBuf: ArrayBufferView | typeof IN_PLACE, sendCounts: ArrayLike<number> | null, sendDispls: ArrayLike<number> | null, sendTypes: readonly Datatype[] | null, recvBuf: ArrayBufferView, recvCounts: ArrayLike<number>, recvDispls: ArrayLike<number>, recvTypes: readonly Datatype[], opts?: CollOptions): Request {
    return typed.alltoallw(this, this.packer, [sendBuf, sendCounts, sendDispls, sendTypes, recvBuf, recvCounts, recvDispls, recvTypes, opts], 'nonblocking', 'ialltoallw') as Request;
  }

  /** Reduces `sendBuf` with `op` and leaves block r (`recvCounts[r]` elements) at rank r (MPI_Reduce_scatter). */
  reduceScatter(sendBuf: ReduceArray | typeof IN_PLACE, recvBuf: ReduceArray, recvCounts: ArrayLike<number>, op: Op, opts?: CollOptions): Promise<void>;
  /** MPI_Reduce_scatter's long form: counts in elements of `datatype` (predefined, or contiguous of one). */
  reduceScatter(sendBuf: ArrayBufferView | typeof IN_PLACE, recvBuf: ArrayBufferView, recvCounts: ArrayLike<number>, datatype: Datatype, op: Op, opts?: CollOptions): Promise<void>;
  async reduceScatter(...a: unknown[]): Promise<void> {
    if (typed.longForm(a, 5, 3)) return typed.reduceScatterLong(this, this.packer, a) as Promise<void>;
    const [sendBuf, recvBuf, recvCounts, op, opts] = a as [ReduceArray | typeof IN_PLACE, ReduceArray, ArrayLike<number>, Op, CollOptions?];
    await this.finish(this.reduceScatterIn('reduceScatter', sendBuf, recvBuf, recvCounts, op, opts, true));
  }

  /** Nonblocking reduceScatter (MPI_Ireduce_scatter): starts it and returns its request; it progresses inside this rank's MPI calls. */
  ireduceScatter(sendBuf: ReduceArray | typeof IN_PLACE, recvBuf: ReduceArray, recvCounts: ArrayLike<number>, op: Op, opts?: CollOptions): Request;
  /** MPI_Reduce_scatter's nonblocking long form: counts in elements of `datatype` (predefined, or contiguous of one). */
  ireduceScatter(sendBuf: ArrayBufferView | typeof IN_PLACE, recvBuf: ArrayBufferView, recvCounts: ArrayLike<number>, datatype: Datatype, op: Op, opts?: CollOptions): Request;
  ireduceScatter(...a: unknown[]): Request {
    if (typed.longForm(a, 5, 3)) return typed.reduceScatterLong(this, this.packer, a, 'nonblocking', 'ireduceScatter') as Request;
    const [sendBuf, recvBuf, recvCounts, op, opts] = a as [ReduceArray | typeof IN_PLACE, ReduceArray, ArrayLike<number>, Op, CollOptions?];
    return this.reduceScatterIn('ireduceScatter', sendBuf, recvBuf, recvCounts, op, opts, false);
  }

  private reduceScatterIn(call: string, sendBuf: ReduceArray | typeof IN_PLACE, recvBuf: ReduceArray, recvCounts: ArrayLike<number>, op: Op, opts: CollOptions | undefined, blocking: boolean): Request {
    const recv = collBuf(call, 'recvBuf', recvBuf);
    this.checkCounts(call, 'recvCounts', recvCounts);
    let total = 0;
    for (let r = 0; r < this.size; r++) total += recvCounts[r]!;
    // in place: the input is the first `total` elements of recvBuf; the result goes to its start
    if (sendBuf === IN_PLACE && recv.length < total) throw new MpiError('MPI_ERR_COUNT', `${call}: with mpi.IN_PLACE recvBuf holds the input, so it needs the ${total} elements recvCounts add up to, not ${recv.length}`);
    const send = sendBuf === IN_PLACE ? this.copyOf(recv, 0, total) : collBuf(call, 'sendBuf', sendBuf);
    sameType(call, send, recv);
    if (total !== send.length) throw new MpiError('MPI_ERR_COUNT', `${call}: recvCounts add up to ${total} but sendBuf has ${send.length} elements`);
    if (recv.length < recvCounts[this.rank]!) throw new MpiError('MPI_ERR_COUNT', `${call}: recvBuf has ${recv.length} elements, fewer than recvCounts[${this.rank}] = ${recvCounts[this.rank]}`);
    checkOp(call, op, send);
    this.agree({ call, op, type: send.constructor.name, counts: recvCounts, countsName: 'recvCounts', algorithm: opts?.algorithm });
    return this.launch(this.algorithm('reduceScatter', send.byteLength, op, opts).fn(this.transport, send, recv, recvCounts, op), call, blocking);
  }

  /** reduceScatter with recvBuf.length elements per rank (MPI_Reduce_scatter_block). */
  reduceScatterBlock(sendBuf: ReduceArray | typeof IN_PLACE, recvBuf: ReduceArray, op: Op, opts?: CollOptions): Promise<void>;
  /** MPI_Reduce_scatter_block's long form: `recvCount` elements of `datatype` per rank. */
  reduceScatterBlock(sendBuf: ArrayBufferView | typeof IN_PLACE, recvBuf: ArrayBufferView, recvCount: number, datatype: Datatype, op: Op, opts?: CollOptions): Promise<void>;
  async reduceScatterBlock(...a: unknown[]): Promise<void> {
    if (typed.longForm(a, 4)) return typed.reduceScatterBlockLong(this, this.packer, a) as Promise<void>;
    const [sendBuf, recvBuf, op, opts] = a as [ReduceArray | typeof IN_PLACE, ReduceArray, Op, CollOptions?];
    await this.finish(this.reduceScatterBlockIn('reduceScatterBlock', sendBuf, recvBuf, op, opts, true));
  }

  /** Nonblocking reduceScatterBlock (MPI_Ireduce_scatter_block): starts it and returns its request; it progresses inside this rank's MPI calls. */
  ireduceScatterBlock(sendBuf: ReduceArray | typeof IN_PLACE, recvBuf: ReduceArray, op: Op, opts?: CollOptions): Request;
  /** MPI_Reduce_scatter_block's nonblocking long form: `recvCount` elements of `datatype` per rank. */
  ireduceScatterBlock(sendBuf: ArrayBufferView | typeof IN_PLACE, recvBuf: ArrayBufferView, recvCount: number, datatype: Datatype, op: Op, opts?: CollOptions): Request;
  ireduceScatterBlock(...a: unknown[]): Request {
    if (typed.longForm(a, 4)) return typed.reduceScatterBlockLong(this, this.packer, a, 'nonblocking', 'ireduceScatterBlock') as Request;
    const [sendBuf, recvBuf, op, opts] = a as [ReduceArray | typeof IN_PLACE, ReduceArray, Op, CollOptions?];
    return this.reduceScatterBlockIn('ireduceScatterBlock', sendBuf, recvBuf, op, opts, false);
  }

  private reduceScatterBlockIn(call: string, sendBuf: ReduceArray | typeof IN_PLACE, recvBuf: ReduceArray, op: Op, opts: CollOptions | undefined, blocking: boolean): Request {
    const whole = collBuf(call, 'recvBuf', recvBuf);
    // in place: recvBuf holds the input (size x the block) and gets the result in its first block
    if (sendBuf === IN_PLACE && whole.length % this.size !== 0) throw new MpiError('MPI_ERR_COUNT', `${call}: with mpi.IN_PLACE recvBuf holds the input, ${this.size} equal blocks, not ${whole.length} elements`);
    const send = sendBuf === IN_PLACE ? this.copyOf(whole) : collBuf(call, 'sendBuf', sendBuf);
    const recv = sendBuf === IN_PLACE ? (whole.subarray(0, whole.length / this.size) as ReduceArray) : whole;
    sameType(call, send, recv);
    if (send.length !== recv.length * this.size) throw new MpiError('MPI_ERR_COUNT', `${call}: sendBuf must hold ${this.size} x recvBuf (${recv.length}) elements, got ${send.length}`);
    checkOp(call, op, send);
    this.agree({ call, op, ...this.dataSignature(recv, 'elements in recvBuf'), algorithm: opts?.algorithm });
    return this.launch(this.algorithm('reduceScatterBlock', send.byteLength, op, opts).fn(this.transport, send, recv, op), call, blocking);
  }

  /** Every rank's `sendBuf`, in rank order, into the root's `recvBuf` (MPI_Gather). */
  gather(sendBuf: ReduceArray | typeof IN_PLACE, recvBuf: ReduceArray | null, root: number, opts?: CollOptions): Promise<void>;
  /** MPI_Gather's long form: `recvCount` elements of `recvType` per rank at the root (recv arguments matter there only). */
  gather(sendBuf: ArrayBufferView, sendCount: number, sendType: Datatype, recvBuf: ArrayBufferView | null, recvCount: number, recvType: Datatype | null, root: number, opts?: CollOptions): Promise<void>;
  async gather(...a: unknown[]): Promise<void> {
    if (typed.longForm(a, 4)) return typed.gatherLong(this, this.packer, a) as Promise<void>;
    const [sendBuf, recvBuf, root, opts] = a as [ReduceArray | typeof IN_PLACE, ReduceArray | null, number, CollOptions?];
    await this.finish(this.gatherIn('gather', sendBuf, recvBuf, root, opts, true));
  }

  /** Nonblocking gather (MPI_Igather): starts it and returns its request; it progresses inside this rank's MPI calls. */
  igather(sendBuf: ReduceArray | typeof IN_PLACE, recvBuf: ReduceArray | null, root: number, opts?: CollOptions): Request;
  /** MPI_Gather's nonblocking long form: `recvCount` elements of `recvType` per rank at the root (recv arguments matter there only). */
  igather(sendBuf: ArrayBufferView, sendCount: number, sendType: Datatype, recvBuf: ArrayBufferView | null, recvCount: number, recvType: Datatype | null, root: number, opts?: CollOptions): Request;
  igather(...a: unknown[]): Request {
    if (typed.longForm(a, 4)) return typed.gatherLong(this, this.packer, a, 'nonblocking', 'igather') as Request;
    const [sendBuf, recvBuf, root, opts] = a as [ReduceArray | typeof IN_PLACE, ReduceArray | null, number, CollOptions?];
    return this.gatherIn('igather', sendBuf, recvBuf, root, opts, false);
  }

  private gatherIn(call: string, sendBuf: ReduceArray | typeof IN_PLACE, recvBuf: ReduceArray | null, root: number, opts: CollOptions | undefined, blocking: boolean): Request {
    this.checkRoot(call, root);
    const recv = this.rank === root ? collBuf(call, 'recvBuf', recvBuf) : null;
    if (sendBuf === IN_PLACE && !recv) throw new MpiError('MPI_ERR_BUFFER', `${call}: only the root may pass mpi.IN_PLACE`);
    // in place: the root's block is already in its place in recvBuf
    const k = recv ? recv.length / this.size : 0;
    const send = sendBuf === IN_PLACE ? this.copyOf(recv!, root * k, root * k + k) : collBuf(call, 'sendBuf', sendBuf);
    if (recv) {
      sameType(call, send, recv);
      if (recv.length !== send.length * this.size) throw new MpiError('MPI_ERR_COUNT', `${call}: the root's recvBuf must hold ${this.size} x sendBuf (${send.length}) elements, got ${recv.length}`);
    }
    this.agree({ call, root, ...this.dataSignature(send, 'elements in sendBuf'), algorithm: opts?.algorithm });
    return this.launch(this.algorithm('gather', send.byteLength * this.size, undefined, opts).fn(this.transport, send, recv, root), call, blocking);
  }

  /** Rank r's `sendBuf` into the root's `recvBuf` at `displs[r]` (MPI_Gatherv; counts and displs matter at the root). */
  gatherv(sendBuf: ReduceArray | typeof IN_PLACE, recvBuf: ReduceArray | null, counts: ArrayLike<number> | null, displs: ArrayLike<number> | null, root: number, opts?: CollOptions): Promise<void>;
  /** MPI_Gatherv's long form: rank r's block is `recvCounts[r]` elements of `recvType` at `displs[r]` extents of it (at the root). */
  gatherv(sendBuf: ArrayBufferView | typeof IN_PLACE, sendCount: number, sendType: Datatype, recvBuf: ArrayBufferView | null, recvCounts: ArrayLike<number> | null, displs: ArrayLike<number> | null, recvType: Datatype | null, root: number, opts?: CollOptions): Promise<void>;
  async gatherv(...a: unknown[]): Promise<void> {
    if (typed.longForm(a, 6)) return typed.gathervLong(this, this.packer, a) as Promise<void>;
    const [sendBuf, recvBuf, counts, displs, root, opts] = a as [ReduceArray | typeof IN_PLACE, ReduceArray | null, ArrayLike<number> | null, ArrayLike<number> | null, number, CollOptions?];
    await this.finish(this.gathervIn('gatherv', sendBuf, recvBuf, counts, displs, root, opts, true));
  }

  /** Nonblocking gatherv (MPI_Igatherv): starts it and returns its request; it progresses inside this rank's MPI calls. */
  igatherv(sendBuf: ReduceArray | typeof IN_PLACE, recvBuf: ReduceArray | null, counts: ArrayLike<number> | null, displs: ArrayLike<number> | null, root: number, opts?: CollOptions): Request;
  /** MPI_Gatherv's nonblocking long form: rank r's block is `recvCounts[r]` elements of `recvType` at `displs[r]` extents of it (at the root). */
  igatherv(sendBuf: ArrayBufferView | typeof IN_PLACE, sendCount: number, sendType: Datatype, recvBuf: ArrayBufferView | null, recvCounts: ArrayLike<number> | null, displs: ArrayLike<number> | null, recvType: Datatype | null, root: number, opts?: CollOptions): Request;
  igatherv(...a: unknown[]): Request {
    if (typed.longForm(a, 6)) return typed.gathervLong(this, this.packer, a, 'nonblocking', 'igatherv') as Request;
    const [sendBuf, recvBuf, counts, displs, root, opts] = a as [ReduceArray | typeof IN_PLACE, ReduceArray | null, ArrayLike<number> | null, ArrayLike<number> | null, number, CollOptions?];
    return this.gathervIn('igatherv', sendBuf, recvBuf, counts, displs, root, opts, false);
  }

  private gathervIn(call: string, sendBuf: ReduceArray | typeof IN_PLACE, recvBuf: ReduceArray | null, counts: ArrayLike<number> | null, displs: ArrayLike<number> | null, root: number, opts: CollOptions | undefined, blocking: boolean): Request {
    this.checkRoot(call, root);
    if (sendBuf === IN_PLACE && this.rank !== root) throw new MpiError('MPI_ERR_BUFFER', `${call}: only the root may pass mpi.IN_PLACE`);
    let send = sendBuf === IN_PLACE ? null : collBuf(call, 'sendBuf', sendBuf);
    let recv: ReduceArray | null = null;
    if (this.rank === root) {
      recv = collBuf(call, 'recvBuf', recvBuf);
      // in place: the root's block is already at displs[root] of recvBuf
      if (!send) {
        this.checkBlocks(call, 'counts', 'displs', counts, displs, recv.length);
        send = this.copyOf(recv, displs![root]!, displs![root]! + counts![root]!);
      }
      sameType(call, send, recv);
      this.checkBlocks(call, 'counts', 'displs', counts, displs, recv.length);
      if (send.length !== counts![root]) throw new MpiError('MPI_ERR_COUNT', `${call}: the root's sendBuf has ${send.length} elements but counts[${root}] is ${counts![root]}`);
    }
    this.agree({ call, root, type: send!.constructor.name, algorithm: opts?.algorithm, data: this.rank === root ? Int32Array.from(counts!) : send!.length, cross: rootCounts(root, 'sendBuf') });
    return this.launch(this.algorithm('gatherv', 0, undefined, opts).fn(this.transport, send!, recv, counts, displs, root), call, blocking);
  }

  /** Block r of the root's `sendBuf` into rank r's `recvBuf` (MPI_Scatter). */
  scatter(sendBuf: ReduceArray | null, recvBuf: ReduceArray | typeof IN_PLACE, root: number, opts?: CollOptions): Promise<void>;
  /** MPI_Scatter's long form: `sendCount` elements of `sendType` per rank from the root (send arguments matter there only). */
  scatter(sendBuf: ArrayBufferView | null, sendCount: number, sendType: Datatype | null, recvBuf: ArrayBufferView, recvCount: number, recvType: Datatype, root: number, opts?: CollOptions): Promise<void>;
  async scatter(...a: unknown[]): Promise<void> {
    if (typed.longForm(a, 4)) return typed.scatterLong(this, this.packer, a) as Promise<void>;
    const [sendBuf, recvBuf, root, opts] = a as [ReduceArray | null, ReduceArray | typeof IN_PLACE, number, CollOptions?];
    await this.finish(this.scatterIn('scatter', sendBuf, recvBuf, root, opts, true));
  }

  /** Nonblocking scatter (MPI_Iscatter): starts it and returns its request; it progresses inside this rank's MPI calls. */
  iscatter(sendBuf: ReduceArray | null, recvBuf: ReduceArray | typeof IN_PLACE, root: number, opts?: CollOptions): Request;
  /** MPI_Scatter's nonblocking long form: `sendCount` elements of `sendType` per rank from the root (send arguments matter there only). */
  iscatter(sendBuf: ArrayBufferView | null, sendCount: number, sendType: Datatype | null, recvBuf: ArrayBufferView, recvCount: number, recvType: Datatype, root: number, opts?: CollOptions): Request;
  iscatter(...a: unknown[]): Request {
    if (typed.longForm(a, 4)) return typed.scatterLong(this, this.packer, a, 'nonblocking', 'iscatter') as Request;
    const [sendBuf, recvBuf, root, opts] = a as [ReduceArray | null, ReduceArray | typeof IN_PLACE, number, CollOptions?];
    return this.scatterIn('iscatter', sendBuf, recvBuf, root, opts, false);
  }

  private scatterIn(call: string, sendBuf: ReduceArray | null, recvBuf: ReduceArray | typeof IN_PLACE, root: number, opts: CollOptions | undefined, blocking: boolean): Request {
    this.checkRoot(call, root);
    if (recvBuf === IN_PLACE && this.rank !== root) throw new MpiError('MPI_ERR_BUFFER', `${call}: only the root may pass mpi.IN_PLACE`);
    const send = this.rank === root ? collBuf(call, 'sendBuf', sendBuf) : null;
    // in place: the root's block stays where it is in sendBuf (it receives into a copy of it)
    const k = send ? send.length / this.size : 0;
    const recv = recvBuf === IN_PLACE ? this.copyOf(send!, root * k, root * k + k) : collBuf(call, 'recvBuf', recvBuf);
    if (send) {
      sameType(call, send, recv);
      if (send.length !== recv.length * this.size) throw new MpiError('MPI_ERR_COUNT', `${call}: the root's sendBuf must hold ${this.size} x recvBuf (${recv.length}) elements, got ${send.length}`);
    }
    this.agree({ call, root, ...this.dataSignature(recv, 'elements in recvBuf'), algorithm: opts?.algorithm });
    return this.launch(this.algorithm('scatter', recv.byteLength * this.size, undefined, opts).fn(this.transport, send, recv, root), call, blocking);
  }

  /** `counts[r]` elements from `displs[r]` of the root's `sendBuf` into rank r's `recvBuf` (MPI_Scatterv). */
  scatterv(sendBuf: ReduceArray | null, counts: ArrayLike<number> | null, displs: ArrayLike<number> | null, recvBuf: ReduceArray | typeof IN_PLACE, root: number, opts?: CollOptions): Promise<void>;
  /** MPI_Scatterv's long form: block r is `sendCounts[r]` elements of `sendType` at `displs[r]` extents of it (at the root). */
  scatterv(sendBuf: ArrayBufferView | null, sendCounts: ArrayLike<number> | null, displs: ArrayLike<number> | null, sendType: Datatype | null, recvBuf: ArrayBufferView | typeof IN_PLACE, recvCount: number, recvType: Datatype, root: number, opts?: CollOptions): Promise<void>;
  async scatterv(...a: unknown[]): Promise<void> {
    if (typed.longForm(a, 6)) return typed.scattervLong(this, this.packer, a) as Promise<void>;
    const [sendBuf, counts, displs, recvBuf, root, opts] = a as [ReduceArray | null, ArrayLike<number> | null, ArrayLike<number> | null, ReduceArray | typeof IN_PLACE, number, CollOptions?];
    await this.finish(this.scattervIn('scatterv', sendBuf, counts, displs, recvBuf, root, opts, true));
  }

  /** Nonblocking scatterv (MPI_Iscatterv): starts it and returns its request; it progresses inside this rank's MPI calls. */
  iscatterv(sendBuf: ReduceArray | null, counts: ArrayLike<number> | null, displs: ArrayLike<number> | null, recvBuf: ReduceArray | typeof IN_PLACE, root: number, opts?: CollOptions): Request;
  /** MPI_Scatterv's nonblocking long form: block r is `sendCounts[r]` elements of `sendType` at `displs[r]` extents of it (at the root). */
  iscatterv(sendBuf: ArrayBufferView | null, sendCounts: ArrayLike<number> | null, displs: ArrayLike<number> | null, sendType: Datatype | null, recvBuf: ArrayBufferView | typeof IN_PLACE, recvCount: number, recvType: Datatype, root: number, opts?: CollOptions): Request;
  iscatterv(...a: unknown[]): Request {
    if (typed.longForm(a, 6)) return typed.scattervLong(this, this.packer, a, 'nonblocking', 'iscatterv') as Request;
    const [sendBuf, counts, displs, recvBuf, root, opts] = a as [ReduceArray | null, ArrayLike<number> | null, ArrayLike<number> | null, ReduceArray | typeof IN_PLACE, number, CollOptions?];
    return this.scattervIn('iscatterv', sendBuf, counts, displs, recvBuf, root, opts, false);
  }

  private scattervIn(call: string, sendBuf: ReduceArray | null, counts: ArrayLike<number> | null, displs: ArrayLike<number> | null, recvBuf: ReduceArray | typeof IN_PLACE, root: number, opts: CollOptions | undefined, blocking: boolean): Request {
    this.checkRoot(call, root);
    if (recvBuf === IN_PLACE && this.rank !== root) throw new MpiError('MPI_ERR_BUFFER', `${call}: only the root may pass mpi.IN_PLACE`);
    let send: ReduceArray | null = null;
    let recv = recvBuf === IN_PLACE ? null : collBuf(call, 'recvBuf', recvBuf);
    if (this.rank === root) {
      send = collBuf(call, 'sendBuf', sendBuf);
      // in place: the root's block stays where it is in sendBuf (it receives into a copy of it)
      if (!recv) {
        this.checkBlocks(call, 'counts', 'displs', counts, displs, send.length);
        recv = this.copyOf(send, displs![root]!, displs![root]! + counts![root]!);
      }
      sameType(call, send, recv);
      this.checkBlocks(call, 'counts', 'displs', counts, displs, send.length);
      if (recv.length < counts![root]!) throw new MpiError('MPI_ERR_COUNT', `${call}: the root's recvBuf has ${recv.length} elements, fewer than counts[${root}] = ${counts![root]}`);
    }
    this.agree({ call, root, type: recv!.constructor.name, algorithm: opts?.algorithm, data: this.rank === root ? Int32Array.from(counts!) : recv!.length, cross: rootCounts(root, 'recvBuf') });
    return this.launch(this.algorithm('scatterv', 0, undefined, opts).fn(this.transport, send, counts, displs, recv!, root), call, blocking);
  }

  /** Inclusive prefix reduction: rank r gets sendBuf of ranks 0..r combined (MPI_Scan). */
  scan(sendBuf: ReduceArray | typeof IN_PLACE, recvBuf: ReduceArray, op: Op, opts?: CollOptions): Promise<void>;
  /** MPI_Scan's long form: `count` elements of `datatype` (predefined, or contiguous of one). */
  scan(sendBuf: ArrayBufferView | typeof IN_PLACE, recvBuf: ArrayBufferView, count: number, datatype: Datatype, op: Op, opts?: CollOptions): Promise<void>;
  async scan(...a: unknown[]): Promise<void> {
    if (typed.longForm(a, 4)) return typed.reduceAllLong('scan', this.packer, (s, r, op, o) => this.scan(s, r, op, o), (s, r, op, o) => this.iscan(s, r, op, o), a) as Promise<void>;
    const [sendBuf, recvBuf, op, opts] = a as [ReduceArray | typeof IN_PLACE, ReduceArray, Op, CollOptions?];
    await this.finish(this.scanIn('scan', sendBuf, recvBuf, op, opts, true));
  }

  /** Nonblocking scan (MPI_Iscan): starts it and returns its request; it progresses inside this rank's MPI calls. */
  iscan(sendBuf: ReduceArray | typeof IN_PLACE, recvBuf: ReduceArray, op: Op, opts?: CollOptions): Request;
  /** MPI_Scan's nonblocking long form: `count` elements of `datatype` (predefined, or contiguous of one). */
  iscan(sendBuf: ArrayBufferView | typeof IN_PLACE, recvBuf: ArrayBufferView, count: number, datatype: Datatype, op: Op, opts?: CollOptions): Request;
  iscan(...a: unknown[]): Request {
    if (typed.longForm(a, 4)) return typed.reduceAllLong('iscan', this.packer, (s, r, op, o) => this.scan(s, r, op, o), (s, r, op, o) => this.iscan(s, r, op, o), a, 'nonblocking') as Request;
    const [sendBuf, recvBuf, op, opts] = a as [ReduceArray | typeof IN_PLACE, ReduceArray, Op, CollOptions?];
    return this.scanIn('iscan', sendBuf, recvBuf, op, opts, false);
  }

  private scanIn(call: string, sendBuf: ReduceArray | typeof IN_PLACE, recvBuf: ReduceArray, op: Op, opts: CollOptions | undefined, blocking: boolean): Request {
    const recv = collBuf(call, 'recvBuf', recvBuf);
    const send = sendBuf === IN_PLACE ? this.copyOf(recv) : collBuf(call, 'sendBuf', sendBuf);
    sameShape(call, send, recv);
    checkOp(call, op, send);
    this.agree({ call, op, ...this.dataSignature(send, 'elements in sendBuf'), algorithm: opts?.algorithm });
    return this.launch(this.algorithm('scan', send.byteLength, op, opts).fn(this.transport, send, recv, op), call, blocking);
  }

  /** Exclusive prefix reduction: rank r gets ranks 0..r-1 combined; rank 0's recvBuf is left as it is (MPI_Exscan). */
  exscan(sendBuf: ReduceArray | typeof IN_PLACE, recvBuf: ReduceArray, op: Op, opts?: CollOptions): Promise<void>;
  /** MPI_Exscan's long form: `count` elements of `datatype` (predefined, or contiguous of one). */
  exscan(sendBuf: ArrayBufferView | typeof IN_PLACE, recvBuf: ArrayBufferView, count: number, datatype: Datatype, op: Op, opts?: CollOptions): Promise<void>;
  async exscan(...a: unknown[]): Promise<void> {
    if (typed.longForm(a, 4)) return typed.reduceAllLong('exscan', this.packer, (s, r, op, o) => this.exscan(s, r, op, o), (s, r, op, o) => this.iexscan(s, r, op, o), a) as Promise<void>;
    const [sendBuf, recvBuf, op, opts] = a as [ReduceArray | typeof IN_PLACE, ReduceArray, Op, CollOptions?];
    await this.finish(this.exscanIn('exscan', sendBuf, recvBuf, op, opts, true));
  }

  /** Nonblocking exscan (MPI_Iexscan): starts it and returns its request; it progresses inside this rank's MPI calls. */
  iexscan(sendBuf: ReduceArray | typeof IN_PLACE, recvBuf: ReduceArray, op: Op, opts?: CollOptions): Request;
  /** MPI_Exscan's nonblocking long form: `count` elements of `datatype` (predefined, or contiguous of one). */
  iexscan(sendBuf: ArrayBufferView | typeof IN_PLACE, recvBuf: ArrayBufferView, count: number, datatype: Datatype, op: Op, opts?: CollOptions): Request;
  iexscan(...a: unknown[]): Request {
    if (typed.longForm(a, 4)) return typed.reduceAllLong('iexscan', this.packer, (s, r, op, o) => this.exscan(s, r, op, o), (s, r, op, o) => this.iexscan(s, r, op, o), a, 'nonblocking') as Request;
    const [sendBuf, recvBuf, op, opts] = a as [ReduceArray | typeof IN_PLACE, ReduceArray, Op, CollOptions?];
    return this.exscanIn('iexscan', sendBuf, recvBuf, op, opts, false);
  }

  private exscanIn(call: string, sendBuf: ReduceArray | typeof IN_PLACE, recvBuf: ReduceArray, op: Op, opts: CollOptions | undefined, blocking: boolean): Request {
    const recv = collBuf(call, 'recvBuf', recvBuf);
    const send = sendBuf === IN_PLACE ? this.copyOf(recv) : collBuf(call, 'sendBuf', sendBuf);
    sameShape(call, send, recv);
    checkOp(call, op, send);
    this.agree({ call, op, ...this.dataSignature(send, 'elements in sendBuf'), algorithm: opts?.algorithm });
    return this.launch(this.algorithm('exscan', send.byteLength, op, opts).fn(this.transport, send, recv, op), call, blocking);
  }
}
