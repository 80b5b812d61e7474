import { NicStatus, statusName, type AmoOp, type NicTransfer } from '../../fabric/nic/nic.ts';
import type { Proc } from '../proc.ts';

/** DMAPP return codes (the subset this layer produces). */
export const DMAPP_RC = {
  SUCCESS: 'DMAPP_RC_SUCCESS',
  INVALID_PARAM: 'DMAPP_RC_INVALID_PARAM',
  ALIGNMENT_ERROR: 'DMAPP_RC_ALIGNMENT_ERROR',
  TRANSACTION_ERROR: 'DMAPP_RC_TRANSACTION_ERROR',
  NOT_DONE: 'DMAPP_RC_NOT_DONE',
} as const;

/** Handle of one non-blocking (`...Nb`) operation: wait on it with `syncidWait`, once. */
export class SyncId {
  /** @internal */ done = false;
  /** @internal */ status: NicStatus = NicStatus.Ok;
  /** @internal */ waited = false;
  /** @internal */ waiting = false;
  /** @internal */ result = 0n;
  /** @internal What names the target in a timeout's message. */ dead = '';
  constructor(
    /** Name of the call that returned it, for messages. */
    readonly call: string,
  ) {}
}

/** Element types of strided and indexed transfers, as DMAPP's type codes (bytes per element). */
export type DmappType = 'byte' | 'dw' | 'qw' | 'dqw';
const TYPE_BYTES: Readonly<Record<DmappType, number>> = { byte: 1, dw: 4, qw: 8, dqw: 16 };

/** Error from a DMAPP call, with its return code. */
export class DmappError extends Error {
  constructor(
    readonly rc: string,
    message: string,
  ) {
    super(`${rc}: ${message}`);
    this.name = 'DmappError';
  }
}

/** A symmetric-heap allocation: the same segment id on every PE, registered with each NIC. */
export interface SymmetricSegment {
  /** Index of the allocation (the same on every PE). */
  readonly id: number;
  /** This PE's bytes of the segment. */
  readonly local: Uint8Array;
}

/** Options of a symmetric allocation. */
export interface MallocOptions {
  /**
   * In a skeleton run, a skeleton segment: puts and gets to and from it move sizes, not bytes,
   * and it costs no memory; AMOs on it are refused. In a normal run this changes nothing.
   */
  readonly skeleton?: boolean;
}

/** Registration table of the symmetric heap of one run: segment id -> handle per PE. */
export class SymmetricHeap {
  readonly handles: (Int32Array | undefined)[] = [];
  constructor(readonly pes: number) {}
}

/** How a call completes: blocking, non-blocking with a handle, or non-blocking implicit. */
type Completion = 'blocking' | 'nb' | 'nbi';

/**
 * The DMAPP face over the NIC (seed 004 §I and seed 001 "Remote Memory Access": DMAPP wraps FMA
 * for one-sided puts, gets and AMOs): blocking, non-blocking with a handle (`...Nb`, waited on by
 * `syncidWait`) and non-blocking-implicit (`...Nbi`, completed by `gsyncWait`) puts, gets and
 * AMOs on symmetric segments, strided (`iput`/`iget`) and indexed (scatter/gather) variants.
 * Transfers up to `dmapp.bteThreshold` use FMA, larger ones the BTE. Every call charges the
 * library's own CPU time (`dmapp.overhead`). With `dmapp.vmdh` the heap answers to one virtual
 * handle on every node. Errors: DMAPP_RC_* codes thrown as DmappError; a transfer refused by the
 * NIC (bad handle, out of bounds, another domain) fails its wait with TRANSACTION_ERROR.
 */
export class Dmapp {
  private pending = 0;
  private waiting = false;
  private firstError: NicStatus = NicStatus.Ok;
  /** What names the target of the first failed implicit operation when it timed out ('' otherwise). */
  private firstDead = '';
  private allocs = 0;
  /** Made by `fork`: it shares the PE's heap and allocates nothing. */
  private forked = false;

  constructor(
    private readonly proc: Proc,
    private readonly heap: SymmetricHeap,
    private readonly procs: readonly Proc[],
  ) {}

  /** This PE. */
  get pe(): number {
    return this.proc.rank;
  }

  /** Number of PEs. */
  get npes(): number {
    return this.procs.length;
  }

  /**
   * @internal Another DMAPP instance of this PE, with its own implicit completion: its `gsyncWait` waits
   * only for the `...Nbi` operations issued through it, and the PE's `gsyncWait` not for them
   * (the separate FMA descriptor and completion state a SHMEM context owns). It reaches the same
   * symmetric heap and allocates nothing.
   */
  fork(): Dmapp {
    const d = new Dmapp(this.proc, this.heap, this.procs);
    d.forked = true;
    return d;
  }

  /**
   * Allocates `bytes` on the symmetric heap. Every PE must make the same sequence of calls; a
   * PE may access another's segment only after that PE has allocated it (synchronise first).
   * `{ skeleton: true }` makes it a skeleton segment in a skeleton run (see MallocOptions).
   */
  malloc(bytes: number, opts: MallocOptions = {}): SymmetricSegment {
    if (this.forked) throw new DmappError(DMAPP_RC.INVALID_PARAM, 'malloc: a forked instance allocates nothing (allocate through the PE\'s own)');
    if (!Number.isInteger(bytes) || bytes < 0) throw new DmappError(DMAPP_RC.INVALID_PARAM, `malloc: bytes=${bytes} must be a non-negative integer`);
    const id = this.allocs++;
    let row = this.heap.handles[id];
    if (!row) this.heap.handles[id] = row = new Int32Array(this.heap.pes).fill(-1);
    const skeleton = opts.skeleton === true ? this.proc.skeleton : null;
    const local = skeleton ? skeleton.alloc(Uint8Array, bytes) : new Uint8Array(bytes);
    const d = this.proc.machine.config.dmapp;
    // the heap sits on large pages; with vMDH its segment answers to the same handle on every node
    row[this.pe] = this.proc.nic.register(local, { inst: this.proc.inst, pageBytes: d.heapPageBytes, ...(d.vmdh ? { vmdh: id } : {}) });
    return { id, local };
  }

  /** Frees a symmetric segment on this PE (every PE frees it; accesses afterwards fail). */
  free(seg: SymmetricSegment): void {
    if (this.forked) throw new DmappError(DMAPP_RC.INVALID_PARAM, 'free: a forked instance frees nothing (free through the PE\'s own)');
    const row = this.heap.handles[seg.id];
    const h = row?.[this.pe] ?? -1;
    if (h < 0) throw new DmappError(DMAPP_RC.INVALID_PARAM, `free: symmetric segment ${seg.id} is not allocated on PE ${this.pe}`);
    this.proc.nic.deregister(h);
    row![this.pe] = -1;
  }

  // --- contiguous puts and gets

  /** Blocking put of `src` into `target`'s copy of `seg` at byte `offset`. */
  async put(target: number, seg: SymmetricSegment, offset: number, src: ArrayBufferView): Promise<void> {
    await this.transfer('put', 'put', 'blocking', target, seg, offset, bytesOf('put', src));
  }

  /** Blocking get from `target`'s copy of `seg` at byte `offset` into `dst`. */
  async get(target: number, seg: SymmetricSegment, offset: number, dst: ArrayBufferView): Promise<void> {
    await this.transfer('get', 'get', 'blocking', target, seg, offset, bytesOf('get', dst));
  }

  /** Non-blocking put: wait on the returned handle with `syncidWait` (src must stay unchanged until then). */
  putNb(target: number, seg: SymmetricSegment, offset: number, src: ArrayBufferView): Promise<SyncId> {
    return this.transfer('putNb', 'put', 'nb', target, seg, offset, bytesOf('putNb', src)) as Promise<SyncId>;
  }

  /** Non-blocking get: `dst` holds the data after `syncidWait` on the returned handle. */
  getNb(target: number, seg: SymmetricSegment, offset: number, dst: ArrayBufferView): Promise<SyncId> {
    return this.transfer('getNb', 'get', 'nb', target, seg, offset, bytesOf('getNb', dst)) as Promise<SyncId>;
  }

  /** Non-blocking-implicit put: completes at the next `gsyncWait()`. */
  async putNbi(target: number, seg: SymmetricSegment, offset: number, src: ArrayBufferView): Promise<void> {
    await this.transfer('putNbi', 'put', 'nbi', target, seg, offset, bytesOf('putNbi', src));
  }

  /** Non-blocking-implicit get: the data is in `dst` after the next `gsyncWait()`. */
  async getNbi(target: number, seg: SymmetricSegment, offset: number, dst: ArrayBufferView): Promise<void> {
    await this.transfer('getNbi', 'get', 'nbi', target, seg, offset, bytesOf('getNbi', dst));
  }

  // --- strided and indexed (scatter/gather)

  /**
   * Strided put (dmapp_iput): `count` elements of `type` from `src` (every `srcStride` elements)
   * to `target` at byte `offset` (every `dstStride` elements); implicit completion (gsyncWait).
   */
  async iputNbi(target: number, seg: SymmetricSegment, offset: number, src: ArrayBufferView, type: DmappType, dstStride: number, srcStride: number, count: number): Promise<void> {
    checkStrides('iputNbi', dstStride, srcStride, count);
    return this.elementwise('iputNbi', 'put', target, seg, offset, src, type, count, (i) => i * dstStride, (i) => i * srcStride);
  }

  /** Strided get (dmapp_iget): the mirror of `iputNbi`, into `dst`. */
  async igetNbi(target: number, seg: SymmetricSegment, offset: number, dst: ArrayBufferView, type: DmappType, dstStride: number, srcStride: number, count: number): Promise<void> {
    checkStrides('igetNbi', dstStride, srcStride, count);
    return this.elementwise('igetNbi', 'get', target, seg, offset, dst, type, count, (i) => i * srcStride, (i) => i * dstStride);
  }

  /** Indexed put (scatter): element i of `src` goes to byte `offset + indices[i] * size(type)` of `target`. */
  async scatterNbi(target: number, seg: SymmetricSegment, offset: number, src: ArrayBufferView, type: DmappType, indices: ArrayLike<number>): Promise<void> {
    return this.elementwise('scatterNbi', 'put', target, seg, offset, src, type, indices.length, (i) => indices[i]!, (i) => i);
  }

  /** Indexed get (gather): element i of `dst` comes from byte `offset + indices[i] * size(type)` of `target`. */
  async gatherNbi(target: number, seg: SymmetricSegment, offset: number, dst: ArrayBufferView, type: DmappType, indices: ArrayLike<number>): Promise<void> {
    return this.elementwise('gatherNbi', 'get', target, seg, offset, dst, type, indices.length, (i) => indices[i]!, (i) => i);
  }

  /**
   * `count` implicit one-element transfers of `type`: element `localAt(i)` of `buf` to or from
   * element `remoteAt(i)` after byte `offset` of `target`'s segment (the strided and indexed calls).
   */
  private async elementwise(
    call: string,
    op: 'put' | 'get',
    target: number,
    seg: SymmetricSegment,
    offset: number,
    buf: ArrayBufferView,
    type: DmappType,
    count: number,
    remoteAt: (i: number) => number,
    localAt: (i: number) => number,
  ): Promise<void> {
    const e = elemBytes(call, type);
    const bytes = bytesOf(call, buf);
    // local positions rise with i in every caller, so the last one bounds them all
    if (count > 0 && (localAt(count - 1) + 1) * e > bytes.length) {
      throw new DmappError(DMAPP_RC.INVALID_PARAM, `${call}: ${count} elements of ${e} bytes run past the ${bytes.length}-byte ${op === 'put' ? 'source' : 'destination'}`);
    }
    // every element is checked before any moves
    for (let i = 0; i < count; i++) {
      const ix = remoteAt(i);
      if (!Number.isInteger(ix) || ix < 0) throw new DmappError(DMAPP_RC.INVALID_PARAM, `${call}: element ${i} goes to index ${ix}, which must be a non-negative integer`);
    }
    for (let i = 0; i < count; i++) {
      const at = localAt(i) * e;
      await this.transfer(call, op, 'nbi', target, seg, offset + remoteAt(i) * e, bytes.subarray(at, at + e));
    }
  }

  // --- AMOs (quadword, 8 bytes, at an 8-byte aligned offset)

  /** Atomic add (non-fetching, blocking). */
  async aaddQw(target: number, seg: SymmetricSegment, offset: number, value: bigint): Promise<void> {
    await this.amo('aaddQw', 'add', false, 'blocking', target, seg, offset, value);
  }
  /** Atomic add, non-blocking implicit (completes at `gsyncWait`). */
  async aaddQwNbi(target: number, seg: SymmetricSegment, offset: number, value: bigint): Promise<void> {
    await this.amo('aaddQwNbi', 'add', false, 'nbi', target, seg, offset, value);
  }
  /** Atomic and / or / xor (non-fetching, blocking). */
  async aandQw(target: number, seg: SymmetricSegment, offset: number, value: bigint): Promise<void> {
    await this.amo('aandQw', 'and', false, 'blocking', target, seg, offset, value);
  }
  async aorQw(target: number, seg: SymmetricSegment, offset: number, value: bigint): Promise<void> {
    await this.amo('aorQw', 'or', false, 'blocking', target, seg, offset, value);
  }
  async axorQw(target: number, seg: SymmetricSegment, offset: number, value: bigint): Promise<void> {
    await this.amo('axorQw', 'xor', false, 'blocking', target, seg, offset, value);
  }
  /** Fetching atomics (blocking): return the old value. */
  async afaddQw(target: number, seg: SymmetricSegment, offset: number, value: bigint): Promise<bigint> {
    return (await this.amo('afaddQw', 'add', true, 'blocking', target, seg, offset, value)) as bigint;
  }
  async afandQw(target: number, seg: SymmetricSegment, offset: number, value: bigint): Promise<bigint> {
    return (await this.amo('afandQw', 'and', true, 'blocking', target, seg, offset, value)) as bigint;
  }
  async aforQw(target: number, seg: SymmetricSegment, offset: number, value: bigint): Promise<bigint> {
    return (await this.amo('aforQw', 'or', true, 'blocking', target, seg, offset, value)) as bigint;
  }
  async afxorQw(target: number, seg: SymmetricSegment, offset: number, value: bigint): Promise<bigint> {
    return (await this.amo('afxorQw', 'xor', true, 'blocking', target, seg, offset, value)) as bigint;
  }
  /** Atomic swap: writes `value`, returns the old one. */
  async aswapQw(target: number, seg: SymmetricSegment, offset: number, value: bigint): Promise<bigint> {
    return (await this.amo('aswapQw', 'swap', true, 'blocking', target, seg, offset, value)) as bigint;
  }
  /** Atomic compare-and-swap: writes `swap` if the variable equals `compare`; returns the old value. */
  async acswapQw(target: number, seg: SymmetricSegment, offset: number, compare: bigint, swap: bigint): Promise<bigint> {
    return (await this.amo('acswapQw', 'cswap', true, 'blocking', target, seg, offset, swap, compare)) as bigint;
  }
  /** Fetching add, non-blocking with a handle: the old value is `syncidResult(handle)` after `syncidWait`. */
  afaddQwNb(target: number, seg: SymmetricSegment, offset: number, value: bigint): Promise<SyncId> {
    return this.amo('afaddQwNb', 'add', true, 'nb', target, seg, offset, value) as Promise<SyncId>;
  }
  /**
   * Fetching add, non-blocking implicit (dmapp_afadd_qw_nbi): the old value is written to the
   * first 8 bytes of `result` (little-endian) when the AMO completes; it is there after `gsyncWait`.
   */
  async afaddQwNbi(target: number, seg: SymmetricSegment, offset: number, value: bigint, result: ArrayBufferView): Promise<void> {
    await this.amo('afaddQwNbi', 'add', true, 'nbi', target, seg, offset, value, undefined, 8, result);
  }

  /**
   * Any AMO of the NIC's AMO unit, 4 or 8 bytes wide, in any completion mode: the general form
   * the named calls use (and SHMEM's typed atomics). Blocking fetching calls resolve to the old
   * value. A fetching AMO writes the old value into the first `width` bytes of `result`
   * (little-endian) when it completes, as the NIC delivers it; a fetching `nbi` AMO needs
   * `result`, since it returns nothing and its value is there only after `gsyncWait`. Bad
   * arguments reject the returned promise.
   */
  async amo(
    call: string,
    op: AmoOp,
    fetch: boolean,
    completion: Completion,
    target: number,
    seg: SymmetricSegment,
    offset: number,
    operand: bigint,
    compare?: bigint,
    width: 4 | 8 = 8,
    result?: ArrayBufferView,
  ): Promise<bigint | SyncId | undefined> {
    if (typeof operand !== 'bigint') throw new DmappError(DMAPP_RC.INVALID_PARAM, `${call}: the operand must be a bigint, got ${typeof operand}`);
    if (!Number.isInteger(offset) || offset < 0 || offset % width !== 0) {
      throw new DmappError(Number.isInteger(offset) && offset >= 0 ? DMAPP_RC.ALIGNMENT_ERROR : DMAPP_RC.INVALID_PARAM, `${call}: offset=${offset} must be a multiple of ${width}`);
    }
    let local: Uint8Array;
    if (result === undefined) {
      if (fetch && completion === 'nbi') throw new DmappError(DMAPP_RC.INVALID_PARAM, `${call}: a fetching nbi AMO needs a result buffer for the old value`);
      local = new Uint8Array(fetch ? width : 0);
    } else {
      if (!fetch) throw new DmappError(DMAPP_RC.INVALID_PARAM, `${call}: a non-fetching AMO takes no result buffer`);
      const bytes = bytesOf(call, result);
      if (bytes.length < width) throw new DmappError(DMAPP_RC.INVALID_PARAM, `${call}: the result buffer has ${bytes.length} bytes, fewer than the ${width} of the old value`);
      local = bytes.subarray(0, width);
    }
    return this.transfer(call, 'amo', completion, target, seg, offset, local, { op, width, operand, fetch, ...(compare !== undefined ? { compare } : {}) });
  }

  // --- completion

  /** Waits for a non-blocking operation's handle; throws TRANSACTION_ERROR if it failed. A handle is waited on once. */
  async syncidWait(h: SyncId): Promise<void> {
    this.checkHandle('syncidWait', h);
    while (!h.done) {
      h.waiting = true;
      await this.proc.block(() => `dmapp.syncidWait(${h.call})`);
      h.waiting = false;
    }
    h.waited = true;
    if (h.status !== NicStatus.Ok) throw new DmappError(DMAPP_RC.TRANSACTION_ERROR, `${h.call} failed with NIC status ${statusName(h.status)}${h.dead}`);
  }

  /** Whether a non-blocking operation has completed (DMAPP_RC_NOT_DONE otherwise); does not consume the handle. */
  async syncidTest(h: SyncId): Promise<boolean> {
    this.checkHandle('syncidTest', h);
    await this.proc.cpu(this.proc.machine.config.mpi.testOverheadPs, 'dmapp.syncidTest');
    return h.done;
  }

  /** The old value fetched by a completed non-blocking fetching AMO. */
  syncidResult(h: SyncId): bigint {
    if (!h.done) throw new DmappError(DMAPP_RC.NOT_DONE, `syncidResult: ${h.call} has not completed (syncidWait first)`);
    return h.result;
  }

  /** Waits until every implicit operation of this PE has completed; throws on a failed one. */
  async gsyncWait(): Promise<void> {
    while (this.pending > 0) {
      this.waiting = true;
      await this.proc.block(() => `dmapp.gsyncWait(${this.pending} operations outstanding)`);
      this.waiting = false;
    }
    const e = this.firstError;
    if (e !== NicStatus.Ok) {
      this.firstError = NicStatus.Ok;
      throw new DmappError(DMAPP_RC.TRANSACTION_ERROR, `a put, get or AMO failed with NIC status ${statusName(e)}${this.firstDead}`);
    }
  }

  /** Whether every implicit operation has completed (does not wait). */
  gsyncTest(): boolean {
    return this.pending === 0;
  }

  private checkHandle(call: string, h: SyncId): void {
    if (!(h instanceof SyncId)) throw new DmappError(DMAPP_RC.INVALID_PARAM, `${call}: not a handle returned by a ...Nb call`);
    if (h.waited) throw new DmappError(DMAPP_RC.INVALID_PARAM, `${call}: the handle of ${h.call} was already waited on`);
  }

  /** Checks, charges and posts one transfer; resolves as its completion mode says. */
  private async transfer(
    call: string,
    op: 'put' | 'get' | 'amo',
    completion: Completion,
    target: number,
    seg: SymmetricSegment,
    offset: number,
    local: Uint8Array,
    amo?: NicTransfer['amo'],
  ): Promise<bigint | SyncId | undefined> {
    if (!Number.isInteger(target) || target < 0 || target >= this.procs.length) {
      throw new DmappError(DMAPP_RC.INVALID_PARAM, `${call}: target=${target} is not a PE (0..${this.procs.length - 1})`);
    }
    if (!Number.isInteger(offset) || offset < 0) throw new DmappError(DMAPP_RC.INVALID_PARAM, `${call}: offset=${offset} must be a non-negative integer`);
    if (seg === null || typeof seg !== 'object' || !Number.isInteger(seg.id)) throw new DmappError(DMAPP_RC.INVALID_PARAM, `${call}: not a symmetric segment`);
    const handle = this.heap.handles[seg.id]?.[target] ?? -1;
    if (handle < 0) {
      throw new DmappError(DMAPP_RC.INVALID_PARAM, `${call}: PE ${target} has not allocated symmetric segment ${seg.id} (synchronise after malloc)`);
    }
    // AMOs act on real memory only: a skeleton variable would be shared by every skeleton buffer
    if (amo && (this.proc.isSkeleton(seg.local) || this.proc.isSkeleton(local))) {
      throw new DmappError(DMAPP_RC.INVALID_PARAM, `${call}: an AMO needs real memory, but ${this.proc.isSkeleton(local) ? 'the result buffer' : `symmetric segment ${seg.id}`} is a skeleton buffer`);
    }
    const peer = this.procs[target]!;
    const d = this.proc.machine.config.dmapp;
    // the library's own work, after any CPU time still owed
    await this.proc.cpu(d.overheadPs, `dmapp.${call}(target=${target})`);
    const h = completion === 'nbi' ? null : new SyncId(call);
    if (!h) this.pending++;
    const cpu = this.proc.nic.post({
      op,
      mode: op !== 'amo' && local.length > d.bteThresholdBytes ? 'bte' : 'fma',
      local,
      remoteNode: peer.node,
      inst: this.proc.inst,
      remoteInst: peer.inst,
      ...(d.vmdh ? { vmdh: true, remoteHandle: seg.id } : { remoteHandle: handle }),
      remoteOffset: offset,
      ...(amo ? { amo } : {}),
      onComplete: (s) => {
        // a timeout: the target's node never answered (it is dead)
        const dead = s === NicStatus.Timeout ? `: PE ${target} on node ${peer.node} did not answer within the NIC timeout (its node is dead)` : '';
        if (h) {
          h.done = true;
          h.status = s;
          h.dead = dead;
          if (amo?.fetch && s === NicStatus.Ok) h.result = readUint(local, amo.width);
          if (h.waiting) this.proc.wake();
          return;
        }
        if (s !== NicStatus.Ok && this.firstError === NicStatus.Ok) {
          this.firstError = s;
          this.firstDead = dead;
        }
        if (--this.pending === 0 && this.waiting) this.proc.wake();
      },
    });
    await this.proc.cpu(cpu, `dmapp.${call}(target=${target})`);
    if (completion === 'nbi') return undefined;
    if (completion === 'nb') return h!;
    await this.syncidWait(h!);
    return amo?.fetch ? h!.result : undefined;
  }
}

/** The bytes of a typed array (or DataView), or INVALID_PARAM naming the call. */
function bytesOf(call: string, buf: ArrayBufferView): Uint8Array {
  if (!ArrayBuffer.isView(buf)) throw new DmappError(DMAPP_RC.INVALID_PARAM, `${call}: buffer must be a typed array`);
  return new Uint8Array(buf.buffer, buf.byteOffset, buf.byteLength);
}

function elemBytes(call: string, type: DmappType): number {
  const e = TYPE_BYTES[type];
  if (e === undefined) throw new DmappError(DMAPP_RC.INVALID_PARAM, `${call}: type=${String(type)}; valid: ${Object.keys(TYPE_BYTES).join(', ')}`);
  return e;
}

function checkStrides(call: string, dstStride: number, srcStride: number, count: number): void {
  for (const [k, v] of [['dstStride', dstStride], ['srcStride', srcStride], ['count', count]] as const) {
    if (!Number.isInteger(v) || v < (k === 'count' ? 0 : 1)) throw new DmappError(DMAPP_RC.INVALID_PARAM, `${call}: ${k}=${v} must be a ${k === 'count' ? 'non-negative' : 'positive'} integer`);
  }
}

/** Little-endian unsigned value of the first `width` bytes. */
function readUint(b: Uint8Array, width: number): bigint {
  let v = 0n;
  for (let i = width - 1; i >= 0; i--) v = (v << 8n) | BigInt(b[i]!);
  return v;
}
