import { describe, expect, it } from 'vitest';
import { allreduceSegmentedRingWith } from '../runtime/mpi/coll/allreduce-segmented.ts';
import { LINEAR_SYNC_WINDOW, MPICH_ALLTOALL_THROTTLE, SCATTER_DEST_BLOCK } from '../runtime/mpi/coll/alltoall-windowed.ts';
import { ALGORITHMS, type Coll, type CollTransport } from '../runtime/mpi/coll/index.ts';
import { SUM } from '../runtime/mpi/ops.ts';
import type { Request } from '../runtime/mpi/request.ts';
import type { RankContext } from '../runtime/rank.ts';
import { simulate } from '../runtime/simulate.ts';

/**
 * Message counts and timing of the library forms of Open MPI, MPICH 4 and MVAPICH2 (the data
 * test, mpi-coll-algorithms.test.ts, checks their results on 1 to 67 ranks): each rank counts
 * what it sends through a transport of its own, so the counts come from the schedule the
 * algorithm really runs, and are compared with what the published algorithm implies.
 */

interface Tally {
  sends: number;
  interNode: number;
  /** Most requests of this rank not yet complete when it posted one more. */
  mostInFlight: number;
}

/** A transport over MPI_COMM_WORLD on `ppn` ranks per node (rank r on node r / ppn) that counts sends. */
function countingTransport(ctx: RankContext, ppn: number, tally: Tally): CollTransport {
  const nodeOf = (r: number): number => Math.floor(r / ppn);
  const live: Request[] = [];
  const track = (req: Request): Request => {
    for (let i = live.length - 1; i >= 0; i--) if (live[i]!.done) live.splice(i, 1);
    tally.mostInFlight = Math.max(tally.mostInFlight, live.length);
    live.push(req);
    return req;
  };
  const me = ctx.mpi.rank;
  return {
    rank: me,
    size: ctx.mpi.size,
    nodes: Array.from({ length: ctx.mpi.size }, (_, r) => nodeOf(r)),
    isend: (buf, dest, tag) => {
      tally.sends++;
      if (nodeOf(dest) !== nodeOf(me)) tally.interNode++;
      return track(ctx.mpi.isend(buf, dest, tag));
    },
    irecv: (buf, source, tag) => track(ctx.mpi.irecv(buf, source, tag)),
    flopsPerPs: 0.5,
    copyBytesPerPs: 4,
  };
}

interface Run {
  /** Per rank. */
  readonly tallies: readonly Tally[];
  readonly us: number;
  readonly ok: boolean;
}

/** Runs one allreduce (Int32 SUM of `count` elements) with `fn` on nodes x ppn ranks of xe6; checks the sum. */
async function allreduce(fn: (t: CollTransport, s: Int32Array, r: Int32Array) => Coll, nodes: number, ppn: number, count: number): Promise<Run> {
  const p = nodes * ppn;
  const r = await simulate({
    machine: 'xe6',
    nodes,
    ppn,
    program: async (ctx) => {
      const tally: Tally = { sends: 0, interNode: 0, mostInFlight: 0 };
      const t = countingTransport(ctx, ppn, tally);
      const me = t.rank;
      const mine = Int32Array.from({ length: count }, (_, i) => (me + 1) * (i % 7) - i);
      const out = new Int32Array(count);
      const t0 = ctx.now();
      await ctx.mpi.collective(fn(t, mine, out), 'allreduce');
      const us = ctx.now() - t0;
      let ok = true;
      for (let i = 0; i < count; i++) if (out[i] !== ((p * (p + 1)) / 2) * (i % 7) - p * i) ok = false;
      return { tally, us, ok };
    },
  });
  return { tallies: r.rankResults.map((x) => x.tally), us: Math.max(...r.rankResults.map((x) => x.us)), ok: r.rankResults.every((x) => x.ok) };
}

/** Runs one alltoall of `block` Float64s per pair with `fn` on nodes x ppn ranks of xe6; checks every block. */
async function alltoall(fn: (t: CollTransport, s: Float64Array, r: Float64Array) => Coll, nodes: number, ppn: number, block: number): Promise<Run> {
  const p = nodes * ppn;
  const v = (s: number, d: number, i: number): number => s * 1000 + d + i / 8;
  const r = await simulate({
    machine: 'xe6',
    nodes,
    ppn,
    program: async (ctx) => {
      const tally: Tally = { sends: 0, interNode: 0, mostInFlight: 0 };
      const t = countingTransport(ctx, ppn, tally);
      const me = t.rank;
      const send = Float64Array.from({ length: p * block }, (_, k) => v(me, Math.floor(k / block), k % block));
      const out = new Float64Array(p * block);
      const t0 = ctx.now();
      await ctx.mpi.collective(fn(t, send, out), 'alltoall');
      const us = ctx.now() - t0;
      let ok = true;
      for (let k = 0; k < p * block; k++) if (out[k] !== v(Math.floor(k / block), me, k % block)) ok = false;
      return { tally, us, ok };
    },
  });
  return { tallies: r.rankResults.map((x) => x.tally), us: Math.max(...r.rankResults.map((x) => x.us)), ok: r.rankResults.every((x) => x.ok) };
}

const sum = (run: Run, key: keyof Tally): number => run.tallies.reduce((a, x) => a + x[key], 0);
const most = (run: Run, key: keyof Tally): number => Math.max(...run.tallies.map((x) => x[key]));
const A = ALGORITHMS;
const allreduceFn = (name: string) => (t: CollTransport, s: Int32Array, r: Int32Array) => A.allreduce[name]!.fn(t, s, r, SUM);
const alltoallFn = (name: string) => (t: CollTransport, s: Float64Array, r: Float64Array) => A.alltoall[name]!.fn(t, s, r);

describe('node-aware forms cross the network less', () => {
  it('hierarchical allreduce, 8 nodes x 4: only the recursive doubling of the 8 leaders crosses the network', async () => {
    const flat = await allreduce(allreduceFn('recursiveDoubling'), 8, 4, 64);
    const two = await allreduce(allreduceFn('hierarchical'), 8, 4, 64);
    expect(flat.ok && two.ok).toBe(true);
    // recursive doubling over 32 ranks: 5 exchanges each, the last 3 (distance 4, 8, 16) leave the node
    expect(sum(flat, 'interNode')).toBe(32 * 3);
    // the 8 leaders' recursive doubling: 3 exchanges each, all between nodes; nothing else leaves a node
    expect(sum(two, 'interNode')).toBe(8 * 3);
  });

  it('hierarchical alltoall, 4 nodes x 4: one message per ordered pair of nodes, and every block where it belongs', async () => {
    const flat = await alltoall(alltoallFn('pairwise'), 4, 4, 2);
    const two = await alltoall(alltoallFn('hierarchical'), 4, 4, 2);
    expect(flat.ok && two.ok).toBe(true);
    expect(sum(flat, 'interNode')).toBe(16 * 12);
    expect(sum(two, 'interNode')).toBe(4 * 3);
  });

  it('8 nodes x 4: hierarchical allreduce of 64 KiB beats recursive doubling (a quarter of the ranks on the network); hierarchical alltoall of 16 B blocks beats pairwise (7 aggregated messages per leader instead of 31 steps)', async () => {
    const flat = await allreduce(allreduceFn('recursiveDoubling'), 8, 4, 16384);
    const two = await allreduce(allreduceFn('hierarchical'), 8, 4, 16384);
    expect(flat.ok && two.ok).toBe(true);
    expect(two.us).toBeLessThan(flat.us);
    const pairwise = await alltoall(alltoallFn('pairwise'), 8, 4, 2);
    const nodeAware = await alltoall(alltoallFn('hierarchical'), 8, 4, 2);
    expect(pairwise.ok && nodeAware.ok).toBe(true);
    expect(nodeAware.us).toBeLessThan(pairwise.us);
  });
});

describe('radix-4 forms of MPICH 4 take fewer rounds with more messages each', () => {
  it('recursive multiplying on 16 ranks: 2 rounds of 3 messages per rank; k-nomial tree: 15 up and 15 down', async () => {
    const rm = await allreduce(allreduceFn('recursiveMultiplying'), 16, 1, 16);
    expect(rm.ok).toBe(true);
    expect(rm.tallies.every((x) => x.sends === 6)).toBe(true);
    const tree = await allreduce(allreduceFn('knomialTree'), 16, 1, 16);
    expect(tree.ok).toBe(true);
    expect(sum(tree, 'sends')).toBe(2 * 15);
    // rank 0 of a radix-4 tree over 16 ranks has children 1, 2, 3, 4, 8, 12
    expect(tree.tallies[0]!.sends).toBe(6);
  });

  it('recursive multiplying folds 21 ranks onto 16: the 5 extra ranks send once and hear back once', async () => {
    const rm = await allreduce(allreduceFn('recursiveMultiplying'), 21, 1, 8);
    expect(rm.ok).toBe(true);
    expect(rm.tallies.filter((x) => x.sends === 1)).toHaveLength(5);
  });
});

describe('segmented ring allreduce (Open MPI)', () => {
  it('with one segment per block it runs the ring exactly; smaller segments add a reduce-scatter pass per segment', async () => {
    const count = 16384; // 64 KiB of Int32, 8 KiB per block on 8 ranks
    const ring = await allreduce(allreduceFn('ring'), 8, 1, count);
    const seg = await allreduce(allreduceFn('segmentedRing'), 8, 1, count);
    const small2K = allreduceSegmentedRingWith(2048);
    const small = await allreduce((t, s, r) => small2K(t, s, r, SUM), 8, 1, count);
    expect(ring.ok && seg.ok && small.ok).toBe(true);
    expect(seg.us).toBe(ring.us);
    // 8 KiB blocks in 2 KiB segments: 4 reduce-scatter passes of 7 steps, then 7 allgather steps
    expect(small.tallies.every((x) => x.sends === 4 * 7 + 7)).toBe(true);
    expect(small.us).toBeGreaterThan(ring.us);
  });

  it('rejects a segment size that is not a positive integer', () => {
    expect(() => allreduceSegmentedRingWith(0)).toThrow(/segmentBytes must be a positive integer, got 0/);
  });
});

describe('windowed alltoalls keep their bound on requests in flight', () => {
  it(`linearSync never has more than ${LINEAR_SYNC_WINDOW} receives and ${LINEAR_SYNC_WINDOW} sends outstanding; linear posts beyond that`, async () => {
    const sync = await alltoall(alltoallFn('linearSync'), 24, 1, 4);
    const linear = await alltoall(alltoallFn('linear'), 24, 1, 4);
    expect(sync.ok && linear.ok).toBe(true);
    expect(most(sync, 'mostInFlight')).toBeLessThan(2 * LINEAR_SYNC_WINDOW);
    expect(most(linear, 'mostInFlight')).toBeGreaterThanOrEqual(2 * LINEAR_SYNC_WINDOW);
  });

  it(`scatterDest posts blocks of ${SCATTER_DEST_BLOCK} partners`, async () => {
    const sd = await alltoall(alltoallFn('scatterDest'), 24, 1, 4);
    expect(sd.ok).toBe(true);
    expect(most(sd, 'mostInFlight')).toBeLessThan(2 * SCATTER_DEST_BLOCK);
    expect(sd.tallies.every((x) => x.sends === 23)).toBe(true);
  });

  it(`MPICH's scattered form posts blocks of ${MPICH_ALLTOALL_THROTTLE} partners (MPIR_CVAR_ALLTOALL_THROTTLE); on fewer ranks it is the linear form`, async () => {
    const blocked = await alltoall(alltoallFn('scattered'), 72, 1, 4);
    const linear = await alltoall(alltoallFn('linear'), 72, 1, 4);
    expect(blocked.ok && linear.ok).toBe(true);
    // blocks of i = 0 .. 31 (the rank itself a copy), 32 .. 63 and 64 .. 71: at most 32 receives and 32 sends
    expect(most(blocked, 'mostInFlight')).toBeLessThan(2 * MPICH_ALLTOALL_THROTTLE);
    expect(most(linear, 'mostInFlight')).toBeGreaterThanOrEqual(2 * MPICH_ALLTOALL_THROTTLE);
    expect(blocked.tallies.every((x) => x.sends === 71)).toBe(true);
    const small = await alltoall(alltoallFn('scattered'), 24, 1, 4);
    const smallLinear = await alltoall(alltoallFn('linear'), 24, 1, 4);
    expect(small.us).toBe(smallLinear.us);
  });
});

describe('allgather forms', () => {
  it('neighborExchange on 16 ranks sends p/2 messages per rank; kBruck on 16 ranks 2 phases of 3', async () => {
    const counts = await simulate({
      machine: 'xe6',
      nodes: 16,
      program: async (ctx) => {
        const out: Record<string, number> = {};
        for (const name of ['neighborExchange', 'kBruck', 'bruck']) {
          const tally: Tally = { sends: 0, interNode: 0, mostInFlight: 0 };
          const t = countingTransport(ctx, 1, tally);
          const got = new Float64Array(3 * t.size);
          await ctx.mpi.collective(A.allgather[name]!.fn(t, Float64Array.of(t.rank, -t.rank, 0.5), got), name);
          for (let r = 0; r < t.size; r++) if (got[3 * r] !== r || got[3 * r + 1] !== -r || got[3 * r + 2] !== 0.5) out.bad = 1;
          out[name] = tally.sends;
        }
        return out;
      },
    });
    for (const x of counts.rankResults) expect(x).toEqual({ neighborExchange: 8, kBruck: 6, bruck: 4 });
  });
});
