/**
 * Constants and result types of the uGNI face: return codes, post types, CQ modes and AMO
 * commands, named as in Cray's gni_pub.h without the `GNI_` prefix of each member.
 */

/** uGNI return codes (gni_return_t); the value is the C name, for messages and tests. */
export const GNI_RC = {
  SUCCESS: 'GNI_RC_SUCCESS',
  NOT_DONE: 'GNI_RC_NOT_DONE',
  INVALID_PARAM: 'GNI_RC_INVALID_PARAM',
  ERROR_RESOURCE: 'GNI_RC_ERROR_RESOURCE',
  TIMEOUT: 'GNI_RC_TIMEOUT',
  PERMISSION_ERROR: 'GNI_RC_PERMISSION_ERROR',
  DESCRIPTOR_ERROR: 'GNI_RC_DESCRIPTOR_ERROR',
  ALIGNMENT_ERROR: 'GNI_RC_ALIGNMENT_ERROR',
  INVALID_STATE: 'GNI_RC_INVALID_STATE',
  NO_MATCH: 'GNI_RC_NO_MATCH',
  SIZE_ERROR: 'GNI_RC_SIZE_ERROR',
  TRANSACTION_ERROR: 'GNI_RC_TRANSACTION_ERROR',
  ILLEGAL_OP: 'GNI_RC_ILLEGAL_OP',
  ERROR_NOMEM: 'GNI_RC_ERROR_NOMEM',
} as const;

/** One uGNI return code. */
export type GniRc = (typeof GNI_RC)[keyof typeof GNI_RC];

/** A call that failed (or, for NOT_DONE, found nothing yet): its code and a message naming the cause. */
export interface GniFailure {
  readonly rc: Exclude<GniRc, 'GNI_RC_SUCCESS'>;
  readonly message: string;
}

/** What a call returns: GNI_RC_SUCCESS with its outputs, or a failure code with a message. */
export type GniResult<T extends object = object> = ({ readonly rc: 'GNI_RC_SUCCESS' } & T) | GniFailure;

/**
 * Post types of a descriptor (gni_post_type_t): FMA puts, gets and AMOs; RDMA (BTE) puts and
 * gets; and RDMA_SEND, a phit extension: the BTE's send (channel) operation into a receive buffer
 * the target pre-posted (Gni.postRecvBuffer). The hardware has it (seed 001 "Remote Memory
 * Access", seed 004 §II.C) but uGNI never exposed it, so no C program uses this name.
 */
export const GNI_POST = {
  FMA_PUT: 'FMA_PUT',
  FMA_GET: 'FMA_GET',
  AMO: 'AMO',
  RDMA_PUT: 'RDMA_PUT',
  RDMA_GET: 'RDMA_GET',
  RDMA_SEND: 'RDMA_SEND',
} as const;

/** One post type. */
export type GniPostType = (typeof GNI_POST)[keyof typeof GNI_POST];

/**
 * Completion-queue modes of a descriptor (bit flags, as GNI_CQMODE_*): SILENT raises no event,
 * LOCAL_EVENT one at the source CQ, REMOTE_EVENT one at the CQ the target registered its memory
 * with, GLOBAL_EVENT both.
 */
export const GNI_CQMODE = {
  SILENT: 0,
  LOCAL_EVENT: 1,
  GLOBAL_EVENT: 2,
  REMOTE_EVENT: 4,
} as const;

/**
 * AMO commands (GNI_FMA_ATOMIC_*): the F-prefixed ones fetch the old value into the descriptor's
 * local buffer. Operands: `firstOperand` for all; compare-and-swap compares with `firstOperand`
 * and writes `secondOperand`.
 */
export const GNI_FMA_ATOMIC = {
  ADD: 'ADD',
  FADD: 'FADD',
  AND: 'AND',
  FAND: 'FAND',
  OR: 'OR',
  FOR: 'FOR',
  XOR: 'XOR',
  FXOR: 'FXOR',
  SWAP: 'SWAP',
  FSWAP: 'FSWAP',
  CSWAP: 'CSWAP',
  FCSWAP: 'FCSWAP',
} as const;

/** One AMO command. */
export type GniAmoCmd = (typeof GNI_FMA_ATOMIC)[keyof typeof GNI_FMA_ATOMIC];

/** Error thrown by `gniCheck` (for ports that abort on a failed call, as C examples do). */
export class GniError extends Error {
  constructor(
    readonly rc: GniRc,
    message: string,
  ) {
    super(`${rc}: ${message}`);
    this.name = 'GniError';
  }
}

/** Returns a successful result narrowed to its outputs; throws GniError for any other code. */
export function gniCheck<T extends object>(r: GniResult<T>, call = 'gni call'): { readonly rc: 'GNI_RC_SUCCESS' } & T {
  if (r.rc !== GNI_RC.SUCCESS) throw new GniError(r.rc, 'message' in r ? `${call}: ${r.message}` : call);
  return r;
}
