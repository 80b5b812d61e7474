/**
 * What the arguments of a program's MPI calls say, as the call log (`call-log.ts`) needs it: the
 * elements of a buffer (MPI datatype, element bytes and count) in a call's short form (a typed
 * array) and long form (count and datatype), a reduction op by name, and a collective's call with
 * its counts, root and op (the log adds the communicator and, for a nonblocking one, the request).
 */
import { IN_PLACE } from '../runtime/mpi/constants.ts';
import { Datatype } from '../runtime/mpi/datatype.ts';
import type { CollCall, TraceOp, VCollCall } from './calls.ts';

/** MPI names of the element types of typed arrays. */
const ARRAY_TYPES: Readonly<Record<string, string>> = {
  Float64Array: 'MPI_DOUBLE',
  Float32Array: 'MPI_FLOAT',
  Int32Array: 'MPI_INT',
  Uint32Array: 'MPI_UNSIGNED',
  Int16Array: 'MPI_SHORT',
  Uint16Array: 'MPI_UNSIGNED_SHORT',
  Int8Array: 'MPI_SIGNED_CHAR',
  Uint8Array: 'MPI_BYTE',
  Uint8ClampedArray: 'MPI_BYTE',
  BigInt64Array: 'MPI_LONG_LONG',
  BigUint64Array: 'MPI_UNSIGNED_LONG_LONG',
};

/** Elements of a buffer: its datatype name, element bytes and count. */
export interface Elements {
  readonly type: string;
  readonly typeBytes: number;
  readonly count: number;
}

export const NO_ELEMENTS: Elements = { type: 'MPI_BYTE', typeBytes: 1, count: 0 };

/** The elements of a typed array (a DataView or other view: bytes). */
export function elementsOf(buf: unknown): Elements {
  if (!ArrayBuffer.isView(buf)) return NO_ELEMENTS;
  const per = (buf as unknown as { BYTES_PER_ELEMENT?: number }).BYTES_PER_ELEMENT;
  if (typeof per !== 'number') return { type: 'MPI_BYTE', typeBytes: 1, count: buf.byteLength };
  return { type: ARRAY_TYPES[buf.constructor.name] ?? 'MPI_BYTE', typeBytes: per, count: buf.byteLength / per };
}

/** `count` elements of `datatype` (the long form of a call). */
export function typedElements(count: unknown, datatype: unknown): Elements {
  if (!(datatype instanceof Datatype)) return NO_ELEMENTS;
  return { type: datatype.name, typeBytes: Math.max(1, datatype.size), count: datatype.size === 0 ? 0 : num(count) };
}

export function num(x: unknown): number {
  return typeof x === 'number' ? x : 0;
}

export function counts(x: unknown): number[] {
  if (x === null || typeof x !== 'object' || !('length' in x)) return [];
  return Array.from(x as ArrayLike<number>);
}

/** phit's ops by name, as a trace names them. */
export function opOf(x: unknown): TraceOp {
  const name = typeof x === 'object' && x !== null ? String((x as { name?: unknown }).name) : '';
  const op = name.replace(/^MPI_/, '').toLowerCase();
  const known: readonly TraceOp[] = ['sum', 'max', 'min', 'prod', 'land', 'band', 'lor', 'bor', 'lxor', 'bxor', 'minloc', 'maxloc', 'replace'];
  return (known as readonly string[]).includes(op) ? (op as TraceOp) : 'sum';
}

/** A collective's call (without its communicator) and elements, or null for a method that is none the replay knows. */
export function collective(method: string, a: readonly unknown[], size: number, rank: number): { call: Omit<CollCall, 'comm'> | Omit<VCollCall, 'comm'>; elements: Elements } | null {
  const coll = (call: CollCall['call'], e: Elements, root = 0, op: TraceOp = 'sum'): { call: Omit<CollCall, 'comm'>; elements: Elements } => ({
    call: { call, name: `MPI_${call[0]!.toUpperCase()}${call.slice(1)}`, count: e.count, typeBytes: e.typeBytes, root, op, flops: 0 },
    elements: e,
  });
  const inPlace = (x: unknown): boolean => x === IN_PLACE;
  const share = (e: Elements): Elements => ({ ...e, count: e.count / size });
  switch (method) {
    case 'barrier':
      return coll('barrier', NO_ELEMENTS);
    case 'bcast':
      return a[2] instanceof Datatype ? coll('bcast', typedElements(a[1], a[2]), num(a[3])) : coll('bcast', elementsOf(a[0]), num(a[1]));
    case 'reduce': {
      if (a[3] instanceof Datatype) return coll('reduce', typedElements(a[2], a[3]), num(a[5]), opOf(a[4]));
      return coll('reduce', elementsOf(inPlace(a[0]) ? a[1] : a[0]), num(a[3]), opOf(a[2]));
    }
    case 'allreduce':
    case 'scan':
    case 'exscan': {
      if (a[3] instanceof Datatype) return coll(method, typedElements(a[2], a[3]), 0, opOf(a[4]));
      return coll(method, elementsOf(inPlace(a[0]) ? a[1] : a[0]), 0, opOf(a[2]));
    }
    case 'allgather':
    case 'alltoall': {
      if (a.length > 3 && typeof a[1] === 'number') return coll(method, inPlace(a[0]) ? typedElements(a[4], a[5]) : typedElements(a[1], a[2]));
      if (method === 'allgather' && !inPlace(a[0])) return coll(method, elementsOf(a[0]));
      return coll(method, share(elementsOf(a[1])));
    }
    case 'gather': {
      if (a.length > 4 && typeof a[1] === 'number') return coll('gather', typedElements(a[1], a[2]), num(a[6]));
      return coll('gather', inPlace(a[0]) ? share(elementsOf(a[1])) : elementsOf(a[0]), num(a[2]));
    }
    case 'scatter': {
      if (a.length > 4 && typeof a[1] === 'number') return coll('scatter', inPlace(a[3]) ? typedElements(a[1], a[2]) : typedElements(a[4], a[5]), num(a[6]));
      return coll('scatter', inPlace(a[1]) ? share(elementsOf(a[0])) : elementsOf(a[1]), num(a[2]));
    }
    default:
      return vcollective(method, a, size, rank);
  }
}

/** A counted collective's call and elements, or null. */
function vcollective(method: string, a: readonly unknown[], size: number, rank: number): { call: Omit<VCollCall, 'comm'>; elements: Elements } | null {
  const v = (call: VCollCall['call'], name: string, e: Elements, send: number[] | null, recv: number[] | null, root = 0, op: TraceOp = 'sum'): { call: Omit<VCollCall, 'comm'>; elements: Elements } => ({
    call: { call, name, typeBytes: e.typeBytes, sendCounts: send, recvCounts: recv, root, op, flops: 0 },
    elements: e,
  });
  const inPlace = (x: unknown): boolean => x === IN_PLACE;
  switch (method) {
    case 'alltoallv': {
      const long = a.length > 7 && a[7] instanceof Datatype;
      const e = long ? typedElements(1, a[7]) : elementsOf(a[3]);
      const recv = counts(long ? a[5] : a[4]);
      return v('alltoallv', 'MPI_Alltoallv', e, inPlace(a[0]) ? recv : counts(a[1]), recv);
    }
    case 'allgatherv': {
      const long = a[6] instanceof Datatype;
      const recv = counts(long ? a[4] : a[2]);
      const e = long ? typedElements(1, a[6]) : elementsOf(a[1]);
      const mine = inPlace(a[0]) ? recv[rank]! : long ? num(a[1]) : elementsOf(a[0]).count;
      return v('allgatherv', 'MPI_Allgatherv', e, [mine], recv);
    }
    case 'gatherv': {
      const long = a.length > 6 && typeof a[1] === 'number';
      const root = num(long ? a[7] : a[4]);
      const recv = a[long ? 4 : 2] === null ? null : counts(a[long ? 4 : 2]);
      const e = long ? typedElements(1, a[2]) : elementsOf(inPlace(a[0]) ? a[1] : a[0]);
      const mine = inPlace(a[0]) ? (recv?.[rank] ?? 0) : long ? num(a[1]) : e.count;
      return v('gatherv', 'MPI_Gatherv', e, [mine], rank === root ? recv : null, root);
    }
    case 'scatterv': {
      const long = a.length > 6 && a[6] instanceof Datatype;
      const root = num(long ? a[7] : a[4]);
      const send = a[1] === null ? null : counts(a[1]);
      const recvBuf = long ? a[4] : a[3];
      const e = long ? typedElements(1, a[6]) : elementsOf(inPlace(recvBuf) ? a[0] : recvBuf);
      const mine = inPlace(recvBuf) ? (send?.[rank] ?? 0) : long ? num(a[5]) : e.count;
      return v('scatterv', 'MPI_Scatterv', e, rank === root ? send : null, [mine], root);
    }
    case 'reduceScatter': {
      const long = a[3] instanceof Datatype;
      return v('reduceScatter', 'MPI_Reduce_scatter', long ? typedElements(1, a[3]) : elementsOf(a[1]), null, counts(a[2]), 0, opOf(long ? a[4] : a[3]));
    }
    case 'reduceScatterBlock': {
      const long = a[3] instanceof Datatype;
      const e = long ? typedElements(a[2], a[3]) : elementsOf(a[1]);
      return v('reduceScatter', 'MPI_Reduce_scatter', e, null, new Array<number>(size).fill(e.count), 0, opOf(long ? a[4] : a[2]));
    }
    default:
      return null;
  }
}
