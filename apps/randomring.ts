import { Prng, shuffle } from '../fabric/engine/prng.ts';
import type { Request } from '../runtime/mpi/mpi.ts';
import type { RankContext } from '../runtime/rank.ts';
import { round, skeletonCheck, type App, type AppResult, type ParamValues, type Row } from './app.ts';

/** Message size of the latency measurement (HPCC's 8 bytes). */
const LATENCY_BYTES = 8;

/** Loop length of the latency measurement (HPCC's 5; the bandwidth loop is the `loops` parameter, HPCC's 2). */
const LATENCY_LOOPS = 5;

/** Tags of the messages to the right and to the left neighbour (HPCC's TO_RIGHT, TO_LEFT). */
const TO_RIGHT = 200;
const TO_LEFT = 201;

/**
 * HPCC Random Ring latency and bandwidth (the b_eff ring part of HPCC's bench_lat_bw): the ranks
 * form a ring, in rank order (natural ring) or in the order of a seeded random permutation, the
 * same on every rank (random rings, a new one per pattern). Each rank exchanges with both
 * neighbours at once: receives from the left and the right, sends to both, and waits for all
 * four (HPCC's nonblocking loop); HPCC also times a loop of two MPI_Sendrecv calls (all shift
 * right, then all shift left) and keeps the faster of the two, as `variant=both` (the default)
 * does here. Each loop is `loops` timed iterations after one untimed one, as HPCC's. A rank's latency for a pattern is its loop time over 2 · loops (two
 * messages per iteration); the pattern's latency is the largest over the ranks, and the least over
 * the `measurements` repetitions. The natural ring reports its pattern's figure, the random ring
 * the geometric mean over the `patterns` random rings, as HPCC does. Latency uses 8-byte
 * messages (loop length 5), bandwidth messages of `bytes` (default 2,000,000 as HPCC); bandwidth
 * per process is message size over the pattern's latency, i.e. the bytes each process sent over
 * the slowest process's time, in MB/s (1e6 bytes/s). HPCC runs 30 random rings for latency and
 * 10 for bandwidth, 8 and 3 measurements; the simulator is deterministic, so the defaults here are
 * 10 rings and one measurement. Every message carries its sender, direction and iteration in its
 * first and last bytes, checked on arrival (messages come from `ctx.alloc`: a skeleton run moves
 * their sizes only and neither marks nor checks them). Seed 002, K16: about 50 MB/s on the SC5832.
 */
export const randomring: App = {
  name: 'randomring',
  summary: 'HPCC Random Ring: latency (8 B) and per-process bandwidth (MB/s) exchanging with both neighbours of a random or natural ring',
  minRanks: 2,
  params: {
    ring: { type: 'choice', default: 'random', choices: ['random', 'natural', 'both'], help: 'random: geometric mean over random rings; natural: rank order; both: one row each' },
    measure: { type: 'choice', default: 'both', choices: ['both', 'latency', 'bandwidth'], help: 'what to time: 8-byte latency, bandwidth with `bytes`, or both' },
    bytes: { type: 'bytes', default: 2_000_000, min: 1, help: 'message size of the bandwidth measurement (HPCC: 2,000,000)' },
    patterns: { type: 'int', default: 10, min: 1, help: 'random rings (HPCC: 30 for latency, 10 for bandwidth)' },
    loops: { type: 'int', default: 2, min: 1, help: 'timed iterations of the bandwidth loop (HPCC: 2)' },
    measurements: { type: 'int', default: 1, min: 1, help: 'repetitions of every pattern; the least time counts (HPCC: 8 latency, 3 bandwidth)' },
    seed: { type: 'int', default: 1, min: 0, help: 'seed of the random rings' },
    variant: { type: 'choice', default: 'both', choices: ['both', 'nonblocking', 'sendrecv'], help: "loops timed per pattern: HPCC's two (the faster counts), or one of them" },
  },
  main: runRandomRing,
};

/** A ring: left and right neighbour of this rank. */
interface Neighbours {
  readonly left: number;
  readonly right: number;
}

/** The byte that marks a message: sender, direction (0 right, 1 left) and iteration. */
function mark(sender: number, dir: number, iter: number): number {
  return (sender * 3 + dir * 101 + iter * 7) & 255;
}

async function runRandomRing(ctx: RankContext, p: ParamValues): Promise<AppResult | undefined> {
  const { mpi } = ctx;
  const size = mpi.size;
  const me = mpi.rank;
  const ringKinds = p.ring === 'both' ? ['natural', 'random'] : [p.ring as string];
  const measure = p.measure as string;
  const patterns = p.patterns as number;
  const rng = new Prng(p.seed as number);
  const order = new Int32Array(size);
  /** The next ring: natural, or a new seeded permutation (the same on every rank). */
  const ring = (random: boolean): Neighbours => {
    for (let i = 0; i < size; i++) order[i] = i;
    if (random) shuffle(order, rng);
    const at = order.indexOf(me);
    return { left: order[(at - 1 + size) % size]!, right: order[(at + 1) % size]! };
  };
  const rings: Neighbours[] = [];
  for (const kind of ringKinds) {
    if (kind === 'natural') rings.push(ring(false));
    else for (let k = 0; k < patterns; k++) rings.push(ring(true));
  }
  const sizes: { bytes: number; loops: number; what: string }[] = [];
  if (measure !== 'bandwidth') sizes.push({ bytes: LATENCY_BYTES, loops: LATENCY_LOOPS, what: 'latency' });
  if (measure !== 'latency') sizes.push({ bytes: p.bytes as number, loops: p.loops as number, what: 'bandwidth' });
  const measurements = p.measurements as number;
  // HPCC times the Sendrecv loop first, then the nonblocking one, and keeps the faster per rank
  const loopsOf: boolean[] = p.variant === 'both' ? [true, false] : [p.variant === 'sendrecv'];
  // per measured size, per ring, per measurement: this rank's latency in us
  const lat = new Float64Array(sizes.length * rings.length * measurements);
  let at = 0;
  for (const { bytes, loops } of sizes) {
    const bufs = [0, 1, 2, 3].map(() => ctx.alloc(Uint8Array, bytes));
    const [toRight, toLeft, fromLeft, fromRight] = bufs as [Uint8Array, Uint8Array, Uint8Array, Uint8Array];
    for (const nb of rings) {
      for (let m = 0; m < measurements; m++) {
        let best = Infinity;
        for (const shift of loopsOf) {
          await mpi.barrier();
          let t0 = ctx.now();
          for (let it = -1; it < loops; it++) {
            if (it === 0) t0 = ctx.now();
            await exchange(ctx, nb, it + 1, toRight, toLeft, fromLeft, fromRight, shift);
          }
          best = Math.min(best, (ctx.now() - t0) / (2 * loops));
        }
        lat[at++] = best;
      }
    }
  }
  const worst = new Float64Array(lat.length);
  await mpi.allreduce(lat, worst, mpi.MAX);
  if (me !== 0) return undefined;
  const rows: Row[] = [];
  at = 0;
  const perSize = sizes.map(() => new Map<string, number[]>());
  for (let s = 0; s < sizes.length; s++) {
    for (let r = 0; r < rings.length; r++) {
      let best = Infinity;
      for (let m = 0; m < measurements; m++) best = Math.min(best, worst[at++]!);
      const kind = ringKinds.length === 2 ? (r === 0 ? 'natural' : 'random') : ringKinds[0]!;
      const list = perSize[s]!.get(kind) ?? [];
      list.push(best);
      perSize[s]!.set(kind, list);
    }
  }
  for (const kind of ringKinds) {
    const row: Record<string, number | string> = { ring: kind, ranks: size, patterns: kind === 'natural' ? 1 : patterns };
    sizes.forEach(({ bytes, what }, s) => {
      // geometric mean over the rings of this kind (one for the natural ring)
      const us = geometricMean(perSize[s]!.get(kind)!);
      if (what === 'latency') row.latencyUs = round(us);
      else {
        row.bytes = bytes;
        row.bandwidthMBs = round(bytes / us);
      }
    });
    rows.push(row);
  }
  return { rows, ...skeletonCheck(ctx) };
}

/** exp of the mean log: HPCC's average of the random rings' latencies. */
function geometricMean(xs: readonly number[]): number {
  return Math.exp(xs.reduce((a, x) => a + Math.log(x), 0) / xs.length);
}

/**
 * One iteration, then a check of what came: with `shift`, two MPI_Sendrecv calls (send right and
 * receive from the left, then send left and receive from the right); otherwise receive from both
 * neighbours, send to both and wait for all four.
 */
async function exchange(ctx: RankContext, nb: Neighbours, iter: number, toRight: Uint8Array, toLeft: Uint8Array, fromLeft: Uint8Array, fromRight: Uint8Array, shift: boolean): Promise<void> {
  const { mpi } = ctx;
  const me = mpi.rank;
  const last = toRight.length - 1;
  const real = !ctx.skeleton;
  if (real) {
    // the last byte first, so a 1-byte message carries the mark itself
    toRight[last] = mark(me, 0, iter) ^ 0x5a;
    toRight[0] = mark(me, 0, iter);
    toLeft[last] = mark(me, 1, iter) ^ 0x5a;
    toLeft[0] = mark(me, 1, iter);
    fromLeft[0] = fromLeft[last] = fromRight[0] = fromRight[last] = 0;
  }
  if (shift) {
    await mpi.sendrecv(toRight, nb.right, TO_RIGHT, fromLeft, nb.left, TO_RIGHT);
    await mpi.sendrecv(toLeft, nb.left, TO_LEFT, fromRight, nb.right, TO_LEFT);
  } else {
    const reqs: Request[] = [mpi.irecv(fromLeft, nb.left, TO_RIGHT), mpi.irecv(fromRight, nb.right, TO_LEFT), mpi.isend(toRight, nb.right, TO_RIGHT), mpi.isend(toLeft, nb.left, TO_LEFT)];
    await mpi.waitAll(reqs);
  }
  const check = (buf: Uint8Array, from: number, dir: number, side: string): void => {
    if (!real) return;
    const want = mark(from, dir, iter);
    if (buf[0] !== want || buf[last] !== (want ^ (last > 0 ? 0x5a : 0))) {
      throw new Error(`randomring: rank ${me} got a wrong message from its ${side} neighbour, rank ${from}, in iteration ${iter}: first/last bytes ${buf[0]}/${buf[last]}, expected ${want}/${want ^ (last > 0 ? 0x5a : 0)}`);
    }
  };
  check(fromLeft, nb.left, 0, 'left');
  check(fromRight, nb.right, 1, 'right');
}
