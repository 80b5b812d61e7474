import { NicStatus, statusName, type AmoOp } from '../../../fabric/nic/nic.ts';
import { checkAccOp, decode, encode, kindOfArray, type AccKind } from './acc-layout.ts';
import type { Proc } from '../../proc.ts';
import { describe, isReduceArray } from '../constants.ts';
import { PREDEFINED_OPS, type Op, type ReduceArray } from '../ops.ts';
import { MpiError } from '../request.ts';
import { NO_OP, REPLACE } from './constants.ts';
import type { TargetInfo } from './control.ts';
import { acquireMutex, releaseMutex, type LockWatch } from './locks.ts';
import type { RmaNic } from './transport.ts';

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
 * Checks the buffers of an accumulate's short form (typed arrays that are the values) and `op`:
 * an op defined on the element type (MPI_ERR_OP), whole items of MINLOC and MAXLOC, and a
 * `result` of the origin's type and length (MPI_ERR_TYPE, MPI_ERR_COUNT).
 */
export function checkAccumulate(call: string, origin: unknown, result: unknown, op: Op, fetching: boolean): ReduceArray {
  if (!isReduceArray(origin)) throw new MpiError('MPI_ERR_BUFFER', `${call}: the origin buffer must be a typed array, got ${describe(origin)}`);
  checkAccOp(call, kindOfArray(origin), op, fetching, true);
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

/** Bytes of the target that one read-modify-write covers: a registration's handle and offset, in packed order. */
export interface RmwPiece {
  readonly handle: number;
  readonly offset: number;
  readonly bytes: number;
}

/**
 * An accumulate that the NIC's AMOs do not cover, as a read-modify-write at the origin under the
 * target's accumulate mutex: the origin's earlier operations to the target complete first
 * (accumulates from one origin to one target act in order), then the mutex (a NIC
 * compare-and-swap, tried again when it is given back), one get per contiguous piece of the target
 * into a bounce buffer (issued together, waited for together), the combine on the origin's CPU
 * (an op per element at the machine's flop rate, plus a pass over the bytes), one put back per
 * piece (none for NO_OP), and the mutex's release. Every basic element is updated whole under the
 * mutex, so the call is atomic per element as MPI asks. The call returns when the puts have
 * completed at the target, so the accumulate is complete when it returns. `result` receives the
 * items as they were; `compare` makes it a compare-and-swap.
 */
export async function softwareRmw(
  ctx: RmwContext,
  t: TargetInfo,
  pieces: readonly RmwPiece[],
  kind: AccKind,
  origin: ReduceArray,
  result: ReduceArray | null,
  op: Op | 'cswap',
  compare: ReduceArray | null,
  skeleton: boolean,
  what: string,
): Promise<void> {
  const { proc, nic } = ctx;
  let bytes = 0;
  for (const p of pieces) bytes += p.bytes;
  const items = bytes / kind.itemBytes;
  await nic.wait(t.rank, false, what);
  await acquireMutex(nic, ctx.watch, t, ctx.me, what);
  try {
    const tmp = new Uint8Array(bytes);
    const got = await runAll(ctx, t, pieces, 'get', tmp, what);
    if (got !== NicStatus.Ok) throw new MpiError('MPI_ERR_OTHER', `${what}: the NIC failed the read of the target with status ${statusName(got)}`);
    skeleton ||= proc.isSkeleton(origin) || (result !== null && proc.isSkeleton(result));
    let write = op !== NO_OP;
    if (!skeleton) {
      const cur = decode(kind, tmp, items);
      if (result) (result as Float64Array).set(cur as Float64Array);
      if (op === 'cswap') {
        write = cur[0] === compare![0];
        if (write) (cur as Float64Array).set(origin as Float64Array);
      } else {
        op.apply(cur, origin);
      }
      encode(kind, cur, tmp);
    }
    const cpu = proc.machine.config.cpu;
    await proc.cpu(Math.ceil(origin.length / cpu.flopsPerPs + (2 * bytes) / cpu.memBytesPerPs), what);
    if (write) {
      const put = await runAll(ctx, t, pieces, 'put', tmp, what);
      if (put !== NicStatus.Ok) throw new MpiError('MPI_ERR_OTHER', `${what}: the NIC failed the write of the target with status ${statusName(put)}`);
    }
  } finally {
    await releaseMutex(nic, ctx.watch, t, ctx.me, what);
  }
}

/** One library transfer per piece between the target and consecutive bytes of `local`, issued together; the first failure's status, or Ok. */
async function runAll(ctx: RmwContext, t: TargetInfo, pieces: readonly RmwPiece[], op: 'get' | 'put', local: Uint8Array, what: string): Promise<NicStatus> {
  if (pieces.length === 1) {
    const p = pieces[0]!;
    return ctx.nic.run({ target: t.rank, proc: t.proc, handle: p.handle, offset: p.offset, internal: true, op, local }, what);
  }
  const req = ctx.nic.request(what);
  let left = pieces.length;
  let status = NicStatus.Ok;
  let from = 0;
  for (const p of pieces) {
    const onDone = (s: NicStatus): void => {
      if (s !== NicStatus.Ok && status === NicStatus.Ok) status = s;
      if (--left === 0) req.complete({ source: t.rank, tag: -1, count: 0, bytes: 0 });
    };
    await ctx.nic.issue({ target: t.rank, proc: t.proc, handle: p.handle, offset: p.offset, internal: true, op, local: local.subarray(from, from + p.bytes), onDone }, what);
    from += p.bytes;
  }
  await req.wait(() => what);
  return status;
}
