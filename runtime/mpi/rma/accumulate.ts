import { NicStatus, statusName, type AmoOp } from '../../../fabric/nic/nic.ts';
import type { Proc } from '../../proc.ts';
import { describe, isReduceArray } from '../constants.ts';
import { PREDEFINED_OPS, type Op, type ReduceArray } from '../ops.ts';
import { MpiError } from '../request.ts';
import { NO_OP, REPLACE } from './constants.ts';
import type { TargetInfo } from './control.ts';
import { acquireMutex, releaseMutex, type LockWatch } from './locks.ts';
import type { RmaNic } from './transport.ts';

/** Ops an accumulate takes: MPI's predefined ones and REPLACE; the fetching calls also NO_OP. */
const ACC_OPS: ReadonlySet<Op> = new Set([...Object.values(PREDEFINED_OPS), REPLACE]);

/** The AMO of the NIC that does an op on one 8-byte integer (NO_OP: a fetching add of 0); MIN, MAX and the rest have none. */
const AMO_OF: ReadonlyMap<Op, AmoOp> = new Map<Op, AmoOp>([
  [PREDEFINED_OPS['MPI_SUM']!, 'add'],
  [PREDEFINED_OPS['MPI_BAND']!, 'and'],
  [PREDEFINED_OPS['MPI_BOR']!, 'or'],
  [PREDEFINED_OPS['MPI_BXOR']!, 'xor'],
  [REPLACE, 'swap'],
  [NO_OP, 'add'],
]);

/**
 * Checks `op` and the buffers of an accumulate-type call: a predefined op (NO_OP only when
 * `fetching`), defined on the buffers' element type (MPI_ERR_OP), whole items of MINLOC and
 * MAXLOC, and a `result` of the origin's type and length (MPI_ERR_TYPE, MPI_ERR_COUNT).
 */
export function checkAccumulate(call: string, origin: unknown, result: unknown, op: Op, fetching: boolean): ReduceArray {
  if (!isReduceArray(origin)) throw new MpiError('MPI_ERR_BUFFER', `${call}: the origin buffer must be a typed array, got ${describe(origin)}`);
  if (op !== NO_OP && !ACC_OPS.has(op)) {
    const name = op && typeof op === 'object' && 'name' in op ? String(op.name) : describe(op);
    throw new MpiError('MPI_ERR_OP', `${call}: op ${name} cannot be used; one-sided accumulates take MPI's predefined ops and REPLACE${fetching ? ' or NO_OP' : ''} (MPI-3.1 §11.3.4)`);
  }
  if (op === NO_OP && !fetching) throw new MpiError('MPI_ERR_OP', `${call}: NO_OP is for getAccumulate and fetchAndOp only`);
  // a zero-length probe: the op checks that it is defined on the type, at no cost
  const Type = origin.constructor as new (n: number) => ReduceArray;
  op.apply(new Type(0), new Type(0));
  if (origin.length % op.unit !== 0) throw new MpiError('MPI_ERR_COUNT', `${call}: ${origin.length} elements are not whole (value, index) pairs of ${op.name}`);
  if (fetching) {
    if (!isReduceArray(result)) throw new MpiError('MPI_ERR_BUFFER', `${call}: the result buffer must be a typed array, got ${describe(result)}`);
    if (result.constructor !== origin.constructor) throw new MpiError('MPI_ERR_TYPE', `${call}: the result buffer is ${result.constructor.name}, the origin buffer ${origin.constructor.name}; they must have the same type`);
    if (result.length !== origin.length) throw new MpiError('MPI_ERR_COUNT', `${call}: the result buffer has ${result.length} elements, the origin buffer ${origin.length}`);
  }
  return origin;
}

/** Whether `a` holds 8-byte integers, the operands of the NIC's AMOs. */
export function isQuadword(a: ReduceArray): a is BigInt64Array | BigUint64Array {
  return a instanceof BigInt64Array || a instanceof BigUint64Array;
}

/** The AMO that does `op` on the elements of `origin` at byte `offset` of the target, or null: software. */
export function amoFor(op: Op, origin: ReduceArray, offset: number): AmoOp | null {
  if (!isQuadword(origin) || offset % 8 !== 0) return null;
  return AMO_OF.get(op) ?? null;
}

/** What a software read-modify-write needs of its window. */
export interface RmwContext {
  readonly proc: Proc;
  readonly nic: RmaNic;
  readonly watch: LockWatch;
  /** This rank in the window. */
  readonly me: number;
}

/**
 * An accumulate that the NIC's AMOs do not cover, as a read-modify-write at the origin under the
 * target's accumulate mutex: the origin's earlier operations to the target complete first
 * (accumulates from one origin to one target act in order), then the mutex (a NIC
 * compare-and-swap, tried again when it is given back), a get of the target elements, the combine on the origin's CPU
 * (an op per element at the machine's flop rate, plus a pass over the bytes), a put back
 * (none for NO_OP), and the mutex's release. The call returns when the put has completed at the
 * target, so the accumulate is complete when it returns. `result` receives the elements as they
 * were; `compare` makes it a compare-and-swap.
 */
export async function softwareRmw(
  ctx: RmwContext,
  t: TargetInfo,
  handle: number,
  offset: number,
  origin: ReduceArray,
  result: ReduceArray | null,
  op: Op | 'cswap',
  compare: ReduceArray | null,
  what: string,
): Promise<void> {
  const { proc, nic } = ctx;
  const bytes = origin.byteLength;
  await nic.wait(t.rank, false, what);
  await acquireMutex(nic, ctx.watch, t, ctx.me, what);
  try {
    const tmp = new Uint8Array(bytes);
    const at = { target: t.rank, proc: t.proc, handle, offset, internal: true as const };
    const got = await nic.run({ ...at, op: 'get', local: tmp }, what);
    if (got !== NicStatus.Ok) throw new MpiError('MPI_ERR_OTHER', `${what}: the NIC failed the read of the target with status ${statusName(got)}`);
    const Type = origin.constructor as new (b: ArrayBufferLike, o: number, n: number) => ReduceArray;
    const cur = new Type(tmp.buffer, 0, origin.length);
    const skeleton = proc.isSkeleton(origin) || (result !== null && proc.isSkeleton(result));
    if (result && !skeleton) (result as Float64Array).set(cur as Float64Array);
    let write = op !== NO_OP;
    if (!skeleton) {
      if (op === 'cswap') {
        write = cur[0] === compare![0];
        if (write) (cur as Float64Array).set(origin as Float64Array);
      } else {
        op.apply(cur, origin);
      }
    }
    const cpu = proc.machine.config.cpu;
    await proc.cpu(Math.ceil(origin.length / cpu.flopsPerPs + (2 * bytes) / cpu.memBytesPerPs), what);
    if (write) {
      const put = await nic.run({ ...at, op: 'put', local: tmp }, what);
      if (put !== NicStatus.Ok) throw new MpiError('MPI_ERR_OTHER', `${what}: the NIC failed the write of the target with status ${statusName(put)}`);
    }
  } finally {
    await releaseMutex(nic, ctx.watch, t, ctx.me, what);
  }
}
