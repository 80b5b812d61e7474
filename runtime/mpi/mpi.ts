import type { Proc } from '../proc.ts';
import { Comm, dimsCreate, IN_PLACE, RankState, TAG_UB, UNDEFINED } from './comm.ts';
import { ANY_SOURCE, ANY_TAG, PROC_NULL, type MpiWorld } from './core.ts';
import * as rma from './rma/constants.ts';
import { BAND, BOR, BXOR, LAND, LOR, LXOR, MAX, MAXLOC, MIN, MINLOC, opCreate, PROD, SUM, type Op, type OpOptions, type ReduceArray } from './ops.ts';

export { MpiError, type Request, type Status } from './request.ts';
export type { NumericArray, Op, ReduceArray } from './ops.ts';
export { CartComm, Comm, Group, IN_PLACE, TAG_UB, UNDEFINED, BSEND_OVERHEAD, type CollOptions } from './comm.ts';
export { ALGORITHMS, chooseAlgorithm } from './coll/index.ts';
export { Win, type SharedSegment, type WinFlavor } from './rma/window.ts';
export type { AllocatedWin } from './rma/create.ts';

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
  /** One-sided accumulates: the target element becomes the origin's; NO_OP leaves it (fetching calls only). */
  readonly REPLACE: Op = rma.REPLACE;
  readonly NO_OP: Op = rma.NO_OP;
  /** Lock types of `win.lock`. */
  readonly LOCK_EXCLUSIVE = rma.LOCK_EXCLUSIVE;
  readonly LOCK_SHARED = rma.LOCK_SHARED;
  /** Asserts of the window synchronisation calls (OR them). */
  readonly MODE_NOCHECK = rma.MODE_NOCHECK;
  readonly MODE_NOSTORE = rma.MODE_NOSTORE;
  readonly MODE_NOPUT = rma.MODE_NOPUT;
  readonly MODE_NOPRECEDE = rma.MODE_NOPRECEDE;
  readonly MODE_NOSUCCEED = rma.MODE_NOSUCCEED;

  constructor(world: MpiWorld, proc: Proc) {
    super(world, proc, new RankState(), { members: world.worldMembers, inv: null, ctx: 0, rank: proc.rank });
  }

  /** MPI_COMM_WORLD itself. */
  get COMM_WORLD(): Comm {
    return this;
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

  /** Balanced Cartesian dimensions (MPI_Dims_create): zero entries of `dims` are filled. */
  dimsCreate(nnodes: number, dims: readonly number[]): number[] {
    return dimsCreate(nnodes, dims);
  }
}
