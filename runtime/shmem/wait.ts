import { ShmemSignals } from './signals.ts';
import { ShmemError, type AtomicType, type ShmemCmp, type Symmetric } from './symmetric.ts';

/**
 * Types of the point-to-point waits and tests (OpenSHMEM 1.5 Table 9: short, int, long, longlong,
 * their unsigned forms, int32, int64, uint32, uint64, size, ptrdiff), by size: values are bigints.
 */
export type WaitType = AtomicType | 'int16' | 'uint16';

const WAIT_BYTES: Readonly<Record<WaitType, 2 | 4 | 8>> = { int16: 2, uint16: 2, int32: 4, uint32: 4, int64: 8, uint64: 8 };

const CMPS: readonly ShmemCmp[] = ['eq', 'ne', 'gt', 'ge', 'lt', 'le'];

/** Where `waitUntilSome` and `testSome` write the indices of the elements that satisfy (the C calls' `size_t *indices`). */
export type IndexArray = number[] | Uint32Array | Int32Array | Float64Array;

/**
 * Point-to-point synchronisation (OpenSHMEM 1.5 §9.10): waits and tests on local symmetric
 * variables. The `All`, `Any` and `Some` forms take an array of `nelems` variables `ivars` and a
 * `status` array (or null): an element whose status is nonzero is left out. `...Vector` forms
 * compare each element with its own value. `Any` returns the index of an element that satisfies
 * (the lowest), or -1 (SIZE_MAX in C) when `nelems` is 0 or every element is left out; `Some`
 * writes the indices of all that satisfy into `indices` and returns how many (0 in the same
 * cases). Every wait is exact: it sleeps until data lands on the array and checks again.
 */
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
  async waitUntil(ivar: Symmetric, cmp: ShmemCmp, value: bigint | number, type: WaitType = 'int64'): Promise<void> {
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
  private async waitOn(call: string, arg: string, ivar: Symmetric, cmp: ShmemCmp, value: bigint | number, type: WaitType): Promise<bigint> {
    const { read, want } = this.condition(call, ivar, cmp, value, type, arg);
    let v = 0n;
    await this.poll(
      () => compare((v = read()), cmp, want),
      () => `${call}(${arg} at segment ${ivar.segment.id} byte ${ivar.offset}, ${cmp} ${want}) on PE ${this.myPe()}: the ${type} value is ${read()}`,
      ivar.segment.local,
      ivar.offset,
      WAIT_BYTES[type],
    );
    return v;
  }

  /** Whether this PE's `ivar` compares to `value` as `cmp` says, without waiting (shmem_test). */
  async test(ivar: Symmetric, cmp: ShmemCmp, value: bigint | number, type: WaitType = 'int64'): Promise<boolean> {
    const { read, want } = this.condition('test', ivar, cmp, value, type);
    await this.proc.cpu(this.proc.machine.config.mpi.testOverheadPs, 'shmem.test');
    return compare(read(), cmp, want);
  }

  // --- the waits and tests on arrays (§9.10.3..9.10.10)

  /** Waits until every element of `ivars` not left out by `status` compares to `value` (shmem_wait_until_all). */
  async waitUntilAll(ivars: Symmetric, nelems: number, status: ArrayLike<number> | null, cmp: ShmemCmp, value: bigint | number, type: WaitType = 'int64'): Promise<void> {
    await this.waitMany('waitUntilAll', 'all', ivars, nelems, status, cmp, value, false, type);
  }
  /** Waits until any element compares to `value`; returns its index, or -1 (shmem_wait_until_any). */
  async waitUntilAny(ivars: Symmetric, nelems: number, status: ArrayLike<number> | null, cmp: ShmemCmp, value: bigint | number, type: WaitType = 'int64'): Promise<number> {
    const sat = await this.waitMany('waitUntilAny', 'any', ivars, nelems, status, cmp, value, false, type);
    return sat[0] ?? -1;
  }
  /** Waits until at least one element compares to `value`; writes the indices of all that do into `indices`, returns how many (shmem_wait_until_some). */
  async waitUntilSome(ivars: Symmetric, nelems: number, indices: IndexArray, status: ArrayLike<number> | null, cmp: ShmemCmp, value: bigint | number, type: WaitType = 'int64'): Promise<number> {
    checkIndices('waitUntilSome', indices, nelems);
    return fill(indices, await this.waitMany('waitUntilSome', 'any', ivars, nelems, status, cmp, value, false, type));
  }
  /** `waitUntilAll` with one value per element (shmem_wait_until_all_vector). */
  async waitUntilAllVector(ivars: Symmetric, nelems: number, status: ArrayLike<number> | null, cmp: ShmemCmp, values: ArrayLike<bigint | number>, type: WaitType = 'int64'): Promise<void> {
    await this.waitMany('waitUntilAllVector', 'all', ivars, nelems, status, cmp, values, true, type);
  }
  /** `waitUntilAny` with one value per element (shmem_wait_until_any_vector). */
  async waitUntilAnyVector(ivars: Symmetric, nelems: number, status: ArrayLike<number> | null, cmp: ShmemCmp, values: ArrayLike<bigint | number>, type: WaitType = 'int64'): Promise<number> {
    const sat = await this.waitMany('waitUntilAnyVector', 'any', ivars, nelems, status, cmp, values, true, type);
    return sat[0] ?? -1;
  }
  /** `waitUntilSome` with one value per element (shmem_wait_until_some_vector). */
  async waitUntilSomeVector(ivars: Symmetric, nelems: number, indices: IndexArray, status: ArrayLike<number> | null, cmp: ShmemCmp, values: ArrayLike<bigint | number>, type: WaitType = 'int64'): Promise<number> {
    checkIndices('waitUntilSomeVector', indices, nelems);
    return fill(indices, await this.waitMany('waitUntilSomeVector', 'any', ivars, nelems, status, cmp, values, true, type));
  }
  /** Whether every element not left out compares to `value`, without waiting (shmem_test_all); true when none is left. */
  async testAll(ivars: Symmetric, nelems: number, status: ArrayLike<number> | null, cmp: ShmemCmp, value: bigint | number, type: WaitType = 'int64'): Promise<boolean> {
    const c = await this.testMany('testAll', ivars, nelems, status, cmp, value, false, type);
    return c.sat.length === c.active;
  }
  /** The index of an element that compares to `value`, or -1, without waiting (shmem_test_any). */
  async testAny(ivars: Symmetric, nelems: number, status: ArrayLike<number> | null, cmp: ShmemCmp, value: bigint | number, type: WaitType = 'int64'): Promise<number> {
    return (await this.testMany('testAny', ivars, nelems, status, cmp, value, false, type)).sat[0] ?? -1;
  }
  /** Writes the indices of the elements that compare to `value` into `indices` and returns how many, without waiting (shmem_test_some). */
  async testSome(ivars: Symmetric, nelems: number, indices: IndexArray, status: ArrayLike<number> | null, cmp: ShmemCmp, value: bigint | number, type: WaitType = 'int64'): Promise<number> {
    checkIndices('testSome', indices, nelems);
    return fill(indices, (await this.testMany('testSome', ivars, nelems, status, cmp, value, false, type)).sat);
  }
  /** `testAll` with one value per element (shmem_test_all_vector). */
  async testAllVector(ivars: Symmetric, nelems: number, status: ArrayLike<number> | null, cmp: ShmemCmp, values: ArrayLike<bigint | number>, type: WaitType = 'int64'): Promise<boolean> {
    const c = await this.testMany('testAllVector', ivars, nelems, status, cmp, values, true, type);
    return c.sat.length === c.active;
  }
  /** `testAny` with one value per element (shmem_test_any_vector). */
  async testAnyVector(ivars: Symmetric, nelems: number, status: ArrayLike<number> | null, cmp: ShmemCmp, values: ArrayLike<bigint | number>, type: WaitType = 'int64'): Promise<number> {
    return (await this.testMany('testAnyVector', ivars, nelems, status, cmp, values, true, type)).sat[0] ?? -1;
  }
  /** `testSome` with one value per element (shmem_test_some_vector). */
  async testSomeVector(ivars: Symmetric, nelems: number, indices: IndexArray, status: ArrayLike<number> | null, cmp: ShmemCmp, values: ArrayLike<bigint | number>, type: WaitType = 'int64'): Promise<number> {
    checkIndices('testSomeVector', indices, nelems);
    return fill(indices, (await this.testMany('testSomeVector', ivars, nelems, status, cmp, values, true, type)).sat);
  }

  /**
   * Waits until all (`need` 'all') or at least one ('any') of the elements not left out satisfy,
   * then returns the indices of those that do; returns at once (with none) when every element is
   * left out. The PE sleeps until data lands anywhere on the array.
   */
  private async waitMany(call: string, need: 'all' | 'any', ivars: Symmetric, nelems: number, status: ArrayLike<number> | null, cmp: ShmemCmp, value: unknown, vector: boolean, type: WaitType): Promise<number[]> {
    const c = this.conditions(call, ivars, nelems, status, cmp, value, vector, type);
    if (c.active === 0) return [];
    let sat: number[] = [];
    await this.poll(
      () => {
        sat = c.satisfied();
        return need === 'all' ? sat.length === c.active : sat.length > 0;
      },
      () => `${call}(ivars at segment ${ivars.segment.id} byte ${ivars.offset}, nelems=${nelems}, ${cmp} ${vector ? 'per-element values' : String(value)}) on PE ${this.myPe()}: the ${type} values are ${c.values().join(', ')}`,
      ivars.segment.local,
      ivars.offset,
      nelems * WAIT_BYTES[type],
    );
    return sat;
  }

  private async testMany(call: string, ivars: Symmetric, nelems: number, status: ArrayLike<number> | null, cmp: ShmemCmp, value: unknown, vector: boolean, type: WaitType): Promise<{ sat: number[]; active: number }> {
    const c = this.conditions(call, ivars, nelems, status, cmp, value, vector, type);
    await this.proc.cpu(this.proc.machine.config.mpi.testOverheadPs, `shmem.${call}`);
    return { sat: c.satisfied(), active: c.active };
  }

  /** Checks the arguments of a wait or test on an array; returns how many elements take part, and readers of which satisfy and of the values. */
  private conditions(call: string, ivars: Symmetric, nelems: number, status: ArrayLike<number> | null, cmp: ShmemCmp, value: unknown, vector: boolean, type: WaitType): { active: number; satisfied: () => number[]; values: () => bigint[] } {
    this.checkCount(call, 'nelems', nelems);
    if (status !== null && (typeof status !== 'object' || typeof status.length !== 'number' || status.length < nelems)) {
      throw new ShmemError(`${call}: status must be null or an array of at least nelems=${nelems} elements`);
    }
    const on: number[] = [];
    for (let i = 0; i < nelems; i++) if (status === null || status[i] === 0) on.push(i);
    if (nelems === 0) return { active: 0, satisfied: () => [], values: () => [] };
    const { want } = this.condition(call, ivars, cmp, vector ? 0 : (value as bigint | number), type, 'ivars');
    const width = WAIT_BYTES[type];
    this.checkRange(call, 'ivars', ivars, nelems * width);
    let wants: bigint[];
    if (vector) {
      const vs = value as ArrayLike<bigint | number> | null;
      if (vs === null || typeof vs !== 'object' || typeof vs.length !== 'number' || vs.length < nelems) throw new ShmemError(`${call}: values must be an array of at least nelems=${nelems} elements`);
      wants = Array.from({ length: nelems }, (_, i) => this.waitOperand(call, `values[${i}]`, vs[i]!, type));
    } else {
      wants = new Array<bigint>(nelems).fill(want);
    }
    const view = dataView(ivars);
    const read = (i: number): bigint => readVar(view, ivars.offset + i * width, type);
    return {
      active: on.length,
      satisfied: () => on.filter((i) => compare(read(i), cmp, wants[i]!)),
      values: () => Array.from({ length: nelems }, (_, i) => read(i)),
    };
  }

  /** A comparison value of `type`: out-of-range values are an error. */
  private waitOperand(call: string, arg: string, v: bigint | number, type: WaitType): bigint {
    if (type !== 'int16' && type !== 'uint16') return this.operand(call, arg, v, type);
    const b = this.operand(call, arg, v, type === 'int16' ? 'int32' : 'uint32');
    const [lo, hi] = type === 'int16' ? [-32768n, 32767n] : [0n, 65535n];
    if (b < lo || b > hi) throw new ShmemError(`${call}: ${arg}=${b} does not fit ${type} (${lo}..${hi})`);
    return b;
  }

  /** Checks the arguments of a wait or test on `ivar`; returns a reader of its local value and the value to compare with. */
  protected condition(call: string, ivar: Symmetric, cmp: ShmemCmp, value: bigint | number, type: WaitType, arg = 'ivar'): { read: () => bigint; want: bigint } {
    this.checkSym(call, arg, ivar);
    if (!CMPS.includes(cmp)) throw new ShmemError(`${call}: cmp=${String(cmp)}; valid: ${CMPS.join(', ')}`);
    if (typeof type !== 'string' || !Object.hasOwn(WAIT_BYTES, type)) throw new ShmemError(`${call}: type=${String(type)}; valid: ${Object.keys(WAIT_BYTES).join(', ')}`);
    const width = WAIT_BYTES[type];
    this.checkRange(call, arg, ivar, width);
    if (ivar.offset % width !== 0) throw new ShmemError(`${call}: ${arg} is at byte offset ${ivar.offset}, not aligned to the ${width}-byte ${type}`);
    const want = this.waitOperand(call, 'value', value, type);
    const view = dataView(ivar);
    return { read: () => readVar(view, ivar.offset, type), want };
  }
}

/** Checks that `indices` can hold `nelems` indices. */
function checkIndices(call: string, indices: IndexArray, nelems: number): void {
  if (!Array.isArray(indices) && !(indices instanceof Uint32Array || indices instanceof Int32Array || indices instanceof Float64Array)) {
    throw new ShmemError(`${call}: indices must be an array or a Uint32Array, Int32Array or Float64Array`);
  }
  if (Number.isInteger(nelems) && indices.length < nelems) throw new ShmemError(`${call}: indices has ${indices.length} elements, fewer than nelems=${nelems}`);
}

/** Writes `sat` at the start of `indices`; returns how many. */
function fill(indices: IndexArray, sat: readonly number[]): number {
  sat.forEach((v, i) => (indices[i] = v));
  return sat.length;
}

/** A view of this PE's whole segment of `s` (offsets are the segment's). */
function dataView(s: Symmetric): DataView {
  return new DataView(s.segment.local.buffer, s.segment.local.byteOffset, s.segment.local.byteLength);
}

function readVar(view: DataView, off: number, type: WaitType): bigint {
  switch (type) {
    case 'int16':
      return BigInt(view.getInt16(off, true));
    case 'uint16':
      return BigInt(view.getUint16(off, true));
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
