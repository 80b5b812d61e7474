/**
 * The constructors of MPI's derived datatypes (MPI-3.1 §4.1.2-4.1.7), each checking its arguments
 * and naming the bad one, and building the new type's flattened type map (see datatype.ts).
 */
import { describe } from './constants.ts';
import { build, checkCount, checkOldType, Datatype, ORDER_C, ORDER_FORTRAN, type Shape } from './datatype.ts';
import { MpiError } from './request.ts';

function checkInt(call: string, name: string, v: unknown, min = -Infinity): number {
  if (typeof v !== 'number' || !Number.isSafeInteger(v) || v < min) throw new MpiError('MPI_ERR_ARG', `${call}: ${name}=${String(v)} must be ${min === 0 ? 'a non-negative' : 'a'} safe integer (within ±2^53)`);
  return v;
}

/** The first `count` entries of array argument `name`, each an integer (at least `min`). */
function checkInts(call: string, name: string, v: unknown, count: number, min = -Infinity): number[] {
  if (v === null || typeof v !== 'object' || typeof (v as ArrayLike<number>).length !== 'number') throw new MpiError('MPI_ERR_ARG', `${call}: ${name} must be an array of integers, got ${describe(v)}`);
  const a = v as ArrayLike<unknown>;
  if (a.length < count) throw new MpiError('MPI_ERR_ARG', `${call}: ${name} has ${a.length} entries, fewer than count=${count}`);
  const out: number[] = [];
  for (let i = 0; i < count; i++) out.push(checkInt(call, `${name}[${i}]`, a[i], min));
  return out;
}

// ---------------------------------------------------------------- constructors

/** `count` consecutive copies of `old` (MPI_Type_contiguous). */
export function typeContiguous(count: number, old: Datatype): Datatype {
  const call = 'typeContiguous';
  checkCount(call, 'count', count);
  const t = checkOldType(call, 'oldtype', old);
  return new Datatype(build(`contiguous(${count}, ${t.name})`, [0], [count], t));
}

/** `count` blocks of `blocklength` copies of `old`, block starts `stride` extents of `old` apart (MPI_Type_vector). */
export function typeVector(count: number, blocklength: number, stride: number, old: Datatype): Datatype {
  const call = 'typeVector';
  const t = checkOldType(call, 'oldtype', old);
  return hvector(call, `vector(${count}, ${blocklength}, ${stride}, ${t.name})`, count, blocklength, checkInt(call, 'stride', stride) * t.extent, t);
}

/** As typeVector with the stride in bytes (MPI_Type_create_hvector). */
export function typeCreateHvector(count: number, blocklength: number, stride: number, old: Datatype): Datatype {
  const call = 'typeCreateHvector';
  const t = checkOldType(call, 'oldtype', old);
  return hvector(call, `hvector(${count}, ${blocklength}, ${stride}, ${t.name})`, count, blocklength, checkInt(call, 'stride', stride), t);
}

function hvector(call: string, name: string, count: number, blocklength: number, strideBytes: number, t: Datatype): Datatype {
  checkCount(call, 'count', count);
  checkInt(call, 'blocklength', blocklength, 0);
  const disps = new Float64Array(count);
  for (let i = 0; i < count; i++) disps[i] = i * strideBytes;
  return new Datatype(build(name, disps, new Float64Array(count).fill(blocklength), t));
}

/** Blocks of `blocklengths[i]` copies of `old` at `displacements[i]` extents of `old` (MPI_Type_indexed). */
export function typeIndexed(count: number, blocklengths: ArrayLike<number>, displacements: ArrayLike<number>, old: Datatype): Datatype {
  return indexed('typeIndexed', 'indexed', count, blocklengths, null, displacements, old, false);
}

/** As typeIndexed with displacements in bytes (MPI_Type_create_hindexed). */
export function typeCreateHindexed(count: number, blocklengths: ArrayLike<number>, displacements: ArrayLike<number>, old: Datatype): Datatype {
  return indexed('typeCreateHindexed', 'hindexed', count, blocklengths, null, displacements, old, true);
}

/** Blocks of `blocklength` copies of `old` at `displacements[i]` extents of `old` (MPI_Type_create_indexed_block). */
export function typeCreateIndexedBlock(count: number, blocklength: number, displacements: ArrayLike<number>, old: Datatype): Datatype {
  return indexed('typeCreateIndexedBlock', 'indexed_block', count, null, blocklength, displacements, old, false);
}

/** As typeCreateIndexedBlock with displacements in bytes (MPI_Type_create_hindexed_block). */
export function typeCreateHindexedBlock(count: number, blocklength: number, displacements: ArrayLike<number>, old: Datatype): Datatype {
  return indexed('typeCreateHindexedBlock', 'hindexed_block', count, null, blocklength, displacements, old, true);
}

function indexed(call: string, kind: string, count: number, lengths: ArrayLike<number> | null, length: number | null, displacements: ArrayLike<number>, old: Datatype, bytes: boolean): Datatype {
  checkCount(call, 'count', count);
  const t = checkOldType(call, 'oldtype', old);
  const bl = lengths === null ? new Array<number>(count).fill(checkInt(call, 'blocklength', length, 0)) : checkInts(call, 'blocklengths', lengths, count, 0);
  const d = checkInts(call, 'displacements', displacements, count);
  const unit = bytes ? 1 : t.extent;
  return new Datatype(build(`${kind}(${count} blocks of ${t.name})`, d.map((x) => x * unit), bl, t));
}

/** Blocks of `blocklengths[i]` copies of `types[i]` at byte `displacements[i]` (MPI_Type_create_struct). */
export function typeCreateStruct(count: number, blocklengths: ArrayLike<number>, displacements: ArrayLike<number>, types: readonly Datatype[]): Datatype {
  const call = 'typeCreateStruct';
  checkCount(call, 'count', count);
  const bl = checkInts(call, 'blocklengths', blocklengths, count, 0);
  const d = checkInts(call, 'displacements', displacements, count);
  if (!Array.isArray(types) || types.length < count) throw new MpiError('MPI_ERR_ARG', `${call}: types must be an array of at least count=${count} datatypes, got ${Array.isArray(types) ? `${types.length} entries` : describe(types)}`);
  const ts = types.slice(0, count).map((t, i) => checkOldType(call, `types[${i}]`, t));
  return new Datatype(build(`struct(${count} blocks: ${[...new Set(ts.map((t) => t.name))].join(', ')})`, d, bl, ts, true));
}

/**
 * A subarray of an n-dimensional array of `old` (MPI_Type_create_subarray): `subsizes[i]`
 * elements from `starts[i]` in each dimension of an array of `sizes`; `order` ORDER_C (the last
 * dimension fastest) or ORDER_FORTRAN. Its lower bound is 0 and its extent the whole array's.
 */
export function typeCreateSubarray(ndims: number, sizes: ArrayLike<number>, subsizes: ArrayLike<number>, starts: ArrayLike<number>, order: number, old: Datatype): Datatype {
  const call = 'typeCreateSubarray';
  if (typeof ndims !== 'number' || !Number.isInteger(ndims) || ndims < 1) throw new MpiError('MPI_ERR_ARG', `${call}: ndims=${String(ndims)} must be a positive integer`);
  const t = checkOldType(call, 'oldtype', old);
  const sz = checkInts(call, 'sizes', sizes, ndims, 1);
  const sub = checkInts(call, 'subsizes', subsizes, ndims, 1);
  const st = checkInts(call, 'starts', starts, ndims, 0);
  if (order !== ORDER_C && order !== ORDER_FORTRAN) throw new MpiError('MPI_ERR_ARG', `${call}: order=${String(order)} must be mpi.ORDER_C or mpi.ORDER_FORTRAN`);
  for (let i = 0; i < ndims; i++) {
    if (sub[i]! > sz[i]!) throw new MpiError('MPI_ERR_ARG', `${call}: subsizes[${i}]=${sub[i]} is larger than sizes[${i}]=${sz[i]}`);
    if (st[i]! + sub[i]! > sz[i]!) throw new MpiError('MPI_ERR_ARG', `${call}: starts[${i}]=${st[i]} + subsizes[${i}]=${sub[i]} runs past sizes[${i}]=${sz[i]}`);
  }
  // dimensions from the fastest to the slowest
  const dims = Array.from({ length: ndims }, (_, k) => (order === ORDER_C ? ndims - 1 - k : k));
  let inner = new Datatype(build('row', [0], [sub[dims[0]!]!], t));
  let stride = t.extent;
  let offset = st[dims[0]!]! * stride;
  for (let k = 1; k < ndims; k++) {
    const i = dims[k]!;
    stride *= sz[dims[k - 1]!]!;
    const disps = new Float64Array(sub[i]!);
    for (let j = 0; j < disps.length; j++) disps[j] = j * stride;
    inner = new Datatype(build('plane', disps, new Float64Array(sub[i]!).fill(1), inner));
    offset += st[i]! * stride;
  }
  const whole = stride * sz[dims[ndims - 1]!]!;
  const shape = build('', [offset], [1], inner);
  const name = `subarray([${sub.join(', ')}] of [${sz.join(', ')}] at [${st.join(', ')}], ${order === ORDER_C ? 'C' : 'Fortran'} order, ${t.name})`;
  return new Datatype({ ...shape, name, lb: 0, extent: whole, sticky: true });
}

/** `old` with lower bound `lb` and extent `extent` (bytes; MPI_Type_create_resized). */
export function typeCreateResized(old: Datatype, lb: number, extent: number): Datatype {
  const call = 'typeCreateResized';
  const t = checkOldType(call, 'oldtype', old);
  checkInt(call, 'lb', lb);
  checkInt(call, 'extent', extent);
  return new Datatype({ ...shapeOf(t), name: `resized(${t.name}, lb=${lb}, extent=${extent})`, lb, extent, sticky: true });
}

/** A copy of `old`, committed if `old` is (MPI_Type_dup). */
export function typeDup(old: Datatype): Datatype {
  const t = checkOldType('typeDup', 'oldtype', old);
  const d = new Datatype({ ...shapeOf(t), name: `dup(${t.name})` });
  if (t.committed) d.commit('typeDup');
  return d;
}

function shapeOf(t: Datatype): Shape {
  const { name, size, lb, extent, trueLb, trueExtent, align, sticky, offsets, lengths, signature } = t;
  return { name, size, lb, extent, trueLb, trueExtent, align, sticky, offsets, lengths, signature };
}
