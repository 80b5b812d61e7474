/**
 * How a datatype was made (MPI_Type_get_envelope, MPI_Type_get_contents; MPI-3.1 §4.1.13): the
 * constructor (its combiner) and the integer, address and datatype arguments it was called with,
 * in the order of MPI-3.1 Table 4.1, so that a program or library can decode a type. Predefined
 * types are MPI_COMBINER_NAMED and have no contents. The derived datatypes `typeGetContents`
 * returns are new handles (copies carrying the same envelope) that the program may free, as in
 * MPI; predefined ones are returned as themselves.
 */
import { checkOldType, Datatype } from './datatype.ts';
import { typeDup } from './datatype-make.ts';
import { MpiError } from './request.ts';

/** The combiners (MPICH's values). */
export const COMBINER = {
  NAMED: 1,
  DUP: 2,
  CONTIGUOUS: 3,
  VECTOR: 4,
  HVECTOR: 6,
  INDEXED: 7,
  HINDEXED: 9,
  INDEXED_BLOCK: 10,
  STRUCT: 12,
  SUBARRAY: 13,
  DARRAY: 14,
  RESIZED: 18,
  HINDEXED_BLOCK: 19,
} as const;

/** MPI_Type_get_envelope's answer. */
export interface Envelope {
  readonly numIntegers: number;
  readonly numAddresses: number;
  readonly numDatatypes: number;
  readonly combiner: number;
}

/** MPI_Type_get_contents's answer. */
export interface Contents {
  readonly integers: number[];
  readonly addresses: number[];
  readonly datatypes: Datatype[];
}

interface Record {
  readonly combiner: number;
  readonly integers: readonly number[];
  readonly addresses: readonly number[];
  readonly datatypes: readonly Datatype[];
}

const records = new WeakMap<Datatype, Record>();

/** Notes how `t` was made; returns `t`. */
export function made(t: Datatype, combiner: number, integers: readonly number[], addresses: readonly number[], datatypes: readonly Datatype[]): Datatype {
  records.set(t, { combiner, integers: [...integers], addresses: [...addresses], datatypes: [...datatypes] });
  return t;
}

/** The first `n` entries of an array argument the constructor has already checked. */
export function first(a: ArrayLike<number>, n: number): number[] {
  return Array.from({ length: n }, (_, i) => a[i]!);
}

/** MPI_Type_get_envelope of `t`. */
export function envelope(call: string, t: Datatype): Envelope {
  checkOldType(call, 'datatype', t);
  const r = records.get(t);
  if (!r) return { numIntegers: 0, numAddresses: 0, numDatatypes: 0, combiner: COMBINER.NAMED };
  return { numIntegers: r.integers.length, numAddresses: r.addresses.length, numDatatypes: r.datatypes.length, combiner: r.combiner };
}

/** MPI_Type_get_contents of `t`: MPI_ERR_TYPE for a predefined (named) type. */
export function contents(call: string, t: Datatype): Contents {
  checkOldType(call, 'datatype', t);
  const r = records.get(t);
  if (!r) throw new MpiError('MPI_ERR_TYPE', `${call}: ${t.name} is a predefined (named) datatype, which has no contents; check typeGetEnvelope's combiner first`);
  return { integers: [...r.integers], addresses: [...r.addresses], datatypes: r.datatypes.map(handle) };
}

/** A handle to `t` the program may free: itself if predefined, else a copy with the same envelope. */
function handle(t: Datatype): Datatype {
  if (t.predefined) return t;
  const copy = t.freed ? t : typeDup(t);
  const r = records.get(t);
  if (r && copy !== t) records.set(copy, r);
  return copy;
}
