/**
 * MPI_Type_create_darray (MPI-3.1 §4.1.4): the part of an n-dimensional global array of `old`
 * that one process of a process grid owns under HPF-style distributions, block, cyclic(k) or
 * none, per dimension. The process grid is in row-major (C) order whatever `order` says; the
 * type lists the process's elements in increasing index order in each dimension (the last
 * dimension fastest in C order, the first in Fortran order), and its lower bound is 0 and its
 * extent the whole global array's, as MPI specifies.
 */
import { describe } from './constants.ts';
import { checkOldType, ORDER_C, ORDER_FORTRAN, type Datatype } from './datatype.ts';
import { typeCreateHindexed, typeCreateResized } from './datatype-make.ts';
import { MpiError } from './request.ts';

/** The distributions (MPICH's values). */
export const DISTRIBUTE_BLOCK = 121;
export const DISTRIBUTE_CYCLIC = 122;
export const DISTRIBUTE_NONE = 123;
/** The default distribution argument: a block of ceil(gsize / psize), or cyclic(1). */
export const DISTRIBUTE_DFLT_DARG = -49767;

const CALL = 'typeCreateDarray';

function int(name: string, v: unknown, min: number): number {
  if (typeof v !== 'number' || !Number.isSafeInteger(v) || v < min) throw new MpiError('MPI_ERR_ARG', `${CALL}: ${name}=${String(v)} must be a safe integer (within ±2^53) of at least ${min}`);
  return v;
}

function ints(name: string, v: unknown, n: number): unknown[] {
  if (v === null || typeof v !== 'object' || typeof (v as ArrayLike<unknown>).length !== 'number') throw new MpiError('MPI_ERR_ARG', `${CALL}: ${name} must be an array of ${n} integers, got ${describe(v)}`);
  const a = v as ArrayLike<unknown>;
  if (a.length < n) throw new MpiError('MPI_ERR_ARG', `${CALL}: ${name} has ${a.length} entries, fewer than ndims=${n}`);
  return Array.from({ length: n }, (_, i) => a[i]);
}

/** The indices of a dimension of `gsize` elements that grid coordinate `p` of `psize` owns. */
function owned(dim: number, gsize: number, distrib: number, darg: number, psize: number, p: number): number[] {
  const out: number[] = [];
  if (distrib === DISTRIBUTE_NONE) {
    if (psize !== 1) throw new MpiError('MPI_ERR_ARG', `${CALL}: psizes[${dim}]=${psize} must be 1 where distribs[${dim}] is mpi.DISTRIBUTE_NONE`);
    for (let i = 0; i < gsize; i++) out.push(i);
  } else if (distrib === DISTRIBUTE_BLOCK) {
    const b = darg === DISTRIBUTE_DFLT_DARG ? Math.ceil(gsize / psize) : darg;
    if (b < 1 || b * psize < gsize) throw new MpiError('MPI_ERR_ARG', `${CALL}: dargs[${dim}]=${darg}: a block of ${b} on ${psize} processes does not cover gsizes[${dim}]=${gsize}`);
    for (let i = p * b; i < Math.min((p + 1) * b, gsize); i++) out.push(i);
  } else if (distrib === DISTRIBUTE_CYCLIC) {
    const k = darg === DISTRIBUTE_DFLT_DARG ? 1 : darg;
    if (k < 1) throw new MpiError('MPI_ERR_ARG', `${CALL}: dargs[${dim}]=${darg} must be positive or mpi.DISTRIBUTE_DFLT_DARG`);
    for (let start = p * k; start < gsize; start += psize * k) for (let i = start; i < Math.min(start + k, gsize); i++) out.push(i);
  } else {
    throw new MpiError('MPI_ERR_ARG', `${CALL}: distribs[${dim}]=${String(distrib)} must be mpi.DISTRIBUTE_BLOCK, mpi.DISTRIBUTE_CYCLIC or mpi.DISTRIBUTE_NONE`);
  }
  return out;
}

/** The darray type of process `rank` of `size`. */
export function typeCreateDarray(size: number, rank: number, ndims: number, gsizes: ArrayLike<number>, distribs: ArrayLike<number>, dargs: ArrayLike<number>, psizes: ArrayLike<number>, order: number, old: Datatype): Datatype {
  int('size', size, 1);
  if (typeof rank !== 'number' || !Number.isInteger(rank) || rank < 0 || rank >= size) throw new MpiError('MPI_ERR_ARG', `${CALL}: rank=${String(rank)} must be in 0..${size - 1}`);
  int('ndims', ndims, 1);
  const t = checkOldType(CALL, 'oldtype', old);
  const gs = ints('gsizes', gsizes, ndims).map((v, i) => int(`gsizes[${i}]`, v, 1));
  const ds = ints('distribs', distribs, ndims) as number[];
  const da = ints('dargs', dargs, ndims).map((v, i) => (v === DISTRIBUTE_DFLT_DARG ? v : int(`dargs[${i}]`, v, 1)));
  const ps = ints('psizes', psizes, ndims).map((v, i) => int(`psizes[${i}]`, v, 1));
  if (order !== ORDER_C && order !== ORDER_FORTRAN) throw new MpiError('MPI_ERR_ARG', `${CALL}: order=${String(order)} must be mpi.ORDER_C or mpi.ORDER_FORTRAN`);
  const procs = ps.reduce((a, b) => a * b, 1);
  if (procs !== size) throw new MpiError('MPI_ERR_ARG', `${CALL}: psizes [${ps.join(', ')}] make a grid of ${procs} processes, not size=${size}`);
  // the process's grid coordinates, row-major
  const coords = new Array<number>(ndims);
  for (let i = ndims - 1, r = rank; i >= 0; i--) {
    coords[i] = r % ps[i]!;
    r = Math.floor(r / ps[i]!);
  }
  const dims = Array.from({ length: ndims }, (_, k) => (order === ORDER_C ? ndims - 1 - k : k));
  let stride = t.extent;
  let type = t;
  for (let k = 0; k < ndims; k++) {
    const d = dims[k]!;
    const idx = owned(d, gs[d]!, ds[d]!, da[d]!, ps[d]!, coords[d]!);
    if (k === 0) {
      // runs of consecutive indices as blocks of the old type
      const lens: number[] = [];
      const disps: number[] = [];
      for (let j = 0; j < idx.length; j++) {
        if (j > 0 && idx[j] === idx[j - 1]! + 1) lens[lens.length - 1]!++;
        else {
          lens.push(1);
          disps.push(idx[j]! * stride);
        }
      }
      type = typeCreateHindexed(lens.length, lens, disps, type);
    } else {
      type = typeCreateHindexed(idx.length, new Array<number>(idx.length).fill(1), idx.map((i) => i * stride), type);
    }
    stride *= gs[d]!;
  }
  return typeCreateResized(type, 0, stride);
}
