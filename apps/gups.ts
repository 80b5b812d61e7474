import type { RankContext } from '../runtime/rank.ts';
import { round, type App } from './app.ts';
import { featureNote, windowSpan } from './putget.ts';

const MASK64 = (1n << 64n) - 1n;
/** HPCC RandomAccess's generator polynomial. */
const POLY = 7n;

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
 * Random access (HPCC RandomAccess style, the OpenSHMEM variant with atomics): a table of
 * `2^log2Words` 64-bit words per PE, distributed over all PEs; each rank walks its own
 * deterministic 64-bit stream and xors each value into word `value mod tableSize` of the global
 * table with a non-fetching AMO (one gsyncWait per window of `window` updates). GUPS is all
 * updates over the span from the first start to the last end. Afterwards every PE recomputes its
 * part of the table serially from every rank's stream and compares; a mismatch is an error.
 */
export const gups: App = {
  name: 'gups',
  summary: 'random-access xor updates of a distributed table with AMOs (HPCC RandomAccess style): GUPS, table verified',
  minRanks: 1,
  params: {
    log2Words: { type: 'int', default: 10, min: 1, max: 24, help: 'log2 of the 64-bit words of the table per PE' },
    updates: { type: 'int', default: 256, min: 1, help: 'updates per rank' },
    window: { type: 'int', default: 64, min: 1, help: 'updates between gsyncWaits' },
  },
  async main(ctx, p) {
    const { mpi, dmapp } = ctx;
    const localWords = 2 ** (p.log2Words as number);
    const tableWords = BigInt(localWords * mpi.size);
    const n = p.updates as number;
    const window = p.window as number;
    const seg = dmapp.malloc(8 * localWords);
    const table = new BigUint64Array(seg.local.buffer, seg.local.byteOffset, localWords);
    // HPCC initialises word i of the global table to i
    const base = mpi.rank * localWords;
    for (let i = 0; i < localWords; i++) table[i] = BigInt(base + i);
    await mpi.barrier();
    const t0 = ctx.now();
    let ran = startOf(mpi.rank);
    for (let i = 0; i < n; i++) {
      ran = nextRan(ran);
      const word = Number(ran % tableWords);
      await dmapp.amo('gups', 'xor', false, 'nbi', Math.floor(word / localWords), seg, 8 * (word % localWords), ran);
      if ((i + 1) % window === 0) await dmapp.gsyncWait();
    }
    await dmapp.gsyncWait();
    const t1 = ctx.now();
    const span = await windowSpan(ctx, t0, t1);
    await mpi.barrier();
    const errors = verify(ctx, table, localWords, n);
    const all = new Float64Array(1);
    await mpi.allreduce(new Float64Array([errors]), all, mpi.SUM);
    if (all[0]! > 0) throw new Error(`gups: ${all[0]} table words differ from the serial recomputation`);
    if (mpi.rank !== 0) return undefined;
    const updates = n * mpi.size;
    const note = featureNote(ctx, ['fma', 'amoCache']);
    return {
      rows: [
        {
          ranks: mpi.size,
          tableWords: Number(tableWords),
          updates,
          timeUs: round(span),
          gups: round(updates / span / 1e3),
          check: 'passed',
          ...(note ? { note } : {}),
        },
      ],
    };
  },
};

/** Words of this PE's part of the table that differ from replaying every rank's stream serially. */
function verify(ctx: RankContext, table: BigUint64Array, localWords: number, n: number): number {
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
  return bad;
}
