import { describe, expect, it } from 'vitest';
import { resolveParams, sizeSweep, type AppResult, type Row } from '../apps/app.ts';
import { findApp } from '../apps/index.ts';
import { ALGORITHMS } from '../runtime/mpi/mpi.ts';
import { simulate } from '../runtime/simulate.ts';
import { rejection } from './helpers.ts';

const MACHINES = ['xt4', 'xe6', 'xc30', 'sc5832', 'bw'] as const;

async function run(name: string, raw: Record<string, string>, opts: { machine?: string; nodes?: number; ppn?: number; set?: Record<string, string> } = {}): Promise<AppResult> {
  const app = findApp(name);
  const params = resolveParams(app, raw);
  app.check?.(params);
  const r = await simulate({ machine: opts.machine ?? 'xe6', nodes: opts.nodes ?? 2, ppn: opts.ppn ?? 1, set: opts.set ?? {}, program: (ctx) => app.main(ctx, params) });
  if (!r.result) throw new Error(`${name} returned nothing on rank 0`);
  return r.result;
}

/** The one row of `rows` whose `key` is `value`. */
function rowWith(rows: readonly Row[], key: string, value: number | string): Row {
  const r = rows.find((x) => x[key] === value);
  if (!r) throw new Error(`no row with ${key}=${value}`);
  return r;
}

/** A positive finite number, or the test fails naming `what`. */
function positive(row: Row, key: string, what: string): number {
  const v = row[key];
  expect(v, `${what}: ${key}`).toBeTypeOf('number');
  expect(Number.isFinite(v) && (v as number) > 0, `${what}: ${key}=${String(v)}`).toBe(true);
  return v as number;
}

/** Relative difference of a and b against b. */
const rel = (a: number, b: number): number => Math.abs(a - b) / b;

/** Awaits a run, or a parameter check, that must fail with a RangeError naming `message`. */
async function expectRangeError(p: Promise<unknown>, message: RegExp): Promise<void> {
  const e = await rejection(p);
  expect((e as { error?: unknown }).error ?? e).toBeInstanceOf(RangeError);
  expect(e.message).toMatch(message);
}

describe.each(MACHINES)('benchmark apps on %s: run with small sizes, check their data, give sane rows', (machine) => {
  it('randomring: a natural and a random row, latency in us and bandwidth per process in MB/s', async () => {
    const { rows } = await run('randomring', { ring: 'both', bytes: '4KiB', patterns: '2' }, { machine, nodes: 4, ppn: 2 });
    expect(rows.map((r) => r.ring)).toEqual(['natural', 'random']);
    for (const r of rows) {
      expect(r.ranks).toBe(8);
      expect(r.bytes).toBe(4096);
      const lat = positive(r, 'latencyUs', `${r.ring}`);
      const mbs = positive(r, 'bandwidthMBs', `${r.ring}`);
      // a 4 KiB exchange takes longer than an 8-byte one: bandwidth is below 4096 B per latency
      expect(mbs).toBeLessThan(4096 / lat);
    }
    expect(rowWith(rows, 'ring', 'random').patterns).toBe(2);
  });

  it('allreduce: one row per size from 8 B to 1 KiB, the automatic algorithm named, latency growing with size', async () => {
    const { rows } = await run('allreduce', { maxBytes: '1KiB', op: 'max', type: 'int32', iterations: '2' }, { machine, nodes: 4 });
    expect(rows.map((r) => r.bytes)).toEqual(sizeSweep(8, 1024));
    for (const r of rows) {
      expect(r.ranks).toBe(4);
      expect(Object.keys(ALGORITHMS.allreduce)).toContain(r.algorithm);
      positive(r, 'latencyUs', `${r.bytes} B`);
    }
    expect(rows[rows.length - 1]!.latencyUs as number).toBeGreaterThan(rows[0]!.latencyUs as number);
  });

  it('alltoall: one row per block size, per-rank bandwidth = (ranks - 1) blocks over the time', async () => {
    const { rows } = await run('alltoall', { maxBytes: '1KiB', iterations: '2' }, { machine, nodes: 4 });
    expect(rows.map((r) => r.bytes)).toEqual(sizeSweep(8, 1024));
    for (const r of rows) {
      expect(Object.keys(ALGORITHMS.alltoall)).toContain(r.algorithm);
      const t = positive(r, 'timeUs', `${r.bytes} B`);
      expect(rel(positive(r, 'bandwidthGBs', `${r.bytes} B`), (3 * (r.bytes as number)) / t / 1e3)).toBeLessThan(1e-3);
    }
  });

  it('osu-latency: half a round trip, not shrinking with size', async () => {
    const { rows } = await run('osu-latency', { maxBytes: '1KiB', iterations: '2' }, { machine });
    expect(rows.map((r) => r.bytes)).toEqual(sizeSweep(1, 1024));
    rows.forEach((r, i) => {
      positive(r, 'latencyUs', `${r.bytes} B`);
      if (i > 0) expect(r.latencyUs as number, `${r.bytes} B`).toBeGreaterThanOrEqual(rows[i - 1]!.latencyUs as number);
    });
  });

  it.each(['osu-bw', 'osu-bibw'])('%s: MB/s and GB/s agree and grow with size', async (name) => {
    const { rows } = await run(name, { minBytes: '8', maxBytes: '4KiB', window: '4', iterations: '2' }, { machine });
    expect(rows.map((r) => r.bytes)).toEqual(sizeSweep(8, 4096));
    rows.forEach((r, i) => {
      expect(r.window).toBe(4);
      expect(rel(positive(r, 'bandwidthMBs', `${r.bytes} B`), 1000 * positive(r, 'bandwidthGBs', `${r.bytes} B`))).toBeLessThan(1e-3);
      if (i > 0) expect(r.bandwidthMBs as number, `${r.bytes} B`).toBeGreaterThan(rows[i - 1]!.bandwidthMBs as number);
    });
  });
});

describe('benchmark apps: every algorithm gives checked results', () => {
  it.each(Object.keys(ALGORITHMS.allreduce))('allreduce algorithm=%s, double sum on 6 ranks (not a power of two)', async (algorithm) => {
    const { rows } = await run('allreduce', { algorithm, maxBytes: '256', iterations: '2' }, { nodes: 6 });
    expect(rows.map((r) => r.algorithm)).toEqual(sizeSweep(8, 256).map(() => algorithm));
  });

  it('allreduce algorithm=collectiveEngine on xc30; auto picks the engine for one item with mpi.collectiveEngine=yes, software without', async () => {
    // (the switch also puts the app's barriers on the engine: the same in both runs)
    const on = { machine: 'xc30', nodes: 4, ppn: 2, set: { 'mpi.collectiveEngine': 'yes' } };
    const ce = await run('allreduce', { algorithm: 'collectiveEngine', minBytes: '8', maxBytes: '8', op: 'min', iterations: '2' }, on);
    const auto = await run('allreduce', { minBytes: '8', maxBytes: '16', op: 'min', iterations: '2' }, on);
    const off = await run('allreduce', { minBytes: '8', maxBytes: '16', op: 'min', iterations: '2' }, { machine: 'xc30', nodes: 4, ppn: 2 });
    expect(ce.rows[0]!.algorithm).toBe('collectiveEngine');
    // two items are software: the node-aware (SMP) form, as 2 ranks share each node
    expect(auto.rows.map((r) => r.algorithm)).toEqual(['collectiveEngine', 'smp+recursiveDoubling']);
    expect(auto.rows[0]!.latencyUs).toBe(ce.rows[0]!.latencyUs);
    expect(off.rows.map((r) => r.algorithm)).toEqual(['smp+recursiveDoubling', 'smp+recursiveDoubling']);
    expect(off.rows[0]!.latencyUs).toBeGreaterThan(ce.rows[0]!.latencyUs as number);
  });

  it.each(Object.keys(ALGORITHMS.alltoall))('alltoall algorithm=%s on 6 ranks', async (algorithm) => {
    const { rows } = await run('alltoall', { algorithm, maxBytes: '64', iterations: '2' }, { nodes: 6 });
    expect(rows.map((r) => r.algorithm)).toEqual(sizeSweep(8, 64).map(() => algorithm));
  });

  it('allreduce ranks=3 of 6 runs on a communicator of the first 3 ranks', async () => {
    const { rows } = await run('allreduce', { ranks: '3', maxBytes: '64', op: 'sum', iterations: '2' }, { nodes: 6 });
    for (const r of rows) expect(r.ranks).toBe(3);
  });
});

describe('benchmark apps: bad parameters fail with a RangeError naming the parameter', () => {
  it.each([
    ['randomring', { ring: 'star' }, /parameter ring=star .*valid: random, natural, both/],
    ['randomring', { patterns: '0' }, /parameter patterns=0 .*at least 1/],
    ['randomring', { variant: 'blocking' }, /parameter variant=blocking .*valid: both, nonblocking, sendrecv/],
    ['allreduce', { algorithm: 'tree' }, /parameter algorithm=tree .*valid: auto, recursiveDoubling/],
    ['allreduce', { op: 'prod' }, /parameter op=prod/],
    ['allreduce', { type: 'int8' }, /parameter type=int8/],
    ['alltoall', { algorithm: 'spiral' }, /parameter algorithm=spiral .*valid: auto, /],
    ['osu-bw', { window: '0' }, /parameter window=0 .*at least 1/],
    ['osu-bibw', { maxBytes: 'lots' }, /parameter maxBytes=lots/],
    ['alltoall', { minBytes: '1KiB', maxBytes: '8' }, /parameter minBytes=1024 .*maxBytes=8/],
    ['osu-latency', { minBytes: '64', maxBytes: '8' }, /parameter minBytes=64 .*maxBytes=8/],
  ] as const)('%s %o', async (name, raw, message) => {
    await expectRangeError(Promise.resolve().then(() => run(name, raw)), message);
  });

  it.each([
    ['osu-latency', { peer: '5' }, /parameter peer=5 of app osu-latency: not a rank/],
    ['osu-bw', { peer: '2' }, /parameter peer=2 of app osu-bw: not a rank/],
    ['allreduce', { ranks: '9' }, /parameter ranks=9 of app allreduce/],
  ] as const)('%s %o on 2 ranks', async (name, raw, message) => {
    await expectRangeError(run(name, { ...raw, maxBytes: '8' }), message);
  });
});

describe('benchmark apps against each other and the seeds', () => {
  it("randomring: HPCC's two loops, two MPI_Sendrecv shifts and the nonblocking exchange, each checked; with both the faster counts per rank", async () => {
    const bw = async (variant: string): Promise<number> => {
      const { rows } = await run('randomring', { measure: 'bandwidth', bytes: '16KiB', patterns: '1', variant }, { machine: 'xe6', nodes: 8, ppn: 2 });
      return rows[0]!.bandwidthMBs as number;
    };
    const [sendrecv, nonblocking, both] = [await bw('sendrecv'), await bw('nonblocking'), await bw('both')];
    // two sequential shifts and one four-way exchange move the same bytes at different speeds
    expect(Math.abs(sendrecv - nonblocking)).toBeGreaterThan(0.01 * nonblocking);
    // per rank the least time of the two, then the slowest rank: about the better of the two
    // alone; the loops run after one another, so a rank's rendezvous pulls can wait for its
    // next MPI call in one and not the other (3 % lower here), never much more
    expect(both).toBeGreaterThanOrEqual(0.95 * Math.max(sendrecv, nonblocking));
  });

  it('osu-latency at 8 B on xc30 is pingpong\'s latencyUs at 8 B (both half a round trip)', async () => {
    const osu = await run('osu-latency', { minBytes: '8', maxBytes: '8' }, { machine: 'xc30' });
    const pp = await run('pingpong', { minBytes: '8', maxBytes: '8' }, { machine: 'xc30' });
    expect(positive(osu.rows[0]!, 'latencyUs', 'osu-latency')).toBe(pp.rows[0]!.latencyUs);
  });

  it('A25: osu-bw at 1 MiB on xc30 is within 15 % of the 9.7 GB/s OSU streaming figure', async () => {
    // a window of 4 (OSU: 64) keeps the run short; the NIC is saturated either way
    const { rows } = await run('osu-bw', { minBytes: '1MiB', maxBytes: '1MiB', window: '4', iterations: '1', warmup: '1' }, { machine: 'xc30' });
    expect(rel(positive(rows[0]!, 'bandwidthGBs', '1 MiB'), 9.7)).toBeLessThan(0.15);
  });

  it('osu-bibw at 256 KiB on xc30: more than osu-bw, and at most twice it', async () => {
    // Two directions at once can at best double one direction's bandwidth; A23 measured over
    // 15 GB/s against 10 (1.5 x). The model's NIC gives about 1.1 x here (it shares its
    // bandwidth between the directions more than the seed says), so the lower bound is only
    // "more than one direction": a bibw that counted one direction would fall near 0.5 x.
    const raw = { minBytes: '256KiB', maxBytes: '256KiB', window: '8', iterations: '1', warmup: '1' };
    const uni = positive((await run('osu-bw', raw, { machine: 'xc30' })).rows[0]!, 'bandwidthGBs', 'osu-bw');
    const bi = positive((await run('osu-bibw', raw, { machine: 'xc30' })).rows[0]!, 'bandwidthGBs', 'osu-bibw');
    expect(bi / uni).toBeGreaterThan(1.02);
    expect(bi / uni).toBeLessThanOrEqual(2);
  });

  it('randomring on sc5832 (27 nodes x 6): random ring below the natural one and below a processor\'s share of its node\'s links (K14, K16)', async () => {
    const { rows } = await run('randomring', { ring: 'both', measure: 'bandwidth', bytes: '32KiB', patterns: '1' }, { machine: 'sc5832', nodes: 27, ppn: 6 });
    const natural = positive(rowWith(rows, 'ring', 'natural'), 'bandwidthMBs', 'natural ring');
    const random = positive(rowWith(rows, 'ring', 'random'), 'bandwidthMBs', 'random ring');
    expect(random).toBeLessThan(natural);
    // K14: 4 GB/s out of a node, about 670 MB/s per processor
    expect(random).toBeLessThan(670);
    // K16 measured about 50 MB/s on the whole machine; a quarter of the machine is less loaded
    expect(random).toBeGreaterThan(50 * 0.75);
  });

  it('K17 shape: a 256 KiB int32 MIN allreduce on sc5832 is slower on 12 processes than on 8 or 16, and 16 costs less than 1.5 x 8', async () => {
    const latency = async (k: number): Promise<number> => {
      const { rows } = await run('allreduce', { ranks: String(k), minBytes: '256KiB', maxBytes: '256KiB', type: 'int32', op: 'min', iterations: '2', warmup: '0' }, { machine: 'sc5832', nodes: 16 });
      return positive(rows[0]!, 'latencyUs', `${k} ranks`);
    };
    const [t8, t12, t16] = [await latency(8), await latency(12), await latency(16)];
    expect(t12).toBeGreaterThan(t8);
    expect(t12).toBeGreaterThan(t16);
    // K17: flat over powers of two (120-138 ms for 16 to 1024 processes); the model grows 20-30 % from 8 to 16
    expect(t16 / t8).toBeLessThan(1.5);
  });
});
