import { DmappError, type Dmapp } from '../dmapp/dmapp.ts';
import type { Proc } from '../proc.ts';
import { ShmemError, Symmetric, type PeHeap } from './symmetric.ts';
import type { ShmemJob } from './job.ts';
import { unwrapView } from './ptr-view.ts';
import type { ShmemWatch } from './watch.ts';

/**
 * What every SHMEM face of a PE builds on: its DMAPP, process and heap, the argument checks that
 * name the call and argument, the contiguous transfers, and the exact wait on local memory.
 */
export class ShmemBase {
  /** What the job's PEs wait on (shared by all of them). */
  protected readonly watch: ShmemWatch;

  constructor(
    protected readonly dmapp: Dmapp,
    protected readonly proc: Proc,
    /** What the job's PEs share. */
    protected readonly job: ShmemJob,
    /** This PE's symmetric heap (shared by its faces). */
    protected readonly heap: PeHeap,
  ) {
    this.watch = job.watch;
  }

  /** The process this PE runs as (for CPU-time charges). */
  protected get process(): Proc {
    return this.proc;
  }

  /**
   * Copies `src` (already a private copy) to `dest` on `pe`; `copied` charges the bounce-buffer
   * copy. A zero-length put checks only `pe` (OpenSHMEM Annex C: its addresses may be anything).
   */
  protected async putBytes(call: string, dest: Symmetric, src: Uint8Array, pe: number, copied: boolean): Promise<void> {
    const to = this.target(call, 'pe', pe);
    if (src.length === 0) return;
    this.checkSym(call, 'dest', dest);
    this.checkRange(call, 'dest', dest, src.length);
    if (copied) await this.proc.cpu(Math.ceil(src.length / this.proc.machine.config.cpu.memBytesPerPs), `shmem.${call}(copy)`);
    await this.nic(call, this.dmapp.putNbi(to, dest.segment, dest.offset, src));
  }

  /** Gets into `dst` from `source` on `pe`; `blocking` waits for the data. A zero-length get checks only `pe`. */
  protected async getBytes(call: string, dst: Uint8Array, source: Symmetric, pe: number, blocking: boolean): Promise<void> {
    const from = this.target(call, 'pe', pe);
    if (dst.length === 0) return;
    this.checkSym(call, 'source', source);
    this.checkRange(call, 'source', source, dst.length);
    if (blocking) await this.nic(call, this.dmapp.get(from, source.segment, source.offset, dst));
    else await this.nic(call, this.dmapp.getNbi(from, source.segment, source.offset, dst));
  }

  /**
   * Waits until `ok()`, which reads `bytes` bytes at `offset` of this PE's `mem`: each read costs
   * a poll's CPU time; while it is false the PE sleeps until remote data lands on those bytes
   * and is visible, then reads again. `what` names the wait in a deadlock report.
   */
  protected async poll(ok: () => boolean, what: () => string, mem: Uint8Array, offset: number, bytes: number): Promise<void> {
    const pollPs = this.proc.machine.config.mpi.testOverheadPs;
    for (;;) {
      await this.proc.cpu(pollPs, what);
      // nothing lands between this read and the suspension: both happen at this instant
      if (ok()) return;
      await this.watch.untilLanding(this.proc, mem, offset, bytes, what);
    }
  }

  /** Awaits a DMAPP call, turning its DmappError into a ShmemError of `call` (the DMAPP error as cause). */
  protected async nic<T>(call: string, p: Promise<T>): Promise<T> {
    try {
      return await p;
    } catch (e) {
      if (e instanceof DmappError) throw new ShmemError(`${call}: ${e.message}`, { cause: e });
      throw e;
    }
  }

  /** Checks a PE number of the job (0..npes-1). */
  protected checkPe(call: string, arg: string, pe: number): void {
    const n = this.dmapp.npes;
    if (!Number.isInteger(pe) || pe < 0 || pe >= n) throw new ShmemError(`${call}: ${arg}=${pe} is not a PE (0..${n - 1})`);
  }

  /** The job PE that PE number `pe` of an RMA or atomic call names (a context on a team overrides this), checked. */
  protected target(call: string, arg: string, pe: number): number {
    this.checkPe(call, arg, pe);
    return pe;
  }

  /** Checks that `s` is a live symmetric address of this PE; a ShmemError naming `call`, `arg` and what `s` is otherwise. */
  protected checkSym(call: string, arg: string, s: Symmetric): void {
    if (!(s instanceof Symmetric) || s.owner !== this.heap) {
      throw new ShmemError(`${call}: ${arg} is ${describe(s)}, not a symmetric address of PE ${this.dmapp.pe} (allocate it with shmem.malloc; private memory cannot be named remotely)`);
    }
    if (!this.heap.live.has(s.segment.id)) throw new ShmemError(`${call}: ${arg} (symmetric segment ${s.segment.id}) has been freed`);
  }

  protected checkRange(call: string, arg: string, s: Symmetric, bytes: number): void {
    if (bytes > s.bytes) throw new ShmemError(`${call}: ${bytes} bytes at ${arg} run past the end of its symmetric object (${s.bytes} bytes from byte offset ${s.offset})`);
  }

  protected checkCount(call: string, arg: string, n: number): void {
    if (!Number.isInteger(n) || n < 0) throw new ShmemError(`${call}: ${arg}=${n} must be a non-negative integer`);
  }

  protected checkStride(call: string, dst: number, sst: number, nelems: number): void {
    this.checkCount(call, 'nelems', nelems);
    for (const [k, v] of [['dst', dst], ['sst', sst]] as const) {
      if (!Number.isInteger(v) || v < 1) throw new ShmemError(`${call}: ${k}=${v} must be a positive integer`);
    }
  }

  /** Whether bytes really move between `a` and `b`: neither is a skeleton buffer. */
  protected moves(a: Uint8Array, b: Uint8Array): boolean {
    return !this.proc.isSkeleton(a) && !this.proc.isSkeleton(b);
  }

  /** A private copy of `bytes` (a bounce buffer); a skeleton buffer is its own copy, as sizes only. */
  protected copyOf(bytes: Uint8Array): Uint8Array {
    return this.proc.isSkeleton(bytes) ? bytes : bytes.slice();
  }

  /**
   * The first `nbytes` bytes of a private buffer, or a ShmemError naming it; with `nbytes` 0 the
   * buffer may be anything (Annex C). A call that takes a count of elements passes it as `nelems`
   * (already checked), so that too short a buffer is reported in the count the call was given.
   */
  protected bytesArg(call: string, arg: string, view: ArrayBufferView, nbytes: number, nelems?: number): Uint8Array {
    if (nelems === undefined) this.checkCount(call, 'nbytes', nbytes);
    if (nbytes === 0) return new Uint8Array(0);
    const buf = unwrapView(view);
    if (!ArrayBuffer.isView(buf)) throw new ShmemError(`${call}: ${arg} must be a typed array`);
    if (nbytes > buf.byteLength) throw new ShmemError(`${call}: ${nelems === undefined ? `nbytes=${nbytes}` : `nelems=${nelems} (${nbytes} bytes)`} exceeds the ${buf.byteLength} bytes of ${arg}`);
    return new Uint8Array(buf.buffer, buf.byteOffset, nbytes);
  }
}

/** What a value passed where a symmetric address belongs is, for messages: `a Uint8Array(8)`, `null`, `the number 5`. */
function describe(x: unknown): string {
  if (x === null || x === undefined) return String(x);
  if (x instanceof Symmetric) return 'a symmetric address of another PE';
  const v = unwrapView(x);
  if (ArrayBuffer.isView(v)) return `a ${v.constructor.name}(${'length' in v ? String(v.length) : v.byteLength})`;
  if (typeof x === 'object') return `an object (${(x as object).constructor?.name ?? 'no prototype'})`;
  return `the ${typeof x} ${String(x)}`;
}
