import type { Proc } from '../proc.ts';
import { Comm, dimsCreate, RankState, TAG_UB, UNDEFINED } from './comm.ts';
import { ANY_SOURCE, ANY_TAG, PROC_NULL, type MpiWorld } from './core.ts';
import { MAX, MIN, PROD, SUM, type Op } from './ops.ts';

export { MpiError, type Request, type Status } from './request.ts';
export type { NumericArray, Op } from './ops.ts';
export { CartComm, Comm, Group, TAG_UB, UNDEFINED, BSEND_OVERHEAD } from './comm.ts';

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

  /** Balanced Cartesian dimensions (MPI_Dims_create): zero entries of `dims` are filled. */
  dimsCreate(nnodes: number, dims: readonly number[]): number[] {
    return dimsCreate(nnodes, dims);
  }
}
