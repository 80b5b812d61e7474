import { describe, expect, it } from 'vitest';
import { ALGORITHMS, chooseAlgorithm, selectAlgorithm, THRESHOLDS, type Buf, type Collective, type CollTransport } from '../runtime/mpi/coll/index.ts';
import { BAND, BOR, BXOR, LAND, LOR, LXOR, MAX, MAXLOC, MIN, MINLOC, opCreate, PROD, SUM, type Op, type ReduceArray } from '../runtime/mpi/ops.ts';
import { MpiError } from '../runtime/mpi/request.ts';
import type { RankContext } from '../runtime/rank.ts';
import { simulate } from '../runtime/simulate.ts';

/**
 * A node layout for node-aware algorithms, by size: every rank on its own node, contiguous blocks
 * of four, or an irregular, non-contiguous grouping (correctness must not depend on where ranks
 * really are; timing does, and is tested elsewhere).
 */
function layout(size: number): number[] {
  if (size % 3 === 0) return Array.from({ length: size }, (_, r) => r);
  if (size % 3 === 1) return Array.from({ length: size }, (_, r) => Math.floor(r / 4));
  const k = Math.ceil(size / 3);
  return Array.from({ length: size }, (_, r) => h(size, r, 99) % k);
}

/** The algorithms' transport over MPI_COMM_WORLD's point-to-point calls. */
function worldTransport(ctx: RankContext): CollTransport {
  return {
    rank: ctx.mpi.rank,
    size: ctx.mpi.size,
    nodes: layout(ctx.mpi.size),
    isend: (buf, dest, tag) => ctx.mpi.isend(buf, dest, tag),
    irecv: (buf, source, tag) => ctx.mpi.irecv(buf, source, tag),
    flopsPerPs: 0.5,
    copyBytesPerPs: 4,
  };
}

/** A 32-bit hash of a few integers (deterministic data, no random generator needed). */
function h(...xs: number[]): number {
  let a = 0x9e3779b1;
  for (const x of xs) a = Math.imul(a ^ (x + 0x7f4a7c15), 0x85ebca6b) ^ (a >>> 13);
  return a >>> 0;
}

// ---- a non-commutative op: 2x2 matrix product modulo a prime, items of 4 elements ----
const P = 65521;
function matMul(a: ArrayLike<number> & { [i: number]: number }, b: ArrayLike<number>, i: number, out: { [i: number]: number }): void {
  const [a0, a1, a2, a3] = [a[i]!, a[i + 1]!, a[i + 2]!, a[i + 3]!];
  const [b0, b1, b2, b3] = [b[i]!, b[i + 1]!, b[i + 2]!, b[i + 3]!];
  out[i] = (a0 * b0 + a1 * b2) % P;
  out[i + 1] = (a0 * b1 + a1 * b3) % P;
  out[i + 2] = (a2 * b0 + a3 * b2) % P;
  out[i + 3] = (a2 * b1 + a3 * b3) % P;
}
const MATMUL = opCreate(
  (inout, input) => {
    const a = inout as Float64Array;
    for (let i = 0; i < a.length; i += 4) matMul(a, input as Float64Array, i, a);
  },
  false,
  { name: 'matmul', unit: 4 },
);

/** One reduction case: an op, a typed array type, each rank's data and an independent reference. */
interface Case {
  readonly name: string;
  readonly op: Op;
  make(n: number): ReduceArray;
  /** Rank r's element i. */
  fill(a: ReduceArray, r: number, i0: number): void;
  /** acc = acc ∘ (rank r's data), computed element by element without the op under test. */
  fold(acc: ReduceArray, b: ReduceArray): void;
}

function numCase(name: string, op: Op, make: (n: number) => ReduceArray, v: (r: number, i: number) => number, f: (a: number, b: number) => number): Case {
  return {
    name,
    op,
    make,
    fill: (a, r, i0) => {
      for (let i = 0; i < a.length; i++) a[i] = v(r, i0 + i);
    },
    fold: (acc, b) => {
      for (let i = 0; i < acc.length; i++) acc[i] = f(acc[i] as number, b[i] as number);
    },
  };
}

function locCase(name: string, op: Op, make: (n: number) => ReduceArray, better: (x: number, y: number) => boolean): Case {
  return {
    name,
    op,
    make,
    // few distinct values, so ties are common; indices unrelated to rank order
    fill: (a, r, i0) => {
      for (let i = 0; i < a.length; i += 2) {
        a[i] = (h(r, i0 + i, 1) % 5) - 2;
        a[i + 1] = h(r, i0 + i, 2) % 1000;
      }
    },
    fold: (acc, b) => {
      for (let i = 0; i < acc.length; i += 2) {
        const [x, xi, y, yi] = [acc[i] as number, acc[i + 1] as number, b[i] as number, b[i + 1] as number];
        if (better(y, x) || (y === x && yi < xi)) {
          acc[i] = y;
          acc[i + 1] = yi;
        }
      }
    },
  };
}

const CASES: readonly Case[] = [
  numCase('Int32 SUM', SUM, (n) => new Int32Array(n), (r, i) => (h(r, i) % 2_000_001) - 1_000_000, (a, b) => (a + b) | 0),
  // dyadic doubles of modest size: sums are exact in any order
  numCase('Float64 SUM', SUM, (n) => new Float64Array(n), (r, i) => ((h(r, i, 3) % 4001) - 2000) * 0.125, (a, b) => a + b),
  numCase('Float32 MAX', MAX, (n) => new Float32Array(n), (r, i) => (h(r, i, 4) % 1000) - 500.5, Math.max),
  numCase('Int16 MIN', MIN, (n) => new Int16Array(n), (r, i) => (h(r, i, 5) % 60001) - 30000, Math.min),
  numCase('Uint32 BXOR', BXOR, (n) => new Uint32Array(n), (r, i) => h(r, i, 6), (a, b) => (a ^ b) >>> 0),
  numCase('Int8 LAND', LAND, (n) => new Int8Array(n), (r, i) => (h(r, i, 7) % 40 === 0 ? 0 : (h(r, i, 8) % 7) - 3 || 1), (a, b) => (a && b ? 1 : 0)),
  numCase('Uint8 LXOR', LXOR, (n) => new Uint8Array(n), (r, i) => h(r, i, 9) % 3, (a, b) => (!a !== !b ? 1 : 0)),
  locCase('Float64 MINLOC', MINLOC, (n) => new Float64Array(n), (x, y) => x < y),
  locCase('Int32 MAXLOC', MAXLOC, (n) => new Int32Array(n), (x, y) => x > y),
  {
    name: 'BigInt64 BOR',
    op: BOR,
    make: (n) => new BigInt64Array(n),
    fill: (a, r, i0) => {
      for (let i = 0; i < a.length; i++) a[i] = BigInt.asIntN(64, 1n << BigInt(h(r, i0 + i, 10) % 64));
    },
    fold: (acc, b) => {
      for (let i = 0; i < acc.length; i++) acc[i] = (acc[i] as bigint) | (b[i] as bigint);
    },
  },
  {
    name: 'matmul (non-commutative)',
    op: MATMUL,
    make: (n) => new Float64Array(n),
    fill: (a, r, i0) => {
      for (let i = 0; i < a.length; i++) a[i] = h(r, i0 + i, 11) % P;
    },
    fold: (acc, b) => {
      const out = new Float64Array(acc.length);
      for (let i = 0; i < acc.length; i += 4) matMul(acc as Float64Array, b as Float64Array, i, out);
      acc.set(out as never);
    },
  },
];

/** Rank r's contribution to a reduction of `len` elements (element i0 + i of its data). */
function contribution(c: Case, r: number, len: number, i0 = 0): ReduceArray {
  const a = c.make(len);
  c.fill(a, r, i0);
  return a;
}

/** prefix[k] = ranks 0..k-1 combined (prefix[0] is unused), by the independent reference. */
function prefixes(c: Case, size: number, len: number): ReduceArray[] {
  const out: ReduceArray[] = [c.make(len)];
  let acc = contribution(c, 0, len);
  out.push(acc.slice());
  for (let r = 1; r < size; r++) {
    acc = acc.slice();
    c.fold(acc, contribution(c, r, len));
    out.push(acc);
  }
  return out;
}

/** Describes the first element where `got` and `want` differ, or returns null. */
function diff(got: ArrayLike<unknown>, want: ArrayLike<unknown>, wantOffset = 0): string | null {
  for (let i = 0; i < got.length; i++) {
    if (!Object.is(got[i], want[wantOffset + i])) return `element ${i}: got ${String(got[i])}, want ${String(want[wantOffset + i])}`;
  }
  return null;
}

/** Roots to try on a communicator of `size`: 0, and the last rank (even sizes) or one two thirds up (odd). */
function roots(size: number): number[] {
  return [...new Set([0, size % 2 === 0 ? size - 1 : Math.floor((size * 2) / 3)])];
}

/**
 * The reduction cases one size runs, to keep the run short: every case on sizes up to 12 and
 * 16 (powers of two and others), then the non-commutative op and one commutative case in turn.
 */
function casesFor(size: number): Case[] {
  if (size <= 12 || size === 16) return [...CASES];
  const commutative = CASES.filter((c) => c.op.commutative);
  return [commutative[size % commutative.length]!, ...CASES.filter((c) => !c.op.commutative)];
}

/**
 * Elements per reduction: fewer than the largest power of two below `size` on some sizes (empty
 * pieces in the splitting algorithms), several per rank on the others.
 */
function reductionLength(size: number): number {
  return size <= 16 || size % 3 === 1 ? 4 * (2 + (size % 5)) : 4 * (size + 1);
}

/** Variable per-rank counts (some zero), multiples of `unit`. */
function vcounts(size: number, unit: number, salt: number): number[] {
  return Array.from({ length: size }, (_, r) => unit * (h(size, r, salt) % 4));
}

const SENTINEL = -7;
/** Elements per rank in reduceScatterBlock. */
const BLOCK = 4;

/**
 * Runs every algorithm of every collective on one communicator of `size` ranks (one
 * simulation) and returns each rank's failures and how many results it checked.
 */
async function runAll(size: number): Promise<readonly { bad: string[]; checked: number }[]> {
  const len = reductionLength(size);
  const refs = new Map<Case, ReduceArray[]>();
  for (const c of casesFor(size)) refs.set(c, prefixes(c, size, len));
  const rsCounts = vcounts(size, 4, 1);
  const rsTotal = rsCounts.reduce((a, b) => a + b, 0);
  const rsRefs = new Map<Case, ReduceArray>();
  const blockRefs = new Map<Case, ReduceArray>();
  for (const c of casesFor(size)) {
    rsRefs.set(c, prefixes(c, size, rsTotal)[size]!);
    blockRefs.set(c, prefixes(c, size, BLOCK * size)[size]!);
  }

  const r = await simulate({
    machine: 'xe6',
    nodes: size,
    program: async (ctx) => {
      const t = worldTransport(ctx);
      const me = t.rank;
      const bad: string[] = [];
      let checked = 0;
      const expectSame = (what: string, got: ArrayLike<unknown>, want: ArrayLike<unknown>, off = 0): void => {
        checked++;
        const d = diff(got, want, off);
        if (d) bad.push(`rank ${me}: ${what}: ${d}`);
      };
      const unchanged = (what: string, buf: Buf, before: Buf): void => {
        if (diff(buf, before)) bad.push(`rank ${me}: ${what}: the send buffer changed`);
      };

      // ---- reductions ----
      for (const c of casesFor(size)) {
        const accepts = (alg: { commutativeOnly: boolean }): boolean => !alg.commutativeOnly || c.op.commutative;
        const pre = refs.get(c)!;
        const full = pre[size]!;
        const mine = contribution(c, me, len);
        for (const alg of Object.values(ALGORITHMS.allreduce).filter(accepts)) {
          const out = c.make(len);
          await ctx.mpi.collective(alg.fn(t, mine, out, c.op), alg.name);
          expectSame(`allreduce ${alg.name} ${c.name}[${len}]`, out, full);
          unchanged(`allreduce ${alg.name} ${c.name}`, mine, contribution(c, me, len));
        }
        for (const alg of Object.values(ALGORITHMS.reduce).filter(accepts)) {
          for (const root of roots(size)) {
            const out = me === root ? c.make(len) : null;
            await ctx.mpi.collective(alg.fn(t, mine, out, c.op, root), alg.name);
            if (out) expectSame(`reduce ${alg.name} root ${root} ${c.name}[${len}]`, out, full);
            unchanged(`reduce ${alg.name} ${c.name}`, mine, contribution(c, me, len));
          }
        }
        for (const alg of Object.values(ALGORITHMS.scan).filter(accepts)) {
          const out = c.make(len);
          await ctx.mpi.collective(alg.fn(t, mine, out, c.op), alg.name);
          expectSame(`scan ${alg.name} ${c.name}[${len}]`, out, pre[me + 1]!);
        }
        for (const alg of Object.values(ALGORITHMS.exscan).filter(accepts)) {
          const marker = contribution(c, size + 5, len);
          const out = marker.slice();
          await ctx.mpi.collective(alg.fn(t, mine, out, c.op), alg.name);
          // rank 0's result is left untouched
          expectSame(`exscan ${alg.name} ${c.name}[${len}]`, out, me === 0 ? marker : pre[me]!);
        }
        // reduce-scatter with variable (some empty) blocks
        const at = rsCounts.slice(0, me).reduce((x, y) => x + y, 0);
        const whole = contribution(c, me, rsTotal);
        for (const alg of Object.values(ALGORITHMS.reduceScatter).filter(accepts)) {
          const out = c.make(rsCounts[me]!);
          await ctx.mpi.collective(alg.fn(t, whole, out, rsCounts, c.op), alg.name);
          expectSame(`reduceScatter ${alg.name} ${c.name}`, out, rsRefs.get(c)!, at);
          unchanged(`reduceScatter ${alg.name} ${c.name}`, whole, contribution(c, me, rsTotal));
        }
        const blockWhole = contribution(c, me, BLOCK * size);
        for (const alg of Object.values(ALGORITHMS.reduceScatterBlock).filter(accepts)) {
          const out = c.make(BLOCK);
          await ctx.mpi.collective(alg.fn(t, blockWhole, out, c.op), alg.name);
          expectSame(`reduceScatterBlock ${alg.name} ${c.name}`, out, blockRefs.get(c)!, BLOCK * me);
        }
      }

      // ---- data movement ----
      const datum = (src: number, dst: number, i: number): number => (h(src, dst, i, size) % 100_000) * 0.5;
      // a long buffer from root 0, a short one (fewer elements than ranks) from the other root
      for (const root of roots(size)) {
        const n = root === 0 ? 2 * size + 3 : 5;
        const want = Float64Array.from({ length: n }, (_, i) => datum(root, -1, i));
        for (const alg of Object.values(ALGORITHMS.bcast)) {
          const buf = me === root ? want.slice() : new Float64Array(n).fill(SENTINEL);
          await ctx.mpi.collective(alg.fn(t, buf, root), alg.name);
          expectSame(`bcast ${alg.name} root ${root} [${n}]`, buf, want);
        }
      }
      const ag = 1 + (size % 3);
      const gathered = Float64Array.from({ length: ag * size }, (_, k) => datum(Math.floor(k / ag), -1, k % ag));
      const myBlock = Float64Array.from({ length: ag }, (_, i) => datum(me, -1, i));
      for (const alg of Object.values(ALGORITHMS.allgather)) {
        const out = new Float64Array(ag * size).fill(SENTINEL);
        await ctx.mpi.collective(alg.fn(t, myBlock, out), alg.name);
        expectSame(`allgather ${alg.name}`, out, gathered);
      }
      // variable blocks with one-element gaps between them (the gaps must stay untouched)
      const vc = vcounts(size, 1, 2);
      const vd: number[] = [];
      for (let k = 0, at = 0; k < size; k++, at += vc[k - 1]! + 1) vd.push(at);
      const vlen = vd[size - 1]! + vc[size - 1]! + 1;
      const vwant = new Int32Array(vlen).fill(SENTINEL);
      for (let k = 0; k < size; k++) for (let i = 0; i < vc[k]!; i++) vwant[vd[k]! + i] = h(k, i, 12) % 1_000_000;
      const vmine = Int32Array.from({ length: vc[me]! }, (_, i) => h(me, i, 12) % 1_000_000);
      for (const alg of Object.values(ALGORITHMS.allgatherv)) {
        const out = new Int32Array(vlen).fill(SENTINEL);
        await ctx.mpi.collective(alg.fn(t, vmine, out, vc, vd), alg.name);
        expectSame(`allgatherv ${alg.name}`, out, vwant);
      }
      const a2a = 2;
      const a2aSend = Float64Array.from({ length: a2a * size }, (_, k) => datum(me, Math.floor(k / a2a), k % a2a));
      const a2aWant = Float64Array.from({ length: a2a * size }, (_, k) => datum(Math.floor(k / a2a), me, k % a2a));
      for (const alg of Object.values(ALGORITHMS.alltoall)) {
        const out = new Float64Array(a2a * size).fill(SENTINEL);
        await ctx.mpi.collective(alg.fn(t, a2aSend, out), alg.name);
        expectSame(`alltoall ${alg.name}`, out, a2aWant);
      }
      // alltoallv: rank s sends (s + 2d + size) % 3 elements to rank d, packed
      const cnt = (s: number, d: number): number => (s + 2 * d + size) % 3;
      const sc = Array.from({ length: size }, (_, d) => cnt(me, d));
      const rc = Array.from({ length: size }, (_, s) => cnt(s, me));
      const packed = (cs: number[]): number[] => cs.map((_, k) => cs.slice(0, k).reduce((a, b) => a + b, 0));
      const sd = packed(sc);
      const rd = packed(rc);
      const vSend = new Uint16Array(sc.reduce((a, b) => a + b, 0));
      for (let d = 0; d < size; d++) for (let i = 0; i < sc[d]!; i++) vSend[sd[d]! + i] = h(me, d, i) % 65536;
      const vWant = new Uint16Array(rc.reduce((a, b) => a + b, 0));
      for (let s = 0; s < size; s++) for (let i = 0; i < rc[s]!; i++) vWant[rd[s]! + i] = h(s, me, i) % 65536;
      for (const alg of Object.values(ALGORITHMS.alltoallv)) {
        const out = new Uint16Array(vWant.length).fill(9999);
        await ctx.mpi.collective(alg.fn(t, vSend, sc, sd, out, rc, rd), alg.name);
        expectSame(`alltoallv ${alg.name}`, out, vWant);
      }
      for (const root of roots(size)) {
        for (const alg of Object.values(ALGORITHMS.gather)) {
          const out = me === root ? new Float64Array(ag * size).fill(SENTINEL) : null;
          await ctx.mpi.collective(alg.fn(t, myBlock, out, root), alg.name);
          if (out) expectSame(`gather ${alg.name} root ${root}`, out, gathered);
        }
        for (const alg of Object.values(ALGORITHMS.gatherv)) {
          const out = me === root ? new Int32Array(vlen).fill(SENTINEL) : null;
          await ctx.mpi.collective(alg.fn(t, vmine, out, me === root ? vc : null, me === root ? vd : null, root), alg.name);
          if (out) expectSame(`gatherv ${alg.name} root ${root}`, out, vwant);
        }
        const scattered = Float64Array.from({ length: ag * size }, (_, k) => datum(root, Math.floor(k / ag), k % ag));
        for (const alg of Object.values(ALGORITHMS.scatter)) {
          const out = new Float64Array(ag).fill(SENTINEL);
          await ctx.mpi.collective(alg.fn(t, me === root ? scattered : null, out, root), alg.name);
          expectSame(`scatter ${alg.name} root ${root}`, out, scattered, ag * me);
        }
        for (const alg of Object.values(ALGORITHMS.scatterv)) {
          const out = new Int32Array(vc[me]!).fill(SENTINEL);
          await ctx.mpi.collective(alg.fn(t, me === root ? vwant : null, me === root ? vc : null, me === root ? vd : null, out, root), alg.name);
          expectSame(`scatterv ${alg.name} root ${root}`, out, vwant, vd[me]!);
        }
      }

      // ---- barriers: nobody leaves before the last one (rank size - 1, late by 50 us) enters ----
      for (const alg of Object.values(ALGORITHMS.barrier)) {
        if (me === size - 1) await ctx.compute({ us: 50 });
        const entered = ctx.now();
        const lastIn = new Float64Array(1);
        await alg.fn(t);
        const left = ctx.now();
        // the last rank to enter publishes its entry time through an allreduce checked above
        await ALGORITHMS.allreduce.recursiveDoubling!.fn(t, Float64Array.of(entered), lastIn, MAX);
        checked++;
        if (left < lastIn[0]!) bad.push(`rank ${me}: barrier ${alg.name}: left at ${left} us before the last rank entered at ${lastIn[0]} us`);
      }
      return { bad, checked };
    },
  });
  return r.rankResults;
}

/** Results each rank checks: counted from the registry so a skipped algorithm fails the count. */
function expectedChecks(size: number, me: number): number {
  const R = roots(size).length;
  let n = 0;
  for (const c of casesFor(size)) {
    const ok = (a: { commutativeOnly: boolean }): number => (!a.commutativeOnly || c.op.commutative ? 1 : 0);
    const sum = (col: Collective): number => Object.values(ALGORITHMS[col]).reduce((s, a) => s + ok(a), 0);
    n += (sum('allreduce') + sum('reduce') * (roots(size).filter((r) => r === me).length) + sum('scan') + sum('exscan'));
    n += sum('reduceScatter') + sum('reduceScatterBlock');
  }
  const count = (col: Collective): number => Object.keys(ALGORITHMS[col]).length;
  const isRoot = roots(size).filter((r) => r === me).length;
  n += R * count('bcast');
  n += count('allgather') + count('allgatherv') + count('alltoall') + count('alltoallv');
  n += isRoot * (count('gather') + count('gatherv'));
  n += R * (count('scatter') + count('scatterv'));
  n += count('barrier');
  return n;
}

describe('collective algorithms give MPI results on every communicator size', () => {
  const sizes = Array.from({ length: 67 }, (_, i) => i + 1);
  it.each(sizes)('size %i: every algorithm of every collective, several roots, every op case', async (size) => {
    const results = await runAll(size);
    expect(results).toHaveLength(size);
    results.forEach((x, rank) => {
      expect(x.bad, `rank ${rank}`).toEqual([]);
      expect(x.checked, `rank ${rank} checked`).toBe(expectedChecks(size, rank));
    });
  });
});

describe('the reference data is not vacuous', () => {
  it('every reduction case differs from any single rank and from rank order reversed where it should', () => {
    const size = 9;
    for (const c of CASES) {
      const full = prefixes(c, size, 24)[size]!;
      for (const r of [0, size - 1]) expect(diff(full, contribution(c, r, 24)), `${c.name} vs rank ${r}`).not.toBeNull();
    }
    // matmul is really non-commutative on this data: reversed rank order gives another answer
    const m = CASES.find((c) => !c.op.commutative)!;
    const fwd = prefixes(m, size, 8)[size]!;
    let rev = contribution(m, size - 1, 8);
    for (let r = size - 2; r >= 0; r--) {
      rev = rev.slice();
      m.fold(rev, contribution(m, r, 8));
    }
    expect(diff(fwd, rev)).not.toBeNull();
    // MINLOC data has ties at the minimum, so the lower-index rule decides some elements
    const loc = CASES.find((c) => c.op === MINLOC)!;
    const data = Array.from({ length: size }, (_, r) => contribution(loc, r, 24));
    const min = prefixes(loc, size, 24)[size]!;
    let ties = 0;
    for (let i = 0; i < 24; i += 2) if (data.filter((d) => d[i] === min[i]).length > 1) ties++;
    expect(ties).toBeGreaterThan(0);
  });
});

describe('predefined and user ops', () => {
  it('bitwise and logical ops refuse float arrays with MPI_ERR_OP naming the op and type', () => {
    for (const op of [BAND, BOR, BXOR, LAND, LOR, LXOR]) {
      for (const make of [() => new Float64Array(2), () => new Float32Array(2)]) {
        let err: unknown = null;
        try {
          op.apply(make(), make());
        } catch (e) {
          err = e;
        }
        expect(err).toBeInstanceOf(MpiError);
        expect((err as MpiError).errorClass).toBe('MPI_ERR_OP');
        expect((err as MpiError).message).toContain(op.name);
        expect((err as MpiError).message).toContain(make().constructor.name);
      }
    }
  });

  it('MINLOC and MAXLOC keep the lower index on ties; PROD wraps 32-bit products as C does; BigInt SUM works', () => {
    const a = Float64Array.of(1, 5, 2, 3, 7, 9);
    MINLOC.apply(a, Float64Array.of(1, 4, 1, 8, 7, 10));
    expect(Array.from(a)).toEqual([1, 4, 1, 8, 7, 9]);
    const b = Int32Array.of(3, 6, 3, 2);
    MAXLOC.apply(b, Int32Array.of(3, 1, 3, 5));
    expect(Array.from(b)).toEqual([3, 1, 3, 2]);
    const p = Int32Array.of(0x10001);
    PROD.apply(p, Int32Array.of(0x10001));
    expect(p[0]).toBe(Math.imul(0x10001, 0x10001));
    const s = BigInt64Array.of(2n ** 62n);
    SUM.apply(s, BigInt64Array.of(5n));
    expect(s[0]).toBe(2n ** 62n + 5n);
    expect(() => MINLOC.apply(new Float64Array(3), new Float64Array(3))).toThrow(/MPI_ERR_COUNT/);
    expect(() => SUM.apply(new Float64Array(2), new Int32Array(2))).toThrow(/MPI_ERR_TYPE/);
  });

  it('every predefined op is commutative; opCreate keeps its flag, unit and name and checks them', () => {
    for (const op of [SUM, PROD, MIN, MAX, MINLOC, MAXLOC, LAND, LOR, LXOR, BAND, BOR, BXOR]) expect(op.commutative).toBe(true);
    expect(MATMUL.commutative).toBe(false);
    expect(MATMUL.unit).toBe(4);
    expect(opCreate(() => {}, true).name).toBe('user op');
    expect(() => opCreate(() => {}, true, { unit: 0 })).toThrow(/MPI_ERR_ARG/);
    expect(() => opCreate('sum' as never, true)).toThrow(/MPI_ERR_ARG/);
  });
});

describe('chooseAlgorithm follows MPICH defaults', () => {
  const NONCOMM = MATMUL;
  it.each([
    ['allreduce', 8, THRESHOLDS.allreduceShortBytes, SUM, 'recursiveDoubling'],
    ['allreduce', 8, THRESHOLDS.allreduceShortBytes + 1, SUM, 'rabenseifner'],
    ['allreduce', 6, 1 << 20, SUM, 'rabenseifner'],
    ['allreduce', 8, 1 << 20, NONCOMM, 'recursiveDoubling'],
    ['bcast', 16, THRESHOLDS.bcastShortBytes - 1, undefined, 'binomial'],
    ['bcast', 7, 1 << 20, undefined, 'binomial'],
    ['bcast', 16, THRESHOLDS.bcastShortBytes, undefined, 'scatterRecursiveDoubling'],
    ['bcast', 12, THRESHOLDS.bcastShortBytes, undefined, 'scatterRing'],
    ['bcast', 16, THRESHOLDS.bcastLongBytes, undefined, 'scatterRing'],
    ['reduce', 8, THRESHOLDS.reduceShortBytes, SUM, 'binomial'],
    ['reduce', 8, THRESHOLDS.reduceShortBytes + 1, SUM, 'rabenseifner'],
    ['reduce', 8, 1 << 20, NONCOMM, 'binomial'],
    ['allgather', 16, THRESHOLDS.allgatherLongBytes - 1, undefined, 'recursiveDoubling'],
    ['allgather', 16, THRESHOLDS.allgatherLongBytes, undefined, 'ring'],
    ['allgather', 12, THRESHOLDS.allgatherShortBytes - 1, undefined, 'bruck'],
    ['allgather', 12, THRESHOLDS.allgatherShortBytes, undefined, 'ring'],
    ['allgatherv', 12, 100, undefined, 'ring'],
    ['allgatherv', 8, 100, undefined, 'recursiveDoubling'],
    ['alltoall', 8, THRESHOLDS.alltoallShortBytes, undefined, 'bruck'],
    ['alltoall', 7, THRESHOLDS.alltoallShortBytes, undefined, 'scattered'],
    ['alltoall', 8, THRESHOLDS.alltoallShortBytes + 1, undefined, 'scattered'],
    ['alltoall', 8, THRESHOLDS.alltoallMediumBytes, undefined, 'scattered'],
    ['alltoall', 8, THRESHOLDS.alltoallMediumBytes + 1, undefined, 'pairwise'],
    ['alltoallv', 8, 1, undefined, 'scattered'],
    ['reduceScatter', 8, THRESHOLDS.reduceScatterLongBytes - 1, SUM, 'recursiveHalving'],
    ['reduceScatter', 8, THRESHOLDS.reduceScatterLongBytes, SUM, 'pairwise'],
    ['reduceScatterBlock', 8, 64, NONCOMM, 'reduceScatterv'],
    ['barrier', 5, 0, undefined, 'dissemination'],
    ['gather', 5, 0, undefined, 'binomial'],
    ['gatherv', 5, 0, undefined, 'linear'],
    ['scatter', 5, 0, undefined, 'binomial'],
    ['scatterv', 5, 0, undefined, 'linear'],
    ['scan', 5, 0, NONCOMM, 'recursiveDoubling'],
    ['exscan', 5, 0, SUM, 'recursiveDoubling'],
  ] as const)('%s on %i ranks, %i bytes, %o -> %s', (collective, size, bytes, op, want) => {
    expect(chooseAlgorithm(collective, size, bytes, op)).toBe(want);
    expect(selectAlgorithm(collective, size, bytes, op).name).toBe(want);
  });

  it('never picks an algorithm that needs commutativity for a non-commutative op, and always picks a registered one', () => {
    for (const collective of Object.keys(ALGORITHMS) as Collective[]) {
      for (let size = 1; size <= 70; size++) {
        for (const bytes of [0, 8, 256, 257, 2048, 2049, 12288, 32769, 81920, 524288, 1 << 24]) {
          for (const op of [SUM, NONCOMM, undefined]) {
            const name = chooseAlgorithm(collective, size, bytes, op);
            const alg = ALGORITHMS[collective][name];
            expect(alg, `${collective} ${name}`).toBeDefined();
            if (op && !op.commutative) expect(alg!.commutativeOnly, `${collective} ${size} ${bytes}`).toBe(false);
          }
        }
      }
    }
  });
});

describe('selectAlgorithm checks a requested name', () => {
  it('returns the requested algorithm when it is valid', () => {
    expect(selectAlgorithm('alltoall', 5, 10, undefined, 'bruck').fn).toBe(ALGORITHMS.alltoall.bruck!.fn);
    expect(selectAlgorithm('allreduce', 5, 10, MATMUL, 'reduceBcast').name).toBe('reduceBcast');
  });

  it('an unknown name fails with MPI_ERR_ARG listing the valid names', () => {
    let err: unknown = null;
    try {
      selectAlgorithm('bcast', 4, 100, undefined, 'pipelined');
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(MpiError);
    expect((err as MpiError).errorClass).toBe('MPI_ERR_ARG');
    for (const name of Object.keys(ALGORITHMS.bcast)) expect((err as MpiError).message).toContain(name);
    expect((err as MpiError).message).toContain("'pipelined'");
    // inherited object keys are not algorithms
    expect(() => selectAlgorithm('bcast', 4, 100, undefined, 'toString')).toThrow(/MPI_ERR_ARG/);
  });

  it('a commutative-only algorithm with a non-commutative op fails with MPI_ERR_ARG naming the ones that fit', () => {
    for (const [collective, name] of [
      ['allreduce', 'ring'],
      ['allreduce', 'rabenseifner'],
      ['reduce', 'rabenseifner'],
      ['reduceScatter', 'recursiveHalving'],
      ['reduceScatterBlock', 'pairwise'],
    ] as const) {
      let err: unknown = null;
      try {
        selectAlgorithm(collective, 8, 1 << 20, MATMUL, name);
      } catch (e) {
        err = e;
      }
      expect(err, `${collective} ${name}`).toBeInstanceOf(MpiError);
      const msg = (err as MpiError).message;
      expect(msg).toMatch(/^MPI_ERR_ARG: .*needs a commutative op/);
      for (const a of Object.values(ALGORITHMS[collective])) {
        if (a.commutativeOnly) expect(msg).not.toMatch(new RegExp(`valid for it:.*\\b${a.name}\\b`));
        else expect(msg).toContain(a.name);
      }
      // the same algorithm is fine with a commutative op
      expect(selectAlgorithm(collective, 8, 1 << 20, SUM, name).name).toBe(name);
    }
  });

  it('an unknown collective or a bad size fails with MPI_ERR_ARG', () => {
    expect(() => selectAlgorithm('allToAll' as Collective, 4, 1)).toThrow(/MPI_ERR_ARG.*valid: barrier, bcast/);
    expect(() => selectAlgorithm('bcast', 0, 1)).toThrow(/MPI_ERR_ARG.*size/);
  });
});

describe('the listing of algorithms', () => {
  it('gives every algorithm an origin among the libraries and a cost formula in α, β, γ', () => {
    const origins = new Set(['MPICH', 'Open MPI', 'MVAPICH2', 'Cray MPT', 'phit']);
    for (const [coll, algs] of Object.entries(ALGORITHMS)) {
      for (const a of Object.values(algs)) {
        expect(origins.has(a.origin), `${coll}/${a.name} origin ${a.origin}`).toBe(true);
        expect(a.cost, `${coll}/${a.name} cost`).toMatch(/α/);
        if (a.name !== 'dissemination' && coll !== 'barrier') expect(a.cost, `${coll}/${a.name} cost`).toMatch(/β/);
      }
    }
  });
});
