import { ShmemSignals } from './signals.ts';
import { ShmemError, TYPES, type AtomicType, type ShmemCmp, type Symmetric } from './symmetric.ts';

const CMPS: readonly ShmemCmp[] = ['eq', 'ne', 'gt', 'ge', 'lt', 'le'];

/** Point-to-point synchronisation (OpenSHMEM 1.5 §9.11): waits and tests on a local symmetric variable. */
export class ShmemWait extends ShmemSignals {
  /** This PE's number. */
  myPe(): number {
    return this.dmapp.pe;
  }

  /** Number of PEs. */
  nPes(): number {
    return this.dmapp.npes;
  }

  // --- point-to-point synchronisation

  /**
   * Waits until this PE's `ivar` (a local symmetric variable of `type`, default int64) compares
   * to `value` as `cmp` says (shmem_wait_until). Reads local memory, charging a poll's CPU time;
   * while the condition is false the PE sleeps until remote data lands on `ivar`, and reads it
   * again once that write is visible. A condition nothing can make true is a deadlock.
   */
  async waitUntil(ivar: Symmetric, cmp: ShmemCmp, value: bigint | number, type: AtomicType = 'int64'): Promise<void> {
    await this.waitOn('waitUntil', 'ivar', ivar, cmp, value, type);
  }

  /** This PE's signal at `sigAddr` (shmem_signal_fetch): a read of local memory, one poll's CPU time. */
  async signalFetch(sigAddr: Symmetric): Promise<bigint> {
    this.checkSignalAddr('signalFetch', sigAddr);
    await this.proc.cpu(this.proc.machine.config.mpi.testOverheadPs, 'shmem.signalFetch');
    return readVar(dataView(sigAddr), sigAddr.offset, 'uint64');
  }

  /**
   * Waits until this PE's signal at `sigAddr` compares to `value` as `cmp` says, and returns the
   * signal then (shmem_signal_wait_until); exact as `waitUntil` is.
   */
  async signalWaitUntil(sigAddr: Symmetric, cmp: ShmemCmp, value: bigint | number): Promise<bigint> {
    this.checkSignalAddr('signalWaitUntil', sigAddr);
    return this.waitOn('signalWaitUntil', 'sigAddr', sigAddr, cmp, value, 'uint64');
  }

  /** Waits until `ivar` (argument `arg` of `call`) compares to `value` as `cmp` says; returns its value then. */
  private async waitOn(call: string, arg: string, ivar: Symmetric, cmp: ShmemCmp, value: bigint | number, type: AtomicType): Promise<bigint> {
    const { read, want } = this.condition(call, ivar, cmp, value, type, arg);
    let v = 0n;
    await this.poll(
      () => compare((v = read()), cmp, want),
      () => `${call}(${arg} at segment ${ivar.segment.id} byte ${ivar.offset}, ${cmp} ${want}) on PE ${this.myPe()}: the ${type} value is ${read()}`,
      ivar.segment.local,
      ivar.offset,
      TYPES[type].bytes,
    );
    return v;
  }

  /** Whether this PE's `ivar` compares to `value` as `cmp` says, without waiting (shmem_test). */
  async test(ivar: Symmetric, cmp: ShmemCmp, value: bigint | number, type: AtomicType = 'int64'): Promise<boolean> {
    const { read, want } = this.condition('test', ivar, cmp, value, type);
    await this.proc.cpu(this.proc.machine.config.mpi.testOverheadPs, 'shmem.test');
    return compare(read(), cmp, want);
  }

  /** Checks the arguments of a wait or test on `ivar`; returns a reader of its local value and the value to compare with. */
  protected condition(call: string, ivar: Symmetric, cmp: ShmemCmp, value: bigint | number, type: AtomicType, arg = 'ivar'): { read: () => bigint; want: bigint } {
    this.checkSym(call, arg, ivar);
    if (!CMPS.includes(cmp)) throw new ShmemError(`${call}: cmp=${String(cmp)}; valid: ${CMPS.join(', ')}`);
    const width = this.atomicType(call, type);
    this.checkRange(call, arg, ivar, width);
    if (ivar.offset % width !== 0) throw new ShmemError(`${call}: ${arg} is at byte offset ${ivar.offset}, not aligned to the ${width}-byte ${type}`);
    const want = this.operand(call, 'value', value, type);
    const view = dataView(ivar);
    return { read: () => readVar(view, ivar.offset, type), want };
  }
}

/** A view of this PE's whole segment of `s` (offsets are the segment's). */
function dataView(s: Symmetric): DataView {
  return new DataView(s.segment.local.buffer, s.segment.local.byteOffset, s.segment.local.byteLength);
}

function readVar(view: DataView, off: number, type: AtomicType): bigint {
  switch (type) {
    case 'int32':
      return BigInt(view.getInt32(off, true));
    case 'uint32':
      return BigInt(view.getUint32(off, true));
    case 'int64':
      return view.getBigInt64(off, true);
    case 'uint64':
      return view.getBigUint64(off, true);
  }
}

function compare(v: bigint, cmp: ShmemCmp, w: bigint): boolean {
  switch (cmp) {
    case 'eq':
      return v === w;
    case 'ne':
      return v !== w;
    case 'gt':
      return v > w;
    case 'ge':
      return v >= w;
    case 'lt':
      return v < w;
    case 'le':
      return v <= w;
  }
}
