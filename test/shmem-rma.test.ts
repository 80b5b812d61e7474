/**
 * OpenSHMEM RMA over DMAPP: puts and gets of every form move real data on every machine, and fence
 * and quiet order them.
 */
import { describe, expect, it } from 'vitest';
import { run } from './shmem-helpers.ts';

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
});
