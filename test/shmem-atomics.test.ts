/**
 * OpenSHMEM atomics over DMAPP: every operation and type, blocking and nbi, none lost under
 * contention, and their bad arguments.
 */
import { describe, expect, it } from 'vitest';
import { ShmemError, type AtomicType, type FetchArray, type Symmetric } from '../runtime/shmem/shmem.ts';
import { rejection } from './helpers.ts';
import { run, val } from './shmem-helpers.ts';

describe('OpenSHMEM over DMAPP', () => {
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
});
