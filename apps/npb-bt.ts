import type { RankContext } from '../runtime/rank.ts';
import type { App, AppResult, ParamValues } from './app.ts';
import { BT_SOLVE_TAGS, checkMultiPartition, runMultiPartition, type MultiPartitionBenchmark } from './npb-multipartition.ts';

/** NPB BT problem classes (NPB 3 MPI sys/setparams.c, write_bt_info): grid points per axis and time steps. */
export const BT_CLASSES: Readonly<Record<string, { readonly n: number; readonly iterations: number }>> = {
  S: { n: 12, iterations: 60 },
  W: { n: 24, iterations: 200 },
  A: { n: 64, iterations: 200 },
  B: { n: 102, iterations: 200 },
  C: { n: 162, iterations: 200 },
};
/** Doubles of a 5x5 block and of a 5-vector (BT header.h: BLOCK_SIZE = 5). */
const BLOCK = 25;
const VEC = 5;

/**
 * NPB's operation count of one BT time step on an n^3 grid (bt.f: Mop/s = niter (3478.8 n^3 -
 * 17655.7 navg^2 + 28023.7 navg) / time, navg = n on a cube).
 */
export const btOpsPerStep = (n: number): number => 3478.8 * n ** 3 - 17655.7 * n ** 2 + 28023.7 * n;

/**
 * BT on the multi-partition: the n^3 term, 3478.8 per point, is charged a quarter each to
 * compute_rhs (with add) and the three solves, an even split assumed here (bt.f gives no
 * per-routine figure). Bytes per point, estimated from the arrays each routine reads and writes:
 * a solve builds and reads the three 5x5 blocks of its line (600) and reads and writes rhs and u
 * (120); compute_rhs reads u and forcing and writes rhs and its six auxiliary fields (168).
 * Each solve stage sends the successor C' and rhs' of the cell's last plane (x_send_solve_info:
 * MAX_CELL_DIM^2 x (25 + 5) doubles, MAX_CELL_DIM = n / ncells + 1, whatever the cell's size) and
 * the back substitution sends the predecessor U of its first plane (MAX_CELL_DIM^2 x 5), tagged
 * WEST/EAST, SOUTH/NORTH or BOTTOM/TOP plus the cell's coordinates across the sweep; each stage
 * waits for the previous send, then the receive (x_solve.f, y_solve.f, z_solve.f).
 */
export const BT_BENCHMARK: MultiPartitionBenchmark = {
  name: 'npb-bt',
  classes: BT_CLASSES,
  rhs: { flops: 3478.8 / 4, bytes: 168 },
  solve: { flops: 3478.8 / 4, bytes: 720 },
  opsPerStep: btOpsPerStep,
  scheme: {
    forward: [3],
    backward: [5],
    forwardDoubles: (_lines, maxd) => maxd * maxd * (BLOCK + VEC),
    backwardDoubles: (_lines, maxd) => maxd * maxd * VEC,
    forwardSlot: (_line, p, q, maxd) => (q * maxd + p) * (BLOCK + VEC) + BLOCK,
    backwardSlot: (_line, p, q, maxd) => (q * maxd + p) * VEC,
    tag: (axis, back, cp, cq, ncells) => BT_SOLVE_TAGS[axis]![back ? 1 : 0] + cp + cq * ncells,
    overlap: 0,
    waitAll: false,
  },
};

/**
 * The NAS parallel benchmarks' block-tridiagonal solver (BT, NPB 3 MPI version) communication on
 * the multi-partition of a square number of ranks: per time step the ghost faces to the six
 * neighbour ranks and three pipelined line-solve sweeps through the cells, x, y then z (see
 * runMultiPartition). Real data: a first-order recurrence stands for the 5x5 block solves, each
 * swept value and ghost point checked against a serial run of the whole grid.
 */
export const npbBt: App = {
  name: 'npb-bt',
  summary: 'NAS BT: multi-partition on a square number of ranks, per time step ghost faces to the six neighbours and pipelined block-tridiagonal sweeps in x, y and z through the cells; Mop/s as NPB counts them, every swept and ghost value checked',
  merit: { key: 'mops', higherIsBetter: true, label: 'Mop/s' },
  minRanks: 1,
  params: {
    class: { type: 'choice', default: 'S', choices: Object.keys(BT_CLASSES), help: 'NPB class: 12^3 (S), 24^3 (W), 64^3 (A), 102^3 (B), 162^3 (C) points; 60 (S) or 200 time steps' },
    iterations: { type: 'int', default: 0, min: 0, help: "time steps (0: the class's)" },
  },
  check: (p: ParamValues, ranks?: number): void => checkMultiPartition(BT_BENCHMARK, p, ranks),
  main: (ctx: RankContext, p: ParamValues): Promise<AppResult | undefined> => runMultiPartition(ctx, p, BT_BENCHMARK),
};
