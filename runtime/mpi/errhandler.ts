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
 * - one made by `commCreateErrhandler(fn)`: `fn(comm, code)` runs first, then as ERRORS_RETURN.
 */
export class Errhandler {
  constructor(
    readonly name: string,
    readonly fatal: boolean,
    readonly fn: ((comm: unknown, code: number) => void) | null,
  ) {}
}

export const ERRORS_ARE_FATAL = new Errhandler('MPI_ERRORS_ARE_FATAL', true, null);
export const ERRORS_RETURN = new Errhandler('MPI_ERRORS_RETURN', false, null);

/** What a guarded object needs: its handler and its rank's pending fatal error. */
export interface Guarded {
  errhandlerOf(): Errhandler;
  /** The fatal error this rank's program caught, if any: the rank fails at its next MPI call. */
  fatalOf(): Error | null;
  setFatal(err: Error): void;
}

/** Errors already given to a handler (a call inside a call hands an error once). */
const handled = new WeakSet<Error>();

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
