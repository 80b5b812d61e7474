/**
 * Names of datatypes (MPI_Type_set_name, MPI_Type_get_name) and the predefined type of a given
 * class and size (MPI_Type_match_size, MPI-3.1 §17.1.9), sized as C's types on x86-64 Linux.
 */
import { describe } from './constants.ts';
import { C_DOUBLE_COMPLEX, C_FLOAT_COMPLEX, C_LONG_DOUBLE_COMPLEX, checkOldType, DOUBLE, FLOAT, INT, LONG, LONG_DOUBLE, SHORT, SIGNED_CHAR, type Datatype } from './datatype.ts';
import { MpiError } from './request.ts';

/** Type classes of MPI_Type_match_size (MPICH's values). */
export const TYPECLASS_REAL = 1;
export const TYPECLASS_INTEGER = 2;
export const TYPECLASS_COMPLEX = 3;

/** Longest datatype name (MPI_MAX_OBJECT_NAME, MPICH's value). */
export const MAX_OBJECT_NAME = 128;

/** Names set by typeSetName; predefined types answer with MPI's name. */
const names = new WeakMap<Datatype, string>();

/** Sets the name of `t` (a predefined type may be renamed too, as MPI allows). */
export function setTypeName(call: string, t: Datatype, name: string): void {
  checkOldType(call, 'datatype', t);
  if (typeof name !== 'string' || name.length >= MAX_OBJECT_NAME) throw new MpiError('MPI_ERR_ARG', `${call}: name must be a string of fewer than ${MAX_OBJECT_NAME} characters, got ${typeof name === 'string' ? `${name.length} characters` : describe(name)}`);
  names.set(t, name);
}

/** The name of `t`: set by typeSetName, else MPI's for a predefined type, else ''. */
export function getTypeName(call: string, t: Datatype): string {
  checkOldType(call, 'datatype', t);
  return names.get(t) ?? (t.predefined ? t.name : '');
}

const BY_CLASS: Readonly<Record<number, readonly Datatype[]>> = {
  [TYPECLASS_REAL]: [FLOAT, DOUBLE, LONG_DOUBLE],
  [TYPECLASS_INTEGER]: [SIGNED_CHAR, SHORT, INT, LONG],
  [TYPECLASS_COMPLEX]: [C_FLOAT_COMPLEX, C_DOUBLE_COMPLEX, C_LONG_DOUBLE_COMPLEX],
};

/** The predefined type of `typeclass` with `size` bytes. */
export function matchSize(call: string, typeclass: number, size: number): Datatype {
  const types = Object.hasOwn(BY_CLASS, typeclass) ? BY_CLASS[typeclass]! : null;
  if (!types) throw new MpiError('MPI_ERR_ARG', `${call}: typeclass=${String(typeclass)} must be mpi.TYPECLASS_REAL, mpi.TYPECLASS_INTEGER or mpi.TYPECLASS_COMPLEX`);
  const t = types.find((x) => x.size === size);
  if (!t) {
    const have = types.map((x) => `${x.size} (${x.name})`).join(', ');
    throw new MpiError('MPI_ERR_ARG', `${call}: no predefined type of this class has size=${String(size)} bytes; sizes: ${have}`);
  }
  return t;
}
