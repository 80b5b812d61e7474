// issue_rma_op of MPICH's test/mpi/rma tests built once per operation (wrma_flush_get.c,
// win_shared_rma_flush_load.c, overlap_wins_rma.c): -DTEST_PUT, _ACC, _GACC, _FOP or _CAS picks
// the call.
import type { Datatype, Op, Win } from '../../../runtime/mpi/mpi.ts';

/** The operation a build tests. */
export type RmaOp = 'put' | 'acc' | 'gacc' | 'fop' | 'cas';

/** rma_name of each build. */
export const RMA_NAMES: Readonly<Record<RmaOp, string>> = { put: 'Put', acc: 'Accumulate', gacc: 'Get_accumulate', fop: 'Fetch_and_op', cas: 'Compare_and_swap' };

type Buf = Int32Array | Float64Array;

/**
 * One element: MPI_Put, MPI_Accumulate(op), MPI_Get_accumulate(op) into `result`,
 * MPI_Fetch_and_op(op) into `result`, or MPI_Compare_and_swap with `compare` into `result`.
 */
export async function issueRmaOp(kind: RmaOp, win: Win, type: Datatype, op: Op, origin: Buf, result: Buf, compare: Buf, dst: number, disp: number): Promise<void> {
  if (kind === 'put') await win.put(origin, 1, type, dst, disp, 1, type);
  else if (kind === 'acc') await win.accumulate(origin, 1, type, dst, disp, 1, type, op);
  else if (kind === 'gacc') await win.getAccumulate(origin, 1, type, result, 1, type, dst, disp, 1, type, op);
  else if (kind === 'fop') await win.fetchAndOp(origin, result, type, dst, disp, op);
  else await win.compareAndSwap(origin, compare, result, type, dst, disp);
}
