/**
 * Generalized requests (MPI-3.1 §12.2, MPI_Grequest_start, MPI_Grequest_complete) and the calls
 * that set a status for them (§12.3, MPI_Status_set_elements, MPI_Status_set_cancelled). A
 * generalized request stands for an operation the program carries out itself: it is active
 * until the program calls `grequestComplete`, and then a wait or test completes it like any other
 * request. Taking its completion calls the program's query function, which fills the status, and
 * then its free function; a nonzero code either returns is the wait's or test's error. `cancel`
 * calls the cancel function with whether the request has completed; whether it was cancelled is
 * what the query function puts in the status.
 */
import type { Proc } from '../proc.ts';
import { describe, UNDEFINED } from './constants.ts';
import { checkCount, checkType, type Datatype } from './datatype.ts';
import { errorInfo } from './error-classes.ts';
import { MpiError, Request, type Progress, type Status } from './request.ts';

/** A status a program may fill (a query function's, or one given to statusSetElements). */
export type MutableStatus = { -readonly [K in keyof Status]: Status[K] };

/** MPI_Grequest_query_function: fills `status`; returns an MPI error code (0: success). */
export type GrequestQueryFn<T> = (extraState: T, status: MutableStatus) => number;
/** MPI_Grequest_free_function: frees what `extraState` holds; returns an MPI error code (0: success). */
export type GrequestFreeFn<T> = (extraState: T) => number;
/** MPI_Grequest_cancel_function: `complete` tells whether grequestComplete was called already; returns an MPI error code. */
export type GrequestCancelFn<T> = (extraState: T, complete: boolean) => number;

/** A generalized request: complete once the program says so, its status from the program's query function. */
export class GeneralizedRequest<T = unknown> extends Request {
  /** The status (or error) the query and free functions gave, once the completion was first taken. */
  private outcome: { readonly status: Status } | { readonly failure: MpiError } | null = null;
  private signalled = false;

  constructor(
    proc: Proc,
    testCostPs: number,
    progress: Progress | null,
    private readonly queryFn: GrequestQueryFn<T>,
    private readonly freeFn: GrequestFreeFn<T>,
    cancelFn: GrequestCancelFn<T>,
    private readonly extraState: T,
  ) {
    super(proc, testCostPs, 'generalized request (grequestStart)', progress);
    // MPI_Cancel runs the cancel function; the query function tells in the status whether it took
    this.canceller = () => {
      userCode('grequestStart: cancel_fn', cancelFn(this.extraState, this.signalled));
      return false;
    };
  }

  /** Marks the operation complete (MPI_Grequest_complete): a wait on it returns from now on. */
  signal(call: string): void {
    if (this.signalled) throw new MpiError('MPI_ERR_REQUEST', `${call}: the generalized request was completed already`);
    this.signalled = true;
    this.complete({ source: UNDEFINED, tag: UNDEFINED, count: 0, bytes: 0 });
  }

  /** Takes the completion: the first time, the query function fills the status and the free function runs. */
  override take(): Status {
    const s = super.take();
    // the empty status of a request whose status a wait returned already
    if (s !== this.status) return s;
    this.outcome ??= this.finish();
    if ('failure' in this.outcome) throw this.outcome.failure;
    return this.outcome.status;
  }

  /** Runs the query function, then the free function (MPI-3.1 §12.2: free after query, both before the wait returns). */
  private finish(): { readonly status: Status } | { readonly failure: MpiError } {
    const status: MutableStatus = { source: UNDEFINED, tag: UNDEFINED, count: 0, bytes: 0 };
    let failure: MpiError | null = null;
    try {
      userCode('grequestStart: query_fn', this.queryFn(this.extraState, status));
    } catch (e) {
      if (!(e instanceof MpiError)) throw e;
      failure = e;
    }
    try {
      userCode('grequestStart: free_fn', this.freeFn(this.extraState));
    } catch (e) {
      if (!(e instanceof MpiError)) throw e;
      failure ??= e;
    }
    return failure ? { failure } : { status: { ...status } };
  }
}

/** A user function's return code: 0, or the MpiError of its class. */
function userCode(what: string, code: unknown): void {
  if (code === 0 || code === undefined) return;
  const info = typeof code === 'number' ? errorInfo(code) : undefined;
  throw new MpiError(info?.name ?? 'MPI_ERR_OTHER', `${what} returned the error code ${String(code)}${info ? ` (${info.text})` : ''}`);
}

/** Checks the three functions of grequestStart. */
export function checkGrequestFns(call: string, fns: Record<string, unknown>): void {
  for (const [name, f] of Object.entries(fns)) if (typeof f !== 'function') throw new MpiError('MPI_ERR_ARG', `${call}: ${name} must be a function, got ${shown(f)}`);
}

/** `request` as a generalized request (MPI_ERR_REQUEST otherwise). */
export function checkGrequest(call: string, request: unknown): GeneralizedRequest {
  if (!(request instanceof GeneralizedRequest)) throw new MpiError('MPI_ERR_REQUEST', `${call}: request must be a request of grequestStart, got ${request instanceof Request ? request.what : describe(request)}`);
  return request;
}

/** MPI_Status_set_elements: `status` covers `count` elements of `datatype`. */
export function statusSetElements(status: MutableStatus, datatype: Datatype, count: number): void {
  const call = 'statusSetElements';
  checkStatus(call, status);
  const t = checkType(call, 'datatype', datatype);
  checkCount(call, 'count', count);
  status.count = count;
  status.bytes = count * t.size;
}

/** MPI_Status_set_cancelled: marks `status` cancelled (flag true) or not. */
export function statusSetCancelled(status: MutableStatus, flag: boolean): void {
  const call = 'statusSetCancelled';
  checkStatus(call, status);
  if (typeof flag !== 'boolean') throw new MpiError('MPI_ERR_ARG', `${call}: flag must be true or false, got ${shown(flag)}`);
  if (flag) status.cancelled = true;
  else delete status.cancelled;
}

/** A value as an error message shows it: a primitive as itself, an object described. */
function shown(v: unknown): string {
  return v !== null && typeof v === 'object' ? describe(v) : String(v);
}

function checkStatus(call: string, status: unknown): void {
  if (status === null || typeof status !== 'object' || Object.isFrozen(status)) throw new MpiError('MPI_ERR_ARG', `${call}: status must be a status object the program may fill (a query function's), got ${status === null ? 'null' : Object.isFrozen(status) ? 'a frozen status' : typeof status}`);
}
