import type { Proc } from '../proc.ts';
import { MpiError } from './request.ts';
import { ERROR_CODES } from './error-classes.ts';
import { Errhandler, ERRORS_ARE_FATAL, ERRORS_RETURN, errorClass, errorString } from './errhandler.ts';
import { Comm, COMM_TYPE_SHARED, dimsCreate, IN_PLACE, RankState, TAG_UB, UNDEFINED } from './comm.ts';
import { ANY_SOURCE, ANY_TAG, PROC_NULL, type MpiWorld } from './core.ts';
import { MESSAGE_NO_PROC, type Message } from './mprobe.ts';
import { getCount, type Request, type Status } from './request.ts';
import { BAND, BOR, BXOR, LAND, LOR, LXOR, MAX, MAXLOC, MIN, MINLOC, opCreate, PROD, SUM, type Op, type OpOptions, type ReduceArray } from './ops.ts';

export { MpiError, type Request, type Status } from './request.ts';
export { Errhandler, ERRORS_ARE_FATAL, ERRORS_RETURN } from './errhandler.ts';
export type { Message } from './mprobe.ts';
export type { Completion } from './comm-base.ts';
export type { NumericArray, Op, ReduceArray } from './ops.ts';
export { CartComm, Comm, COMM_TYPE_SHARED, Group, IN_PLACE, TAG_UB, UNDEFINED, BSEND_OVERHEAD, type CollOptions } from './comm.ts';
export { ALGORITHMS, chooseAlgorithm } from './coll/index.ts';

/**
 * The MPI face a rank program sees as `ctx.mpi`: MPI_COMM_WORLD (every Comm call works on it
 * directly) plus MPI's constants and process-level calls. Names follow MPI in camelCase; every
 * call checks its arguments and names the bad one; blocking calls suspend the rank in simulated
 * time.
 */
export class Mpi extends Comm {
  readonly ANY_SOURCE = ANY_SOURCE;
  readonly ANY_TAG = ANY_TAG;
  readonly PROC_NULL = PROC_NULL;
  readonly UNDEFINED = UNDEFINED;
  readonly TAG_UB = TAG_UB;
  readonly SUM: Op = SUM;
  readonly MIN: Op = MIN;
  readonly MAX: Op = MAX;
  readonly PROD: Op = PROD;
  readonly LAND: Op = LAND;
  readonly LOR: Op = LOR;
  readonly LXOR: Op = LXOR;
  readonly BAND: Op = BAND;
  readonly BOR: Op = BOR;
  readonly BXOR: Op = BXOR;
  /** On interleaved (value, index) pairs; ties take the lower index. */
  readonly MINLOC: Op = MINLOC;
  readonly MAXLOC: Op = MAXLOC;
  /** Stands for a collective's send buffer when the data is already in the receive buffer. */
  readonly IN_PLACE: typeof IN_PLACE = IN_PLACE;
  /** The message a matched probe of PROC_NULL returns; `mrecv` of it receives nothing (MPI_MESSAGE_NO_PROC). */
  readonly MESSAGE_NO_PROC: Message = MESSAGE_NO_PROC;

  /** The default error handler: a failing call fails the run, even if the program catches its error. */
  readonly ERRORS_ARE_FATAL = ERRORS_ARE_FATAL;
  /** A failing call raises an MpiError (with `errorClass` and `code`) that the program may catch and go on. */
  readonly ERRORS_RETURN = ERRORS_RETURN;
  /** MPI's error classes by name without the MPI_ prefix (mpi.ERR_RANK, mpi.ERR_TRUNCATE, ...), MPICH's numbers. */
  readonly errorCodes: Readonly<Record<string, number>> = ERROR_CODES;

  /** Split type of `splitType`: the ranks of one node (MPI_COMM_TYPE_SHARED). */
  readonly COMM_TYPE_SHARED = COMM_TYPE_SHARED;
  private selfComm: Comm | null = null;

  constructor(world: MpiWorld, proc: Proc) {
    super(world, proc, new RankState(), { members: world.worldMembers, inv: null, ctx: 0, rank: proc.rank });
  }

  /** MPI_COMM_WORLD itself. */
  get COMM_WORLD(): Comm {
    return this;
  }

  /** MPI_COMM_SELF: this rank alone. */
  get COMM_SELF(): Comm {
    return (this.selfComm ??= Comm.self(this.world, this.proc, this.state));
  }

  /**
   * The inactive request that stands for no operation (MPI_REQUEST_NULL): waits and tests on it
   * return the empty status at once; waitAny and the others put it in place of a request whose
   * completion they return.
   */
  get REQUEST_NULL(): Request {
    return this.requestNull;
  }

  /**
   * Elements of `type` a status covers (MPI_Get_count): `type` is an element size in bytes or a
   * typed array constructor (`Float64Array`); UNDEFINED when the bytes are not a whole number of
   * elements.
   */
  getCount(status: Status, type: number | { readonly BYTES_PER_ELEMENT: number }): number {
    return getCount(status, type);
  }

  /** Simulated time of this rank in seconds (MPI_Wtime). */
  wtime(): number {
    return this.proc.time() / 1e12;
  }

  /**
   * A user-defined reduction (MPI_Op_create): `fn(inout, input)` sets inout = inout op input
   * element by element, `inout` holding the lower ranks' operand; `commute` false keeps rank order.
   */
  opCreate(fn: (inout: ReduceArray, input: ReduceArray) => void, commute: boolean, options?: OpOptions): Op {
    return opCreate(fn, commute, options);
  }

  /** The text of an error code (MPI_Error_string), e.g. `MPI_ERR_RANK: invalid rank`. */
  errorString(code: number): string {
    return errorString(code);
  }

  /** The class of an error code (MPI_Error_class). */
  errorClass(code: number): number {
    return errorClass(code);
  }

  /**
   * An error handler calling `fn(comm, code)` when a call on a communicator it is set on fails
   * (MPI_Comm_create_errhandler); the call then raises its MpiError, as with ERRORS_RETURN.
   */
  commCreateErrhandler(fn: (comm: Comm, code: number) => void): Errhandler {
    if (typeof fn !== 'function') throw new MpiError('MPI_ERR_ARG', `commCreateErrhandler: expected a function (comm, code) => void, got ${typeof fn}`);
    return new Errhandler('user', false, fn as (comm: unknown, code: number) => void);
  }

  /** Balanced Cartesian dimensions (MPI_Dims_create): zero entries of `dims` are filled. */
  dimsCreate(nnodes: number, dims: readonly number[]): number[] {
    return dimsCreate(nnodes, dims);
  }
}
