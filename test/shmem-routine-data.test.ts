/**
 * Real data for the routines of the manifest (test/shmem-routine-manifest.ts) that no other test
 * checks on every face and type: every integer atomic on every integer type, and the typed, sized
 * and mem RMA and put-with-signal calls, each on the default context, a context of its own and a
 * context of a team whose PE numbers are not the job's; and the team and active-set routines
 * whose data no other test checks. Expected values are computed here, from the values each PE
 * sends, never taken from a run.
 */
import { describe, expect, it } from 'vitest';
import type { RankContext } from '../runtime/rank.ts';
import type { AtomicType, FetchArray, Shmem, ShmemCtx, Symmetric } from '../runtime/shmem/shmem.ts';
import { simulate } from '../runtime/simulate.ts';

/** Calls a face's method by name (the typed families are built by name in loops). */
function call(face: object, name: string, ...args: unknown[]): Promise<unknown> {
  return Promise.resolve((face as Record<string, (...a: unknown[]) => unknown>)[name]!(...args));
}

/** The three faces a program issues RMA and atomics on, and the number each gives job PE `pe`. */
async function faces(s: Shmem): Promise<{ name: string; f: Shmem | ShmemCtx; pe: (jobPe: number) => number }[]> {
  // the job's PEs in reverse order: a context of it numbers the PEs backwards
  const rev = (await s.teamSplitStrided(s.TEAM_WORLD, s.nPes() - 1, -1, s.nPes()))!;
  return [
    { name: 'default', f: s, pe: (p) => p },
    { name: 'ctxCreate', f: s.ctxCreate(), pe: (p) => p },
    { name: 'teamCreateCtx', f: s.teamCreateCtx(rev), pe: (p) => s.teamTranslatePe(s.TEAM_WORLD, p, rev) },
  ];
}

async function run<R>(machine: string, nodes: number, program: (ctx: RankContext) => Promise<R>): Promise<readonly R[]> {
  return (await simulate({ machine, nodes, program })).rankResults;
}

// --- atomics

const INT_TYPES: readonly AtomicType[] = ['int32', 'uint32', 'int64', 'uint64'];

/** One atomic of the sequence: its routine, operand and comparand. */
interface Op {
  readonly name: string;
  readonly v?: bigint;
  readonly cond?: bigint;
}

/** The sequence every face runs on every type: each integer atomic, wrapping at the type's ends, then each fetching nbi form. */
function ops(type: AtomicType): Op[] {
  const bits = type.endsWith('32') ? 32 : 64;
  const max = type.startsWith('u') ? (1n << BigInt(bits)) - 1n : (1n << BigInt(bits - 1)) - 1n;
  return [
    { name: 'atomicSet', v: max },
    { name: 'atomicInc' },
    { name: 'atomicFetch' },
    { name: 'atomicSet', v: 5n },
    { name: 'atomicAdd', v: 10n },
    { name: 'atomicFetchAdd', v: max },
    { name: 'atomicFetchInc' },
    { name: 'atomicSwap', v: 0b1100n },
    { name: 'atomicCompareSwap', cond: 1n, v: 99n },
    { name: 'atomicCompareSwap', cond: 0b1100n, v: 0b1010n },
    { name: 'atomicAnd', v: 0b0110n },
    { name: 'atomicFetchAnd', v: 0b0011n },
    { name: 'atomicOr', v: 0b1000n },
    { name: 'atomicFetchOr', v: 0b0100n },
    { name: 'atomicXor', v: 0b1111n },
    { name: 'atomicFetchXor', v: 0b0101n },
    { name: 'atomicFetchNbi' },
    { name: 'atomicFetchAddNbi', v: 3n },
    { name: 'atomicFetchIncNbi' },
    { name: 'atomicSwapNbi', v: 9n },
    { name: 'atomicCompareSwapNbi', cond: 9n, v: 6n },
    { name: 'atomicFetchAndNbi', v: 3n },
    { name: 'atomicFetchOrNbi', v: 5n },
    { name: 'atomicFetchXorNbi', v: 2n },
  ];
}

/** The model: what `op` leaves in a variable of `type` holding `x`, and the old value a fetching form returns. */
function model(type: AtomicType, x: bigint, op: Op): bigint {
  const bits = type.endsWith('32') ? 32 : 64;
  const wrap = (y: bigint): bigint => (type.startsWith('u') ? BigInt.asUintN(bits, y) : BigInt.asIntN(bits, y));
  const v = op.v ?? 0n;
  const base = op.name.replace(/^atomic(Fetch)?/, '').replace(/Nbi$/, '') || 'Fetch';
  const next: Record<string, bigint> = { Set: v, Fetch: x, Add: x + v, Inc: x + 1n, Swap: v, CompareSwap: x === op.cond ? v : x, And: x & v, Or: x | v, Xor: x ^ v };
  return wrap(next[base]!);
}

function fetchArray(type: AtomicType): FetchArray {
  return type === 'int32' ? new Int32Array(1) : type === 'uint32' ? new Uint32Array(1) : type === 'int64' ? new BigInt64Array(1) : new BigUint64Array(1);
}

/** Issues `op` on face `f` at `v` on PE `pe`; the old value for the fetching forms (after a quiet for the nbi ones), null otherwise. */
async function issue(f: Shmem | ShmemCtx, op: Op, v: Symmetric, pe: number, type: AtomicType): Promise<bigint | null> {
  const nbi = op.name.endsWith('Nbi');
  const fetching = nbi || /^atomic(Fetch|Swap|CompareSwap)/.test(op.name);
  const operands = op.name.includes('CompareSwap') ? [op.cond, op.v] : op.v === undefined ? [] : [op.v];
  if (nbi) {
    const fetch = fetchArray(type);
    await call(f, op.name, fetch, 0, v, ...operands, pe, type);
    await f.quiet();
    return BigInt(fetch[0]!);
  }
  const old = await call(f, op.name, v, ...operands, pe, type);
  // non-fetching atomics complete at quiet, and only a fence orders them with the next
  await f.fence();
  return fetching ? (old as bigint) : null;
}

// --- typed RMA

const KINDS = ['Int8', 'Uint8', 'Int16', 'Uint16', 'Int32', 'Uint32', 'Int64', 'Uint64', 'Float32', 'Float64'] as const;
type Kind = (typeof KINDS)[number];
const ARRAYS: Readonly<Record<Kind, new (n: number) => ArrayLike<number | bigint> & { [i: number]: number | bigint }>> = {
  Int8: Int8Array, Uint8: Uint8Array, Int16: Int16Array, Uint16: Uint16Array, Int32: Int32Array, Uint32: Uint32Array,
  Int64: BigInt64Array, Uint64: BigUint64Array, Float32: Float32Array, Float64: Float64Array,
};
/** Elements per region. */
const N = 6;
/** Bytes of one kind's four regions (put, putNbi, p, iput), 8 bytes an element whatever the kind. */
const KIND_BYTES = 4 * N * 8;

/** Element `j` PE `pe` sends of `k` on face number `fi`: exact in the kind, negative where it is signed. */
function value(k: Kind, pe: number, fi: number, j: number): number | bigint {
  const m = (pe * 37 + fi * 11 + j * 5) % 100;
  const signed = !k.startsWith('Uint');
  const v = signed && j % 2 === 1 ? -m : m;
  if (k.startsWith('Float')) return v + 0.5;
  return k.endsWith('64') ? BigInt(v) : v;
}

/** Byte `i` PE `pe` sends to the sized and mem calls on face `fi`. */
function byte(pe: number, fi: number, i: number): number {
  return (pe * 53 + fi * 29 + i * 7) & 0xff;
}

const SIZES = [8, 16, 32, 64, 128];

describe('every SHMEM routine moves real data', () => {
  it('xc30, 2 PEs on 2 nodes: every integer atomic on every integer type, on the default context, a context of its own and a context of a team, gives the model values', async () => {
    const res = await run('xc30', 2, async (ctx) => {
      const s = ctx.shmem;
      const me = s.myPe();
      const fs = await faces(s);
      // one variable per face and type, at element 1 of its 16 bytes
      const vars = await s.malloc(16 * fs.length * INT_TYPES.length);
      const out: Record<string, { old: (bigint | null)[]; end: bigint }> = {};
      for (const [fi, { name, f, pe }] of fs.entries()) {
        for (const [ti, type] of INT_TYPES.entries()) {
          const v = vars.at(16 * (fi * INT_TYPES.length + ti)).element(type, 1);
          const old: (bigint | null)[] = [];
          if (me === 0) for (const op of ops(type)) old.push(await issue(f, op, v, pe(1), type));
          await s.barrierAll();
          const local = type.endsWith('32') ? (type === 'int32' ? BigInt(v.int32()[0]!) : BigInt(v.uint32()[0]!)) : type === 'int64' ? v.int64()[0]! : v.uint64()[0]!;
          out[`${name}.${type}`] = { old, end: local };
        }
      }
      return out;
    });
    for (const name of ['default', 'ctxCreate', 'teamCreateCtx']) {
      for (const type of INT_TYPES) {
        let x = 0n;
        const old: (bigint | null)[] = [];
        for (const op of ops(type)) {
          const fetching = op.name.endsWith('Nbi') || /^atomic(Fetch|Swap|CompareSwap)/.test(op.name);
          old.push(fetching ? x : null);
          x = model(type, x, op);
        }
        expect(res[0]![`${name}.${type}`]!.old, `${name} ${type}: old values`).toEqual(old);
        // the target is PE 1, however the face numbers it
        expect(res[1]![`${name}.${type}`]!.end, `${name} ${type}: the value left on PE 1`).toBe(x);
      }
    }
  });

  it('xe6, 2 PEs on 2 nodes: typed, sized and mem RMA, put-with-signal, quiet and fence on the default context, ctxCreate and teamCreateCtx give the values sent', async () => {
    const res = await run('xe6', 2, async (ctx) => {
      const s = ctx.shmem;
      const me = s.myPe();
      const other = 1 - me;
      const fs = await faces(s);
      const got: Record<string, unknown> = {};
      const want: Record<string, unknown> = {};
      const sizedAt = KINDS.length * KIND_BYTES;
      const memAt = sizedAt + SIZES.length * 3 * 4 * 16;
      for (const [fi, { name, f, pe }] of fs.entries()) {
        const seg = await s.malloc(memAt + 4 * 64);
        const sig = await s.malloc(4 * 8);
        const to = pe(other);
        // puts of every kind: from a plain array, from a typed array (nbi), one element, every second element
        for (const [ki, k] of KINDS.entries()) {
          const at = ki * KIND_BYTES;
          const mine = Array.from({ length: 2 * N }, (_, j) => value(k, me, fi, j));
          const typed = new ARRAYS[k](2 * N);
          mine.forEach((x, j) => (typed[j] = x));
          await call(f, `put${k}`, seg.at(at), mine, N, to);
          await call(f, `put${k}Nbi`, seg.at(at + N * 8), typed, N, to);
          await call(f, `p${k}`, seg.at(at + 2 * N * 8), mine[3], to);
          await call(f, `iput${k}`, seg.at(at + 3 * N * 8), typed, 2, 2, N / 2, to);
        }
        // the sized calls on bytes: 4 elements, 4 more by nbi, elements 0 and 2 to elements 0 and 3
        for (const [bi, bits] of SIZES.entries()) {
          const e = bits / 8;
          const at = sizedAt + bi * 3 * 4 * 16;
          const src = Uint8Array.from({ length: 8 * e }, (_, i) => byte(me, fi, bi * 200 + i));
          await call(f, `put${bits}`, seg.at(at), src, 4, to);
          await call(f, `put${bits}Nbi`, seg.at(at + 4 * 16), src.subarray(4 * e), 4, to);
          await call(f, `iput${bits}`, seg.at(at + 8 * 16), src, 3, 2, 2, to);
        }
        const bytes = Uint8Array.from({ length: 64 }, (_, i) => byte(me, fi, 1000 + i));
        await f.putmem(seg.at(memAt), bytes, 40, to);
        await f.putmemNbi(seg.at(memAt + 64), bytes, 64, to);
        await f.quiet();
        // put-with-signal: the data is there once the signal is
        await f.putSignal(seg.at(memAt + 128), new Int32Array([me, -7, 9, 11]), 4, sig, 1, 'add', to);
        await f.putSignalNbi(seg.at(memAt + 144), new Float64Array([me + 0.25, -3]), 2, sig, 1, 'add', to);
        await f.putmemSignal(seg.at(memAt + 160), bytes.subarray(0, 16), 16, sig.at(8), 40 + me, 'set', to);
        await f.putmemSignalNbi(seg.at(memAt + 176), bytes.subarray(16, 48), 32, sig.at(16), 77, 'set', to);
        // fence: the data before it lands before the flag after it
        await f.putmem(seg.at(memAt + 208), bytes.subarray(48), 16, to);
        await f.fence();
        await f.atomicSet(sig.at(24), 1n, to, 'int64');
        await f.quiet();
        await s.signalWaitUntil(sig, 'eq', 2);
        await s.waitUntil(sig.at(8), 'eq', 40 + other);
        await s.waitUntil(sig.at(16), 'eq', 77);
        await s.waitUntil(sig.at(24), 'eq', 1);
        got[`${name}.signals`] = [[...new Int32Array(seg.local.buffer, seg.local.byteOffset + memAt + 128, 4)], [...new Float64Array(seg.local.buffer, seg.local.byteOffset + memAt + 144, 2)], [...seg.local.subarray(memAt + 160, memAt + 224)]];
        const theirs = Array.from({ length: 64 }, (_, i) => byte(other, fi, 1000 + i));
        want[`${name}.signals`] = [[other, -7, 9, 11], [other + 0.25, -3], [...theirs.slice(0, 48), ...theirs.slice(48, 64)]];
        await s.barrierAll();
        // what landed here, and what the gets bring back from the other PE (what this PE put there)
        for (const [ki, k] of KINDS.entries()) {
          const at = ki * KIND_BYTES;
          const A = ARRAYS[k];
          const region = (r: number, n: number): (number | bigint)[] => {
            const view = new A(n);
            const bytesPer = (view as unknown as { BYTES_PER_ELEMENT: number }).BYTES_PER_ELEMENT;
            new Uint8Array((view as unknown as { buffer: ArrayBuffer }).buffer).set(seg.local.subarray(at + r * N * 8, at + r * N * 8 + n * bytesPer));
            return Array.from(view as ArrayLike<number | bigint>);
          };
          const zero = k.endsWith('64') && !k.startsWith('Float') ? 0n : 0;
          const v = (p: number, j: number): number | bigint => value(k, p, fi, j);
          got[`${name}.${k}.landed`] = [region(0, N), region(1, N), region(2, 1), region(3, N)];
          want[`${name}.${k}.landed`] = [Array.from({ length: N }, (_, j) => v(other, j)), Array.from({ length: N }, (_, j) => v(other, j)), [v(other, 3)], Array.from({ length: N }, (_, j) => (j % 2 === 0 ? v(other, j) : zero))];
          const back = new A(N);
          await call(f, `get${k}`, back, seg.at(at), N, to);
          const backNbi = new A(N);
          await call(f, `get${k}Nbi`, backNbi, seg.at(at + N * 8), N, to);
          await f.quiet();
          const backI = new A(N);
          await call(f, `iget${k}`, backI, seg.at(at + 3 * N * 8), 1, 2, N / 2, to);
          const one = await call(f, `g${k}`, seg.at(at + 2 * N * 8), to);
          got[`${name}.${k}.back`] = [Array.from(back), Array.from(backNbi), Array.from(backI).slice(0, N / 2), one];
          want[`${name}.${k}.back`] = [Array.from({ length: N }, (_, j) => v(me, j)), Array.from({ length: N }, (_, j) => v(me, j)), [0, 2, 4].map((j) => v(me, j)), v(me, 3)];
        }
        for (const [bi, bits] of SIZES.entries()) {
          const e = bits / 8;
          const at = sizedAt + bi * 3 * 4 * 16;
          const from = (p: number): number[] => Array.from({ length: 8 * e }, (_, i) => byte(p, fi, bi * 200 + i));
          const el = (a: number[], k: number): number[] => a.slice(k * e, (k + 1) * e);
          got[`${name}.${bits}.landed`] = [[...seg.local.subarray(at, at + 4 * e)], [...seg.local.subarray(at + 4 * 16, at + 4 * 16 + 4 * e)], [...seg.local.subarray(at + 8 * 16, at + 8 * 16 + 4 * e)]];
          want[`${name}.${bits}.landed`] = [from(other).slice(0, 4 * e), from(other).slice(4 * e), [...el(from(other), 0), ...new Array<number>(2 * e).fill(0), ...el(from(other), 2)]];
          const back = new Uint8Array(4 * e);
          await call(f, `get${bits}`, back, seg.at(at), 4, to);
          const backNbi = new Uint8Array(4 * e);
          await call(f, `get${bits}Nbi`, backNbi, seg.at(at + 4 * 16), 4, to);
          await f.quiet();
          const backI = new Uint8Array(2 * e);
          await call(f, `iget${bits}`, backI, seg.at(at + 8 * 16), 1, 3, 2, to);
          got[`${name}.${bits}.back`] = [[...back], [...backNbi], [...backI]];
          want[`${name}.${bits}.back`] = [from(me).slice(0, 4 * e), from(me).slice(4 * e), [...el(from(me), 0), ...el(from(me), 2)]];
        }
        const mine = Array.from({ length: 64 }, (_, i) => byte(me, fi, 1000 + i));
        got[`${name}.mem.landed`] = [[...seg.local.subarray(memAt, memAt + 40)], [...seg.local.subarray(memAt + 64, memAt + 128)]];
        want[`${name}.mem.landed`] = [theirs.slice(0, 40), theirs];
        const g = new Uint8Array(40);
        await f.getmem(g, seg.at(memAt), 40, to);
        const gNbi = new Uint8Array(64);
        await f.getmemNbi(gNbi, seg.at(memAt + 64), 64, to);
        await f.quiet();
        got[`${name}.mem.back`] = [[...g], [...gNbi]];
        want[`${name}.mem.back`] = [mine.slice(0, 40), mine];
        await s.barrierAll();
      }
      return { got, want };
    });
    for (const [pe, { got, want }] of res.entries()) {
      expect(Object.keys(got).length, `PE ${pe}`).toBe(3 * (1 + 2 * KINDS.length + 2 * SIZES.length + 2));
      expect(got, `PE ${pe}`).toEqual(want);
    }
  });

  it('xe6, 2 PEs on 2 nodes: long double RMA and put-with-signal on the default context, ctxCreate and teamCreateCtx move the 16-byte layout and read it back', async () => {
    // a long double is 16 bytes, a double and 8 bytes of padding: a Float64Array of (value, padding) pairs
    const M = 4;
    const ld = (p: number, fi: number, j: number): number => (j % 2 === 1 ? -1 : 1) * ((p + 1) * 1000 + fi * 100 + j + 0.25);
    const pad = (p: number, fi: number, j: number): number => p * 10 + fi + j / 8 + 0.5;
    /** Elements `js` of PE `p`'s pairs: with its padding, or with zero padding (a put from plain values, p). */
    const pairs = (p: number, fi: number, js: readonly number[], padded: boolean): number[] => js.flatMap((j) => [ld(p, fi, j), padded ? pad(p, fi, j) : 0]);
    const res = await run('xe6', 2, async (ctx) => {
      const s = ctx.shmem;
      const me = s.myPe();
      const other = 1 - me;
      const got: Record<string, unknown> = {};
      const want: Record<string, unknown> = {};
      for (const [fi, { name, f, pe }] of (await faces(s)).entries()) {
        // regions, in 16-byte elements: put 0..3, putNbi 4..7, p 8, iput 9..11, putSignal 12..13, putSignalNbi 14..15
        const seg = await s.malloc(16 * 16);
        const sig = await s.malloc(8);
        const to = pe(other);
        const el = (i: number): Symmetric => seg.at(16 * i);
        const plain = Array.from({ length: M }, (_, j) => ld(me, fi, j));
        const typed = Float64Array.from(pairs(me, fi, [0, 1, 2, 3], true));
        await f.putLongdouble(el(0), plain, M, to);
        await f.putLongdoubleNbi(el(4), typed, M, to);
        await f.pLongdouble(el(8), ld(me, fi, 5), to);
        await f.iputLongdouble(el(9), typed, 2, 3, 2, to);
        await f.quiet();
        await f.putLongdoubleSignal(el(12), plain.slice(1), 2, sig, 1, 'add', to);
        await f.putLongdoubleSignalNbi(el(14), typed.subarray(4), 2, sig, 1, 'add', to);
        await f.quiet();
        await s.signalWaitUntil(sig, 'eq', 2);
        const landed = (from: number, n: number): number[] => [...new Float64Array(seg.local.buffer, seg.local.byteOffset + 16 * from, 2 * n)];
        got[`${name}.landed`] = [landed(0, M), landed(4, M), landed(8, 1), landed(9, 3), landed(12, 2), landed(14, 2)];
        want[`${name}.landed`] = [
          pairs(other, fi, [0, 1, 2, 3], false),
          pairs(other, fi, [0, 1, 2, 3], true),
          pairs(other, fi, [5], false),
          [...pairs(other, fi, [0], true), 0, 0, ...pairs(other, fi, [3], true)],
          pairs(other, fi, [1, 2], false),
          pairs(other, fi, [2, 3], true),
        ];
        await s.barrierAll();
        // what this PE put on the other, read back
        const back = new Float64Array(2 * M);
        await f.getLongdouble(back, el(0), M, to);
        const backNbi = new Float64Array(2 * M);
        await f.getLongdoubleNbi(backNbi, el(4), M, to);
        await f.quiet();
        const backI = new Float64Array(2 * 3).fill(-9);
        await f.igetLongdouble(backI, el(9), 2, 2, 2, to);
        got[`${name}.back`] = [[...back], [...backNbi], await f.gLongdouble(el(8), to), await f.gLongdouble(el(4), to), [...backI]];
        want[`${name}.back`] = [pairs(me, fi, [0, 1, 2, 3], false), pairs(me, fi, [0, 1, 2, 3], true), ld(me, fi, 5), ld(me, fi, 0), [...pairs(me, fi, [0], true), -9, -9, ...pairs(me, fi, [3], true)]];
        await s.barrierAll();
      }
      return { got, want };
    });
    for (const [pe, { got, want }] of res.entries()) {
      expect(Object.keys(got).length, `PE ${pe}`).toBe(3 * 2);
      expect(got, `PE ${pe}`).toEqual(want);
    }
  });

  it('xe6, 2 PEs on 2 nodes: a long double call takes the time of the 128-bit call moving the same bytes', async () => {
    const M = 5;
    const res = await run('xe6', 2, async (ctx) => {
      const s = ctx.shmem;
      const seg = await s.malloc(16 * 2 * M);
      const sig = await s.malloc(8);
      const pairs = new Float64Array(2 * 2 * M).map((_, i) => i + 0.5);
      const bytes = new Uint8Array(pairs.buffer);
      const times: Record<string, number[]> = {};
      // each pair of calls moves the same 16-byte elements; PE 1 only serves
      const calls: [string, () => Promise<unknown>, () => Promise<unknown>][] = [
        ['put', () => s.putLongdouble(seg, pairs, M, 1), () => s.put128(seg, bytes, M, 1)],
        ['putNbi', () => s.putLongdoubleNbi(seg, pairs, M, 1), () => s.put128Nbi(seg, bytes, M, 1)],
        ['get', () => s.getLongdouble(pairs, seg, M, 1), () => s.get128(bytes, seg, M, 1)],
        ['getNbi', () => s.getLongdoubleNbi(pairs, seg, M, 1), () => s.get128Nbi(bytes, seg, M, 1)],
        ['iput', () => s.iputLongdouble(seg, pairs, 2, 2, M, 1), () => s.iput128(seg, bytes, 2, 2, M, 1)],
        ['iget', () => s.igetLongdouble(pairs, seg, 2, 2, M, 1), () => s.iget128(bytes, seg, 2, 2, M, 1)],
        ['putSignal', () => s.putLongdoubleSignal(seg, pairs, M, sig, 1, 'add', 1), () => s.putmemSignal(seg, bytes, 16 * M, sig, 1, 'add', 1)],
        ['putSignalNbi', () => s.putLongdoubleSignalNbi(seg, pairs, M, sig, 1, 'add', 1), () => s.putmemSignalNbi(seg, bytes, 16 * M, sig, 1, 'add', 1)],
      ];
      if (s.myPe() === 0) {
        // the signal's word in the target NIC's AMO cache first, so that both signal calls find it there
        await s.atomicAdd(sig, 0n, 1, 'uint64');
        await s.quiet();
        for (const [name, a, b] of calls) {
          times[name] = [];
          for (const c of [a, b]) {
            const t0 = ctx.now();
            await c();
            await s.quiet();
            // ctx.now() is in microseconds: back to whole picoseconds
            times[name].push(Math.round((ctx.now() - t0) * 1e6));
          }
        }
      }
      await s.barrierAll();
      return times;
    });
    const times = res[0]!;
    expect(Object.keys(times).length).toBe(8);
    for (const [name, [ld, b128]] of Object.entries(times)) {
      expect(ld, name).toBeGreaterThan(0);
      expect(ld, name).toBe(b128);
    }
  });

  it('xe6, 3 PEs on 3 nodes: team and active-set routines no other test checks the data of give the data computed here', async () => {
    const res = await run('xe6', 3, async (ctx) => {
      const s = ctx.shmem;
      const me = s.myPe();
      const got: Record<string, unknown> = {};
      const want: Record<string, unknown> = {};
      // memory: calloc zeroes, align and mallocWithHints give memory that RMA and atomics reach
      const z = await s.calloc(4, 8);
      got.calloc = [...z.int64()];
      want.calloc = [0n, 0n, 0n, 0n];
      const al = await s.align(64, 24);
      await s.putFloat64(al, [me + 0.5, -me, 3], 3, (me + 1) % 3);
      const hinted = await s.mallocWithHints(8, s.MALLOC_ATOMICS_REMOTE);
      await s.atomicAdd(hinted, BigInt(me + 1), 0);
      await s.barrierAll();
      got.align = [...al.float64()];
      want.align = [((me + 2) % 3) + 0.5, -((me + 2) % 3), 3];
      got.hinted = me === 0 ? hinted.int64()[0] : null;
      want.hinted = me === 0 ? 6n : null;
      // teamGetConfig gives the configuration the split was given
      const cfg = await s.teamSplitStrided(s.TEAM_WORLD, 0, 1, 3, { numContexts: 2 });
      got.teamGetConfig = s.teamGetConfig(cfg);
      want.teamGetConfig = { numContexts: 2 };
      // syncAll and sync (a team's, an active set's) complete nothing, but a quiet before them does
      const flag = await s.malloc(3 * 8);
      const pSync = await s.malloc(8 * s.COLLECT_SYNC_SIZE);
      pSync.int64().fill(s.SYNC_VALUE);
      const pWrk = await s.malloc(512);
      await s.barrierAll();
      const syncs: [string, () => Promise<void>][] = [
        ['syncAll', () => s.syncAll()],
        ['sync(team)', () => s.sync(s.TEAM_WORLD)],
        ['sync(active set)', () => s.sync(0, 0, 3, pSync)],
      ];
      for (const [i, [label, sync]] of syncs.entries()) {
        await s.pInt64(flag.element('int64', i), BigInt(10 * i + me), (me + 1) % 3);
        await s.quiet();
        await sync();
        got[label] = flag.int64()[i];
        want[label] = BigInt(10 * i + ((me + 2) % 3));
      }
      // world and team forms of broadcastmem, collectmem, fcollectmem, alltoallmem, alltoallsmem
      const src = await s.malloc(64);
      const dst = await s.malloc(128);
      src.local.set(Array.from({ length: 64 }, (_, i) => me * 64 + i));
      const mine = (p: number, from: number, n: number): number[] => Array.from({ length: n }, (_, i) => p * 64 + from + i);
      // the team of PEs 2 and 0, in that order
      const pair = await s.teamSplitStrided(s.TEAM_WORLD, 2, -2, 2);
      const colls: [string, () => Promise<void>, number, () => number[]][] = [
        ['broadcastmem(world)', () => s.broadcastmem(dst, src, 8, 1), 8, () => mine(1, 0, 8)],
        ['broadcastmem(team)', () => (pair ? s.broadcastmem(pair, dst, src, 8, 0) : Promise.resolve()), 8, () => (pair ? mine(2, 0, 8) : [])],
        ['fcollectmem(world)', () => s.fcollectmem(dst, src, 4), 12, () => [0, 1, 2].flatMap((p) => mine(p, 0, 4))],
        ['fcollectmem(team)', () => (pair ? s.fcollectmem(pair, dst, src, 4) : Promise.resolve()), 8, () => (pair ? [2, 0].flatMap((p) => mine(p, 0, 4)) : [])],
        ['collectmem(world)', () => s.collectmem(dst, src, me + 1), 6, () => [0, 1, 2].flatMap((p) => mine(p, 0, p + 1))],
        ['collectmem(team)', () => (pair ? s.collectmem(pair, dst, src, me + 1) : Promise.resolve()), 4, () => (pair ? [2, 0].flatMap((p) => mine(p, 0, p + 1)) : [])],
        // block j of 4 bytes to team PE j
        ['alltoallmem', () => s.alltoallmem(s.TEAM_WORLD, dst, src, 4), 12, () => [0, 1, 2].flatMap((p) => mine(p, 4 * me, 4))],
        // 2 bytes per pair, dest stride 2, source stride 3: dest byte (p * 2 + k) * 2 gets byte (me * 2 + k) * 3 of PE p
        ['alltoallsmem', () => s.alltoallsmem(s.TEAM_WORLD, dst, src, 2, 3, 2), 12, () => [0, 1, 2].flatMap((p) => [0, 1].flatMap((k) => [p * 64 + (me * 2 + k) * 3, 0xee]))],
      ];
      for (const [label, coll, n, expect] of colls) {
        dst.local.fill(0xee);
        await s.barrierAll();
        await coll();
        got[label] = [...dst.local.subarray(0, n)];
        const e = expect();
        want[label] = e.length > 0 ? e.slice(0, n) : new Array<number>(n).fill(0xee);
      }
      // the active set of PEs 0 and 2 (PE_start 0, logPE_stride 1, PE_size 2); PE 1 is not in it
      const inSet = me !== 1;
      const sp = me / 2;
      const set = [0, 1, 2, pSync] as const;
      const a = await s.malloc(256);
      const b = await s.malloc(256);
      for (const bits of [32, 64]) {
        const vals = (p: number): bigint[] => Array.from({ length: 8 }, (_, i) => BigInt((p + 1) * 100 + i) * (bits === 64 ? 3_000_000_001n : 1n));
        const write = (x: Symmetric, vs: bigint[]): void => {
          if (bits === 32) x.int32().set(vs.map(Number));
          else x.int64().set(vs);
        };
        const read = (x: Symmetric, n: number): bigint[] => (bits === 32 ? [...x.int32().subarray(0, n)].map(BigInt) : [...x.int64().subarray(0, n)]);
        const setCalls: [string, () => Promise<unknown>, number, (p: number) => bigint[]][] = [
          // from set PE 1 (PE 2); the root's dest is left alone
          [`broadcast${bits}`, () => call(s, `broadcast${bits}`, b, a, 3, 1, ...set), 3, (p) => (p === 2 ? new Array<bigint>(3).fill(-1n) : vals(2).slice(0, 3))],
          [`collect${bits}`, () => call(s, `collect${bits}`, b, a, sp + 1, ...set), 3, () => [...vals(0).slice(0, 1), ...vals(2).slice(0, 2)]],
          [`fcollect${bits}`, () => call(s, `fcollect${bits}`, b, a, 2, ...set), 4, () => [...vals(0).slice(0, 2), ...vals(2).slice(0, 2)]],
          // block j of 2 elements to set PE j
          [`alltoall${bits}`, () => call(s, `alltoall${bits}`, b, a, 2, ...set), 4, (p) => [0, 2].flatMap((q) => vals(q).slice(p, p + 2))],
          // on set PE j, element (me * 2 + k) * 2 of dest gets element (j * 2 + k) * 1 of the source of set PE me
          [`alltoalls${bits}`, () => call(s, `alltoalls${bits}`, b, a, 2, 1, 2, ...set), 8, (p) => [0, 2].flatMap((q) => [0, 1].flatMap((k) => [vals(q)[p + k]!, -1n]))],
        ];
        for (const [label, c, n, expect] of setCalls) {
          write(a, vals(me));
          write(b, new Array<bigint>(8).fill(-1n));
          await s.barrierAll();
          if (inSet) await c();
          await s.barrierAll();
          got[label] = inSet ? read(b, n) : null;
          want[label] = inSet ? expect(me).map((x) => BigInt.asIntN(bits, x)) : null;
        }
      }
      // every 1.4 reduction on the set: three elements of PE p are small integers, exact in every type
      const elem = (p: number, j: number, op: string): [number, number] => (op === 'Prod' ? [(p + j) % 3 + 1, (p + 2 * j) % 3 - 1] : [((p + 1) * (j + 2)) % 7 - 2, ((p + 2) * (j + 1)) % 5 - 1]);
      const TO_ALL: [string, string[]][] = [
        ['int', ['Sum', 'Prod', 'Min', 'Max', 'And', 'Or', 'Xor']],
        ['long', ['Sum', 'Prod', 'Min', 'Max', 'And', 'Or', 'Xor']],
        ['longlong', ['Sum', 'Prod', 'Min', 'Max', 'And', 'Or', 'Xor']],
        ['short', ['Sum', 'Prod', 'Min', 'Max', 'And', 'Or', 'Xor']],
        ['double', ['Sum', 'Prod', 'Min', 'Max']],
        ['float', ['Sum', 'Prod', 'Min', 'Max']],
        ['longdouble', ['Sum', 'Prod', 'Min', 'Max']],
        ['complexf', ['Sum', 'Prod']],
        ['complexd', ['Sum', 'Prod']],
      ];
      const f = (op: string, x: number, y: number): number => ({ Sum: x + y, Prod: x * y, Min: Math.min(x, y), Max: Math.max(x, y), And: x & y, Or: x | y, Xor: x ^ y })[op]!;
      for (const [ctype, opNames] of TO_ALL) {
        for (const op of opNames) {
          // element j as the type lays it out: a number, or [re, im] for the complex types
          const put = (x: Symmetric, p: number): void => {
            for (let j = 0; j < 3; j++) {
              const [re, im] = elem(p, j, op);
              if (ctype === 'int') x.int32()[j] = re;
              else if (ctype === 'long' || ctype === 'longlong') x.int64()[j] = BigInt(re);
              else if (ctype === 'short') new Int16Array(x.local.buffer, x.local.byteOffset, 3)[j] = re;
              else if (ctype === 'double') x.float64()[j] = re;
              else if (ctype === 'float') x.float32()[j] = re;
              else if (ctype === 'longdouble') x.float64().set([re, 0], 2 * j);
              else if (ctype === 'complexf') x.float32().set([re, im], 2 * j);
              else x.float64().set([re, im], 2 * j);
            }
          };
          const take = (x: Symmetric): number[] => {
            if (ctype === 'int') return [...x.int32().subarray(0, 3)];
            if (ctype === 'long' || ctype === 'longlong') return [...x.int64().subarray(0, 3)].map(Number);
            if (ctype === 'short') return [...new Int16Array(x.local.buffer, x.local.byteOffset, 3)];
            if (ctype === 'double') return [...x.float64().subarray(0, 3)];
            if (ctype === 'float') return [...x.float32().subarray(0, 3)];
            if (ctype === 'longdouble') return [...x.float64().subarray(0, 6)];
            return ctype === 'complexf' ? [...x.float32().subarray(0, 6)] : [...x.float64().subarray(0, 6)];
          };
          put(a, me);
          b.local.fill(0xff);
          await s.barrierAll();
          if (inSet) await call(s, `${ctype}${op}ToAll`, b, a, 3, ...set.slice(0, 3), pWrk, pSync);
          await s.barrierAll();
          got[`${ctype}${op}ToAll`] = inSet ? take(b) : null;
          const fold = [0, 1, 2].flatMap((j): number[] => {
            const [x, xi] = elem(0, j, op);
            const [y, yi] = elem(2, j, op);
            if (ctype === 'longdouble') return [f(op, x, y), 0];
            if (!ctype.startsWith('complex')) return [f(op, x, y)];
            return op === 'Sum' ? [x + y, xi + yi] : [x * y - xi * yi, x * yi + xi * y];
          });
          want[`${ctype}${op}ToAll`] = inSet ? fold : null;
        }
      }
      return { got, want };
    });
    for (const [pe, { got, want }] of res.entries()) {
      expect(Object.keys(got).length, `PE ${pe}`).toBe(7 + 8 + 10 + 44);
      expect(got, `PE ${pe}`).toEqual(want);
    }
  });
});
