import { describe } from './constants.ts';
import { errorInfo } from './error-classes.ts';
import { MpiError } from './request.ts';

/**
 * Attribute caching (MPI-4.0 §7.7): keyvals, and the attributes they key on one object. One code
 * for every kind of object MPI caches on (communicators, windows, datatypes): a keyval belongs to
 * one kind and is refused on the others. Windows use it (rma/window.ts, mpi.winCreateKeyval).
 *
 * An attribute's value is any JavaScript value; where C passes a pointer (`&attrval`), a program
 * passes an object (an Int32Array of one element, say), which the callbacks may change in place.
 */
export type AttrKind = 'comm' | 'win' | 'type';

/** What a copy callback answers: whether the new object gets the attribute, and its value there. */
export interface AttrCopy {
  readonly flag: boolean;
  readonly value?: unknown;
}

/**
 * A copy callback (MPI_Comm_copy_attr_function and the like), called when an object is duplicated:
 * `{ flag, value }`, or an MPI error code (a number other than 0) to make the duplication fail.
 */
export type CopyAttrFn<O> = (old: O, keyval: Keyval<O>, extraState: unknown, value: unknown) => AttrCopy | number;

/**
 * A delete callback (MPI_Win_delete_attr_function and the like), called when an attribute is
 * deleted, replaced, or its object freed: nothing or 0, or an MPI error code to make that call fail.
 */
export type DeleteAttrFn<O> = (obj: O, keyval: Keyval<O>, value: unknown, extraState: unknown) => number | void;

/** MPI_*_NULL_COPY_FN: the copy gets no attribute. */
export const NULL_COPY_FN = (): AttrCopy => ({ flag: false });
/** MPI_*_NULL_DELETE_FN: nothing to do. */
export const NULL_DELETE_FN = (): number => 0;
/** MPI_*_DUP_FN: the copy gets the same value. */
export const DUP_FN = (_old: unknown, _keyval: unknown, _extra: unknown, value: unknown): AttrCopy => ({ flag: true, value });

/** What the checks need of a keyval, whatever its object type. */
interface KeyvalBase {
  readonly kind: AttrKind;
  readonly name: string;
  readonly freed: boolean;
  readonly predefined: unknown;
}

/**
 * A key for attributes of one kind of object (MPI_*_create_keyval), or a predefined one whose
 * value the library answers (`predefined`: MPI_WIN_BASE, ...), which cannot be set or deleted.
 */
export class Keyval<O = never> {
  /** Set by the free call: the handle is no longer valid, but attributes it keys live on until deleted. */
  freed = false;
  constructor(
    readonly kind: AttrKind,
    /** MPICH's number for a predefined keyval; a rank's own count for one a program made. */
    readonly id: number,
    readonly copyFn: CopyAttrFn<O>,
    readonly deleteFn: DeleteAttrFn<O>,
    readonly extraState: unknown,
    readonly predefined: ((obj: O) => unknown) | null = null,
    readonly name = `keyval ${id}`,
  ) {}
}

/** A new keyval of `kind` (MPI_*_create_keyval): MPI_ERR_ARG for a callback that is not a function. */
export function createKeyval<O>(call: string, kind: AttrKind, id: number, copyFn: CopyAttrFn<O>, deleteFn: DeleteAttrFn<O>, extraState: unknown): Keyval<O> {
  if (typeof copyFn !== 'function') throw new MpiError('MPI_ERR_ARG', `${call}: copyFn must be a function (or mpi.${kind.toUpperCase()}_NULL_COPY_FN), got ${describe(copyFn)}`);
  if (typeof deleteFn !== 'function') throw new MpiError('MPI_ERR_ARG', `${call}: deleteFn must be a function (or mpi.${kind.toUpperCase()}_NULL_DELETE_FN), got ${describe(deleteFn)}`);
  return new Keyval<O>(kind, id, copyFn, deleteFn, extraState);
}

/** Frees a program's keyval (MPI_*_free_keyval): attributes it keys stay until deleted or their object is freed. */
export function freeKeyval(call: string, kind: AttrKind, keyval: { freed: boolean }): void {
  checkKeyval(call, kind, keyval);
  if (keyval.predefined) throw new MpiError('MPI_ERR_KEYVAL', `${call}: ${keyval.name} is predefined and cannot be freed`);
  (keyval as Keyval<unknown>).freed = true;
}

/** MPI_ERR_KEYVAL unless `keyval` is a live keyval of `kind`. */
function checkKeyval(call: string, kind: AttrKind, keyval: unknown): asserts keyval is KeyvalBase {
  if (!(keyval instanceof Keyval)) throw new MpiError('MPI_ERR_KEYVAL', `${call}: expected a keyval of mpi.${kind}CreateKeyval or a predefined one, got ${describe(keyval)}`);
  if (keyval.kind !== kind) throw new MpiError('MPI_ERR_KEYVAL', `${call}: ${keyval.name} is a keyval of a ${keyval.kind}, not of a ${kind}`);
  if (keyval.freed) throw new MpiError('MPI_ERR_KEYVAL', `${call}: ${keyval.name} was freed`);
}

/** A callback's error code as the MpiError the call fails with. */
function callbackError(call: string, what: string, keyval: KeyvalBase, code: unknown): MpiError {
  const cls = typeof code === 'number' ? errorInfo(code)?.name : undefined;
  return new MpiError(cls && cls !== 'MPI_SUCCESS' ? cls : 'MPI_ERR_OTHER', `${call}: the ${what} callback of ${keyval.name} returned ${typeof code === 'number' ? String(code) : describe(code)}`);
}

/** The attributes cached on one object of `kind` (`O`), in the order they were first set. */
export class Attributes<O> {
  private readonly values = new Map<Keyval<O>, unknown>();

  constructor(readonly kind: AttrKind) {}

  /** Sets `keyval`'s attribute to `value` (MPI_*_set_attr); an attribute already there is deleted first (its delete callback runs). */
  set(obj: O, call: string, keyval: Keyval<O>, value: unknown): void {
    checkKeyval(call, this.kind, keyval);
    if (keyval.predefined) throw new MpiError('MPI_ERR_KEYVAL', `${call}: ${keyval.name} is predefined and cannot be set`);
    if (this.values.has(keyval)) this.runDelete(obj, call, keyval);
    this.values.set(keyval, value);
  }

  /** `keyval`'s attribute (MPI_*_get_attr): `{ flag: true, value }`, or `{ flag: false }` when none is set. */
  get(obj: O, call: string, keyval: Keyval<O>): { flag: boolean; value?: unknown } {
    checkKeyval(call, this.kind, keyval);
    if (keyval.predefined) return { flag: true, value: keyval.predefined(obj) };
    return this.values.has(keyval) ? { flag: true, value: this.values.get(keyval) } : { flag: false };
  }

  /** Deletes `keyval`'s attribute (MPI_*_delete_attr), running its delete callback; none set is no error (as MPICH has it). */
  delete(obj: O, call: string, keyval: Keyval<O>): void {
    checkKeyval(call, this.kind, keyval);
    if (keyval.predefined) throw new MpiError('MPI_ERR_KEYVAL', `${call}: ${keyval.name} is predefined and cannot be deleted`);
    if (this.values.has(keyval)) {
      this.runDelete(obj, call, keyval);
      this.values.delete(keyval);
    }
  }

  /** The attributes a duplicate of `from` gets: each keyval's copy callback decides (for a dup call). */
  copy(from: O, call: string): Attributes<O> {
    const out = new Attributes<O>(this.kind);
    for (const [k, v] of this.values) {
      const r = k.copyFn(from, k, k.extraState, v);
      if (typeof r === 'number' || r === null || typeof r !== 'object') {
        if (r === 0) continue;
        throw callbackError(call, 'copy', k, r);
      }
      if (r.flag) out.values.set(k, r.value);
    }
    return out;
  }

  /** Deletes every attribute, the last set first (the object is being freed); a failing delete callback fails the free. */
  clear(obj: O, call: string): void {
    for (const k of [...this.values.keys()].reverse()) {
      this.runDelete(obj, call, k);
      this.values.delete(k);
    }
  }

  private runDelete(obj: O, call: string, k: Keyval<O>): void {
    const r = k.deleteFn(obj, k, this.values.get(k), k.extraState);
    if (r !== undefined && r !== 0) throw callbackError(call, 'delete', k, r);
  }
}
