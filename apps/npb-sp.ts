import type { RankContext } from '../runtime/rank.ts';
import type { App, AppResult, ParamValues } from './app.ts';
import { checkMultiPartition, runMultiPartition, type MultiPartitionBenchmark } from './npb-multipartition.ts';

/** NPB SP problem classes (NPB 3 MPI sys/setparams.c, write_sp_info): grid points per axis and time steps. */
export const SP_CLASSES: Readonly<Record<string, { readonly n: number; readonly iterations: number }>> = {
  S: { n: 12, iterations: 100 },
  W: { n: 36, iterations: 400 },
  A: { n: 64, iterations: 400 },
  B: { n: 102, iterations: 400 },
  C: { n: 162, iterations: 400 },
};
/** SP's tag for every solve message (mpinpb.h: DEFAULT_TAG = 0). */
const DEFAULT_TAG = 0;

/**
 * NPB's operation count of one SP time step on an n^3 grid (sp.f: Mop/s = niter (881.174 n^3 -
 * 4683.91 n^2 + 11484.5 n - 19272.4) / time).
 */
export const spOpsPerStep = (n: number): number => 881.174 * n ** 3 - 4683.91 * n ** 2 + 11484.5 * n - 19272.4;

/**
 * SP on the multi-partition: the n^3 term, 881.174 per point, is charged a quarter each to
 * compute_rhs (with txinvr and add) and the three solves (with their lhs and the ninvr, pinvr and
 * tzetar products), an even split assumed here (sp.f gives no per-routine figure). Bytes per point,
 * estimated from the arrays each routine reads and writes: a solve writes and reads the 15
 * coefficients of its pentadiagonal rows (240) and reads and writes rhs (80); compute_rhs reads u
 * and forcing and writes rhs and its six auxiliary fields (168). A forward stage sends the
 * successor the last two rows of every interior line (x_solve.f: 22 doubles a line, 2 x 5 for the
 * three first variables' shared matrix, 2 x 3 for each of the last two), the back substitution the
 * first two values of the 5 variables (10 a line), all with DEFAULT_TAG; a stage posts the
 * receive, builds its lhs meanwhile (half of the stage's work, assumed), then waits for the receive
 * and the previous send together.
 */
export const SP_BENCHMARK: MultiPartitionBenchmark = {
  name: 'npb-sp',
  classes: SP_CLASSES,
  rhs: { flops: 881.174 / 4, bytes: 168 },
  solve: { flops: 881.174 / 4, bytes: 320 },
  opsPerStep: spOpsPerStep,
  scheme: {
    forward: [3, 7],
    backward: [5, 11],
    forwardDoubles: (lines) => 22 * lines,
    backwardDoubles: (lines) => 10 * lines,
    // the first variable's right-hand side in the rows iend - 1 (slot 2) and iend (slot 7) of the line's 10
    forwardSlot: (line, _p, _q, _maxd, back) => line * 10 + (back === 0 ? 7 : 2),
    backwardSlot: (line, _p, _q, _maxd, ahead) => line * 2 + ahead,
    tag: () => DEFAULT_TAG,
    overlap: 0.5,
    waitAll: true,
  },
};

/**
 * The NAS parallel benchmarks' scalar pentadiagonal solver (SP, NPB 3 MPI version) communication
 * on the multi-partition of a square number of ranks: per time step the ghost faces to the six
 * neighbour ranks and three pipelined line-solve sweeps through the cells, x, y then z (see
 * runMultiPartition). Real data: a second-order recurrence stands for the pentadiagonal solves,
 * each swept value and ghost point checked against a serial run of the whole grid.
 */
export const npbSp: App = {
  name: 'npb-sp',
  summary: 'NAS SP: multi-partition on a square number of ranks, per time step ghost faces to the six neighbours and pipelined pentadiagonal sweeps in x, y and z through the cells (two rows a line); Mop/s as NPB counts them, every swept and ghost value checked',
  merit: { key: 'mops', higherIsBetter: true, label: 'Mop/s' },
  minRanks: 1,
  params: {
    class: { type: 'choice', default: 'S', choices: Object.keys(SP_CLASSES), help: 'NPB class: 12^3 (S), 36^3 (W), 64^3 (A), 102^3 (B), 162^3 (C) points; 100 (S) or 400 time steps' },
    iterations: { type: 'int', default: 0, min: 0, help: "time steps (0: the class's)" },
  },
  check: (p: ParamValues, ranks?: number): void => checkMultiPartition(SP_BENCHMARK, p, ranks),
  main: (ctx: RankContext, p: ParamValues): Promise<AppResult | undefined> => runMultiPartition(ctx, p, SP_BENCHMARK),
};
