import { NicStatus } from '../../fabric/nic/nic.ts';
import type { Proc } from '../proc.ts';

/** DMAPP return codes (the subset this layer produces). */
export const DMAPP_RC = {
  SUCCESS: 'DMAPP_RC_SUCCESS',
  INVALID_PARAM: 'DMAPP_RC_INVALID_PARAM',
  TRANSACTION_ERROR: 'DMAPP_RC_TRANSACTION_ERROR',
} as const;

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

/** Registration table of the symmetric heap of one run: segment id -> handle per PE. */
export class SymmetricHeap {
  readonly handles: (Int32Array | undefined)[] = [];
  constructor(readonly pes: number) {}
}

/**
 * A thin DMAPP face over the NIC (seed 004 §I: DMAPP wraps FMA for one-sided puts and gets):
 * blocking and non-blocking-implicit puts and gets on symmetric segments; transfers up to
 * `dmapp.bteThreshold` use FMA, larger ones the BTE.
 */
export class Dmapp {
  private pending = 0;
  private waiting = false;
  private firstError: NicStatus = NicStatus.Ok;
  private allocs = 0;

  constructor(
    private readonly proc: Proc,
    private readonly heap: SymmetricHeap,
    private readonly procs: readonly Proc[],
  ) {}

  /** This PE. */
  get pe(): number {
    return this.proc.rank;
  }

  /**
   * Allocates `bytes` on the symmetric heap. Every PE must make the same sequence of calls; a
   * PE may access another's segment only after that PE has allocated it (synchronise first).
   */
  malloc(bytes: number): SymmetricSegment {
    if (!Number.isInteger(bytes) || bytes < 0) throw new DmappError(DMAPP_RC.INVALID_PARAM, `malloc: bytes=${bytes} must be a non-negative integer`);
    const id = this.allocs++;
    let row = this.heap.handles[id];
    if (!row) this.heap.handles[id] = row = new Int32Array(this.heap.pes).fill(-1);
    const local = new Uint8Array(bytes);
    const d = this.proc.machine.config.dmapp;
    // the heap sits on large pages; with vMDH its segment answers to the same handle on every node
    row[this.pe] = this.proc.nic.register(local, { inst: this.proc.inst, pageBytes: d.heapPageBytes, ...(d.vmdh ? { vmdh: id } : {}) });
    return { id, local };
  }

  /** Blocking put of `src` into `target`'s copy of `seg` at byte `offset`. */
  async put(target: number, seg: SymmetricSegment, offset: number, src: ArrayBufferView): Promise<void> {
    await this.start('put', 'put', target, seg, offset, src);
    await this.gsyncWait();
  }

  /** Blocking get from `target`'s copy of `seg` at byte `offset` into `dst`. */
  async get(target: number, seg: SymmetricSegment, offset: number, dst: ArrayBufferView): Promise<void> {
    await this.start('get', 'get', target, seg, offset, dst);
    await this.gsyncWait();
  }

  /** Non-blocking-implicit put: completes at the next `gsyncWait()`. */
  putNbi(target: number, seg: SymmetricSegment, offset: number, src: ArrayBufferView): Promise<void> {
    return this.start('putNbi', 'put', target, seg, offset, src);
  }

  /** Non-blocking-implicit get: the data is in `dst` after the next `gsyncWait()`. */
  getNbi(target: number, seg: SymmetricSegment, offset: number, dst: ArrayBufferView): Promise<void> {
    return this.start('getNbi', 'get', target, seg, offset, dst);
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
      throw new DmappError(DMAPP_RC.TRANSACTION_ERROR, `a put or get failed with NIC status ${e === NicStatus.BadHandle ? 'BadHandle' : 'OutOfBounds'}`);
    }
  }

  private async start(call: string, op: 'put' | 'get', target: number, seg: SymmetricSegment, offset: number, buf: ArrayBufferView): Promise<void> {
    if (!Number.isInteger(target) || target < 0 || target >= this.procs.length) {
      throw new DmappError(DMAPP_RC.INVALID_PARAM, `${call}: target=${target} is not a PE (0..${this.procs.length - 1})`);
    }
    if (!ArrayBuffer.isView(buf)) throw new DmappError(DMAPP_RC.INVALID_PARAM, `${call}: buffer must be a typed array`);
    if (!Number.isInteger(offset) || offset < 0) throw new DmappError(DMAPP_RC.INVALID_PARAM, `${call}: offset=${offset} must be a non-negative integer`);
    const handle = this.heap.handles[seg.id]?.[target] ?? -1;
    if (handle < 0) {
      throw new DmappError(DMAPP_RC.INVALID_PARAM, `${call}: PE ${target} has not allocated symmetric segment ${seg.id} yet (synchronise after malloc)`);
    }
    const local = new Uint8Array(buf.buffer, buf.byteOffset, buf.byteLength);
    const peer = this.procs[target]!;
    const d = this.proc.machine.config.dmapp;
    // the library's own work, after any CPU time still owed
    await this.proc.cpu(d.overheadPs, `dmapp.${call}(target=${target})`);
    this.pending++;
    const cpu = this.proc.nic.post({
      op,
      mode: local.length > d.bteThresholdBytes ? 'bte' : 'fma',
      local,
      remoteNode: peer.node,
      inst: this.proc.inst,
      remoteInst: peer.inst,
      ...(d.vmdh ? { vmdh: true, remoteHandle: seg.id } : { remoteHandle: handle }),
      remoteOffset: offset,
      onComplete: (s) => {
        if (s !== NicStatus.Ok && this.firstError === NicStatus.Ok) this.firstError = s;
        if (--this.pending === 0 && this.waiting) this.proc.wake();
      },
    });
    await this.proc.cpu(cpu, `dmapp.${call}(target=${target})`);
  }
}
