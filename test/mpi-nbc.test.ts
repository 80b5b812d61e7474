import { describe, expect, it } from 'vitest';
import { MpiError, type Request } from '../runtime/mpi/mpi.ts';
import type { RankContext } from '../runtime/rank.ts';
import { simulate } from '../runtime/simulate.ts';
import { mpiCalls } from '../runtime/calls.ts';
import { rejection } from './helpers.ts';

/** Rank r's deterministic contribution: element i of rank r. */
const val = (r: number, i: number): number => ((r * 131 + i * 17) % 97) + r / 4;

function contribution(r: number, n: number): Float64Array {
  const a = new Float64Array(n);
  for (let i = 0; i < n; i++) a[i] = val(r, i);
  return a;
}

/** Index of the first element where a and b differ, or -1. */
function mismatch(a: ArrayLike<number>, b: ArrayLike<number>): number {
  if (a.length !== b.length) return Math.min(a.length, b.length);
  for (let i = 0; i < a.length; i++) if (!Object.is(a[i], b[i])) return i;
  return -1;
}

/**
 * Each nonblocking collective with the data the test computes itself from every rank's
 * contribution; returns, per call, the index of the first wrong element (-1: all right).
 */
async function everyCall({ mpi }: RankContext): Promise<Record<string, number>> {
  const p = mpi.size;
  const me = mpi.rank;
  const n = 6;
  const out: Record<string, number> = {};
  const sum = (i: number, upTo = p - 1): number => {
    let s = 0;
    for (let r = 0; r <= upTo; r++) s += val(r, i);
    return s;
  };
  const root = p - 1;

  const b = me === root ? contribution(root, n) : new Float64Array(n);
  await mpi.wait(mpi.ibcast(b, root));
  out.ibcast = mismatch(b, contribution(root, n));

  const ar = new Float64Array(n);
  await mpi.wait(mpi.iallreduce(contribution(me, n), ar, mpi.SUM));
  out.iallreduce = mismatch(ar, Float64Array.from({ length: n }, (_, i) => sum(i)));

  const rd = new Float64Array(n);
  await mpi.wait(mpi.ireduce(contribution(me, n), me === 0 ? rd : null, mpi.SUM, 0));
  out.ireduce = me === 0 ? mismatch(rd, Float64Array.from({ length: n }, (_, i) => sum(i))) : -1;

  const ag = new Float64Array(n * p);
  await mpi.wait(mpi.iallgather(contribution(me, n), ag));
  const expectAll = new Float64Array(n * p);
  for (let r = 0; r < p; r++) expectAll.set(contribution(r, n), r * n);
  out.iallgather = mismatch(ag, expectAll);

  // rank r contributes r + 1 elements
  const counts = Array.from({ length: p }, (_, r) => r + 1);
  const displs = counts.map((_, r) => (r * (r + 1)) / 2);
  const agv = new Float64Array(displs[p - 1]! + counts[p - 1]!);
  await mpi.wait(mpi.iallgatherv(contribution(me, me + 1), agv, counts, displs));
  const expectV = new Float64Array(agv.length);
  for (let r = 0; r < p; r++) expectV.set(contribution(r, r + 1), displs[r]!);
  out.iallgatherv = mismatch(agv, expectV);

  // alltoall: block j of rank i is val(i, j)
  const a2aSend = Float64Array.from({ length: p * 2 }, (_, k) => val(me, (k >> 1) * 10 + (k & 1)));
  const a2aRecv = new Float64Array(p * 2);
  await mpi.wait(mpi.ialltoall(a2aSend, a2aRecv));
  out.ialltoall = mismatch(a2aRecv, Float64Array.from({ length: p * 2 }, (_, k) => val(k >> 1, me * 10 + (k & 1))));

  const ones = Array.from({ length: p }, () => 1);
  const idx = Array.from({ length: p }, (_, r) => r);
  const a2avRecv = new Float64Array(p);
  await mpi.wait(mpi.ialltoallv(Float64Array.from({ length: p }, (_, j) => val(me, j)), ones, idx, a2avRecv, ones, idx));
  out.ialltoallv = mismatch(a2avRecv, Float64Array.from({ length: p }, (_, i) => val(i, me)));

  const g = new Float64Array(n * p);
  await mpi.wait(mpi.igather(contribution(me, n), me === root ? g : null, root));
  out.igather = me === root ? mismatch(g, expectAll) : -1;

  const gv = new Float64Array(agv.length);
  await mpi.wait(mpi.igatherv(contribution(me, me + 1), me === 0 ? gv : null, me === 0 ? counts : null, me === 0 ? displs : null, 0));
  out.igatherv = me === 0 ? mismatch(gv, expectV) : -1;

  const sc = new Float64Array(n);
  await mpi.wait(mpi.iscatter(me === root ? expectAll : null, sc, root));
  out.iscatter = mismatch(sc, contribution(me, n));

  const scv = new Float64Array(me + 1);
  await mpi.wait(mpi.iscatterv(me === 0 ? expectV : null, me === 0 ? counts : null, me === 0 ? displs : null, scv, 0));
  out.iscatterv = mismatch(scv, contribution(me, me + 1));

  // reduce-scatter: rank r gets elements of block r (r + 1 of them) of the sum
  const total = displs[p - 1]! + counts[p - 1]!;
  const rs = new Float64Array(me + 1);
  await mpi.wait(mpi.ireduceScatter(contribution(me, total), rs, counts, mpi.SUM));
  out.ireduceScatter = mismatch(rs, Float64Array.from({ length: me + 1 }, (_, i) => sum(displs[me]! + i)));

  const rsb = new Float64Array(2);
  await mpi.wait(mpi.ireduceScatterBlock(contribution(me, 2 * p), rsb, mpi.SUM));
  out.ireduceScatterBlock = mismatch(rsb, [sum(2 * me), sum(2 * me + 1)]);

  const sn = new Float64Array(n);
  await mpi.wait(mpi.iscan(contribution(me, n), sn, mpi.SUM));
  out.iscan = mismatch(sn, Float64Array.from({ length: n }, (_, i) => sum(i, me)));

  const ex = new Float64Array(n).fill(-1);
  await mpi.wait(mpi.iexscan(contribution(me, n), ex, mpi.SUM));
  out.iexscan = me === 0 ? mismatch(ex, new Float64Array(n).fill(-1)) : mismatch(ex, Float64Array.from({ length: n }, (_, i) => sum(i, me - 1)));

  await mpi.wait(mpi.ibarrier());
  out.ibarrier = -1;
  return out;
}

describe('nonblocking collectives give the blocking ones\' data', () => {
  it.each([
    { nodes: 5, ppn: 1 },
    { nodes: 4, ppn: 2 },
    { nodes: 1, ppn: 3 },
  ])('every call is right on $nodes nodes x $ppn ranks (xe6)', async ({ nodes, ppn }) => {
    const r = await simulate({ machine: 'xe6', nodes, ppn, program: everyCall });
    for (const [rank, res] of r.rankResults.entries()) {
      for (const [call, bad] of Object.entries(res as Record<string, number>)) expect(`${call} on rank ${rank}: ${bad}`).toBe(`${call} on rank ${rank}: -1`);
    }
    expect(Object.keys(r.rankResults[0] as object)).toHaveLength(16);
  });

  it('several nonblocking collectives in flight on one communicator, and a blocking one among them, keep their data apart', async () => {
    const r = await simulate({
      machine: 'xc30',
      nodes: 6,
      program: async ({ mpi }) => {
        const p = mpi.size;
        const a = new Float64Array(64);
        const b = new Float64Array(64);
        const c = new Int32Array(p);
        const reqs: Request[] = [mpi.iallreduce(contribution(mpi.rank, 64), a, mpi.SUM), mpi.iallreduce(contribution(mpi.rank + 100, 64), b, mpi.MAX)];
        // a blocking collective while the two are in flight
        const bl = new Float64Array(64);
        await mpi.allreduce(contribution(mpi.rank + 7, 64), bl, mpi.MIN);
        reqs.push(mpi.iallgather(Int32Array.of(mpi.rank * 3), c));
        await mpi.waitAll(reqs);
        const want = (salt: number, f: (x: number, y: number) => number, start: number) => Float64Array.from({ length: 64 }, (_, i) => Array.from({ length: p }, (_, q) => val(q + salt, i)).reduce(f, start));
        return [mismatch(a, want(0, (x, y) => x + y, 0)), mismatch(b, want(100, (x, y) => Math.max(x, y), -Infinity)), mismatch(bl, want(7, (x, y) => Math.min(x, y), Infinity)), mismatch(c, Int32Array.from({ length: p }, (_, q) => q * 3))];
      },
    });
    for (const res of r.rankResults) expect(res).toEqual([-1, -1, -1, -1]);
  });
});

/**
 * Rank program of the overlap study: an iallreduce of 256 KiB (a multi-step schedule), then
 * `computeUs` of work in `slices` pieces with a test of the request between them (0 slices: no
 * MPI call until the wait), then the wait. Returns when the work ended and when the wait did.
 */
function overlap(computeUs: number, slices: number) {
  return async ({ mpi, compute, now }: RankContext) => {
    const n = 32768;
    const out = new Float64Array(n);
    const t0 = now();
    const req = mpi.iallreduce(contribution(mpi.rank, n), out, mpi.SUM);
    if (slices === 0) await compute({ us: computeUs });
    for (let i = 0; i < slices; i++) {
      await compute({ us: computeUs / slices });
      await mpi.test(req);
    }
    const worked = now() - t0;
    await mpi.wait(req);
    let s0 = 0;
    for (let r = 0; r < mpi.size; r++) s0 += val(r, 0);
    return { worked, total: now() - t0, right: out[0] === s0 };
  };
}

describe('overlap of a nonblocking collective with computation', () => {
  const nodes = 8;
  /** The slowest rank's whole time, and the longest any rank waited once its work (and polls) were done (us). */
  const study = async (computeUs: number, slices: number, asyncProgress: 'yes' | 'no') => {
    const r = await simulate({ machine: 'xe6', nodes, set: { 'mpi.asyncProgress': asyncProgress }, program: overlap(computeUs, slices) });
    const all = r.rankResults as { worked: number; total: number; right: boolean }[];
    expect(all.every((x) => x.right)).toBe(true);
    return { total: Math.max(...all.map((x) => x.total)), tail: Math.max(...all.map((x) => x.total - x.worked)) };
  };

  it('progresses only inside MPI calls unless a progress thread runs: no calls gives compute + collective, tests between slices hide most of it, mpi.asyncProgress=yes hides it', async () => {
    const alone = (await study(0, 0, 'no')).total;
    const C = 4 * alone;
    const noCalls = await study(C, 0, 'no');
    const polled = await study(C, 40, 'no');
    const thread = await study(C, 0, 'yes');
    // without MPI calls, the schedule stalls after its first step: most of it runs in the wait
    expect(noCalls.tail).toBeGreaterThan(0.6 * alone);
    expect(noCalls.total).toBeGreaterThan(C + 0.6 * alone);
    // tests between slices move it on: little is left when the work ends
    expect(polled.tail).toBeLessThan(0.15 * alone);
    // a progress thread moves it on by itself
    expect(thread.tail).toBeLessThan(0.05 * alone);
    expect(thread.total).toBeLessThan(noCalls.total - 0.5 * alone);
  });
});

describe('a wait that begins once the schedule\'s messages have arrived', () => {
  // the last message lands while the rank computes, outside MPI: the step that takes it runs at the
  // wait's first poll, completes the request there, and the wait must end instead of blocking for good
  it.each(['wait', 'waitAll', 'waitAny', 'test then wait'])('an 8-byte iallreduce on 2 ranks, 10 us of work, then %s: ends, with the sum', async (how) => {
    const r = await simulate({
      machine: 'xe6',
      nodes: 2,
      program: async ({ mpi, compute, now }) => {
        const out = new Float64Array(1);
        const req = mpi.iallreduce(Float64Array.of(mpi.rank + 1), out, mpi.SUM);
        if (how === 'test then wait') await req.test();
        await compute({ us: 10 });
        const t = now();
        if (how === 'waitAll') await mpi.waitAll([req]);
        else if (how === 'waitAny') await mpi.waitAny([req]);
        else await req.wait();
        return { sum: out[0], waitedUs: now() - t };
      },
    });
    for (const x of r.rankResults as { sum: number; waitedUs: number }[]) {
      expect(x.sum).toBe(3);
      // the rest of the schedule (combining, the call's bookkeeping), not a wait for the network
      expect(x.waitedUs).toBeLessThan(1);
    }
  });
});

describe('nonblocking collectives: errors', () => {
  it('a bad root fails at the call with MPI_ERR_ROOT naming ibcast', async () => {
    const err = await rejection(
      simulate({
        machine: 'xe6',
        nodes: 2,
        program: async ({ mpi }) => {
          mpi.ibcast(new Float64Array(2), 5);
        },
      }),
    );
    expect(String(err)).toMatch(/MPI_ERR_ROOT: ibcast: root=5/);
  });

  it('a nonblocking call matched against a blocking one on another rank is named as a mismatch', async () => {
    const err = await rejection(
      simulate({
        machine: 'xe6',
        nodes: 2,
        program: async ({ mpi }) => {
          if (mpi.rank === 0) await mpi.wait(mpi.ibarrier());
          else await mpi.barrier();
        },
      }),
    );
    expect(String(err)).toMatch(/ibarrier/);
    expect(String(err)).toMatch(/barrier/);
  });

  it('mismatched element counts of iallreduce are named', async () => {
    const err = await rejection(
      simulate({
        machine: 'xe6',
        nodes: 3,
        program: async ({ mpi }) => {
          const n = mpi.rank === 1 ? 3 : 4;
          await mpi.wait(mpi.iallreduce(new Float64Array(n), new Float64Array(n), mpi.SUM));
        },
      }),
    );
    expect(err).toBeDefined();
    expect(String(err)).toMatch(/iallreduce/);
    expect(err instanceof MpiError || /MPI_ERR_/.test(String(err))).toBe(true);
  });
});

describe('nonblocking collectives in traces', () => {
  it('are recorded under their MPI names', () => {
    const calls = mpiCalls(4);
    expect(calls.iallreduce!.name).toBe('MPI_Iallreduce');
    expect(calls.ireduceScatterBlock!.name).toBe('MPI_Ireduce_scatter_block');
    expect(calls.ibarrier!.name).toBe('MPI_Ibarrier');
    expect(calls.ibcast!.args!([new Float64Array(2), 3])).toEqual({ bytes: 16, root: 3 });
  });
});
