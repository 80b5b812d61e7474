import { describe, expect, it } from 'vitest';
import { resolveParams, SKELETON_CHECK, type Row } from '../apps/app.ts';
import { findApp } from '../apps/index.ts';
import { ALGORITHMS, type Collective } from '../runtime/mpi/coll/index.ts';
import { opCreate, type Op, type ReduceArray } from '../runtime/mpi/ops.ts';
import type { RankContext } from '../runtime/rank.ts';
import { simulate, type SimulateResult } from '../runtime/simulate.ts';

/** What must not differ between a normal and a skeleton run of the same program. */
function figures(r: SimulateResult): Record<string, unknown> {
  return { simulatedTimeUs: r.simulatedTimeUs, computeUs: r.computeUs, events: r.events, packets: r.packets, packetHops: r.packetHops };
}

/** Result rows without their `check` column (the one thing a skeleton run reports differently). */
function rowsOf(result: unknown): Row[] {
  const rows = (result as { rows?: Row[] } | undefined)?.rows ?? [];
  return rows.map(({ check: _check, ...rest }) => rest);
}

/** The check an app reports: its rows' `check` column, else its result's `check`. */
function checkOf(result: unknown): unknown {
  const r = result as { rows?: Row[]; check?: unknown };
  return r.rows?.[0]?.check ?? r.check;
}

interface AppCase {
  readonly app: string;
  readonly machine: string;
  readonly nodes: number;
  readonly ppn: number;
  readonly params: Record<string, string>;
  /** The app's data stays real in a skeleton run (AMOs on a real table): its check still runs. */
  readonly realData?: boolean;
}

// each case runs twice (normal, skeleton); sizes cover eager, rendezvous (xe6: above 8 KiB), FMA
// and BTE (putget above 4 KiB), the on-node path (ppn 2) and the collective algorithms' switches
const CASES: readonly AppCase[] = [
  { app: 'pingpong', machine: 'xe6', nodes: 2, ppn: 1, params: { maxBytes: '256KiB', iterations: '2' } },
  { app: 'allreduce', machine: 'xe6', nodes: 16, ppn: 2, params: { minBytes: '1KiB', maxBytes: '256KiB', iterations: '2', warmup: '0' } },
  { app: 'allreduce', machine: 'xc30', nodes: 4, ppn: 2, params: { minBytes: '8', maxBytes: '64', iterations: '2', warmup: '0' } },
  { app: 'alltoall', machine: 'xc30', nodes: 8, ppn: 2, params: { maxBytes: '4KiB', iterations: '1', warmup: '0' } },
  { app: 'halo3d', machine: 'xe6', nodes: 4, ppn: 2, params: { iterations: '2', nx: '16', ny: '16', nz: '16' } },
  { app: 'fft2d', machine: 'xe6', nodes: 4, ppn: 1, params: { n: '64' } },
  { app: 'fft3d', machine: 'xc30', nodes: 2, ppn: 2, params: { n: '16' } },
  { app: 'ptrans', machine: 'xe6', nodes: 4, ppn: 1, params: { n: '96', nb: '16' } },
  { app: 'gups', machine: 'xe6', nodes: 4, ppn: 2, params: { updates: '64' }, realData: true },
  { app: 'gups', machine: 'xe6', nodes: 4, ppn: 2, params: { updates: '64', mode: 'bucket' }, realData: true },
  { app: 'putget', machine: 'xe6', nodes: 2, ppn: 1, params: { maxBytes: '64KiB', iterations: '2', window: '4' } },
  { app: 'putget', machine: 'xc30', nodes: 2, ppn: 2, params: { maxBytes: '16KiB', pairs: 'node', bidirectional: '1', window: '2' } },
  { app: 'randomring', machine: 'sc5832', nodes: 4, ppn: 2, params: { bytes: '16KiB', patterns: '2' } },
  { app: 'randpairs', machine: 'xe6', nodes: 4, ppn: 1, params: { bytes: '16KiB', rounds: '2' } },
  { app: 'osu-bibw', machine: 'xe6', nodes: 1, ppn: 2, params: { maxBytes: '64KiB', iterations: '2' } },
];

describe('a skeleton run takes exactly the time of a normal run', () => {
  for (const c of CASES) {
    it(`${c.app} on ${c.machine}, ${c.nodes} x ${c.ppn} (${Object.entries(c.params).map(([k, v]) => `${k}=${v}`).join(' ')})`, async () => {
      const app = findApp(c.app);
      const params = resolveParams(app, c.params);
      const run = (skeleton: boolean): Promise<SimulateResult> =>
        simulate({ machine: c.machine, nodes: c.nodes, ppn: c.ppn, skeleton, program: (ctx) => app.main(ctx, params) });
      const normal = await run(false);
      const skeleton = await run(true);
      expect(skeleton.skeleton).toBe(true);
      expect(figures(skeleton)).toEqual(figures(normal));
      expect(rowsOf(skeleton.result)).toEqual(rowsOf(normal.result));
      expect(rowsOf(normal.result).length).toBeGreaterThan(0);
      // the normal run checked its data; the skeleton run says it could not (unless its data is real)
      expect(String(checkOf(normal.result) ?? 'passed')).toMatch(/^passed/);
      if (c.realData) expect(checkOf(skeleton.result)).toBe(checkOf(normal.result));
      else expect(checkOf(skeleton.result)).toBe(SKELETON_CHECK);
    });
  }
});

/** A non-commutative op (the left operand wins), so the algorithms' ordered combines and their scratch copies run. */
const LEFT = opCreate(() => undefined, false);

/** The collectives that take an op. */
const REDUCING: ReadonlySet<Collective> = new Set(['reduce', 'allreduce', 'reduceScatter', 'reduceScatterBlock', 'scan', 'exscan']);

/** Calls collective `coll` with algorithm `algorithm` on buffers of `count` elements per block from `alloc`, reducing with `op`. */
async function callCollective(ctx: RankContext, coll: Collective, algorithm: string, count: number, op?: Op): Promise<void> {
  const { mpi } = ctx;
  const sum = op ?? mpi.SUM;
  const n = mpi.size;
  const me = mpi.rank;
  const buf = (k: number): ReduceArray => ctx.alloc(Float64Array, k);
  const opts = { algorithm };
  // rank r's own block of the v-collectives: r + 1 elements per `count`
  const counts = Array.from({ length: n }, (_, r) => (r + 1) * count);
  const displs = counts.map((_, r) => counts.slice(0, r).reduce((a, b) => a + b, 0));
  const total = counts.reduce((a, b) => a + b, 0);
  switch (coll) {
    case 'barrier':
      return mpi.barrier(opts);
    case 'bcast':
      return mpi.bcast(buf(count), 1 % n, opts);
    case 'reduce':
      return mpi.reduce(buf(count), me === 1 % n ? buf(count) : null, sum, 1 % n, opts);
    case 'allreduce':
      return mpi.allreduce(buf(count), buf(count), sum, opts);
    case 'allgather':
      return mpi.allgather(buf(count), buf(n * count), opts);
    case 'allgatherv':
      return mpi.allgatherv(buf(counts[me]!), buf(total), counts, displs, opts);
    case 'alltoall':
      return mpi.alltoall(buf(n * count), buf(n * count), opts);
    case 'alltoallv':
      return mpi.alltoallv(buf(total), counts, displs, buf(n * counts[me]!), counts.map(() => counts[me]!), counts.map((_, r) => r * counts[me]!), opts);
    case 'reduceScatter':
      return mpi.reduceScatter(buf(total), buf(counts[me]!), counts, sum, opts);
    case 'reduceScatterBlock':
      return mpi.reduceScatterBlock(buf(n * count), buf(count), sum, opts);
    case 'gather':
      return mpi.gather(buf(count), me === 0 ? buf(n * count) : null, 0, opts);
    case 'gatherv':
      return mpi.gatherv(buf(counts[me]!), me === 0 ? buf(total) : null, me === 0 ? counts : null, me === 0 ? displs : null, 0, opts);
    case 'scatter':
      return mpi.scatter(me === 0 ? buf(n * count) : null, buf(count), 0, opts);
    case 'scatterv':
      return mpi.scatterv(me === 0 ? buf(total) : null, me === 0 ? counts : null, me === 0 ? displs : null, buf(counts[me]!), 0, opts);
    case 'scan':
      return mpi.scan(buf(count), buf(count), sum, opts);
    case 'exscan':
      return mpi.exscan(buf(count), buf(count), sum, opts);
  }
}

describe('every collective algorithm takes the same time on skeleton buffers', () => {
  // 6 ranks (not a power of two: the folds run) over 3 nodes, blocks of 3 KiB: eager and rendezvous messages
  for (const [coll, algs] of Object.entries(ALGORITHMS) as [Collective, Record<string, unknown>][]) {
    it(`${coll}: ${Object.keys(algs).join(', ')}`, async () => {
      for (const [algorithm, alg] of Object.entries(algs) as [string, { commutativeOnly: boolean }][]) {
        // with a non-commutative op too where the algorithm takes one
        for (const op of REDUCING.has(coll) && !alg.commutativeOnly ? [undefined, LEFT] : [undefined]) {
          const run = (skeleton: boolean): Promise<SimulateResult> =>
            simulate({ machine: 'xe6', nodes: 3, ppn: 2, skeleton, program: (ctx) => callCollective(ctx, coll, algorithm, 384, op) });
          const normal = await run(false);
          const skeleton = await run(true);
          const what = { algorithm, commutative: op === undefined };
          expect({ ...what, ...figures(skeleton) }).toEqual({ ...what, ...figures(normal) });
          expect(normal.packets).toBeGreaterThan(0);
        }
      }
    });
  }
});

describe('SHMEM on skeleton memory takes the same time', () => {
  it('puts, gets, typed and strided puts, broadcast, collects and a reduction (xc30: IOMMU and AMO caches)', async () => {
    const program = async (ctx: RankContext): Promise<number> => {
      const { shmem } = ctx;
      const n = 6144;
      const me = shmem.myPe();
      const pes = shmem.nPes();
      const dest = await shmem.malloc(8 * n * pes, { skeleton: true });
      const src = await shmem.malloc(8 * n, { skeleton: true });
      const local = ctx.alloc(Float64Array, n);
      const next = (me + 1) % pes;
      await shmem.putmem(dest, local, 8 * n, next);
      await shmem.putFloat64(dest, local, n, next);
      await shmem.iputFloat64(dest, local, 2, 3, 64, next);
      await shmem.quiet();
      await shmem.getmem(local, dest, 8 * n, next);
      await shmem.getFloat64Nbi(local, dest, 100, next);
      await shmem.quiet();
      await shmem.broadcastmem(dest, src, 8 * n, 1);
      await shmem.fcollectmem(dest, src, 8 * 512);
      await shmem.collectmem(dest, src, 8 * (me + 1) * 100);
      await shmem.sumToAll(dest, src, n, 'float64');
      await shmem.barrierAll();
      return 0;
    };
    const run = (skeleton: boolean): Promise<SimulateResult> => simulate({ machine: 'xc30', nodes: 3, ppn: 2, skeleton, program });
    const normal = await run(false);
    const skeleton = await run(true);
    expect(figures(skeleton)).toEqual(figures(normal));
    expect(normal.packets).toBeGreaterThan(1000);
  });
});
