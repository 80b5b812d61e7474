import type { RankContext } from '../runtime/rank.ts';
import type { CartComm, Comm } from '../runtime/mpi/mpi.ts';
import type { Symmetric } from '../runtime/shmem/shmem.ts';
import { round, type App } from './app.ts';
import { featureNote, windowSpan } from './putget.ts';

const MASK64 = (1n << 64n) - 1n;
/** HPCC RandomAccess's generator polynomial. */
const POLY = 7n;
/** Word classes of the checksum verification of large runs (a prime, so strides don't alias). */
const CLASSES = 509;
/** Largest (ranks x updates per rank) verified exactly, by replaying every stream on every PE. */
const EXACT_LIMIT = 1 << 20;
/** Flops to make one update (the shift-register step and the index); bytes touched to apply one (a 64-byte line read and written). */
const FLOPS_PER_UPDATE = 4;
const APPLY_BYTES = 128;
/** Bytes moved per update per routing stage of the bucket mode (read it, write it into its bucket). */
const BUCKET_BYTES = 16;

/** Next value of HPCC RandomAccess's 64-bit shift-register stream (x^64 + x^2 + x + 1 over GF(2)). */
function nextRan(r: bigint): bigint {
  return ((r << 1n) & MASK64) ^ (r >> 63n ? POLY : 0n);
}

/** First value of rank `rank`'s stream: a splitmix64 hash of the rank (never zero). */
function startOf(rank: number): bigint {
  let z = (BigInt(rank + 1) * 0x9e3779b97f4a7c15n) & MASK64;
  z = ((z ^ (z >> 30n)) * 0xbf58476d1ce4e5b9n) & MASK64;
  z = ((z ^ (z >> 27n)) * 0x94d049bb133111ebn) & MASK64;
  z ^= z >> 31n;
  return z === 0n ? 1n : z;
}

/**
 * Random access (HPCC RandomAccess): a table of `2^log2Words` 64-bit words per PE, distributed
 * over all PEs, word i starting as i. Each rank walks its own deterministic 64-bit stream and
 * xors each value into word `value mod tableSize` of the global table.
 * - `mode=amo`: the OpenSHMEM variant, one non-fetching `shmem.atomicXor` per update (completed
 *   by `shmem.quiet` every `window` updates), run by the NIC's AMO unit.
 * - `mode=bucket`: the optimised variant: in rounds of `lookahead` updates, every rank sorts its
 *   updates into buckets and routes them to their owners through a virtual grid of `stages`
 *   dimensions (one exchange with the rank's row per dimension, MPI messages on Cartesian
 *   sub-communicators), and the owner applies them to its memory.
 * - `mode=locks`: HPCC's SHMEM RandomAccess (its SHMEMRandomAccess.c): the update pass as `amo`,
 *   then its verification, which replays every rank's stream once more, each update a get and a
 *   put of the word (`shmem.gUint64`, `pUint64`) under the lock of the word's owner PE
 *   (`shmem.setLock` / `clearLock` on element `pe` of a symmetric array of one lock per PE, as
 *   HPCC_PELock): xor being its own inverse, the table is back to its start when every update
 *   was made once and no two read-modify-writes of a word interleaved. The words that are not
 *   are summed with `shmem.longlongSumToAll` (the 1.4 reduction HPCC calls); `verifyUs` is the
 *   verification's span, lock contention included. HPCC passes a run with up to 1 % of the
 *   words wrong; here, the first pass's updates being atomic, one wrong word fails the run.
 * GUPS is all updates over the span from the first start to the last end. Afterwards the table
 * is verified: exactly (every PE replays every stream) for small runs, by a 509-class xor
 * checksum for large ones, or by the locked undo pass of `mode=locks`; a mismatch is an error.
 */
export const gups: App = {
  name: 'gups',
  summary: "random-access xor updates of a distributed table (HPCC RandomAccess): SHMEM AMOs, optimised bucket routing, or AMOs then HPCC SHMEM's verification under shmem locks; GUPS, table verified",
  merit: { key: 'gups', higherIsBetter: true },
  minRanks: 1,
  params: {
    mode: {
      type: 'choice',
      default: 'amo',
      choices: ['amo', 'bucket', 'locks'],
      help: "amo: one SHMEM atomic xor per update; bucket: updates routed in buckets through a virtual grid (the optimised variant); locks: amo's updates, then HPCC SHMEM RandomAccess's verification, every update undone by a get and put under the owner PE's shmem lock",
    },
    log2Words: { type: 'int', default: 10, min: 1, max: 24, help: 'log2 of the 64-bit words of the table per PE' },
    updates: { type: 'int', default: 256, min: 1, help: 'updates per rank' },
    window: { type: 'int', default: 64, min: 1, help: 'amo and locks modes: updates between quiets' },
    lookahead: { type: 'int', default: 1024, min: 1, help: 'bucket mode: updates per rank per round (HPCC allows 1024)' },
    stages: { type: 'int', default: 2, min: 1, max: 4, help: 'bucket mode: dimensions of the virtual routing grid' },
  },
  async main(ctx, p) {
    const { mpi, shmem } = ctx;
    const localWords = 2 ** (p.log2Words as number);
    const n = p.updates as number;
    const seg = await shmem.malloc(8 * localWords);
    const table = seg.uint64();
    const base = mpi.rank * localWords;
    for (let i = 0; i < localWords; i++) table[i] = BigInt(base + i);
    const grid = p.mode === 'bucket' ? await routingGrid(mpi, p.stages as number) : null;
    // HPCC_PELock: one lock per PE, zero on every PE (malloc zeroes it)
    const locks = p.mode === 'locks' ? await shmem.malloc(8 * mpi.size) : null;
    await shmem.barrierAll();
    const t0 = ctx.now();
    if (grid) await bucketUpdates(ctx, table, localWords, n, p.lookahead as number, grid);
    else await amoUpdates(ctx, seg, localWords, n, p.window as number);
    const t1 = ctx.now();
    const span = await windowSpan(ctx, t0, t1);
    await shmem.barrierAll();
    let verifyUs = 0;
    let check: string;
    if (locks) {
      const v0 = ctx.now();
      const bad = await verifyLocked(ctx, seg, locks, localWords, n);
      verifyUs = await windowSpan(ctx, v0, ctx.now());
      if (bad > 0) throw new Error(`gups: ${bad} table words are not back to their start after the locked verification pass (updates lost, made twice, or interleaved under the lock)`);
      check = 'passed (locks)';
    } else {
      const exact = mpi.size * n <= EXACT_LIMIT;
      const bad = exact ? await verifyExact(ctx, table, localWords, n) : await verifyChecksum(ctx, table, localWords, n);
      if (bad > 0) throw new Error(`gups: ${bad} ${exact ? 'table words differ from the serial recomputation' : `of ${CLASSES} checksum classes differ from the updates made`}`);
      check = exact ? 'passed (exact)' : 'passed (checksum)';
    }
    if (mpi.rank !== 0) return undefined;
    const updates = n * mpi.size;
    const note = p.mode !== 'bucket' ? featureNote(ctx, ['fma', 'amoCache']) : '';
    return {
      rows: [
        {
          mode: p.mode as string,
          ranks: mpi.size,
          tableWords: localWords * mpi.size,
          updates,
          ...(grid ? { grid: grid.dims.join('x') } : {}),
          timeUs: round(span),
          gups: round(updates / span / 1e3),
          ...(locks ? { verifyUs: round(verifyUs) } : {}),
          check,
          ...(note ? { note } : {}),
        },
      ],
    };
  },
};

/** The updates of the amo and locks modes: one non-fetching SHMEM atomic xor each, a quiet every `window`. */
async function amoUpdates(ctx: RankContext, seg: Symmetric, localWords: number, n: number, window: number): Promise<void> {
  const { shmem } = ctx;
  const tableWords = BigInt(localWords * ctx.size);
  let ran = startOf(ctx.rank);
  for (let i = 0; i < n; i++) {
    ran = nextRan(ran);
    const word = Number(ran % tableWords);
    await shmem.atomicXor(seg.element('uint64', word % localWords), ran, Math.floor(word / localWords), 'uint64');
    if ((i + 1) % window === 0) await shmem.quiet();
  }
  await shmem.quiet();
}

/**
 * HPCC SHMEM RandomAccess's verification: this rank's stream replayed, each update a get, an
 * xor and a put of the word under the lock of its owner PE (`clearLock` quiets, so the put is
 * complete before the next holder's get); then the words not back to their start, summed over
 * all PEs with the 1.4 `longlongSumToAll` as HPCC sums them.
 */
async function verifyLocked(ctx: RankContext, seg: Symmetric, locks: Symmetric, localWords: number, n: number): Promise<number> {
  const { shmem } = ctx;
  const tableWords = BigInt(localWords * ctx.size);
  let ran = startOf(ctx.rank);
  for (let i = 0; i < n; i++) {
    ran = nextRan(ran);
    const word = Number(ran % tableWords);
    const pe = Math.floor(word / localWords);
    const at = seg.element('uint64', word % localWords);
    const lock = locks.element('int64', pe);
    await shmem.setLock(lock);
    const v = await shmem.gUint64(at, pe);
    await shmem.pUint64(at, v ^ ran, pe);
    await shmem.clearLock(lock);
  }
  await shmem.barrierAll();
  const table = seg.uint64();
  const base = ctx.rank * localWords;
  let bad = 0;
  for (let i = 0; i < localWords; i++) if (table[i] !== BigInt(base + i)) bad++;
  const errors = await shmem.malloc(16);
  const pWrk = await shmem.malloc(8 * shmem.REDUCE_MIN_WRKDATA_SIZE);
  const pSync = await shmem.malloc(8 * shmem.REDUCE_SYNC_SIZE);
  pSync.int64().fill(shmem.SYNC_VALUE);
  errors.int64()[0] = BigInt(bad);
  // the pSync is set on every PE before any uses it
  await shmem.barrierAll();
  await shmem.longlongSumToAll(errors.at(8), errors, 1, 0, 0, ctx.size, pWrk, pSync);
  const all = Number(errors.int64()[1]);
  for (const s of [pSync, pWrk, errors]) await shmem.free(s);
  return all;
}

/** The bucket mode's virtual grid over all ranks and one row communicator per dimension. */
interface RoutingGrid {
  readonly dims: readonly number[];
  /** Row rank `i` of dimension `d` is the rank whose coordinate d is i (the others as mine). */
  readonly rows: readonly Comm[];
  /** Rank strides of the dimensions (row-major). */
  readonly strides: readonly number[];
}

async function routingGrid(mpi: RankContext['mpi'], stages: number): Promise<RoutingGrid> {
  const dims = mpi.dimsCreate(mpi.size, new Array<number>(stages).fill(0));
  const grid = (await mpi.cartCreate(dims, dims.map(() => false))) as CartComm;
  const rows: Comm[] = [];
  for (let d = 0; d < dims.length; d++) rows.push(await grid.cartSub(dims.map((_, e) => e === d)));
  const strides = dims.map((_, d) => dims.slice(d + 1).reduce((a, b) => a * b, 1));
  return { dims, rows, strides };
}

/**
 * The optimised updates: rounds of `lookahead` updates, each routed dimension by dimension to its
 * owner (one bucket per row member per stage, sizes learnt by probe), then applied locally.
 */
async function bucketUpdates(ctx: RankContext, table: BigUint64Array, localWords: number, n: number, lookahead: number, g: RoutingGrid): Promise<void> {
  const base = ctx.rank * localWords;
  const wordsOf = wordIndexer(localWords * ctx.size);
  let ran = startOf(ctx.rank);
  for (let done = 0, roundNo = 0; done < n; done += lookahead, roundNo++) {
    const m = Math.min(lookahead, n - done);
    let upd = new BigUint64Array(m);
    for (let i = 0; i < m; i++) upd[i] = ran = nextRan(ran);
    await ctx.compute({ flops: FLOPS_PER_UPDATE * m });
    for (let d = 0; d < g.dims.length; d++) {
      const row = g.rows[d]!;
      const tag = (roundNo % 100_000) * 4 + d;
      // bucket by the owner's coordinate in dimension d
      const k = g.dims[d]!;
      const per = localWords * g.strides[d]!;
      const words = wordsOf(upd);
      const coords = new Int32Array(upd.length);
      const counts = new Int32Array(k);
      for (let i = 0; i < upd.length; i++) counts[(coords[i] = Math.floor(words[i]! / per) % k)]!++;
      const buckets = Array.from(counts, (c) => new BigUint64Array(c));
      counts.fill(0);
      for (let i = 0; i < upd.length; i++) {
        const c = coords[i]!;
        buckets[c]![counts[c]!++] = upd[i]!;
      }
      await ctx.compute({ bytes: BUCKET_BYTES * upd.length });
      const sends = [];
      for (let j = 0; j < k; j++) if (j !== row.rank) sends.push(row.isend(buckets[j]!, j, tag));
      const got: BigUint64Array[] = [buckets[row.rank]!];
      for (let j = 1; j < k; j++) {
        const st = await row.probe(ctx.mpi.ANY_SOURCE, tag, 8);
        const into = new BigUint64Array(st.count);
        await row.recv(into, st.source, tag);
        got.push(into);
      }
      await row.waitAll(sends);
      upd = new BigUint64Array(got.reduce((a, b) => a + b.length, 0));
      let at = 0;
      for (const b of got) {
        upd.set(b, at);
        at += b.length;
      }
    }
    const words = wordsOf(upd);
    for (let i = 0; i < upd.length; i++) {
      const w = words[i]! - base;
      table[w] = table[w]! ^ upd[i]!;
    }
    await ctx.compute({ bytes: APPLY_BYTES * upd.length });
  }
}

/**
 * A function giving `Number(a[i] mod words)` for every update value of `a`; below 2^26 words it
 * avoids BigInt division by reducing the two 32-bit halves separately (exact in doubles).
 */
function wordIndexer(words: number): (a: BigUint64Array) => Float64Array {
  const w = BigInt(words);
  const p32 = 2 ** 32 % words;
  return (a) => {
    const out = new Float64Array(a.length);
    if (words >= 2 ** 26) {
      for (let i = 0; i < a.length; i++) out[i] = Number(a[i]! % w);
      return out;
    }
    const u = new Uint32Array(a.buffer, a.byteOffset, 2 * a.length);
    for (let i = 0; i < a.length; i++) out[i] = ((((u[2 * i + 1]! % words) * p32) % words) + (u[2 * i]! % words)) % words;
    return out;
  };
}

/** Words of this PE's part of the table that differ from replaying every rank's stream serially. */
async function verifyExact(ctx: RankContext, table: BigUint64Array, localWords: number, n: number): Promise<number> {
  const size = ctx.size;
  const base = ctx.rank * localWords;
  const tableWords = BigInt(localWords * size);
  const want = new BigUint64Array(localWords);
  for (let i = 0; i < localWords; i++) want[i] = BigInt(base + i);
  for (let r = 0; r < size; r++) {
    let ran = startOf(r);
    for (let i = 0; i < n; i++) {
      ran = nextRan(ran);
      const w = Number(ran % tableWords) - base;
      if (w >= 0 && w < localWords) want[w] = want[w]! ^ ran;
    }
  }
  let bad = 0;
  for (let i = 0; i < localWords; i++) if (table[i] !== want[i]) bad++;
  const all = new Float64Array(1);
  await ctx.mpi.allreduce(Float64Array.of(bad), all, ctx.mpi.SUM);
  return all[0]!;
}

/**
 * Checksum classes that disagree: for each class c of global word indices (index mod 509), the
 * xor of what the table gained (word ^ its initial value) must equal the xor of the update
 * values every rank sent to words of that class. Each rank replays only its own stream.
 */
async function verifyChecksum(ctx: RankContext, table: BigUint64Array, localWords: number, n: number): Promise<number> {
  const tableWords = BigInt(localWords * ctx.size);
  const base = ctx.rank * localWords;
  // two 32-bit halves per class; first the table side, then the update side
  const mine = new Uint32Array(4 * CLASSES);
  const add = (at: number, v: bigint): void => {
    mine[at] = (mine[at]! ^ Number(v & 0xffffffffn)) >>> 0;
    mine[at + 1] = (mine[at + 1]! ^ Number(v >> 32n)) >>> 0;
  };
  for (let i = 0; i < localWords; i++) add(2 * ((base + i) % CLASSES), table[i]! ^ BigInt(base + i));
  let ran = startOf(ctx.rank);
  for (let i = 0; i < n; i++) {
    ran = nextRan(ran);
    add(2 * CLASSES + 2 * Number((ran % tableWords) % BigInt(CLASSES)), ran);
  }
  const all = new Uint32Array(mine.length);
  await ctx.mpi.allreduce(mine, all, ctx.mpi.BXOR);
  let bad = 0;
  for (let c = 0; c < CLASSES; c++) if (all[2 * c] !== all[2 * CLASSES + 2 * c] || all[2 * c + 1] !== all[2 * CLASSES + 2 * c + 1]) bad++;
  return bad;
}
