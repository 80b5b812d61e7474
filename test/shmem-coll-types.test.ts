/**
 * The team collectives on every standard RMA type of OpenSHMEM 1.5 (the 1- and 2-byte integers
 * and float32 besides the 4- and 8-byte ones), the complex sum and product reductions, and the
 * OpenSHMEM 1.4 `..._to_all` reductions on short, float, long double (16 bytes, a double in the
 * first 8) and the complex
 * types, with the operators the 1.4 specification gives each: real data checked on every PE,
 * and one bad argument of each failing with one line naming the routine and the value.
 */
import { describe, expect, it } from 'vitest';
import { ShmemError, type ElemType, type Shmem, type Symmetric } from '../runtime/shmem/shmem.ts';
import { simulate } from '../runtime/simulate.ts';

type NumArray = Int8Array | Uint8Array | Int16Array | Uint16Array | Int32Array | Uint32Array | Float32Array | Float64Array | BigInt64Array | BigUint64Array;
const ARRAYS: Record<ElemType, { new (b: ArrayBufferLike, off: number, n: number): NumArray; BYTES_PER_ELEMENT: number }> = {
  int8: Int8Array,
  uint8: Uint8Array,
  int16: Int16Array,
  uint16: Uint16Array,
  int32: Int32Array,
  uint32: Uint32Array,
  int64: BigInt64Array,
  uint64: BigUint64Array,
  float32: Float32Array,
  float64: Float64Array,
};
const SMALL: readonly ElemType[] = ['int8', 'uint8', 'int16', 'uint16', 'float32'];

/** Element `k` of what team PE `pe` contributes (`salt` tells the collectives apart), stored as `type` stores it. */
function value(type: ElemType, pe: number, k: number, salt: number): number | bigint {
  const v = ((pe + 1) * 53 + k * 11 + salt * 29) % 251;
  switch (type) {
    case 'int8':
      return v - 125;
    case 'uint8':
      return v;
    case 'int16':
      return v * 97 - 12000;
    case 'uint16':
      return v * 211;
    case 'float32':
      return Math.fround(v / 3 - 40);
    case 'int64':
    case 'uint64':
      return BigInt(v);
    default:
      return v;
  }
}

function arr(s: Symmetric, type: ElemType, n: number): NumArray {
  return new ARRAYS[type](s.local.buffer, s.local.byteOffset, n);
}

function fill(s: Symmetric, type: ElemType, n: number, f: (k: number) => number | bigint): void {
  const a = arr(s, type, n);
  for (let k = 0; k < n; k++) a[k] = f(k) as never;
}

async function failure(f: () => Promise<unknown>): Promise<string> {
  try {
    await f();
    return 'resolved';
  } catch (e) {
    return `${e instanceof ShmemError ? 'ShmemError' : String(e)}: ${(e as Error).message}`;
  }
}

describe('team collectives on the 1- and 2-byte integers and float32', () => {
  it('xe6, a team of PEs 1..5 of 6 (3 nodes x 2): broadcast, collect, fcollect, alltoall and alltoalls give every PE the data, on each type', async () => {
    const n = 3;
    const r = await simulate({
      machine: 'xe6',
      nodes: 3,
      ppn: 2,
      program: async (ctx) => {
        const s = ctx.shmem;
        const team = await s.teamSplitStrided(s.TEAM_WORLD, 1, 1, 5);
        const src = await s.malloc(256);
        const dst = await s.malloc(256);
        if (team === null) return null;
        const me = s.teamMyPe(team);
        const N = s.teamNPes(team);
        const out: Record<string, (number | bigint)[]> = {};
        for (const type of SMALL) {
          fill(src, type, n, (k) => value(type, me, k, 1));
          await s.broadcast(team, dst, src, n, 2, type);
          out[`broadcast ${type}`] = [...arr(dst, type, n)];
          // collect: team PE i gives i + 1 elements
          fill(src, type, me + 1, (k) => value(type, me, k, 2));
          await s.collect(team, dst, src, me + 1, type);
          out[`collect ${type}`] = [...arr(dst, type, (N * (N + 1)) / 2)];
          fill(src, type, n, (k) => value(type, me, k, 3));
          await s.fcollect(team, dst, src, n, type);
          out[`fcollect ${type}`] = [...arr(dst, type, N * n)];
          // alltoall: block j (n elements) to team PE j
          fill(src, type, N * n, (k) => value(type, me, k, 4));
          await s.alltoall(team, dst, src, n, type);
          out[`alltoall ${type}`] = [...arr(dst, type, N * n)];
          // alltoalls: 2 elements per pair, source stride 3, dest stride 2
          arr(dst, type, 4 * N).fill(0 as never);
          fill(src, type, 3 * 2 * N, (k) => value(type, me, k, 5));
          await s.alltoalls(team, dst, src, 2, 3, 2, type);
          out[`alltoalls ${type}`] = [...arr(dst, type, 4 * N)];
        }
        return { me, out };
      },
    });
    const N = 5;
    for (const x of r.rankResults as ({ me: number; out: Record<string, (number | bigint)[]> } | null)[]) {
      if (x === null) continue;
      const { me, out } = x;
      for (const type of SMALL) {
        expect(out[`broadcast ${type}`], `broadcast ${type}`).toEqual(Array.from({ length: n }, (_, k) => value(type, 2, k, 1)));
        expect(out[`collect ${type}`], `collect ${type}`).toEqual(Array.from({ length: N }, (_, i) => Array.from({ length: i + 1 }, (_, k) => value(type, i, k, 2))).flat());
        expect(out[`fcollect ${type}`], `fcollect ${type}`).toEqual(Array.from({ length: N * n }, (_, k) => value(type, Math.floor(k / n), k % n, 3)));
        // block i of dest is block me of team PE i's source
        expect(out[`alltoall ${type}`], `alltoall ${type}`).toEqual(Array.from({ length: N * n }, (_, k) => value(type, Math.floor(k / n), me * n + (k % n), 4)));
        // dest element (i * 2 + e) * 2 is source element (me * 2 + e) * 3 of team PE i; the odd ones untouched
        const want = Array.from({ length: 4 * N }, (_, k) => (k % 2 === 1 ? 0 : value(type, Math.floor(k / 4), (me * 2 + ((k / 2) % 2)) * 3, 5)));
        expect(out[`alltoalls ${type}`], `alltoalls ${type}`).toEqual(want);
      }
    }
  });

  it('a bad type, a misaligned 2-byte block and a float32 block past the end fail naming the routine and the value', async () => {
    const r = await simulate({
      machine: 'xe6',
      nodes: 2,
      program: async (ctx) => {
        const s = ctx.shmem;
        const a = await s.malloc(16);
        return [
          await failure(() => s.broadcast(s.TEAM_WORLD, a, a, 2, 0, 'int128' as never)),
          await failure(() => s.alltoall(s.TEAM_WORLD, a.at(1), a, 2, 'uint16')),
          await failure(() => s.fcollect(s.TEAM_WORLD, a, a, 3, 'float32')),
          await failure(() => s.collect(s.TEAM_WORLD, a, a.at(2), 1, 'int16')),
          await failure(() => s.alltoalls(s.TEAM_WORLD, a, a, 0, 1, 1, 'int8')),
        ];
      },
    });
    expect(r.rankResults[0]).toEqual([
      'ShmemError: broadcast: type=int128; valid: int8, uint8, int16, uint16, int32, uint32, int64, uint64, float32, float64, longdouble',
      'ShmemError: alltoall: dest is at byte offset 1, not aligned to the 2-byte uint16',
      'ShmemError: fcollect: 24 bytes at dest run past the end of its symmetric object (16 bytes from byte offset 0)',
      // collect on 2 PEs of 2 bytes each fits: it resolves
      'resolved',
      'ShmemError: alltoalls: dst=0 must be a positive integer',
    ]);
  });
});

/** Complex values of PE `pe`, element `k`: [re, im] pairs rounded to the part type. */
function cval(f32: boolean, pe: number, k: number): [number, number] {
  const r = f32 ? Math.fround : (v: number): number => v;
  return [r(((pe + 2) * 0.7 + k * 0.3) % 3.1), r(((pe + 1) * 1.3 - k * 0.45) % 2.3)];
}

/** The fold of `op` over PEs 0..n-1 of element k, each product and sum rounded as C's complex arithmetic does. */
function cfold(f32: boolean, op: 'sum' | 'prod', n: number, k: number): [number, number] {
  const r = f32 ? Math.fround : (v: number): number => v;
  let [re, im] = cval(f32, 0, k);
  for (let p = 1; p < n; p++) {
    const [c, d] = cval(f32, p, k);
    if (op === 'sum') [re, im] = [r(re + c), r(im + d)];
    else [re, im] = [r(r(re * c) - r(im * d)), r(r(re * d) + r(im * c))];
  }
  return [re, im];
}

describe('complex reductions', () => {
  it('xc30, 5 PEs: sumReduce and prodReduce on complexf and complexd over TEAM_WORLD and a 3-PE team, real part first', async () => {
    const count = 4;
    const r = await simulate({
      machine: 'xc30',
      nodes: 5,
      program: async (ctx) => {
        const s = ctx.shmem;
        const me = s.myPe();
        const team = await s.teamSplitStrided(s.TEAM_WORLD, 0, 2, 3);
        const src = await s.malloc(16 * count);
        const dst = await s.malloc(16 * count);
        const out: Record<string, number[]> = {};
        for (const type of ['complexf', 'complexd'] as const) {
          const f32 = type === 'complexf';
          const A = f32 ? Float32Array : Float64Array;
          for (const [name, t] of [['world', s.TEAM_WORLD], ['team', team]] as const) {
            if (t === null) continue;
            const tme = s.teamMyPe(t);
            const v = new A(src.local.buffer as ArrayBuffer, src.local.byteOffset, 2 * count);
            for (let k = 0; k < count; k++) [v[2 * k], v[2 * k + 1]] = cval(f32, tme, k);
            for (const op of ['sum', 'prod'] as const) {
              await (op === 'sum' ? s.sumReduce(t, dst, src, count, type) : s.prodReduce(t, dst, src, count, type));
              out[`${name} ${type} ${op}`] = [...new A(dst.local.buffer as ArrayBuffer, dst.local.byteOffset, 2 * count)];
            }
          }
        }
        return { me, out, bad: [await failure(() => s.maxReduce(s.TEAM_WORLD, dst, src, 1, 'complexd' as never)), await failure(() => s.sumReduce(s.TEAM_WORLD, dst.at(4), src, 1, 'complexd'))] };
      },
    });
    for (const { me, out, bad } of r.rankResults as { me: number; out: Record<string, number[]>; bad: string[] }[]) {
      for (const type of ['complexf', 'complexd'] as const) {
        const f32 = type === 'complexf';
        for (const op of ['sum', 'prod'] as const) {
          expect(out[`world ${type} ${op}`], `world ${type} ${op}`).toEqual(Array.from({ length: count }, (_, k) => cfold(f32, op, 5, k)).flat());
          if (me % 2 === 0) expect(out[`team ${type} ${op}`], `team ${type} ${op}`).toEqual(Array.from({ length: count }, (_, k) => cfold(f32, op, 3, k)).flat());
        }
      }
      expect(bad).toEqual([
        'ShmemError: maxReduce: type=complexd; valid: int8, uint8, int16, uint16, int32, uint32, int64, uint64, float32, float64, longdouble',
        'ShmemError: sumReduce: dest is at byte offset 4, not aligned to the 8-byte alignment of complexd',
      ]);
    }
  });
});

describe('long double reductions and collectives (16 bytes an element, a double in the first 8)', () => {
  it('xe6, 4 PEs (2 nodes x 2): sum, prod, min and max over TEAM_WORLD and a 2-PE team, broadcast and fcollect; the padding of dest zeroed; misaligned, fails', async () => {
    const count = 3;
    // element k of team PE p: distinct, fractional, of both signs
    const ld = (p: number, k: number): number => (p + 1) * 1.25 - k * 2.5 + (p % 2 === 0 ? 0.125 : -3);
    const r = await simulate({
      machine: 'xe6',
      nodes: 2,
      ppn: 2,
      program: async (ctx) => {
        const s = ctx.shmem;
        const team = await s.teamSplitStrided(s.TEAM_WORLD, 1, 2, 2);
        const src = await s.malloc(16 * count);
        const dst = await s.malloc(16 * count * 4);
        const out: Record<string, number[]> = {};
        const view = (x: Symmetric, n: number): Float64Array => new Float64Array(x.local.buffer as ArrayBuffer, x.local.byteOffset, 2 * n);
        for (const [name, t] of [['world', s.TEAM_WORLD], ['team', team]] as const) {
          if (t === null) continue;
          const me = s.teamMyPe(t);
          const v = view(src, count);
          for (let k = 0; k < count; k++) [v[2 * k], v[2 * k + 1]] = [ld(me, k), 0];
          for (const op of ['sum', 'prod', 'min', 'max'] as const) {
            view(dst, count).fill(-7);
            await s[`${op}Reduce`](t, dst, src, count, 'longdouble');
            out[`${name} ${op}`] = [...view(dst, count)];
          }
        }
        const v = view(src, count);
        for (let k = 0; k < count; k++) v[2 * k] = ld(s.myPe(), k);
        view(dst, 4 * count).fill(-7);
        await s.broadcast(s.TEAM_WORLD, dst, src, count, 2, 'longdouble');
        out.broadcast = [...view(dst, count)];
        await s.fcollect(s.TEAM_WORLD, dst, src, count, 'longdouble');
        out.fcollect = [...view(dst, 4 * count)];
        const bad = [await failure(() => s.sumReduce(s.TEAM_WORLD, dst.at(8), src, 1, 'longdouble')), await failure(() => s.xorReduce(s.TEAM_WORLD, dst, src, 1, 'longdouble'))];
        return { me: s.myPe(), out, bad };
      },
    });
    const fold = (op: string, pes: readonly number[], k: number): number => pes.map((p) => ld(p, k)).reduce((a, b) => ({ sum: a + b, prod: a * b, min: Math.min(a, b), max: Math.max(a, b) })[op as 'sum']!);
    for (const { me, out, bad } of r.rankResults as { me: number; out: Record<string, number[]>; bad: string[] }[]) {
      for (const op of ['sum', 'prod', 'min', 'max']) {
        expect(out[`world ${op}`], `PE ${me} world ${op}`).toEqual(Array.from({ length: count }, (_, k) => [fold(op, [0, 1, 2, 3], k), 0]).flat());
        if (me % 2 === 1) expect(out[`team ${op}`], `PE ${me} team ${op}`).toEqual(Array.from({ length: count }, (_, k) => [fold(op, [0, 1], k), 0]).flat());
        else expect(out[`team ${op}`]).toBeUndefined();
      }
      expect(out.broadcast).toEqual(Array.from({ length: count }, (_, k) => [ld(2, k), 0]).flat());
      expect(out.fcollect).toEqual([0, 1, 2, 3].flatMap((p) => Array.from({ length: count }, (_, k) => [ld(p, k), 0]).flat()));
      expect(bad).toEqual([
        'ShmemError: sumReduce: dest is at byte offset 8, not aligned to the 16-byte longdouble',
        'ShmemError: xorReduce: type=longdouble; valid: int8, uint8, int16, uint16, int32, uint32, int64, uint64',
      ]);
    }
  });
});

type ToAll = (dest: Symmetric, source: Symmetric, nreduce: number, PE_start: number, logPE_stride: number, PE_size: number, pWrk: Symmetric, pSync: Symmetric) => Promise<void>;

/** The 1.4 reductions added here: C type, element type, operators. */
const TO_ALL: readonly { c: string; type: 'int16' | 'float32' | 'longdouble' | 'complexf' | 'complexd'; ops: readonly ('sum' | 'prod' | 'min' | 'max' | 'and' | 'or' | 'xor')[] }[] = [
  { c: 'short', type: 'int16', ops: ['sum', 'prod', 'min', 'max', 'and', 'or', 'xor'] },
  { c: 'float', type: 'float32', ops: ['sum', 'prod', 'min', 'max'] },
  { c: 'longdouble', type: 'longdouble', ops: ['sum', 'prod', 'min', 'max'] },
  { c: 'complexf', type: 'complexf', ops: ['sum', 'prod'] },
  { c: 'complexd', type: 'complexd', ops: ['sum', 'prod'] },
];

/** Real element `k` of set PE `i` for the 1.4 reductions (int16 values that overflow in sums and products). */
function rval(type: 'int16' | 'float32' | 'float64', i: number, k: number): number {
  const v = ((i + 5) * 4099 + k * 3011) % 20011;
  if (type === 'int16') return v - 10005;
  const x = v / 977 - 10;
  return type === 'float32' ? Math.fround(x) : x;
}

function rfold(type: 'int16' | 'float32' | 'float64', op: string, n: number, k: number): number {
  const one = new (type === 'int16' ? Int16Array : type === 'float32' ? Float32Array : Float64Array)(1);
  one[0] = rval(type, 0, k);
  for (let i = 1; i < n; i++) {
    const a: number = one[0]!;
    const b = rval(type, i, k);
    one[0] = { sum: a + b, prod: a * b, min: Math.min(a, b), max: Math.max(a, b), and: a & b, or: a | b, xor: a ^ b }[op as 'sum']!;
  }
  return one[0]!;
}

describe('OpenSHMEM 1.4 ..._to_all on short, float, longdouble, complexf and complexd', () => {
  it('xe6, 6 PEs (3 nodes x 2), the active set PE_start=1, logPE_stride=1, PE_size=3 (PEs 1, 3, 5): every operator the 1.4 specification gives each type', async () => {
    const count = 5;
    const r = await simulate({
      machine: 'xe6',
      nodes: 3,
      ppn: 2,
      program: async (ctx) => {
        const s = ctx.shmem;
        const me = s.myPe();
        const src = await s.malloc(16 * count);
        const dst = await s.malloc(16 * count);
        const pWrk = await s.malloc(16 * s.REDUCE_MIN_WRKDATA_SIZE);
        const pSync = await s.malloc(8 * s.REDUCE_SYNC_SIZE);
        pSync.int64().fill(s.SYNC_VALUE);
        await s.barrierAll();
        if (me % 2 === 0) return null;
        const i = (me - 1) / 2;
        const out: Record<string, number[]> = {};
        for (const { c, type, ops } of TO_ALL) {
          const cplx = type === 'complexf' || type === 'complexd';
          const A = type === 'int16' ? Int16Array : type === 'float32' || type === 'complexf' ? Float32Array : Float64Array;
          // long double: 16 bytes an element, the value a double in the first 8
          const ld = type === 'longdouble';
          const m = cplx || ld ? 2 * count : count;
          const v = new A(src.local.buffer as ArrayBuffer, src.local.byteOffset, m);
          // the padding words of dest hold garbage before each call: a reduction zeroes them
          new Float64Array(dst.local.buffer as ArrayBuffer, dst.local.byteOffset, 2 * count).fill(-7);
          for (let k = 0; k < count; k++) {
            if (cplx) [v[2 * k], v[2 * k + 1]] = cval(type === 'complexf', i, k);
            else if (ld) [v[2 * k], v[2 * k + 1]] = [rval('float64', i, k), 0];
            else v[k] = rval(type, i, k);
          }
          for (const op of ops) {
            const name = `${c}${op[0]!.toUpperCase()}${op.slice(1)}ToAll`;
            await ((s as unknown as Record<string, ToAll>)[name]!).call(s, dst, src, count, 1, 1, 3, pWrk, pSync);
            out[name] = [...new A(dst.local.buffer as ArrayBuffer, dst.local.byteOffset, m)];
          }
        }
        return { out, sync: [...pSync.int64()].every((x) => x === s.SYNC_VALUE) };
      },
    });
    for (const x of r.rankResults as ({ out: Record<string, number[]>; sync: boolean } | null)[]) {
      if (x === null) continue;
      expect(x.sync).toBe(true);
      for (const { c, type, ops } of TO_ALL) {
        for (const op of ops) {
          const name = `${c}${op[0]!.toUpperCase()}${op.slice(1)}ToAll`;
          const want =
            type === 'complexf' || type === 'complexd'
              ? Array.from({ length: count }, (_, k) => cfold(type === 'complexf', op as 'sum', 3, k)).flat()
              : type === 'longdouble'
                ? Array.from({ length: count }, (_, k) => [rfold('float64', op, 3, k), 0]).flat()
                : Array.from({ length: count }, (_, k) => rfold(type, op, 3, k));
          expect(x.out[name], name).toEqual(want);
        }
      }
    }
  });

  it('bad arguments: a misaligned complexd, a short pWrk for float, a type an operator lacks (no long double and/or/xor) fail naming the routine and the value', async () => {
    const r = await simulate({
      machine: 'xe6',
      nodes: 2,
      program: async (ctx) => {
        const s = ctx.shmem as Shmem & Record<string, unknown>;
        const a = await s.malloc(64);
        const pWrk = await s.malloc(8);
        const pSync = await s.malloc(8 * s.REDUCE_SYNC_SIZE);
        pSync.int64().fill(s.SYNC_VALUE);
        await s.barrierAll();
        return [
          await failure(() => s.complexdProdToAll(a.at(4), a, 1, 0, 0, 2, pWrk, pSync)),
          await failure(() => s.floatSumToAll(a, a, 4, 0, 0, 2, pWrk, pSync)),
          await failure(() => s.shortXorToAll(a, a.at(1), 1, 0, 0, 2, pWrk, pSync)),
          await failure(() => s.longdoubleMaxToAll(a.at(8), a.at(16), 1, 0, 0, 2, pWrk, pSync)),
          typeof s.longdoubleXorToAll,
          typeof s.complexfMaxToAll,
        ];
      },
    });
    expect(r.rankResults[0]).toEqual([
      'ShmemError: complexdProdToAll: dest is at byte offset 4, not aligned to 8-byte elements',
      'ShmemError: floatSumToAll: pWrk has 2 elements, fewer than the 16 needed (max(nreduce / 2 + 1, REDUCE_MIN_WRKDATA_SIZE))',
      'ShmemError: shortXorToAll: source is at byte offset 1, not aligned to 2-byte elements',
      'ShmemError: longdoubleMaxToAll: dest is at byte offset 8, not aligned to 16-byte elements',
      'undefined',
      'undefined',
    ]);
  });
});
