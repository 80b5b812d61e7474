import { describe, expect, it } from 'vitest';
import { DeadlockError } from '../fabric/engine/engine.ts';
import { DmappError } from '../runtime/dmapp/dmapp.ts';
import type { RankContext } from '../runtime/rank.ts';
import { ShmemError, type AtomicType, type FetchArray, type ReduceType, type Symmetric } from '../runtime/shmem/shmem.ts';
import { simulate } from '../runtime/simulate.ts';
import { rejection } from './helpers.ts';

/** Runs `program` and returns every rank's result. */
async function run<R>(machine: string, nodes: number, ppn: number, program: (ctx: RankContext) => Promise<R>): Promise<readonly R[]> {
  const r = await simulate({ machine, nodes, ppn, program });
  expect(r.simulatedTimeUs).toBeGreaterThan(0);
  return r.rankResults;
}

/** A deterministic value of PE `pe`, element `j` (seeded, no Math.random). */
function val(pe: number, j: number, salt: number): number {
  let x = (pe * 7919 + j * 104729 + salt * 1299709) >>> 0;
  x ^= x << 13;
  x ^= x >>> 17;
  x ^= x << 5;
  return ((x >>> 0) % 2001) - 1000;
}

describe('OpenSHMEM over DMAPP', () => {
  it.each(['xt4', 'xe6', 'xc30', 'sc5832', 'bw'])('%s: put, get, an atomic and barrierAll give the right data on 4 PEs', async (machine) => {
    const res = await run(machine, 2, 2, async (ctx) => {
      const s = ctx.shmem;
      s.init();
      const me = s.myPe();
      const n = s.nPes();
      const ring = await s.malloc(8 * n);
      const counter = await s.malloc(8);
      await s.putInt64(ring.element('int64', me), [BigInt(100 + me)], 1, (me + 1) % n);
      const ticket = await s.atomicFetchInc(counter, 0);
      await s.barrierAll();
      const back = new BigInt64Array(1);
      await s.getInt64(back, ring.element('int64', me), 1, (me + 1) % n);
      await s.finalize();
      return { ticket, back: back[0], fromLeft: ring.int64()[(me - 1 + n) % n], counter: counter.int64()[0] };
    });
    expect(res.map((r) => r.back)).toEqual([100n, 101n, 102n, 103n]);
    expect(res.map((r) => r.fromLeft)).toEqual([103n, 100n, 101n, 102n]);
    expect(res[0]!.counter).toBe(4n);
    expect(res.map((r) => r.ticket).sort()).toEqual([0n, 1n, 2n, 3n]);
  });

  it.each(['xe6', 'xc30'])('%s: putmem/getmem, typed put/get, p/g, iput/iget and the nbi forms move real data across nodes', async (machine) => {
    const res = await run(machine, 2, 1, async (ctx): Promise<Record<string, unknown>> => {
      const s = ctx.shmem;
      const me = s.myPe();
      const other = 1 - me;
      const bytes = await s.malloc(6000); // above the BTE threshold of both machines
      const f = await s.malloc(8 * 16);
      const i32 = await s.malloc(4 * 16);
      const i64 = await s.malloc(8 * 16);
      const strided = await s.malloc(8 * 16);
      if (me === 0) {
        const src = new Uint8Array(6000).map((_, i) => (i * 7 + 3) & 0xff);
        await s.putmem(bytes, src, 6000, other);
        src.fill(0); // the source may be reused at once
        await s.putFloat64(f.element('float64', 2), new Float64Array([1.25, -2.5, 1e300]), 3, other);
        await s.putInt32(i32, [-1, 2147483647, -2147483648], 3, other);
        await s.putInt64(i64.element('int64', 1), [-(2n ** 63n), 2n ** 63n - 1n], 2, other);
        await s.pFloat64(f.element('float64', 10), Math.PI, other);
        await s.pInt32(i32.element('int32', 5), -77, other);
        await s.pInt64(i64.element('int64', 7), -5n, other);
        // every second element of the source to every third element of dest
        await s.iputFloat64(strided, [0, 100, 1, 101, 2, 102, 3], 3, 2, 4, other);
        const nbi = new Float64Array([9, 8, 7]);
        await s.putFloat64Nbi(f.element('float64', 13), nbi, 3, other);
        await s.quiet();
      }
      await s.barrierAll();
      if (me === 1) {
        // read PE 1's own copies back through remote gets by PE 1 from PE 1 and from PE 0's view
        return { bytesOk: bytes.local.every((b, i) => b === ((i * 7 + 3) & 0xff)), f: [...f.float64()], i32: [...i32.int32()], i64: [...i64.int64()], strided: [...strided.float64()] };
      }
      const g = new Uint8Array(6000);
      await s.getmem(g, bytes, 6000, other);
      const gf = new Float64Array(3);
      await s.getFloat64(gf, f.element('float64', 2), 3, other);
      const gi = new Int32Array(3);
      await s.getInt32(gi, i32, 3, other);
      const gl = new BigInt64Array(2);
      await s.getInt64(gl, i64.element('int64', 1), 2, other);
      const every = new Float64Array(8);
      await s.igetFloat64(every, strided, 2, 3, 4, other); // every third remote element to every second local one
      const nbiDst = new Float64Array(3);
      await s.getFloat64Nbi(nbiDst, f.element('float64', 13), 3, other);
      const raw = new Uint8Array(16);
      await s.getmemNbi(raw, bytes, 16, other);
      await s.quiet();
      return {
        bytesOk: g.every((b, i) => b === ((i * 7 + 3) & 0xff)),
        gf: [...gf],
        gi: [...gi],
        gl: [...gl],
        g1: [await s.gFloat64(f.element('float64', 10), other), await s.gInt32(i32.element('int32', 5), other), await s.gInt64(i64.element('int64', 7), other)],
        every: [...every],
        nbi: [...nbiDst],
        raw: [...raw],
      };
    });
    const [a, b] = [res[0]!, res[1]!];
    expect(b.bytesOk).toBe(true);
    const f = b.f as number[];
    expect(f.slice(2, 5)).toEqual([1.25, -2.5, 1e300]);
    expect(f[10]).toBe(Math.PI);
    expect(f.slice(13, 16)).toEqual([9, 8, 7]);
    expect((b.i32 as number[]).slice(0, 6)).toEqual([-1, 2147483647, -2147483648, 0, 0, -77]);
    expect((b.i64 as bigint[]).slice(0, 8)).toEqual([0n, -(2n ** 63n), 2n ** 63n - 1n, 0n, 0n, 0n, 0n, -5n]);
    expect((b.strided as number[]).slice(0, 11)).toEqual([0, 0, 0, 1, 0, 0, 2, 0, 0, 3, 0]);
    expect(a.bytesOk).toBe(true);
    expect(a.gf).toEqual([1.25, -2.5, 1e300]);
    expect(a.gi).toEqual([-1, 2147483647, -2147483648]);
    expect(a.gl).toEqual([-(2n ** 63n), 2n ** 63n - 1n]);
    expect(a.g1).toEqual([Math.PI, -77, -5n]);
    expect(a.every).toEqual([0, 0, 1, 0, 2, 0, 3, 0]);
    expect(a.nbi).toEqual([9, 8, 7]);
    expect(a.raw).toEqual(Array.from({ length: 16 }, (_, i) => (i * 7 + 3) & 0xff));
  });

  it.each<{ type: AtomicType; neg: bigint }>([
    { type: 'int64', neg: -3n },
    { type: 'uint64', neg: 2n ** 64n - 3n },
    { type: 'int32', neg: -3n },
    { type: 'uint32', neg: 2n ** 32n - 3n },
  ])('every atomic returns the old value and leaves the right one ($type, on another node)', async ({ type, neg }) => {
    const bits = type.endsWith('32') ? 32 : 64;
    const signed = !type.startsWith('u');
    const wrap = (v: bigint): bigint => (signed ? BigInt.asIntN(bits, v) : BigInt.asUintN(bits, v));
    const res = await run('xc30', 2, 1, async (ctx) => {
      const s = ctx.shmem;
      const v = await s.malloc(16);
      const x = v.element(type, 1); // not at the start of the allocation
      const log: [string, bigint | undefined][] = [];
      if (s.myPe() === 0) {
        const t = 1;
        // the non-fetching atomics complete at quiet and are ordered only by a fence
        await s.atomicSet(x, 5, t, type);
        await s.fence();
        log.push(['fetch', await s.atomicFetch(x, t, type)]);
        await s.atomicAdd(x, 10, t, type);
        await s.fence();
        log.push(['fetchAdd', await s.atomicFetchAdd(x, signed ? -18n : (1n << BigInt(bits)) - 18n, t, type)]);
        log.push(['after', await s.atomicFetch(x, t, type)]);
        await s.atomicInc(x, t, type);
        await s.fence();
        log.push(['fetchInc', await s.atomicFetchInc(x, t, type)]);
        log.push(['swap', await s.atomicSwap(x, 0b1100, t, type)]);
        log.push(['cswapMiss', await s.atomicCompareSwap(x, 1, 99, t, type)]);
        log.push(['cswapHit', await s.atomicCompareSwap(x, 0b1100, 0b1010, t, type)]);
        await s.atomicAnd(x, 0b0110, t, type);
        await s.fence();
        log.push(['fetchAnd', await s.atomicFetchAnd(x, 0b0011, t, type)]);
        await s.atomicOr(x, 0b1000, t, type);
        await s.fence();
        log.push(['fetchOr', await s.atomicFetchOr(x, 0b0100, t, type)]);
        await s.atomicXor(x, 0b1111, t, type);
        await s.fence();
        log.push(['fetchXor', await s.atomicFetchXor(x, 0b0101, t, type)]);
        log.push(['end', await s.atomicFetch(x, t, type)]);
      }
      await s.barrierAll();
      return { log, mine: type.endsWith('32') ? BigInt(v.int32()[1]!) : v.int64()[1]! };
    });
    const log = Object.fromEntries(res[0]!.log);
    expect(log.fetch).toBe(5n);
    expect(log.fetchAdd).toBe(15n);
    expect(log.after).toBe(neg); // 15 - 18 wraps for unsigned types
    expect(log.fetchInc).toBe(wrap(neg + 1n));
    expect(log.swap).toBe(wrap(neg + 2n));
    expect(log.cswapMiss).toBe(0b1100n);
    expect(log.cswapHit).toBe(0b1100n);
    expect(log.fetchAnd).toBe(0b0010n); // 1010 & 0110
    expect(log.fetchOr).toBe(0b1010n); // 0010 & 0011 = 0010, | 1000
    expect(log.fetchXor).toBe(0b0001n); // 1010 | 0100 = 1110, ^ 1111
    expect(log.end).toBe(0b0100n); // 0001 ^ 0101
    expect(BigInt.asUintN(bits, res[1]!.mine)).toBe(0b0100n);
  });

  it('atomics from every PE to one variable are not lost (17 PEs, fetch-add tickets are a permutation)', async () => {
    const res = await run('xe6', 1, 17, async (ctx) => {
      const s = ctx.shmem;
      const c = await s.malloc(8);
      const tickets: bigint[] = [];
      for (let i = 0; i < 3; i++) tickets.push(await s.atomicFetchAdd(c, 1, 3));
      await s.barrierAll();
      return { tickets, total: s.myPe() === 3 ? c.int64()[0] : undefined };
    });
    expect(res[3]!.total).toBe(51n);
    expect(res.flatMap((r) => r.tickets).sort((a, b) => Number(a - b))).toEqual(Array.from({ length: 51 }, (_, i) => BigInt(i)));
  });

  it.each<{ type: AtomicType; neg: bigint }>([
    { type: 'int64', neg: -13n },
    { type: 'uint64', neg: 2n ** 64n - 13n },
    { type: 'int32', neg: -13n },
    { type: 'uint32', neg: 2n ** 32n - 13n },
  ])('every fetching nbi atomic puts the old value in its fetch element, there after quiet ($type, on another node)', async ({ type, neg }) => {
    const bits = type.endsWith('32') ? 32 : 64;
    const signed = !type.startsWith('u');
    const wrap = (v: bigint): bigint => (signed ? BigInt.asIntN(bits, v) : BigInt.asUintN(bits, v));
    const res = await run('xc30', 2, 1, async (ctx) => {
      const s = ctx.shmem;
      const v = await s.malloc(16);
      const x = v.element(type, 1);
      if (s.myPe() !== 0) {
        await s.barrierAll();
        return { got: [] as bigint[], untouched: [] as bigint[] };
      }
      const f = type === 'int64' ? new BigInt64Array(12) : type === 'uint64' ? new BigUint64Array(12) : type === 'int32' ? new Int32Array(12) : new Uint32Array(12);
      const sentinel = type === 'int64' || type === 'uint64' ? 77n : 77;
      f.fill(sentinel as never);
      const t = 1;
      // each one is quieted before the next, so they take effect in this order
      const steps: ((i: number) => Promise<void>)[] = [
        (i) => s.atomicFetchNbi(f, i, x, t, type),
        (i) => s.atomicFetchAddNbi(f, i, x, signed ? -18n : (1n << BigInt(bits)) - 18n, t, type),
        (i) => s.atomicFetchIncNbi(f, i, x, t, type),
        (i) => s.atomicSwapNbi(f, i, x, 0b1100, t, type),
        (i) => s.atomicCompareSwapNbi(f, i, x, 1, 99, t, type),
        (i) => s.atomicCompareSwapNbi(f, i, x, 0b1100, 0b1010, t, type),
        (i) => s.atomicFetchAndNbi(f, i, x, 0b0110, t, type),
        (i) => s.atomicFetchOrNbi(f, i, x, 0b1000, t, type),
        (i) => s.atomicFetchXorNbi(f, i, x, 0b1111, t, type),
        (i) => s.atomicFetchNbi(f, i, x, t, type),
      ];
      await s.atomicSet(x, 5, t, type);
      await s.quiet();
      for (const [i, step] of steps.entries()) {
        // odd elements only, so a write to the wrong element shows
        await step(2 * i + 1 - (i >= 6 ? 11 : 0));
        await s.quiet();
      }
      await s.barrierAll();
      return { got: [...f].map((e) => BigInt(e)), untouched: [] };
    });
    const f = res[0]!.got;
    // steps 0..5 wrote elements 1, 3, 5, 7, 9, 11; steps 6..9 wrote 2, 4, 6, 8; element 0 and 10 stay 77
    const at = (i: number): bigint => f[2 * i + 1 - (i >= 6 ? 11 : 0)]!;
    expect([f[0], f[10]]).toEqual([77n, 77n]);
    expect(at(0)).toBe(5n); // fetch
    expect(at(1)).toBe(5n); // fetch-add -18
    expect(at(2)).toBe(neg); // 5 - 18, wrapped for unsigned types
    expect(at(3)).toBe(wrap(neg + 1n)); // swap
    expect(at(4)).toBe(0b1100n); // compare-swap misses
    expect(at(5)).toBe(0b1100n); // compare-swap hits
    expect(at(6)).toBe(0b1010n); // and 0110
    expect(at(7)).toBe(0b0010n); // or 1000
    expect(at(8)).toBe(0b1010n); // xor 1111
    expect(at(9)).toBe(0b0101n);
  });

  it.each(['xe6', 'xc30'])('%s: nbi atomics return once issued: the fetched value arrives only by quiet (barrierAll included), sooner than a blocking call returns', async (machine) => {
    const res = await run(machine, 2, 1, async (ctx) => {
      const s = ctx.shmem;
      const x = await s.malloc(8);
      if (s.myPe() === 1) {
        x.int64()[0] = 7n;
        await s.barrierAll();
        await s.barrierAll();
        return { x: x.int64()[0] };
      }
      await s.barrierAll();
      const fetch = new BigInt64Array([-1n, -1n]);
      const t0 = ctx.now();
      await s.atomicFetchAddNbi(fetch, 1, x, 5, 1);
      const t1 = ctx.now();
      const atReturn = [...fetch];
      await s.quiet();
      const t2 = ctx.now();
      const afterQuiet = [...fetch];
      const old = await s.atomicFetchAdd(x, 5, 1);
      const t3 = ctx.now();
      await s.atomicAdd(x, 5, 1);
      const t4 = ctx.now();
      await s.quiet();
      const t5 = ctx.now();
      // PE 1 waits in barrierAll already, so only the barrier's quiet holds this PE until the answer is back
      await s.atomicFetchIncNbi(fetch, 0, x, 1);
      await s.barrierAll();
      return { atReturn, afterQuiet, old, end: fetch[0], nbi: t1 - t0, nbiQuiet: t2 - t0, blocking: t3 - t2, add: t4 - t3, addQuiet: t5 - t3 };
    });
    const r = res[0]! as Exclude<(typeof res)[0], { x: unknown }>;
    expect(res[1]).toEqual({ x: 23n });
    expect(r.atReturn).toEqual([-1n, -1n]);
    expect(r.afterQuiet).toEqual([-1n, 7n]);
    expect(r.old).toBe(12n);
    expect(r.end).toBe(22n);
    // issuing takes the library's time; the answer needs a network round trip, as the blocking call does
    expect(r.nbi).toBeLessThan(r.blocking / 3);
    expect(r.nbiQuiet).toBeGreaterThan(r.blocking / 2);
    expect(r.add).toBeLessThan(r.blocking / 3);
    expect(r.addQuiet).toBeGreaterThan(3 * r.add);
  });

  it('fetch-add nbi from 12 PEs on 3 nodes to one counter: after quiet the tickets are 0..35, each once', async () => {
    const res = await run('xe6', 3, 4, async (ctx) => {
      const s = ctx.shmem;
      const c = await s.malloc(8);
      const tickets = new BigInt64Array(3).fill(-1n);
      for (let i = 0; i < 3; i++) await s.atomicFetchAddNbi(tickets, i, c, 1, 5);
      await s.quiet();
      const mine = [...tickets];
      await s.barrierAll();
      return { tickets: mine, total: s.myPe() === 5 ? c.int64()[0] : undefined };
    });
    expect(res[5]!.total).toBe(36n);
    expect(res.flatMap((r) => r.tickets).sort((a, b) => Number(a - b))).toEqual(Array.from({ length: 36 }, (_, i) => BigInt(i)));
  });

  it('non-fetching atomics from every PE complete by barrierAll: the exact sum, in int64 and int32', async () => {
    const res = await run('xc30', 4, 2, async (ctx) => {
      const s = ctx.shmem;
      const me = s.myPe();
      const c64 = await s.malloc(8);
      const c32 = await s.malloc(8);
      for (let i = 0; i < 5; i++) {
        await s.atomicAdd(c64, BigInt(val(me, i, 3)) * 1_000_000_000n, 6);
        await s.atomicAdd(c32.element('int32', 1), val(me, i, 4), 6, 'int32');
      }
      await s.atomicInc(c64, 6);
      await s.barrierAll();
      return me === 6 ? { c64: c64.int64()[0], c32: c32.int32()[1] } : null;
    });
    const pes = Array.from({ length: 8 }, (_, p) => p);
    const is = [0, 1, 2, 3, 4];
    expect(res[6]).toEqual({
      c64: pes.reduce((a, p) => a + is.reduce((b, i) => b + BigInt(val(p, i, 3)) * 1_000_000_000n, 0n), 0n) + 8n,
      c32: pes.reduce((a, p) => a + is.reduce((b, i) => b + val(p, i, 4), 0), 0),
    });
  });

  it('nbi atomics: a bad PE, a misaligned target, a wrong fetch array and an index out of range throw ShmemError naming it; nothing is issued', async () => {
    const res = await run('xe6', 2, 1, async (ctx) => {
      const s = ctx.shmem;
      const a = await s.malloc(16);
      const f = new BigInt64Array(2);
      const calls: Record<string, (fetch: FetchArray, index: number, at: Symmetric, pe: number, type?: AtomicType) => Promise<void>> = {
        atomicFetchNbi: (fe, i, at, pe, type) => s.atomicFetchNbi(fe, i, at, pe, type),
        atomicFetchAddNbi: (fe, i, at, pe, type) => s.atomicFetchAddNbi(fe, i, at, 1, pe, type),
        atomicFetchIncNbi: (fe, i, at, pe, type) => s.atomicFetchIncNbi(fe, i, at, pe, type),
        atomicSwapNbi: (fe, i, at, pe, type) => s.atomicSwapNbi(fe, i, at, 1, pe, type),
        atomicCompareSwapNbi: (fe, i, at, pe, type) => s.atomicCompareSwapNbi(fe, i, at, 0, 1, pe, type),
        atomicFetchAndNbi: (fe, i, at, pe, type) => s.atomicFetchAndNbi(fe, i, at, 1, pe, type),
        atomicFetchOrNbi: (fe, i, at, pe, type) => s.atomicFetchOrNbi(fe, i, at, 1, pe, type),
        atomicFetchXorNbi: (fe, i, at, pe, type) => s.atomicFetchXorNbi(fe, i, at, 1, pe, type),
      };
      const out: Record<string, string[]> = {};
      for (const [name, call] of Object.entries(calls)) {
        const msgs: string[] = [];
        for (const p of [
          call(f, 0, a, 2),
          call(f, 0, a.at(4), 1),
          call(new Int32Array(2), 0, a, 1),
          call(new BigInt64Array(2), 0, a, 1, 'uint64'),
          call([0n] as never, 0, a, 1),
          call(f, 2, a, 1),
          call(f, 0.5, a, 1),
          call(f, 0, new BigInt64Array(2) as never, 1),
        ]) {
          const e = await rejection(p);
          msgs.push(`${e instanceof ShmemError ? 'ShmemError' : e.name}: ${e.message}`);
        }
        out[name] = msgs;
      }
      // every refusal came before the NIC: nothing was issued, nothing fails at quiet
      await s.quiet();
      await s.barrierAll();
      return { out, f: [...f], a: [...a.int64()] };
    });
    for (const r of res) expect(r.a).toEqual([0n, 0n]);
    expect(res[0]!.f).toEqual([0n, 0n]);
    const out = res[0]!.out;
    expect(Object.keys(out)).toHaveLength(8);
    for (const [name, msgs] of Object.entries(out)) {
      const arg = name === 'atomicFetchNbi' ? 'source' : 'dest';
      expect(msgs).toEqual([
        `ShmemError: ${name}: pe=2 is not a PE (0..1)`,
        `ShmemError: ${name}: ${arg} is at byte offset 4, not aligned to the 8-byte int64`,
        `ShmemError: ${name}: fetch must be a BigInt64Array (the atomic's type is int64), got Int32Array`,
        `ShmemError: ${name}: fetch must be a BigUint64Array (the atomic's type is uint64), got BigInt64Array`,
        `ShmemError: ${name}: fetch must be a BigInt64Array (the atomic's type is int64), got object`,
        `ShmemError: ${name}: index=2 is not an element of fetch (0..1)`,
        `ShmemError: ${name}: index=0.5 is not an element of fetch (0..1)`,
        `ShmemError: ${name}: ${arg} is a BigInt64Array(2), not a symmetric address of PE 0 (allocate it with shmem.malloc; private memory cannot be named remotely)`,
      ]);
    }
  });

  // collectmem sizes: some PEs give 0 bytes, the rest odd sizes, so blocks land unaligned; with
  // `big` the last PE gives a block above the BTE threshold
  const collectBytes = (pe: number, n: number, salt: number, big: boolean): number => (big && pe === n - 1 ? 6001 : (pe + salt) % 3 === 0 ? 0 : 1 + ((pe * 37 + salt * 11) % 13));
  const collectByte = (pe: number, i: number, salt: number): number => (pe * 31 + i * 7 + salt * 101 + 1) & 0xff;

  it.each([
    { n: 1, nodes: 1, ppn: 1 },
    { n: 3, nodes: 3, ppn: 1 },
    { n: 5, nodes: 5, ppn: 1 },
    { n: 4, nodes: 2, ppn: 2 },
    { n: 6, nodes: 3, ppn: 2 },
  ])('collectmem on $n PEs ($nodes nodes x $ppn): different sizes per PE, 0 included, concatenated in PE order, byte by byte', async ({ n, nodes, ppn }) => {
    const rounds = [
      { salt: 0, big: false },
      { salt: 1, big: false },
      { salt: 2, big: true },
    ];
    const res = await run('xc30', nodes, ppn, async (ctx) => {
      const s = ctx.shmem;
      const me = s.myPe();
      const src = await s.malloc(7000);
      const dst = await s.malloc(7000 + 13 * n);
      const got: number[][] = [];
      await ctx.compute({ us: 1 }); // on 1 PE a collect is local copies only, which take no simulated time
      // back to back, so a fast PE's next sizes meet a slow PE still in the previous call
      for (const { salt, big } of rounds) {
        dst.local.fill(0xee);
        const nbytes = collectBytes(me, n, salt, big);
        for (let i = 0; i < nbytes; i++) src.local[i] = collectByte(me, i, salt);
        await s.barrierAll();
        await s.collectmem(dst, src, nbytes);
        got.push([...dst.local]);
      }
      return got;
    });
    expect(res).toHaveLength(n);
    for (const [r, { salt, big }] of rounds.entries()) {
      const want: number[] = [];
      for (let p = 0; p < n; p++) for (let i = 0; i < collectBytes(p, n, salt, big); i++) want.push(collectByte(p, i, salt));
      while (want.length < 7000 + 13 * n) want.push(0xee);
      for (const [pe, got] of res.entries()) {
        const bad = got[r]!.findIndex((b, i) => b !== want[i]);
        expect(bad, `PE ${pe}, round ${r}: first wrong byte`).toBe(-1);
      }
    }
  });

  it('collectmem: bad dest, source or nbytes, and a dest too small for the total on every PE, throw ShmemError naming it', async () => {
    const res = await run('xe6', 3, 1, async (ctx) => {
      const s = ctx.shmem;
      const me = s.myPe();
      const src = await s.malloc(16);
      const dst = await s.malloc(24);
      const gone = await s.malloc(8);
      await s.free(gone);
      const out: string[] = [];
      const note = async (p: Promise<unknown>): Promise<void> => {
        const e = await rejection(p);
        out.push(`${e instanceof ShmemError ? 'ShmemError' : e.name}: ${e.message}`);
      };
      await note(s.collectmem(new Uint8Array(24) as never, src, 8));
      await note(s.collectmem(dst, gone, 8));
      await note(s.collectmem(dst, src, -1));
      await note(s.collectmem(dst, src, 2.5));
      await note(s.collectmem(dst, src, 17));
      // 8 + 9 + 10 = 27 bytes do not fit the 24 of dest, nor 8 + 8 + 8 the 16 bytes from byte 8
      await note(s.collectmem(dst, src, 8 + me));
      await note(s.collectmem(dst.at(8), src, 8));
      // the failed calls leave every PE in step: a good one still works
      src.local.fill(me + 1);
      await s.collectmem(dst, src, 8);
      out.push([...dst.local].join(','));
      return out;
    });
    const good = [...Array<number>(8).fill(1), ...Array<number>(8).fill(2), ...Array<number>(8).fill(3)].join(',');
    for (const [me, r] of res.entries()) {
      expect(r).toEqual([
        'ShmemError: collectmem: dest is a Uint8Array(24), not a symmetric address of PE ' + me + ' (allocate it with shmem.malloc; private memory cannot be named remotely)',
        expect.stringMatching(/^ShmemError: collectmem: source \(symmetric segment \d+\) has been freed$/),
        'ShmemError: collectmem: nbytes=-1 must be a non-negative integer',
        'ShmemError: collectmem: nbytes=2.5 must be a non-negative integer',
        'ShmemError: collectmem: 17 bytes at source run past the end of its symmetric object (16 bytes from byte offset 0)',
        `ShmemError: collectmem: the 3 PEs contribute 27 bytes in all (this PE ${8 + me}), more than the 24 bytes at dest (byte offset 0 of its symmetric object)`,
        'ShmemError: collectmem: the 3 PEs contribute 24 bytes in all (this PE 8), more than the 16 bytes at dest (byte offset 8 of its symmetric object)',
        good,
      ]);
    }
  });

  // PE counts 1..17, as nodes x ppn with at most 5 nodes where the count allows it
  const shapes = Array.from({ length: 17 }, (_, i) => i + 1).map((n) => {
    let nodes = 1;
    for (let d = Math.min(5, n); d >= 1; d--) {
      if (n % d === 0) {
        nodes = d;
        break;
      }
    }
    return { n, nodes, ppn: n / nodes };
  });

  it.each(shapes)('collectives on $n PEs ($nodes nodes x $ppn): broadcast, fcollect, sum/min/max of float64, int32 and int64', async ({ n, nodes, ppn }) => {
    const k = 3;
    const root = (n * 5 + 3) % n;
    const res = await run('xe6', nodes, ppn, async (ctx) => {
      const s = ctx.shmem;
      const me = s.myPe();
      const bsrc = await s.malloc(24);
      const bdst = await s.malloc(24);
      if (me === root) bsrc.float64().set([root + 0.5, -1, 42]);
      await s.broadcastmem(bdst, bsrc, 24, root);
      const csrc = await s.malloc(4 * 2);
      const cdst = await s.malloc(4 * 2 * n);
      csrc.int32().set([me, -me * 3]);
      await s.fcollectmem(cdst, csrc, 8);
      const out: Record<string, (number | bigint)[]> = { bcast: [...bdst.float64()], collect: [...cdst.int32()] };
      for (const type of ['float64', 'int32', 'int64'] as ReduceType[]) {
        const src = await s.malloc(8 * k);
        const dst = await s.malloc(8 * k);
        for (let j = 0; j < k; j++) {
          const v = val(me, j, 1);
          if (type === 'float64') src.float64()[j] = v / 8;
          else if (type === 'int32') src.int32()[j] = v;
          else src.int64()[j] = BigInt(v) * 10_000_000_000n;
        }
        for (const op of ['sum', 'min', 'max'] as const) {
          await s[`${op}ToAll`](dst, src, k, type);
          out[`${type}.${op}`] = type === 'float64' ? [...dst.float64().subarray(0, k)] : type === 'int32' ? [...dst.int32().subarray(0, k)] : [...dst.int64().subarray(0, k)];
        }
        // in place: dest == source
        await s.sumToAll(src, src, k, type);
        out[`${type}.inplace`] = type === 'float64' ? [...src.float64().subarray(0, k)] : type === 'int32' ? [...src.int32().subarray(0, k)] : [...src.int64().subarray(0, k)];
      }
      return out;
    });
    expect(res).toHaveLength(n);
    const pes = Array.from({ length: n }, (_, p) => p);
    const expected: Record<string, (number | bigint)[]> = {
      bcast: [root + 0.5, -1, 42],
      collect: pes.flatMap((p) => [p, 0 - p * 3]),
    };
    for (const type of ['float64', 'int32', 'int64'] as const) {
      const conv = (v: number): number | bigint => (type === 'float64' ? v / 8 : type === 'int32' ? v : BigInt(v) * 10_000_000_000n);
      const col = (j: number): (number | bigint)[] => pes.map((p) => conv(val(p, j, 1)));
      const js = Array.from({ length: k }, (_, j) => j);
      const sum = js.map((j) => col(j).reduce((a, b) => (typeof a === 'bigint' ? a + (b as bigint) : (a as number) + (b as number))));
      expected[`${type}.sum`] = sum;
      expected[`${type}.inplace`] = sum;
      expected[`${type}.min`] = js.map((j) => col(j).reduce((a, b) => (b < a ? b : a)));
      expected[`${type}.max`] = js.map((j) => col(j).reduce((a, b) => (b > a ? b : a)));
    }
    for (const [pe, r] of res.entries()) expect(r, `PE ${pe}`).toEqual(expected);
  });

  it('waitUntil wakes on remote atomics and puts; every comparison; test() does not wait', async () => {
    const res = await run('xc30', 2, 2, async (ctx) => {
      const s = ctx.shmem;
      const me = s.myPe();
      const flag = await s.malloc(8);
      const small = await s.malloc(4);
      if (me !== 0) {
        await ctx.compute({ us: 5 * me });
        await s.atomicInc(flag, 0);
        if (me === 3) await s.pInt32(small, -7, 0);
        return null;
      }
      const before = ctx.now();
      const early = await s.test(flag, 'ge', 3);
      await s.waitUntil(flag, 'ge', 3);
      const woke = ctx.now();
      await s.waitUntil(small, 'eq', -7, 'int32');
      for (const [cmp, v] of [['eq', 3], ['ne', 2], ['gt', 2], ['ge', 3], ['lt', 4], ['le', 3]] as const) await s.waitUntil(flag, cmp, v);
      return { early, waited: woke - before, late: await s.test(flag, 'eq', 3n) };
    });
    const r = res[0]!;
    expect(r.early).toBe(false);
    expect(r.late).toBe(true);
    // the last increment leaves PE 3 after 15 us of compute; the wait ends one poll after it is in PE 0's memory
    expect(r.waited).toBeGreaterThan(15);
    expect(r.waited).toBeLessThan(20);
  });

  it('a waitUntil that can never be satisfied is a deadlock, reported as soon as nothing can change it, naming the PE, the call and the address', async () => {
    let putAt = 0;
    const err = await rejection(
      run('xe6', 2, 1, async (ctx) => {
        const s = ctx.shmem;
        const flag = await s.malloc(16);
        if (s.myPe() === 1) await s.waitUntil(flag.element('int64', 1), 'eq', 42);
        else {
          // a write that wakes the waiter without satisfying it: it checks, and sleeps again
          await ctx.compute({ us: 50 });
          putAt = ctx.now();
          await s.pInt64(flag.element('int64', 1), 41n, 1);
          await s.quiet();
        }
        return ctx.now();
      }),
    );
    expect(err).toBeInstanceOf(DeadlockError);
    const d = err as DeadlockError;
    expect(d.blocked).toEqual([expect.stringMatching(/^rank 1: waitUntil\(ivar at segment \d+ byte 8, eq 42\) on PE 1: the int64 value is 41$/)]);
    // reported when the last event (the put's completion at PE 0, a few us after it left) is
    // done, not after a simulated timeout (there was one of 1 s)
    expect(putAt).toBeGreaterThan(50);
    expect(d.timePs / 1e6).toBeGreaterThan(putAt);
    expect(d.timePs / 1e6).toBeLessThan(putAt + 5);
  });

  // The NIC delivers packets adaptively: a 64 KiB put (BTE, many packets) followed by an 8-byte
  // flag put (one packet) without fence/quiet lets the flag land first, so the reader sees the
  // flag with only part of the data. A fence between them (here: quiet) fixes it.
  it.each(['xe6', 'xc30'])('%s: flag-then-data race without fence, fixed by fence and by quiet', async (machine) => {
    const seen: Record<string, number> = {};
    for (const order of ['none', 'fence', 'quiet'] as const) {
      const res = await run(machine, 2, 1, async (ctx) => {
        const s = ctx.shmem;
        const n = 8192;
        const data = await s.malloc(8 * n);
        const flag = await s.malloc(8);
        if (s.myPe() === 0) {
          await s.putFloat64(data, new Float64Array(n).fill(7), n, 1);
          if (order === 'fence') await s.fence();
          if (order === 'quiet') await s.quiet();
          await s.pInt64(flag, 1n, 1);
          await s.quiet();
          return -1;
        }
        await s.waitUntil(flag, 'eq', 1);
        return data.float64().filter((v) => v === 7).length;
      });
      seen[order] = res[1]!;
    }
    expect(seen.none).toBeLessThan(8192);
    expect(seen.none).toBeGreaterThan(0);
    expect(seen.fence).toBe(8192);
    expect(seen.quiet).toBe(8192);
  });

  it('bad arguments throw ShmemError naming the argument', async () => {
    const res = await run('xe6', 2, 1, async (ctx) => {
      const s = ctx.shmem;
      const a = await s.malloc(16);
      const gone = await s.malloc(8);
      await s.free(gone);
      const out: string[] = [];
      const note = async (p: Promise<unknown>): Promise<void> => {
        const e = await rejection(p);
        out.push(`${e instanceof ShmemError ? 'ShmemError' : e.name}: ${e.message}`);
      };
      await note(s.putmem(a, new Uint8Array(8), 8, 2));
      await note(s.pInt64(a, 1n, -1));
      await note(s.atomicAdd(a.at(4), 1, 1));
      await note(s.atomicFetch(a.at(2), 1, 'int32'));
      await note(s.putmem(new Uint8Array(8) as never, new Uint8Array(8), 8, 1));
      await note(s.getmem(new Uint8Array(8), gone, 8, 1));
      await note(s.putmem(a.at(8), new Uint8Array(16), 16, 1));
      await note(s.getFloat64(new Float64Array(4), a, 4, 1));
      await note(s.waitUntil(a, 'bigger' as never, 1));
      await note(s.atomicAdd(a, 1, 1, 'float64' as never));
      await note(s.atomicAdd(a, 2n ** 70n, 1));
      await note(s.malloc(-1));
      await note(s.putFloat64(a, [1], 2, 1));
      await note(s.broadcastmem(a, a, 8, 9));
      await note(s.iputFloat64(a, [1, 2], 0, 1, 2, 1));
      await note(Promise.resolve().then(() => a.float64().length && a.at(4).float64()));
      // a NIC-level failure (here: a DMAPP put past the end of the segment) surfaces from quiet
      await ctx.dmapp.putNbi(1 - s.myPe(), a.segment, 64, new Uint8Array(8));
      const q = await rejection(s.quiet());
      out.push(`${q.name}: ${q.message} / cause ${q.cause instanceof DmappError ? q.cause.rc : 'none'}`);
      return out;
    });
    expect(res[0]).toEqual([
      'ShmemError: putmem: pe=2 is not a PE (0..1)',
      'ShmemError: pInt64: pe=-1 is not a PE (0..1)',
      'ShmemError: atomicAdd: dest is at byte offset 4, not aligned to the 8-byte int64',
      'ShmemError: atomicFetch: source is at byte offset 2, not aligned to the 4-byte int32',
      'ShmemError: putmem: dest is a Uint8Array(8), not a symmetric address of PE 0 (allocate it with shmem.malloc; private memory cannot be named remotely)',
      expect.stringMatching(/^ShmemError: getmem: source \(symmetric segment \d+\) has been freed$/),
      'ShmemError: putmem: 16 bytes at dest run past the end of its symmetric object (8 bytes from byte offset 8)',
      'ShmemError: getFloat64: 32 bytes at source run past the end of its symmetric object (16 bytes from byte offset 0)',
      'ShmemError: waitUntil: cmp=bigger; valid: eq, ne, gt, ge, lt, le',
      'ShmemError: atomicAdd: type=float64; valid: int32, uint32, int64, uint64 (OpenSHMEM defines atomicAdd on integer types only)',
      'ShmemError: atomicAdd: value=1180591620717411303424 does not fit int64 (-9223372036854775808..9223372036854775807)',
      'ShmemError: malloc: bytes=-1 must be a non-negative integer',
      'ShmemError: putFloat64: source has 1 elements, fewer than the 2 needed',
      'ShmemError: broadcastmem: root=9 is not a PE (0..1)',
      'ShmemError: iputFloat64: dst=0 must be a positive integer',
      'ShmemError: float64: the symmetric address is at byte offset 4, not 8-byte aligned',
      'ShmemError: quiet: DMAPP_RC_TRANSACTION_ERROR: a put, get or AMO failed with NIC status OutOfBounds / cause DMAPP_RC_TRANSACTION_ERROR',
    ]);
  });

  it('zero-length calls accept any address (OpenSHMEM Annex C) and move nothing; their PE is still checked', async () => {
    const res = await run('xe6', 2, 1, async (ctx) => {
      const s = ctx.shmem;
      const a = await s.malloc(16);
      a.int64().fill(5n);
      const bad = null as never;
      const other = 1 - s.myPe();
      await s.putmem(bad, bad, 0, other);
      await s.getmem(bad, bad, 0, other);
      await s.putmemNbi(bad, undefined as never, 0, other);
      await s.getmemNbi(undefined as never, bad, 0, other);
      await s.putFloat64(bad, bad, 0, other);
      await s.putInt32(bad, bad, 0, other);
      await s.putInt64(bad, bad, 0, other);
      await s.getFloat64(bad, bad, 0, other);
      await s.getInt32(bad, bad, 0, other);
      await s.getInt64(bad, bad, 0, other);
      await s.putFloat64Nbi(bad, bad, 0, other);
      await s.getFloat64Nbi(bad, bad, 0, other);
      await s.iputInt64(bad, bad, 1, 1, 0, other);
      await s.igetFloat64(bad, bad, 2, 3, 0, other);
      await s.quiet();
      const e = await rejection(s.putmem(bad, bad, 0, 2));
      await s.barrierAll();
      return { a: [...a.int64()], err: e.message };
    });
    for (const r of res) expect(r).toEqual({ a: [5n, 5n], err: 'putmem: pe=2 is not a PE (0..1)' });
  });

  it("a PE may not name another PE's symmetric object", async () => {
    const objs: unknown[] = [];
    const err = await rejection(
      run('xe6', 2, 1, async (ctx) => {
        const s = ctx.shmem;
        const a = await s.malloc(8);
        objs[s.myPe()] = a;
        await s.barrierAll();
        if (s.myPe() === 0) await s.pInt64(objs[1] as typeof a, 1n, 1);
        return 0;
      }),
    );
    expect(err.message).toMatch(/pInt64: dest is a symmetric address of another PE, not a symmetric address of PE 0/);
  });
});
