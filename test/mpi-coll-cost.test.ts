import { describe, expect, it } from 'vitest';
import { machineSpec, resolveMachine } from '../fabric/machine.ts';
import { ALGORITHMS, type Collective } from '../runtime/mpi/coll/index.ts';
import type { RankContext } from '../runtime/rank.ts';
import { simulate } from '../runtime/simulate.ts';

/**
 * Every collective algorithm's simulated time on a quiet xe6 against the alpha-beta-gamma cost
 * of its schedule (Hockney's model as Thakur, Rabenseifner and Gropp use it, "Optimization of
 * Collective Communication Operations in MPICH", IJHPCA 2005, section 2), with alpha and beta
 * measured by ping-pong on the same machine and run settings, gamma and delta (per-byte
 * reduction and local copy) from the processor model the algorithms charge.
 */

const MACHINE = 'xe6';
const NODES = 16;
const P = NODES;
const LG = Math.log2(P);
/** Calls timed per case; the figure is their mean. */
const CALLS = 3;
const SMALL = 8;
const LARGE = 256 * 1024;
const PINGPONG_SIZES = [8, 1024, 8192, 64 * 1024, 1024 * 1024] as const;

const config = resolveMachine(machineSpec(MACHINE), NODES);
const EAGER = config.mpi.eagerMaxBytes;
/** Per-byte cost of combining Float64 items (ps): what `combine` charges. */
const GAMMA = 1 / (config.cpu.flopsPerPs * Float64Array.BYTES_PER_ELEMENT);
/** Per-byte cost of a local copy (ps): what `copy` and `chargeCopy` charge. */
const DELTA = 1 / config.mpi.copyBytesPerPs;

/** Point-to-point figures: one-way time t(m) = alpha + m beta, eager and rendezvous fitted apart. */
interface P2p {
  readonly alphaEager: number;
  readonly betaEager: number;
  readonly alphaRndv: number;
  readonly beta: number;
  /** Measured one-way times (ps) by size, mean over partners. */
  readonly oneWay: ReadonlyMap<number, number>;
}

/** Half the round trip of a ping-pong from rank 0 to every other rank in turn, mean over partners (ps). */
async function measureP2p(): Promise<P2p> {
  const res = await simulate({
    machine: MACHINE,
    nodes: NODES,
    skeleton: true,
    program: async (ctx: RankContext) => {
      const out: number[] = [];
      for (const m of PINGPONG_SIZES) {
        const buf = ctx.alloc(Uint8Array, m);
        let sum = 0;
        for (let peer = 1; peer < ctx.size; peer++) {
          await ctx.mpi.barrier();
          for (let k = 0; k < CALLS; k++) {
            const t0 = ctx.now();
            if (ctx.rank === 0) {
              await ctx.mpi.send(buf, peer, 1);
              await ctx.mpi.recv(buf, peer, 1);
            } else if (ctx.rank === peer) {
              await ctx.mpi.recv(buf, 0, 1);
              await ctx.mpi.send(buf, 0, 1);
            }
            sum += ((ctx.now() - t0) * 1e6) / 2;
          }
        }
        out.push(sum / ((ctx.size - 1) * CALLS));
      }
      return out;
    },
  });
  const oneWay = new Map<number, number>(PINGPONG_SIZES.map((m, i) => [m, res.result[i]!]));
  const t = (m: number): number => oneWay.get(m)!;
  const betaEager = (t(8192) - t(8)) / (8192 - 8);
  const beta = (t(1024 * 1024) - t(64 * 1024)) / (1024 * 1024 - 64 * 1024);
  return { alphaEager: t(8) - 8 * betaEager, betaEager, alphaRndv: t(64 * 1024) - 64 * 1024 * beta, beta, oneWay };
}

/** Model terms: the time of one message of m bytes, of combining and of copying m bytes (ps). */
interface Terms {
  msg(m: number): number;
  red(m: number): number;
  cpy(m: number): number;
}

function terms(pp: P2p): Terms {
  return {
    msg: (m) => (m <= EAGER ? pp.alphaEager + m * pp.betaEager : pp.alphaRndv + m * pp.beta),
    red: (m) => m * GAMMA,
    cpy: (m) => m * DELTA,
  };
}

/** Sum of f(k) for k = 0 .. k1 - 1. */
function sum(k1: number, f: (k: number) => number): number {
  let s = 0;
  for (let k = 0; k < k1; k++) s += f(k);
  return s;
}

/**
 * Cost of each algorithm's schedule for P ranks and n bytes (n as `sizes` defines it), rank 0 as
 * root, p a power of two (no folding). Message rounds are summed as in Thakur et al. section 4;
 * the copies and combines are those the schedule charges (util.ts `copy`, `combine`).
 */
type Model = (T: Terms, n: number) => number;
const binomialReduce: Model = (T, n) => T.cpy(n) + LG * (T.msg(n) + T.red(n));
const binomialBcast: Model = (T, n) => LG * T.msg(n);
/** Recursive halving: rounds of n/2, n/4, ... n/p, each combined. */
const halving: Model = (T, n) => sum(LG, (k) => T.msg(n / 2 ** (k + 1)) + T.red(n / 2 ** (k + 1)));
/** Recursive doubling (or binomial gather/scatter) of blocks n/p, 2n/p, ... n/2. */
const doubling: Model = (T, n) => sum(LG, (k) => T.msg((n / P) * 2 ** k));
const ring: Model = (T, n) => (P - 1) * T.msg(n / P);
/** k sends of m bytes each posted together by one rank, serialized as the model does (OVERLAP bands). */
const fan = (T: Terms, k: number, m: number): number => k * T.msg(m);
/**
 * A segmented tree (Open MPI's generic bcast, segment s): the first segment crosses the tree's
 * levels, each level a fan of `fans[i]` sends; the other ceil(n/s) - 1 segments follow at the rate
 * of the widest fan. With `red`, every received segment is also combined (the reduce).
 */
const segTree = (T: Terms, n: number, s: number, fans: readonly number[], red = false): number => {
  const s1 = Math.min(n, s);
  const k = Math.ceil(n / s);
  const w = Math.max(...fans);
  const stage = (f: number, m: number): number => fan(T, f, m) + (red ? f * T.red(m) : 0);
  return (k - 1) * stage(w, s) + fans.reduce((acc, f) => acc + stage(f, s1), 0) + (red ? T.cpy(n) : 0);
};

const MODELS: Readonly<Record<string, Readonly<Record<string, Model>>>> = {
  barrier: {
    dissemination: (T) => LG * T.msg(0),
    recursiveDoubling: (T) => LG * T.msg(0),
    linear: (T) => 2 * (P - 1) * T.msg(0),
    doubleRing: (T) => 2 * P * T.msg(0),
    tree: (T) => 2 * LG * T.msg(0),
    // log4 16 = 2 rounds of three messages each way
    knomial: (T) => 2 * fan(T, 3, 0),
    // one rank per node: the leaders' dissemination alone
    hierarchical: (T) => LG * T.msg(0),
  },
  bcast: {
    binomial: binomialBcast,
    scatterRecursiveDoubling: (T, n) => doubling(T, n) + doubling(T, n),
    scatterRing: (T, n) => doubling(T, n) + ring(T, n),
    linear: (T, n) => (P - 1) * T.msg(n),
    // chains of 4, 4, 4, 3 ranks below the root
    chain: (T, n) => segTree(T, n, 16384, [4, 1, 1, 1]),
    pipeline: (T, n) => segTree(T, n, 16384, Array<number>(P - 1).fill(1)),
    // to rank 15: levels of the binary tree 0 -> 1 -> 3 -> 7 -> 15
    binaryTree: (T, n) => segTree(T, n, 16384, [2, 2, 2, 2]),
    // one element: the binary tree; else each half (n/2) down a subtree of depth 4, then the swap
    splitBinaryTree: (T, n) => (n <= 8 ? segTree(T, n, 1024, [2, 2, 2, 2]) : segTree(T, n / 2, 1024, [2, 2, 2, 2]) + T.msg(n / 2)),
    // root 0 sends to 1, 2, 3, 4, 8, 12; rank 12 to 13, 14, 15
    knomial: (T, n) => fan(T, 6, n) + fan(T, 3, n),
    // to rank 15 along 0 -> 8 -> 12 -> 14 -> 15, each rank sending to its children together
    segmentedBinomial: (T, n) => segTree(T, n, 16384, [4, 3, 2, 1]),
    // one rank per node: the leaders' binomial tree alone
    hierarchical: binomialBcast,
  },
  reduce: {
    binomial: binomialReduce,
    rabenseifner: (T, n) => 2 * T.cpy(n) + halving(T, n) + doubling(T, n),
    linear: (T, n) => T.cpy(n) + (P - 1) * (T.msg(n) + T.red(n)),
    chain: (T, n) => segTree(T, n, 65536, [4, 1, 1, 1], true),
    pipeline: (T, n) => segTree(T, n, 65536, Array<number>(P - 1).fill(1), true),
    binaryTree: (T, n) => segTree(T, n, 32768, [2, 2, 2, 2], true),
    // rank 0 is four levels below rank 15 (15 -> 7 -> 3 -> 1 -> 0); rank 15 sends the result to root 0
    inOrderBinary: (T, n) => segTree(T, n, n, [2, 2, 2, 2], true) + T.msg(n),
    knomial: (T, n) => segTree(T, n, n, [6, 3], true),
    // one rank per node: the leaders' binomial reduce alone
    hierarchical: binomialReduce,
  },
  allreduce: {
    recursiveDoubling: binomialReduce,
    rabenseifner: (T, n) => T.cpy(n) + halving(T, n) + doubling(T, n),
    ring: (T, n) => T.cpy(n) + (P - 1) * T.red(n / P) + 2 * ring(T, n),
    reduceBcast: (T, n) => binomialReduce(T, n) + binomialBcast(T, n),
    // blocks of n/p under the 1 MiB segment: one segment each, the ring's schedule
    segmentedRing: (T, n) => T.cpy(n) + (P - 1) * T.red(n / P) + 2 * ring(T, n),
    linear: (T, n) => T.cpy(n) + (P - 1) * (T.msg(n) + T.red(n)) + (P - 1) * T.msg(n),
    // one rank per node: the node phases only copy, the leaders are every rank
    hierarchical: (T, n) => T.cpy(n) + (n <= 2048 ? binomialReduce(T, n) : T.cpy(n) + halving(T, n) + doubling(T, n)),
    // radix 4 on 16 ranks: 2 rounds of 3 messages each way (serialized, as for the linear forms), 3 combines each
    recursiveMultiplying: (T, n) => T.cpy(n) + 2 * (3 * T.msg(n) + 3 * T.red(n)),
    // up: 5, 6, 7 -> 4 (and alike), then 4, 8, 12 -> 0 last; down: 0 -> its 6 children, 4 -> its 3
    knomialTree: (T, n) => T.cpy(n) + 2 * (3 * T.msg(n) + 3 * T.red(n)) + 9 * T.msg(n),
  },
  allgather: {
    recursiveDoubling: (T, n) => T.cpy(n / P) + doubling(T, n),
    bruck: (T, n) => T.cpy(n / P) + doubling(T, n) + T.cpy(n),
    ring: (T, n) => T.cpy(n / P) + ring(T, n),
    neighborExchange: (T, n) => T.cpy(n / P) + T.msg(n / P) + (P / 2 - 1) * T.msg((2 * n) / P),
    gatherBcast: (T, n) => T.cpy(n / P) + doubling(T, n) + binomialBcast(T, n),
    // radix 4 on 16 ranks: 3 messages of 1 block, then 3 of 4 blocks (serialized)
    kBruck: (T, n) => T.cpy(n / P) + 3 * T.msg(n / P) + 3 * T.msg((4 * n) / P) + T.cpy(n),
    // one rank per node: the leaders' recursive doubling
    hierarchical: (T, n) => T.cpy(n / P) + doubling(T, n),
  },
  alltoall: {
    // MPICH's rotation in (n), and its rotation out and per-block copy back (2n)
    bruck: (T, n) => 3 * T.cpy(n) + LG * (T.msg(n / 2) + T.cpy(n)),
    pairwise: (T, n) => T.cpy(n / P) + ring(T, n),
    linear: (T, n) => T.cpy(n / P) + ring(T, n),
    linearSync: (T, n) => T.cpy(n / P) + ring(T, n),
    scatterDest: (T, n) => T.cpy(n / P) + ring(T, n),
    // 16 ranks: one block (the linear form)
    scattered: (T, n) => T.cpy(n / P) + ring(T, n),
    pairwiseXor: (T, n) => T.cpy(n / P) + ring(T, n),
    ring: (T, n) => T.cpy(n / P) + ring(T, n),
    // one rank per node: the gather, pack, unpack and scatter are local copies of n
    hierarchical: (T, n) => 4 * T.cpy(n) + T.cpy(n / P) + ring(T, n),
  },
  reduceScatterBlock: {
    recursiveHalving: (T, n) => T.cpy(n) + halving(T, n) + T.cpy(n / P),
    pairwise: (T, n) => T.cpy(n / P) + ring(T, n) + (P - 1) * T.red(n / P),
    ring: (T, n) => T.cpy(n) + ring(T, n) + (P - 1) * T.red(n / P) + T.cpy(n / P),
    reduceScatterv: (T, n) => binomialReduce(T, n) + T.cpy(n / P) + ring(T, n),
    // distance doubling moves the same halves as recursive halving; then the swap with the mirror rank
    butterfly: (T, n) => T.cpy(n) + halving(T, n) + T.msg(n / P) + T.cpy(n / P),
    noncommutative: (T, n) => 2 * T.cpy(n) + halving(T, n) + T.cpy(n / P),
  },
  gather: {
    binomial: (T, n) => T.cpy(n / P) + doubling(T, n),
    linear: (T, n) => T.cpy(n / P) + ring(T, n),
    // a go-ahead and the first 1 KiB per rank in turn; the rests meanwhile
    linearSync: (T, n) => T.cpy(n / P) + (P - 1) * (T.msg(0) + T.msg(Math.min(n / P, 1024))) + (n / P > 1024 ? (P - 1) * T.msg(n / P - 1024) : 0),
    // one rank per node: every leader to the root at once, then the blocks into rank order
    hierarchical: (T, n) => T.cpy(n / P) + ring(T, n) + T.cpy(n),
  },
  scatter: {
    binomial: (T, n) => doubling(T, n) + T.cpy(n / P),
    linear: (T, n) => T.cpy(n / P) + ring(T, n),
    // one rank per node: the root packs the blocks node by node, then the leaders' binomial scatter
    hierarchical: (T, n) => T.cpy(n) + doubling(T, n) + T.cpy(n / P),
  },
  scan: {
    recursiveDoubling: (T, n) => 2 * T.cpy(n) + LG * (T.msg(n) + 2 * T.red(n)),
    linear: (T, n) => T.cpy(n) + (P - 1) * (T.msg(n) + T.red(n)),
  },
};

/** Element counts (Float64) of the buffers a call of `coll` takes for n bytes. */
function elements(n: number): number {
  return n / Float64Array.BYTES_PER_ELEMENT;
}

/** n bytes per collective: the buffer (bcast, reduce, allreduce, scan) or the whole per-rank data (p blocks). */
function sizeOf(coll: string, small: boolean): number {
  const blocked = coll === 'allgather' || coll === 'alltoall' || coll === 'reduceScatterBlock' || coll === 'gather' || coll === 'scatter';
  if (coll === 'barrier') return 0;
  if (small) return blocked ? SMALL * P : SMALL;
  return LARGE;
}

/** One timed call of `coll` with `algorithm` on n bytes. */
async function call(ctx: RankContext, coll: string, algorithm: string, n: number): Promise<void> {
  const mpi = ctx.mpi;
  const o = { algorithm };
  const e = elements(n);
  const a = ctx.alloc(Float64Array, e);
  const b = ctx.alloc(Float64Array, e);
  switch (coll) {
    case 'barrier':
      return mpi.barrier(o);
    case 'bcast':
      return mpi.bcast(a, 0, o);
    case 'reduce':
      return mpi.reduce(a, b, mpi.SUM, 0, o);
    case 'allreduce':
      return mpi.allreduce(a, b, mpi.SUM, o);
    case 'allgather':
      return mpi.allgather(ctx.alloc(Float64Array, e / P), b, o);
    case 'alltoall':
      return mpi.alltoall(a, b, o);
    case 'reduceScatterBlock':
      return mpi.reduceScatterBlock(a, ctx.alloc(Float64Array, e / P), mpi.SUM, o);
    case 'gather':
      return mpi.gather(ctx.alloc(Float64Array, e / P), b, 0, o);
    case 'scatter':
      return mpi.scatter(a, ctx.alloc(Float64Array, e / P), 0, o);
    case 'scan':
      return mpi.scan(a, b, mpi.SUM, o);
  }
  throw new Error(`no call for ${coll}`);
}

/** Simulated time (ps) of `coll` by `algorithm` on n bytes: the slowest rank's, mean of CALLS calls after a barrier. */
async function timeOf(coll: string, algorithm: string, n: number): Promise<number> {
  const res = await simulate({
    machine: MACHINE,
    nodes: NODES,
    skeleton: true,
    program: async (ctx: RankContext) => {
      const times: number[] = [];
      for (let k = 0; k < CALLS; k++) {
        await ctx.mpi.barrier();
        const t0 = ctx.now();
        await call(ctx, coll, algorithm, n);
        times.push((ctx.now() - t0) * 1e6);
      }
      return times;
    },
  });
  let total = 0;
  for (let k = 0; k < CALLS; k++) total += Math.max(...res.rankResults.map((ts) => ts[k]!));
  return total / CALLS;
}

/** Ratio band [lo, hi] of simulated / model time, and why, where the default does not hold. */
interface Band {
  readonly lo: number;
  readonly hi: number;
  readonly why: string;
}

/** Contention-free schedules, one message in flight per rank and round: the model is their exact cost up to protocol detail. */
const EXACT: Band = { lo: 0.8, hi: 1.25, why: 'contention-free rounds' };
/** All messages posted at once: the model adds up (p - 1) latencies, the simulator overlaps them and serializes only the per-message CPU overhead. */
const OVERLAP: Band = { lo: 0.3, hi: 1.25, why: 'latencies overlap (model serializes them)' };
/** Large exchanges where two ranks on one Gemini cross the same router links at once (the model has no links). */
const LINKS: Band = { lo: 0.8, hi: 1.5, why: 'two NICs per Gemini share router links' };

/**
 * Radix-4 forms: each rank has 3 messages in flight at once, each way. The model serializes
 * them; the simulator overlaps their latencies but they share the NIC and the torus links.
 */
const FANOUT: Band = { lo: 0.3, hi: 2, why: 'k - 1 messages at once share the NIC and links (model serializes them)' };

/** Bands by collective, algorithm and size ('S' small, 'L' large); absent: EXACT. */
const BANDS: Readonly<Record<string, Band>> = {
  'bcast linear S': OVERLAP,
  'bcast linear L': OVERLAP,
  'reduce linear S': OVERLAP,
  'reduce linear L': OVERLAP,
  'alltoall linear S': OVERLAP,
  'alltoall linear L': OVERLAP,
  'gather linear S': OVERLAP,
  'gather linear L': OVERLAP,
  'scatter linear S': OVERLAP,
  'scatter linear L': OVERLAP,
  'reduceScatterBlock reduceScatterv S': OVERLAP,
  'reduceScatterBlock reduceScatterv L': OVERLAP,
  ...Object.fromEntries(
    [
      'barrier linear S',
      'barrier knomial S',
      ...['chain', 'binaryTree', 'splitBinaryTree', 'knomial', 'segmentedBinomial'].flatMap((a) => [`bcast ${a} S`, `bcast ${a} L`]),
      ...['chain', 'binaryTree', 'inOrderBinary', 'knomial'].flatMap((a) => [`reduce ${a} S`, `reduce ${a} L`]),
      ...['linearSync', 'hierarchical'].flatMap((a) => [`gather ${a} S`, `gather ${a} L`]),
    ].map((k) => [k, OVERLAP]),
  ),
  'allgather recursiveDoubling L': LINKS,
  'allreduce recursiveDoubling L': LINKS,
  'scan recursiveDoubling L': LINKS,
  'allreduce linear S': OVERLAP,
  'allreduce linear L': OVERLAP,
  'alltoall linearSync S': OVERLAP,
  'alltoall linearSync L': OVERLAP,
  'alltoall scatterDest S': OVERLAP,
  'alltoall scatterDest L': OVERLAP,
  'alltoall scattered S': OVERLAP,
  'alltoall scattered L': OVERLAP,
  'allgather hierarchical L': LINKS,
  'allreduce recursiveMultiplying S': FANOUT,
  'allreduce recursiveMultiplying L': FANOUT,
  'allreduce knomialTree S': FANOUT,
  'allreduce knomialTree L': FANOUT,
  'allgather kBruck S': FANOUT,
  'allgather kBruck L': FANOUT,
};

interface Row {
  readonly key: string;
  readonly bytes: number;
  readonly simUs: number;
  readonly modelUs: number;
  readonly ratio: number;
  readonly band: Band;
}

const us = (ps: number): string => (ps / 1e6).toFixed(2);

describe('collective cost against the alpha-beta-gamma model (xe6, 16 nodes x 1 rank)', () => {
  it('every algorithm of every modelled collective is within its band of the model, and the table is printed', async () => {
    const pp = await measureP2p();
    // the fits describe the measurements they come from
    expect(pp.alphaEager).toBeGreaterThan(0);
    expect(pp.alphaRndv).toBeGreaterThan(pp.alphaEager);
    expect(pp.beta).toBeGreaterThan(0);
    const T = terms(pp);
    const rows: Row[] = [];
    for (const [coll, algs] of Object.entries(MODELS)) {
      // every registered algorithm of a modelled collective has a model
      expect(Object.keys(algs).sort()).toEqual(Object.keys(ALGORITHMS[coll as Collective]).sort());
      for (const [alg, model] of Object.entries(algs)) {
        for (const small of coll === 'barrier' ? [true] : [true, false]) {
          const n = sizeOf(coll, small);
          const sim = await timeOf(coll, alg, n);
          const mod = model(T, n);
          const key = `${coll} ${alg} ${small ? 'S' : 'L'}`;
          rows.push({ key, bytes: n, simUs: sim / 1e6, modelUs: mod / 1e6, ratio: sim / mod, band: BANDS[key] ?? EXACT });
        }
      }
    }
    const lines = [
      `alpha ${us(pp.alphaEager)} us eager, ${us(pp.alphaRndv)} us rendezvous; beta ${pp.betaEager.toFixed(1)} ps/B eager, ${pp.beta.toFixed(1)} ps/B rendezvous; gamma ${GAMMA.toFixed(1)} ps/B; delta ${DELTA.toFixed(1)} ps/B`,
      '| collective | algorithm | n (B) | simulated (us) | model (us) | ratio | band |',
      '|---|---|---:|---:|---:|---:|---|',
      ...rows.map((r) => {
        const [coll, alg] = r.key.split(' ');
        return `| ${coll} | ${alg} | ${r.bytes} | ${r.simUs.toFixed(2)} | ${r.modelUs.toFixed(2)} | ${r.ratio.toFixed(2)} | ${r.band.lo}-${r.band.hi}${r.band === EXACT ? '' : `: ${r.band.why}`} |`;
      }),
    ];
    console.log(lines.join('\n'));
    const outside = rows.filter((r) => !(r.ratio >= r.band.lo && r.ratio <= r.band.hi)).map((r) => `${r.key}: ${r.ratio.toFixed(2)} not in ${r.band.lo}-${r.band.hi}`);
    expect(outside).toEqual([]);
  });
});
