import { describe } from './constants.ts';
import { errorInfo } from './error-classes.ts';
import { MpiError } from './request.ts';

/** The text of an error code (MPI_Error_string): its class's name and what it means. */
export function errorString(code: number): string {
  const c = known('errorString', code);
  return `${c.name}: ${c.text}`;
}

/** The class of an error code (MPI_Error_class): phit's codes are their classes. */
export function errorClass(code: number): number {
  known('errorClass', code);
  return code;
}

/** The error class of `code`, else MPI_ERR_ARG naming `call`. */
function known(call: string, code: number): NonNullable<ReturnType<typeof errorInfo>> {
  const c = errorInfo(code);
  if (!c) throw new MpiError('MPI_ERR_ARG', `${call}: ${code} is not an MPI error code`);
  return c;
}

/**
 * What a communicator does when one of its calls fails (MPI_Errhandler):
 * - `ERRORS_ARE_FATAL` (the default): the run fails with the error, even if the program catches
 *   the exception the call raises (its next MPI call, or its end, fails the rank);
 * - `ERRORS_RETURN`: the call raises an MpiError carrying the class (`errorClass`) and code
 *   (`code`) that the program may catch, and the run goes on;
 * - one made by `commCreateErrhandler(fn)` (or `winCreateErrhandler(fn)` for windows): `fn(obj, code)`
 *   runs first, then as ERRORS_RETURN.
 */
export class Errhandler {
  /** Set by `mpi.errhandlerFree`: no object may take it any more; those that have it keep it (MPI-4.0 §9.3.4). */
  freed = false;
  constructor(
    readonly name: string,
    readonly fatal: boolean,
    readonly fn: ((obj: unknown, code: number) => void) | null,
    /** The kind of object a user handler is for; null for the predefined ones, which fit every kind. */
    readonly kind: 'comm' | 'win' | null = null,
  ) {}
}

export const ERRORS_ARE_FATAL = new Errhandler('MPI_ERRORS_ARE_FATAL', true, null);
export const ERRORS_RETURN = new Errhandler('MPI_ERRORS_RETURN', false, null);

/** Errors already given to a handler (a call inside a call hands an error once). */
const handled = new WeakSet<Error>();

/** Checks a handler given to `setErrhandler` of an object of `kind` (MPI_ERR_ARG for another kind's, a freed one, or no handler). */
export function checkErrhandler(call: string, kind: 'comm' | 'win', h: unknown, choices: string): asserts h is Errhandler {
  if (!(h instanceof Errhandler)) throw new MpiError('MPI_ERR_ARG', `${call}: expected ${choices}, got ${describe(h)}`);
  if (h.kind !== null && h.kind !== kind) throw new MpiError('MPI_ERR_ARG', `${call}: the handler was made by ${h.kind}CreateErrhandler, for a ${h.kind === 'win' ? 'window' : 'communicator'}`);
  if (h.freed) throw new MpiError('MPI_ERR_ARG', `${call}: the handler was freed (errhandlerFree)`);
}

/** Frees a user handler (MPI_Errhandler_free): the objects that have it keep it; MPI_ERR_ARG for a predefined or freed one. */
export function errhandlerFree(h: unknown): void {
  if (!(h instanceof Errhandler)) throw new MpiError('MPI_ERR_ARG', `errhandlerFree: expected a handler of commCreateErrhandler or winCreateErrhandler, got ${describe(h)}`);
  if (h.kind === null) throw new MpiError('MPI_ERR_ARG', `errhandlerFree: ${h.name} is predefined and cannot be freed`);
  if (h.freed) throw new MpiError('MPI_ERR_ARG', 'errhandlerFree: the handler was freed already');
  h.freed = true;
}

/**
 * Invokes `obj`'s handler with `code` as if a call on it had failed (MPI_Comm_call_errhandler,
 * MPI_Win_call_errhandler): a user handler is called and the call returns; ERRORS_RETURN does
 * nothing; ERRORS_ARE_FATAL fails the run with the code's class. MPI_ERR_ARG for a number that
 * is no error code.
 */
export function callErrhandler(obj: Guarded, call: string, code: number): void {
  const c = Number.isInteger(code) && code !== 0 ? errorInfo(code) : undefined;
  if (!c) throw new MpiError('MPI_ERR_ARG', `${call}: code=${String(code)} is not an MPI error code (mpi.errorCodes)`);
  const h = obj.errhandlerOf();
  if (h.fn) h.fn(obj, code);
  else if (h.fatal) {
    const err = new MpiError(c.name, `${call}: the program raised ${c.name} under MPI_ERRORS_ARE_FATAL`);
    handled.add(err);
    obj.setFatal(err);
    throw err;
  }
}

/** What a guarded object needs: its handler and its rank's pending fatal error. */
export interface Guarded {
  errhandlerOf(): Errhandler;
  /** The fatal error this rank's program caught, if any: the rank fails at its next MPI call. */
  fatalOf(): Error | null;
  setFatal(err: Error): void;
}

/** Gives `err` to `obj`'s handler; returns what the call raises. */
function handle(obj: Guarded, err: unknown): unknown {
  if (!(err instanceof MpiError) || handled.has(err)) return err;
  handled.add(err);
  const h = obj.errhandlerOf();
  if (h.fatal) obj.setFatal(err);
  else if (h.fn) h.fn(obj, err.code);
  return err;
}

/**
 * Puts `names`' methods of `proto` (all its own methods if omitted) under the error handler of the object they are called on:
 * an MpiError a call raises (or its promise rejects with) goes to the handler; a rank whose
 * program caught a fatal one fails at its next call.
 */
export function guardMethods(proto: object, names?: readonly string[]): void {
  const p = proto as Record<string, unknown>;
  for (const name of names ?? Object.getOwnPropertyNames(p)) {
    const d = Object.getOwnPropertyDescriptor(p, name);
    const orig: unknown = d?.value;
    if (typeof orig !== 'function' || name === 'constructor') continue;
    p[name] = function (this: Guarded, ...args: unknown[]): unknown {
      const fatal = this.fatalOf();
      if (fatal) throw fatal;
      let r: unknown;
      try {
        r = (orig as (...a: unknown[]) => unknown).apply(this, args);
      } catch (e) {
        throw handle(this, e);
      }
      if (r instanceof Promise) {
        return r.then(undefined, (e: unknown) => {
          throw handle(this, e);
        });
      }
      return r;
    };
  }
}
