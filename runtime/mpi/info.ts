import { describe } from './constants.ts';
import { MpiError } from './request.ts';

/** Longest key of an info object (MPI_MAX_INFO_KEY, MPICH's value). */
export const MAX_INFO_KEY = 255;
/** Longest value of an info object (MPI_MAX_INFO_VAL, MPICH's value). */
export const MAX_INFO_VAL = 1024;

/**
 * An info object (MPI_Info, MPI 4.0 §10): string keys and values, kept in the order they were
 * first set, that a program passes to a call as hints. phit's calls accept every hint and act on
 * none (MPI lets an implementation ignore them), so an info object changes no result or timing.
 * Made by `mpi.infoCreate()` or `dup()`; any call after `free()` is MPI_ERR_INFO.
 */
export class Info {
  private readonly entries = new Map<string, string>();
  private freed = false;

  /** Sets `key` to `value` (MPI_Info_set); a key already there takes the new value. */
  set(key: string, value: string): void {
    this.live('infoSet');
    checkKey('infoSet', key);
    if (typeof value !== 'string' || value.length === 0 || value.length > MAX_INFO_VAL) {
      throw new MpiError('MPI_ERR_INFO_VALUE', `infoSet: value ${typeof value === 'string' ? `of ${value.length} characters` : describe(value)} for key '${key}' must be a string of 1 to ${MAX_INFO_VAL} characters`);
    }
    this.entries.set(key, value);
  }

  /** The value of `key`, or undefined when it is not set (MPI_Info_get_string's flag false). */
  get(key: string): string | undefined {
    this.live('infoGet');
    checkKey('infoGet', key);
    return this.entries.get(key);
  }

  /** Removes `key` (MPI_Info_delete): MPI_ERR_INFO_NOKEY when it is not set. */
  delete(key: string): void {
    this.live('infoDelete');
    checkKey('infoDelete', key);
    if (!this.entries.delete(key)) throw new MpiError('MPI_ERR_INFO_NOKEY', `infoDelete: key '${key}' is not set`);
  }

  /** How many keys are set (MPI_Info_get_nkeys). */
  get nkeys(): number {
    this.live('infoGetNkeys');
    return this.entries.size;
  }

  /** The n-th key set, from 0 (MPI_Info_get_nthkey); MPI_ERR_ARG past the last. */
  nthkey(n: number): string {
    this.live('infoGetNthkey');
    if (!Number.isInteger(n) || n < 0 || n >= this.entries.size) throw new MpiError('MPI_ERR_ARG', `infoGetNthkey: n=${n} is not in 0..${this.entries.size - 1}`);
    return [...this.entries.keys()][n]!;
  }

  /** A new info object with the same keys and values (MPI_Info_dup). */
  dup(): Info {
    this.live('infoDup');
    const d = new Info();
    for (const [k, v] of this.entries) d.entries.set(k, v);
    return d;
  }

  /** Frees the object (MPI_Info_free): any later call on it is MPI_ERR_INFO. */
  free(): void {
    this.live('infoFree');
    this.freed = true;
    this.entries.clear();
  }

  /** MPI_ERR_INFO, naming `call`, when the object was freed. */
  live(call: string): void {
    if (this.freed) throw new MpiError('MPI_ERR_INFO', `${call}: the info object was freed`);
  }
}

/** MPI_INFO_NULL: no hints. */
export const INFO_NULL = null;

/** Checks that `info` is an info object or INFO_NULL (null or undefined), for a call that takes hints. */
export function checkInfo(call: string, info: unknown): void {
  if (info === null || info === undefined) return;
  if (!(info instanceof Info)) throw new MpiError('MPI_ERR_INFO', `${call}: info must be an info object (mpi.infoCreate()) or mpi.INFO_NULL, got ${describe(info)}`);
  info.live(call);
}

function checkKey(call: string, key: unknown): void {
  if (typeof key !== 'string' || key.length === 0 || key.length > MAX_INFO_KEY) {
    throw new MpiError('MPI_ERR_INFO_KEY', `${call}: key ${typeof key === 'string' ? `of ${key.length} characters` : describe(key)} must be a string of 1 to ${MAX_INFO_KEY} characters`);
  }
}
