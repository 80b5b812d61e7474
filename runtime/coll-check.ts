/**
 * The correctness check of a collective algorithm, the library's or a user's: the collective run
 * with real data on a range of communicator sizes and roots, each rank's result compared with an
 * independent reference, with a commutative op (sum) and, unless the algorithm needs one, a
 * non-commutative one (composition of affine maps modulo a prime).
 */
import type { Comm } from './mpi/comm.ts';
import { opCreate, SUM, type Op } from './mpi/ops.ts';
import { simulate } from './simulate.ts';
import { ALGORITHMS, CE_ALGORITHM, type AlgorithmChoice, type Collective } from './mpi/coll/index.ts';

/** One communicator size's outcome. */
export interface CheckResult {
  readonly ranks: number;
  /** The first wrong value or the run's error, one line; null when every rank's result is right. */
  readonly error: string | null;
  /** Simulated time of the run (us). */
  readonly us: number;
}

const P = 65521;

/** x -> a x + b maps modulo P, composed: (a, b) then (c, d) is (a c, a d + b); associative, not commutative. */
export const AFFINE: Op = opCreate(
  (inout, input) => {
    const x = inout as Float64Array;
    const y = input as Float64Array;
    for (let i = 0; i < x.length; i += 2) {
      const a = x[i]!;
      const b = x[i + 1]!;
      x[i] = (a * y[i]!) % P;
      x[i + 1] = (a * y[i + 1]! + b) % P;
    }
  },
  false,
  { name: 'affine', unit: 2 },
);

/** Rank r's element i of the test data (small integers: sums stay exact; an affine map's a never 0). */
function value(r: number, i: number): number {
  return i % 2 === 0 ? ((r * 5 + i * 3) % 7) + 2 : (r * 11 + i * 7) % 13;
}

function data(r: number, n: number, from = 0): Float64Array {
  const a = new Float64Array(n);
  for (let i = 0; i < n; i++) a[i] = value(r, from + i);
  return a;
}

/** The op's fold of ranks [0, upTo) over elements [from, from + n), computed element by element. */
function fold(op: Op, upTo: number, n: number, from = 0): Float64Array {
  const acc = data(0, n, from);
  for (let r = 1; r < upTo; r++) op.apply(acc, data(r, n, from));
  return acc;
}

/** The first element where `got` differs from `want`, as a message, or null. */
function diff(what: string, rank: number, got: Float64Array, want: Float64Array, offset = 0): string | null {
  for (let i = 0; i < want.length; i++) {
    if (got[offset + i] !== want[i]) return `rank ${rank}: ${what}[${offset + i}] is ${got[offset + i]}, expected ${want[i]}`;
  }
  return null;
}

const counts = (n: number, r: number): number[] => Array.from({ length: n }, (_, j) => ((r + j) % 3) + 1);
const displs = (c: readonly number[]): number[] => c.map((_, j) => c.slice(0, j).reduce((s, x) => s + x, 0));
const sum = (c: readonly number[]): number => c.reduce((s, x) => s + x, 0);

/** Elements per rank in the checks (even, so the affine op's items stay whole). */
const M = 4;

type Case = (mpi: Comm, op: Op, root: number) => Promise<string | null>;

/** Each collective's check on one rank: runs it and compares the result with the reference. */
const CASES: Readonly<Record<Collective, Case>> = {
  barrier: async (mpi) => {
    await mpi.barrier();
    return null;
  },
  bcast: async (mpi, _op, root) => {
    const buf = mpi.rank === root ? data(root, M) : new Float64Array(M);
    await mpi.bcast(buf, root);
    return diff('buf', mpi.rank, buf, data(root, M));
  },
  reduce: async (mpi, op, root) => {
    const recv = mpi.rank === root ? new Float64Array(M) : null;
    await mpi.reduce(data(mpi.rank, M), recv, op, root);
    return recv ? diff('recvBuf', mpi.rank, recv, fold(op, mpi.size, M)) : null;
  },
  allreduce: async (mpi, op) => {
    const recv = new Float64Array(M);
    await mpi.allreduce(data(mpi.rank, M), recv, op);
    return diff('recvBuf', mpi.rank, recv, fold(op, mpi.size, M));
  },
  allgather: async (mpi) => {
    const recv = new Float64Array(M * mpi.size);
    await mpi.allgather(data(mpi.rank, M), recv);
    for (let r = 0; r < mpi.size; r++) {
      const e = diff('recvBuf', mpi.rank, recv, data(r, M), r * M);
      if (e) return e;
    }
    return null;
  },
  allgatherv: async (mpi) => {
    const c = counts(mpi.size, 0);
    const d = displs(c);
    const recv = new Float64Array(sum(c));
    await mpi.allgatherv(data(mpi.rank, c[mpi.rank]!), recv, c, d);
    for (let r = 0; r < mpi.size; r++) {
      const e = diff('recvBuf', mpi.rank, recv, data(r, c[r]!), d[r]!);
      if (e) return e;
    }
    return null;
  },
  alltoall: async (mpi) => {
    const n = mpi.size;
    const recv = new Float64Array(M * n);
    await mpi.alltoall(data(mpi.rank, M * n), recv);
    for (let r = 0; r < n; r++) {
      const e = diff('recvBuf', mpi.rank, recv, data(r, M, M * mpi.rank), r * M);
      if (e) return e;
    }
    return null;
  },
  alltoallv: async (mpi) => {
    const n = mpi.size;
    const me = mpi.rank;
    const sc = counts(n, me);
    const rc = Array.from({ length: n }, (_, j) => counts(n, j)[me]!);
    const rd = displs(rc);
    const recv = new Float64Array(sum(rc));
    // rank r sends to j the elements of its data from offset j * n (a block of its own per peer)
    const send = new Float64Array(sum(sc));
    displs(sc).forEach((off, j) => send.set(data(me, sc[j]!, j * n), off));
    await mpi.alltoallv(send, sc, displs(sc), recv, rc, rd);
    for (let r = 0; r < n; r++) {
      const e = diff('recvBuf', me, recv, data(r, rc[r]!, me * n), rd[r]!);
      if (e) return e;
    }
    return null;
  },
  reduceScatter: async (mpi, op) => {
    const c = counts(mpi.size, 1).map((x) => 2 * x);
    const recv = new Float64Array(c[mpi.rank]!);
    await mpi.reduceScatter(data(mpi.rank, sum(c)), recv, c, op);
    const d = displs(c);
    const all = fold(op, mpi.size, sum(c));
    return diff('recvBuf', mpi.rank, recv, all.subarray(d[mpi.rank]!, d[mpi.rank]! + c[mpi.rank]!));
  },
  reduceScatterBlock: async (mpi, op) => {
    const recv = new Float64Array(M);
    await mpi.reduceScatterBlock(data(mpi.rank, M * mpi.size), recv, op);
    return diff('recvBuf', mpi.rank, recv, fold(op, mpi.size, M, M * mpi.rank));
  },
  gather: async (mpi, _op, root) => {
    const recv = mpi.rank === root ? new Float64Array(M * mpi.size) : null;
    await mpi.gather(data(mpi.rank, M), recv, root);
    for (let r = 0; recv && r < mpi.size; r++) {
      const e = diff('recvBuf', mpi.rank, recv, data(r, M), r * M);
      if (e) return e;
    }
    return null;
  },
  gatherv: async (mpi, _op, root) => {
    const c = counts(mpi.size, 2);
    const d = displs(c);
    const recv = mpi.rank === root ? new Float64Array(sum(c)) : null;
    await mpi.gatherv(data(mpi.rank, c[mpi.rank]!), recv, mpi.rank === root ? c : null, mpi.rank === root ? d : null, root);
    for (let r = 0; recv && r < mpi.size; r++) {
      const e = diff('recvBuf', mpi.rank, recv, data(r, c[r]!), d[r]!);
      if (e) return e;
    }
    return null;
  },
  scatter: async (mpi, _op, root) => {
    const recv = new Float64Array(M);
    await mpi.scatter(mpi.rank === root ? data(root, M * mpi.size) : null, recv, root);
    return diff('recvBuf', mpi.rank, recv, data(root, M, M * mpi.rank));
  },
  scatterv: async (mpi, _op, root) => {
    const c = counts(mpi.size, 1);
    const d = displs(c);
    const recv = new Float64Array(c[mpi.rank]!);
    const me = mpi.rank === root;
    await mpi.scatterv(me ? data(root, sum(c)) : null, me ? c : null, me ? d : null, recv, root);
    return diff('recvBuf', mpi.rank, recv, data(root, c[mpi.rank]!, d[mpi.rank]!));
  },
  scan: async (mpi, op) => {
    const recv = new Float64Array(M);
    await mpi.scan(data(mpi.rank, M), recv, op);
    return diff('recvBuf', mpi.rank, recv, fold(op, mpi.rank + 1, M));
  },
  exscan: async (mpi, op) => {
    const recv = new Float64Array(M);
    await mpi.exscan(data(mpi.rank, M), recv, op);
    // rank 0's result is undefined (MPI)
    return mpi.rank === 0 ? null : diff('recvBuf', mpi.rank, recv, fold(op, mpi.rank, M));
  },
};

const ROOTED = new Set<Collective>(['bcast', 'reduce', 'gather', 'gatherv', 'scatter', 'scatterv']);
const REDUCING = new Set<Collective>(['reduce', 'allreduce', 'reduceScatter', 'reduceScatterBlock', 'scan', 'exscan']);

/**
 * Checks `alg` for `collective` on each communicator size of `sizes` (one rank per node of
 * `machine`): with the root first and last for rooted collectives, with sum and (unless the
 * algorithm needs a commutative op) the affine op for reductions. Every rank's result is compared
 * with the reference; a run that fails (an MPI error, a deadlock) gives its one-line message.
 */
export async function checkCollective(collective: Collective, alg: AlgorithmChoice, sizes: readonly number[], machine = 'xe6'): Promise<CheckResult[]> {
  const run = CASES[collective];
  const named = typeof alg === 'string' && alg !== CE_ALGORITHM && Object.hasOwn(ALGORITHMS[collective], alg) ? (ALGORITHMS[collective] as Readonly<Record<string, { commutativeOnly: boolean }>>)[alg] : undefined;
  const commutativeOnly = typeof alg === 'object' ? alg.commutativeOnly : (named?.commutativeOnly ?? false);
  const ops = REDUCING.has(collective) ? (commutativeOnly ? [SUM] : [SUM, AFFINE]) : [SUM];
  const out: CheckResult[] = [];
  for (const n of sizes) {
    const roots = ROOTED.has(collective) ? [...new Set([0, n - 1])] : [0];
    const errors: string[] = [];
    let us = 0;
    try {
      const r = await simulate({
        machine,
        nodes: n,
        algorithms: { [collective]: alg },
        program: async ({ mpi }) => {
          for (const op of ops) {
            for (const root of roots) {
              const e = await run(mpi, op, root);
              if (e && errors.length === 0) errors.push(`${collective}${ops.length > 1 ? ` with ${op.name}` : ''}${roots.length > 1 ? ` (root ${root})` : ''}: ${e}`);
            }
          }
        },
      });
      us = r.simulatedTimeUs;
    } catch (e) {
      errors.push((e instanceof Error ? e.message : String(e)).split('\n').join('; '));
    }
    out.push({ ranks: n, error: errors[0] ?? null, us });
  }
  return out;
}
