import { Prng } from '../fabric/engine/prng.ts';
import type { RankContext } from '../runtime/rank.ts';
import { round, SKELETON_CHECK, type App, type AppResult, type ParamValues } from './app.ts';

/** NPB IS problem classes (NPB 3 is.c / npbparams.h): total keys and the largest key, as powers of two. */
export const IS_CLASSES: Readonly<Record<string, { readonly keysLog2: number; readonly maxKeyLog2: number }>> = {
  S: { keysLog2: 16, maxKeyLog2: 11 },
  W: { keysLog2: 20, maxKeyLog2: 16 },
  A: { keysLog2: 23, maxKeyLog2: 19 },
  B: { keysLog2: 25, maxKeyLog2: 21 },
  C: { keysLog2: 27, maxKeyLog2: 23 },
};
/** Buckets of the key range (is.c: NUM_BUCKETS_LOG_2 = 10 in every class, for at most 1,024 ranks); more ranks get one bucket each. */
const BUCKETS_LOG2 = 10;
/**
 * Work per key and iteration. NPB counts one operation per key ranked (is.c reports
 * TOTAL_KEYS x MAX_ITERATIONS / time as Mop/s); the bytes are is.c's passes over a key: the
 * bucket count (a 4-byte read), the copy into bucket order (read, write and the bucket pointer's
 * read and write: 16), and the counting of the keys received (a read and a counter's read and
 * write: 12). Per key of the received range, the prefix sum reads and writes a counter (8).
 */
const PER_KEY = { flops: 1, bytes: 32 };
const PER_RANGE_KEY = { bytes: 8 };

/**
 * The NAS parallel benchmarks' integer sort (IS, NPB 3 MPI version) on the class's key count:
 * each rank holds its share of the keys (NPB's distribution, the mean of four uniform draws,
 * from the app's seeded generator), counts them into 1,024 buckets (one per rank beyond 1,024 ranks), and the bucket counts are
 * summed over the ranks by an allreduce; the buckets are dealt to ranks in order so that each
 * gets about its share of keys, an alltoall tells each rank how many keys it will get from every
 * other and an alltoallv moves the keys; each rank then ranks the keys of its range by counting.
 * After the iterations the full verification sorts each rank's keys, checks them sorted, passes
 * each rank's largest key to the next rank (isend and irecv) to check the order across ranks,
 * and checks that the keys moved add up to the total. A skeleton run draws no keys: its bucket
 * counts are the expected ones of NPB's distribution (the Irwin-Hall law of four uniforms).
 */
export const npbIs: App = {
  name: 'npb-is',
  summary: 'NAS IS: bucket counts allreduced, an alltoall of counts and an alltoallv of keys per iteration; Mop/s (keys ranked per us), keys checked sorted across ranks',
  merit: { key: 'mops', higherIsBetter: true, label: 'Mop/s' },
  minRanks: 1,
  params: {
    class: { type: 'choice', default: 'S', choices: Object.keys(IS_CLASSES), help: 'NPB class: keys 2^16 (S), 2^20 (W), 2^23 (A), 2^25 (B), 2^27 (C); largest key 2^11 .. 2^23' },
    iterations: { type: 'int', default: 10, min: 1, help: 'rankings timed (NPB: 10)' },
    seed: { type: 'int', default: 1, min: 0, help: 'seed of the keys' },
  },
  main: runIs,
};

async function runIs(ctx: RankContext, p: ParamValues): Promise<AppResult | undefined> {
  const { mpi } = ctx;
  const real = !ctx.skeleton;
  const { keysLog2, maxKeyLog2 } = IS_CLASSES[p.class as string]!;
  const iterations = p.iterations as number;
  const size = mpi.size;
  const me = mpi.rank;
  const total = 2 ** keysLog2;
  const maxKey = 2 ** maxKeyLog2;
  const bucketsLog2 = Math.min(maxKeyLog2, Math.max(BUCKETS_LOG2, Math.ceil(Math.log2(size))));
  const buckets = 2 ** bucketsLog2;
  const shift = maxKeyLog2 - bucketsLog2;
  const mine = Math.floor(total / size) + (me < total % size ? 1 : 0);
  const keys = ctx.alloc(Int32Array, mine);
  if (real) {
    const rng = new Prng((p.seed as number) * 100_003 + me);
    for (let i = 0; i < mine; i++) keys[i] = Math.floor((maxKey / 4) * (rng.next() + rng.next() + rng.next() + rng.next()));
  }
  const ordered = ctx.alloc(Int32Array, mine);
  const received = ctx.alloc(Int32Array, Math.max(mine * 4, 1024));
  let recvBuf = received;
  const bucketSize = new Int32Array(buckets);
  const bucketTotals = new Int32Array(buckets);
  const sendCount = new Int32Array(size);
  const sendDispl = new Int32Array(size);
  const recvCount = new Int32Array(size);
  const recvDispl = new Int32Array(size);
  let first = 0;
  let last = -1;
  let got = 0;
  let compute = 0;
  const work = async (w: { flops?: number; bytes: number }, k: number): Promise<void> => {
    const t = ctx.now();
    await ctx.compute({ flops: (w.flops ?? 0) * k, bytes: w.bytes * k });
    compute += ctx.now() - t;
  };

  const rank = async (): Promise<void> => {
    // bucket counts, and the keys copied into bucket order
    if (real) {
      bucketSize.fill(0);
      for (let i = 0; i < mine; i++) bucketSize[keys[i]! >> shift]!++;
      const ptr = new Int32Array(buckets);
      for (let b = 1; b < buckets; b++) ptr[b] = ptr[b - 1]! + bucketSize[b - 1]!;
      for (let i = 0; i < mine; i++) ordered[ptr[keys[i]! >> shift]!++] = keys[i]!;
    } else expectedBuckets(bucketSize, mine);
    await mpi.COMM_WORLD.allreduce(bucketSize, bucketTotals, mpi.SUM);
    // buckets dealt in order: rank j's share ends where the running total reaches (j + 1) x total / ranks
    let acc = 0;
    let local = 0;
    let j = 0;
    sendCount.fill(0);
    first = 0;
    last = buckets - 1;
    for (let b = 0; b < buckets; b++) {
      acc += bucketTotals[b]!;
      local += bucketSize[b]!;
      while (j < size - 1 && acc >= ((j + 1) * total) / size) {
        sendCount[j] = local;
        local = 0;
        if (j === me) last = b;
        if (j + 1 === me) first = b + 1;
        j++;
      }
    }
    sendCount[size - 1]! += local;
    for (let q = 1; q < size; q++) sendDispl[q] = sendDispl[q - 1]! + sendCount[q - 1]!;
    await work(PER_KEY, mine);
    await mpi.COMM_WORLD.alltoall(sendCount, recvCount);
    got = 0;
    for (let q = 0; q < size; q++) {
      recvDispl[q] = got;
      got += recvCount[q]!;
    }
    if (got > recvBuf.length) recvBuf = ctx.alloc(Int32Array, got);
    await mpi.COMM_WORLD.alltoallv(ordered, sendCount, sendDispl, recvBuf, recvCount, recvDispl);
    // ranking: counting over the received keys' range
    const range = Math.max(0, (last + 1 - first) << shift);
    await work(PER_RANGE_KEY, range);
  };

  await mpi.COMM_WORLD.barrier();
  const start = ctx.now();
  for (let it = 1; it <= iterations; it++) {
    // NPB modifies two keys each iteration (is.c: key_array[iteration], key_array[iteration + MAX_ITERATIONS])
    if (real && me === 0 && mine > it + iterations) {
      keys[it] = it;
      keys[it + iterations] = maxKey - it;
    }
    await rank();
  }
  const elapsed = ctx.now() - start;
  const computeUs = compute;

  // full verification: sorted here, in order across ranks, every key within this rank's buckets, none lost
  let errors = 0;
  const keysIn = recvBuf.subarray(0, got);
  if (real) {
    keysIn.sort();
    for (let i = 0; i < got; i++) {
      const b = keysIn[i]! >> shift;
      if (b < first || b > last || (i > 0 && keysIn[i - 1]! > keysIn[i]!)) errors++;
    }
  }
  const prevLast = new Int32Array(1);
  const myLast = Int32Array.of(got > 0 ? keysIn[got - 1]! : -1);
  const reqs = [];
  if (me > 0) reqs.push(mpi.COMM_WORLD.irecv(prevLast, me - 1, 7));
  if (me < size - 1) reqs.push(mpi.COMM_WORLD.isend(myLast, me + 1, 7));
  await mpi.COMM_WORLD.waitAll(reqs);
  if (real && me > 0 && got > 0 && prevLast[0]! > keysIn[0]!) errors++;
  const sums = new Float64Array(2);
  await mpi.COMM_WORLD.allreduce(Float64Array.of(errors, got), sums, mpi.SUM);
  if (real && (sums[0]! > 0 || sums[1] !== total)) throw new Error(`npb-is: full verification failed: ${sums[0]} keys out of order or outside their rank's buckets, ${sums[1]} keys of ${total} ranked`);
  if (me !== 0) return undefined;
  return {
    rows: [
      {
        ranks: size,
        class: p.class as string,
        keys: total,
        iterations,
        timeUs: round(elapsed),
        computeUs: round(computeUs),
        commUs: round(elapsed - computeUs),
        mops: round((total * iterations) / elapsed),
        check: real ? 'passed' : SKELETON_CHECK,
      },
    ],
  };
}

/** The expected bucket counts of `n` keys of NPB's distribution: maxKey/4 times the sum of four uniforms (Irwin-Hall, n = 4). */
function expectedBuckets(out: Int32Array, n: number): void {
  const cdf = (x: number): number => {
    // Irwin-Hall CDF for 4 uniforms at x in [0, 4]
    let s = 0;
    for (let k = 0; k <= Math.floor(x); k++) s += (k % 2 === 0 ? 1 : -1) * binom4(k) * (x - k) ** 4;
    return s / 24;
  };
  let prev = 0;
  let given = 0;
  for (let b = 0; b < out.length; b++) {
    const upto = b === out.length - 1 ? n : Math.round(n * cdf((4 * (b + 1)) / out.length));
    out[b] = upto - prev;
    given += out[b]!;
    prev = upto;
  }
  if (given !== n) out[out.length - 1]! += n - given;
}

function binom4(k: number): number {
  return [1, 4, 6, 4, 1][k] ?? 0;
}
