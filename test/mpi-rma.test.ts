import { describe, expect, it } from 'vitest';
import type { RankContext } from '../runtime/rank.ts';
import { simulate } from '../runtime/simulate.ts';
import { rejection } from './helpers.ts';

/** Every rank's result of `program` on `nodes` x `ppn` ranks of `machine`. */
async function run<R>(machine: string, nodes: number, ppn: number, program: (ctx: RankContext) => Promise<R>): Promise<readonly R[]> {
  return (await simulate({ machine, nodes, ppn, program })).rankResults;
}

/** A Float64Array view of a window's bytes. */
function f64(buf: Uint8Array): Float64Array {
  return new Float64Array(buf.buffer, buf.byteOffset, buf.byteLength / 8);
}

/** Initial value of element i of rank r's window (distinct everywhere). */
const init = (r: number, i: number): number => r * 1000 + i * 3 + 1;

const N = 32;
/** Machines and layouts: across nodes (one rank each) and within a node (two ranks per node). */
const layouts = [
  { machine: 'xe6', nodes: 4, ppn: 1 },
  { machine: 'xe6', nodes: 2, ppn: 2 },
  { machine: 'xc30', nodes: 4, ppn: 1 },
  { machine: 'xc30', nodes: 1, ppn: 4 },
] as const;

describe('one-sided MPI: fence epochs with real data', () => {
  it.each(layouts)('$machine, $nodes nodes x $ppn: put, get and accumulate (SUM, MIN, PROD, REPLACE on floats and ints; SUM, BXOR on int64) land element by element', async ({ machine, nodes, ppn }) => {
    const n = nodes * ppn;
    const res = await run(machine, nodes, ppn, async ({ mpi }) => {
      const me = mpi.rank;
      const { win, buf } = await mpi.winAllocate(8 * N, 8);
      const mine = f64(buf);
      for (let i = 0; i < N; i++) mine[i] = init(me, i);
      const ints = new Int32Array(N).map((_, i) => init(me, i));
      const iwin = await mpi.winCreate(ints);
      const quads = new BigInt64Array(4).map((_, i) => BigInt(init(me, i)));
      const qwin = await mpi.winCreate(quads);
      const got = new Float64Array(4);
      await win.fence();
      await iwin.fence();
      await qwin.fence();
      // put to the next rank, get from the one after, accumulate into every other rank
      await win.put(Float64Array.of(-me, -me - 0.5, -me - 0.25), (me + 1) % n, 2);
      await win.get(got, (me + 2) % n, 8);
      for (let t = 0; t < n; t++) {
        if (t === me) continue;
        await win.accumulate(Float64Array.of(me + 0.5, me + 1.5), t, 16, mpi.SUM);
        await win.accumulate(Float64Array.of(me * 7 + 1), t, 20, mpi.MIN);
        await iwin.accumulate(Int32Array.of(me + 2, -(me + 1)), t, 24, mpi.PROD);
        await iwin.accumulate(Int32Array.of(me + 1), t, 26, mpi.SUM);
        await qwin.accumulate(BigInt64Array.of(BigInt(me + 1) * 1000n, -BigInt(me + 1)), t, 0, mpi.SUM);
        await qwin.accumulate(BigInt64Array.of(1n << BigInt(me)), t, 2, mpi.BXOR);
      }
      // REPLACE from rank 0 only, so the outcome is defined
      if (me === 0) await win.accumulate(Float64Array.of(42, 43), 1, 28, mpi.REPLACE);
      await win.fence(mpi.MODE_NOSUCCEED);
      await iwin.fence(mpi.MODE_NOSUCCEED);
      await qwin.fence(mpi.MODE_NOSUCCEED);
      await win.free();
      await iwin.free();
      await qwin.free();
      return { win: [...mine], got: [...got], ints: [...ints], quads: quads.map((q) => q).join(',') };
    });
    for (let t = 0; t < n; t++) {
      const others = [...Array(n).keys()].filter((r) => r !== t);
      const prev = (t - 1 + n) % n;
      const exp = Array.from({ length: N }, (_, i) => init(t, i));
      exp[2] = -prev;
      exp[3] = -prev - 0.5;
      exp[4] = -prev - 0.25;
      for (const r of others) {
        exp[16]! += r + 0.5;
        exp[17]! += r + 1.5;
      }
      exp[20] = Math.min(init(t, 20), ...others.map((r) => r * 7 + 1));
      if (t === 1) exp.splice(28, 2, 42, 43);
      expect(res[t]!.win).toEqual(exp);
      // rank t got elements 8..11 of rank t + 2, which nobody wrote
      const src = (t + 2) % n;
      expect(res[t]!.got).toEqual([8, 9, 10, 11].map((i) => init(src, i)));
      const iexp = Array.from({ length: N }, (_, i) => init(t, i));
      for (const r of others) {
        iexp[24] = Math.imul(iexp[24]!, r + 2);
        iexp[25] = Math.imul(iexp[25]!, -(r + 1));
        iexp[26]! += r + 1;
      }
      expect(res[t]!.ints).toEqual(iexp);
      const qexp = [0, 1, 2, 3].map((i) => BigInt(init(t, i)));
      for (const r of others) {
        qexp[0]! += BigInt(r + 1) * 1000n;
        qexp[1]! -= BigInt(r + 1);
        qexp[2]! ^= 1n << BigInt(r);
      }
      expect(res[t]!.quads).toBe(qexp.join(','));
    }
  });

  it('xe6: a 100 KiB put (BTE) and get move every byte; puts to one target from several ranks in one epoch land side by side', async () => {
    const K = 100 * 1024;
    const res = await run('xe6', 3, 1, async ({ mpi }) => {
      const { win, buf } = await mpi.winAllocate(2 * K);
      await win.fence();
      if (mpi.rank > 0) await win.put(new Uint8Array(K).map((_, i) => (i * 7 + mpi.rank) & 255), 0, (mpi.rank - 1) * K);
      await win.fence();
      const back = new Uint8Array(2 * K);
      if (mpi.rank === 2) await win.get(back, 0, 0);
      await win.fence();
      await win.free();
      const bad = (a: Uint8Array): number => a.findIndex((v, i) => v !== ((i % K) * 7 + 1 + Math.floor(i / K)) % 256);
      return { own: mpi.rank === 0 ? bad(buf) : -2, back: mpi.rank === 2 ? bad(back) : -2 };
    });
    expect(res[0]!.own).toBe(-1);
    expect(res[2]!.back).toBe(-1);
  });
});

describe('one-sided MPI: post-start-complete-wait', () => {
  it.each(['xe6', 'xc30'])('%s: a ring of groups, three epochs: each rank exposes to its left neighbour and puts to its right one; data and order hold', async (machine) => {
    const n = 6;
    const res = await run(machine, 3, 2, async ({ mpi }) => {
      const me = mpi.rank;
      const right = (me + 1) % n;
      const left = (me - 1 + n) % n;
      const { win, buf } = await mpi.winAllocate(8 * 3, 8);
      const mine = f64(buf);
      const seen: number[] = [];
      for (let e = 0; e < 3; e++) {
        await win.post(mpi.group.incl([left]));
        await win.start(mpi.group.incl([right]));
        await win.put(Float64Array.of(me * 10 + e), right, e);
        await win.complete();
        await win.wait();
        // everything the left neighbour put in this epoch is visible now
        seen.push(mine[e]!);
      }
      await win.free();
      return seen;
    });
    for (let r = 0; r < n; r++) {
      const left = (r - 1 + n) % n;
      expect(res[r]).toEqual([0, 1, 2].map((e) => left * 10 + e));
    }
  });

  it('xe6: start waits for the post: a target that posts late holds its origin back; test reports completion', async () => {
    const res = await run('xe6', 2, 1, async (ctx) => {
      const { mpi } = ctx;
      const { win, buf } = await mpi.winAllocate(8, 8);
      if (mpi.rank === 1) {
        await ctx.compute({ us: 50 });
        const posted = ctx.now();
        await win.post(mpi.group.incl([0]));
        let polls = 0;
        while (!(await win.test())) polls++;
        await win.free();
        return { posted, polls, value: f64(buf)[0] };
      }
      await win.start(mpi.group.incl([1]));
      const started = ctx.now();
      await win.put(Float64Array.of(3.5), 1, 0);
      await win.complete();
      await win.free();
      return { started };
    });
    const t = res[1] as { posted: number; polls: number; value: number };
    expect((res[0] as { started: number }).started).toBeGreaterThan(t.posted);
    expect(t.polls).toBeGreaterThan(0);
    expect(t.value).toBe(3.5);
  });
});

describe('one-sided MPI: passive target', () => {
  it.each([
    { machine: 'xe6', nodes: 4, ppn: 2 },
    { machine: 'xc30', nodes: 2, ppn: 4 },
  ])('$machine: every rank increments a counter on rank 0 under an exclusive lock (get, add, put): the final value is the sum, and holders never overlap', async ({ machine, nodes, ppn }) => {
    const rounds = 3;
    const res = await run(machine, nodes, ppn, async (ctx) => {
      const { mpi } = ctx;
      const { win, buf } = await mpi.winAllocate(8, 8);
      const spans: [number, number][] = [];
      for (let k = 0; k < rounds; k++) {
        await win.lock(mpi.LOCK_EXCLUSIVE, 0);
        const from = ctx.now();
        const v = new Float64Array(1);
        await win.get(v, 0, 0);
        await win.flush(0);
        // hold the lock a while, so that the others contend for it
        await ctx.compute({ us: 3 });
        await win.put(Float64Array.of(v[0]! + mpi.rank + 1), 0, 0);
        await win.unlock(0);
        spans.push([from, ctx.now()]);
      }
      await mpi.barrier();
      const total = f64(buf)[0];
      await win.free();
      return { total, spans };
    });
    const n = nodes * ppn;
    expect(res[0]!.total).toBe((rounds * n * (n + 1)) / 2);
    // the critical sections, from lock acquired to unlock returned, are disjoint in simulated time
    const spans = res.flatMap((r) => r.spans).sort((a, b) => a[0] - b[0]);
    for (let i = 1; i < spans.length; i++) expect(spans[i]![0]).toBeGreaterThanOrEqual(spans[i - 1]![1] - 0.2);
    // contention: some rank waited for its lock longer than a free lock takes
    expect(spans[spans.length - 1]![0]).toBeGreaterThan(3 * (spans.length - 1));
  });

  it('xe6: shared locks are held together; an exclusive lock waits for every shared holder to unlock', async () => {
    const res = await run('xe6', 4, 1, async (ctx) => {
      const { mpi } = ctx;
      const { win } = await mpi.winAllocate(64, 8);
      await mpi.barrier();
      if (mpi.rank === 3) {
        await ctx.compute({ us: 5 });
        const asked = ctx.now();
        await win.lock(mpi.LOCK_EXCLUSIVE, 0);
        const got = ctx.now();
        await win.unlock(0);
        await win.free();
        return { asked, got };
      }
      await win.lock(mpi.LOCK_SHARED, 0);
      const got = ctx.now();
      await ctx.compute({ us: 20 });
      const v = new Float64Array(1);
      await win.get(v, 0, mpi.rank);
      const released = ctx.now();
      await win.unlock(0);
      await win.free();
      return { got, released };
    });
    const shared = res.slice(0, 3) as { got: number; released: number }[];
    const excl = res[3] as { asked: number; got: number };
    // the three shared holders overlap: each got the lock before any let it go
    const lastGot = Math.max(...shared.map((s) => s.got));
    expect(lastGot).toBeLessThan(Math.min(...shared.map((s) => s.released)));
    // the exclusive one asked while they held it and got it only after the last released
    expect(excl.asked).toBeLessThan(Math.min(...shared.map((s) => s.released)));
    expect(excl.got).toBeGreaterThan(Math.max(...shared.map((s) => s.released)));
  });

  it('xc30: shared lockers and a lockAll wait while an exclusive lock is held, and all get in once it is given back', async () => {
    const res = await run('xc30', 2, 2, async (ctx) => {
      const { mpi } = ctx;
      const { win, buf } = await mpi.winAllocate(8, 8);
      if (mpi.rank === 0) await win.lock(mpi.LOCK_EXCLUSIVE, 1);
      await mpi.barrier();
      if (mpi.rank === 0) {
        await ctx.compute({ us: 30 });
        await win.put(Float64Array.of(6.5), 1, 0);
        await win.unlock(1);
        const released = ctx.now();
        await mpi.barrier();
        await win.free();
        return { released };
      }
      const asked = ctx.now();
      const v = new Float64Array(1);
      if (mpi.rank === 3) {
        await win.lockAll();
        await win.get(v, 1, 0);
        await win.unlockAll();
      } else {
        await win.lock(mpi.LOCK_SHARED, 1);
        await win.get(v, 1, 0);
        await win.unlock(1);
      }
      const got = ctx.now();
      await mpi.barrier();
      const out = { asked, got, seen: v[0], own: f64(buf)[0] };
      await win.free();
      return out;
    });
    const released = (res[0] as { released: number }).released;
    for (const r of [1, 2, 3]) {
      const x = res[r] as { asked: number; got: number; seen: number };
      expect(x.asked).toBeLessThan(released - 25);
      expect(x.got).toBeGreaterThan(released);
      // they read what the exclusive holder put before giving the lock back
      expect(x.seen).toBe(6.5);
    }
  });

  it.each(['xe6', 'xc30'])('%s: fetchAndOp and compareAndSwap counters: each rank takes distinct tickets, and a CAS spin lock counts every rank once', async (machine) => {
    const per = 4;
    const res = await run(machine, 2, 3, async ({ mpi }) => {
      const { win, buf } = await mpi.winAllocate(24, 8);
      const q = new BigInt64Array(buf.buffer, buf.byteOffset, 3);
      await win.lockAll();
      const tickets: bigint[] = [];
      for (let k = 0; k < per; k++) {
        const old = new BigInt64Array(1);
        await win.fetchAndOp(BigInt64Array.of(1n), old, 0, 0, mpi.SUM);
        await win.flush(0);
        tickets.push(old[0]!);
      }
      // CAS: swap 0 -> rank + 1 on word 1 until it succeeds, count in word 2, then release
      const result = new BigInt64Array(1);
      do {
        await win.compareAndSwap(BigInt64Array.of(BigInt(mpi.rank + 1)), BigInt64Array.of(0n), result, 0, 1);
        await win.flush(0);
      } while (result[0] !== 0n);
      const c = new BigInt64Array(1);
      await win.fetchAndOp(null, c, 0, 2, mpi.NO_OP);
      await win.flush(0);
      await win.put(BigInt64Array.of(c[0]! + 1n), 0, 2);
      await win.flush(0);
      await win.compareAndSwap(BigInt64Array.of(0n), BigInt64Array.of(BigInt(mpi.rank + 1)), result, 0, 1);
      await win.unlockAll();
      await mpi.barrier();
      const out = { tickets: tickets.map(Number), counter: Number(q[0]), cas: Number(q[2]), word: Number(q[1]) };
      await win.free();
      return out;
    });
    const all = res.flatMap((r) => r.tickets).sort((a, b) => a - b);
    expect(all).toEqual([...Array(6 * per).keys()]);
    expect(res[0]!.counter).toBe(6 * per);
    expect(res[0]!.cas).toBe(6);
    expect(res[0]!.word).toBe(0);
  });

  it('xe6: getAccumulate returns the elements as they were, for AMO (int64 SUM) and software (float MAX, int32 BOR) paths', async () => {
    const res = await run('xe6', 2, 1, async ({ mpi }) => {
      const { win, buf } = await mpi.winAllocate(64, 8);
      const q = new BigInt64Array(buf.buffer, buf.byteOffset, 2);
      const d = new Float64Array(buf.buffer, buf.byteOffset + 16, 2);
      const w = new Int32Array(buf.buffer, buf.byteOffset + 32, 4);
      q.set([5n, -7n]);
      d.set([1.5, 9]);
      w.set([0x10, 0x01, 0x100, 0]);
      await mpi.barrier();
      const out: Record<string, string> = {};
      if (mpi.rank === 1) {
        await win.lock(mpi.LOCK_SHARED, 0);
        const r1 = new BigInt64Array(2);
        await win.getAccumulate(BigInt64Array.of(10n, 20n), r1, 0, 0, mpi.SUM);
        const r2 = new Float64Array(2);
        await win.getAccumulate(Float64Array.of(4, 2), r2, 0, 2, mpi.MAX);
        const r3 = new Int32Array(4);
        await win.getAccumulate(Int32Array.of(1, 2, 4, 8), r3, 0, 4, mpi.BOR);
        const r4 = new Float64Array(2);
        await win.getAccumulate(null, r4, 0, 2, mpi.NO_OP);
        await win.unlock(0);
        Object.assign(out, { r1: r1.join(), r2: r2.join(), r3: r3.join(), r4: r4.join() });
      }
      await mpi.barrier();
      await win.free();
      return { ...out, q: q.join(), d: d.join(), w: w.join() };
    });
    expect(res[1]).toMatchObject({ r1: '5,-7', r2: '1.5,9', r3: `${0x10},${0x01},${0x100},0`, r4: '4,9' });
    expect(res[0]).toMatchObject({ q: '15,13', d: '4,9', w: `${0x11},${0x03},${0x104},8` });
  });

  it.each(['xe6', 'xc30'])('%s: rput completes locally, rget with the data; raccumulate and rgetAccumulate; flushLocal, flushAll', async (machine) => {
    const res = await run(machine, 2, 1, async ({ mpi }) => {
      const { win, buf } = await mpi.winAllocate(16 * 1024, 8);
      const mine = f64(buf);
      mine.fill(mpi.rank + 0.25);
      await mpi.barrier();
      const out: Record<string, unknown> = {};
      if (mpi.rank === 0) {
        await win.lock(mpi.LOCK_EXCLUSIVE, 1);
        const big = new Float64Array(1024).map((_, i) => i * 2);
        const rp = await win.rput(big, 1, 0);
        await rp.wait();
        big.fill(-1); // allowed once the rput has completed locally
        const into = new Float64Array(4);
        const rg = await win.rget(into, 1, 2000);
        const st = await rg.wait();
        out.rget = [...into];
        out.count = st.count;
        const ra = await win.raccumulate(BigInt64Array.of(3n), 1, 1500, mpi.SUM);
        await ra.wait();
        const old = new BigInt64Array(1);
        const rga = await win.rgetAccumulate(BigInt64Array.of(4n), old, 1, 1500, mpi.SUM);
        await rga.wait();
        out.old = Number(old[0]);
        await win.flushLocal(1);
        await win.flushAll();
        await win.unlock(1);
      }
      await mpi.barrier();
      out.head = [...mine.subarray(0, 3)];
      out.q = Number(new BigInt64Array(buf.buffer, buf.byteOffset + 1500 * 8, 1)[0]);
      await win.free();
      return out;
    });
    expect(res[0]!.rget).toEqual([1.25, 1.25, 1.25, 1.25]);
    expect(res[0]!.count).toBe(4);
    expect(res[1]!.head).toEqual([0, 2, 4]);
    // 1.25 as a double's bits, plus 3, then plus 4
    const bits = new BigInt64Array(Float64Array.of(1.25).buffer)[0]!;
    expect(res[0]!.old).toBe(Number(bits + 3n));
    expect(res[1]!.q).toBe(Number(bits + 7n));
  });
});

describe('one-sided MPI: dynamic and shared windows', () => {
  it('xc30: attach, exchange the address, put and get at it, detach; a region attached later is found by reading the table again', async () => {
    const res = await run('xc30', 2, 1, async ({ mpi }) => {
      const win = await mpi.winCreateDynamic();
      const mem = new Float64Array(8).fill(mpi.rank);
      const addr = new Float64Array(1);
      if (mpi.rank === 1) addr[0] = win.attach(mem);
      await mpi.bcast(addr, 1);
      await win.lockAll();
      const back = new Float64Array(2);
      if (mpi.rank === 0) {
        await win.put(Float64Array.of(7, 8), 1, addr[0]! + 16);
        await win.flush(1);
        await win.get(back, 1, addr[0]! + 8);
        await win.flush(1);
      }
      await win.unlockAll();
      await mpi.barrier();
      // a second region, attached after rank 0 read the table
      const more = new Int32Array(4).fill(-1);
      const addr2 = new Float64Array(1);
      if (mpi.rank === 1) addr2[0] = win.attach(more);
      await mpi.bcast(addr2, 1);
      await win.fence();
      if (mpi.rank === 0) await win.put(Int32Array.of(11, 12), 1, addr2[0]! + 4);
      await win.fence();
      if (mpi.rank === 1) {
        win.detach(mem);
        win.detach(more);
      }
      await win.free();
      return { mem: [...mem], back: [...back], more: [...more] };
    });
    expect(res[1]!.mem).toEqual([1, 1, 7, 8, 1, 1, 1, 1]);
    expect(res[0]!.back).toEqual([1, 7]);
    expect(res[1]!.more).toEqual([-1, 11, 12, -1]);
  });

  it('xe6: regions of one buffer attached back to back have back-to-back addresses, and one put, get or accumulate reaches across them', async () => {
    const res = await run('xe6', 2, 1, async ({ mpi }) => {
      const win = await mpi.winCreateDynamic();
      const mem = new Int32Array(8).fill(-1);
      const addr = new Float64Array(2);
      if (mpi.rank === 1) {
        // the second half first: its address still follows from its offset in the buffer
        addr[1] = win.attach(mem.subarray(4));
        addr[0] = win.attach(mem.subarray(0, 4));
      }
      await mpi.bcast(addr, 1);
      const back = new Int32Array(6);
      await win.lockAll();
      if (mpi.rank === 0) {
        await win.put(Int32Array.of(10, 11, 12, 13, 14, 15), 1, addr[0]! + 4);
        await win.flush(1);
        await win.accumulate(Int32Array.of(100, 100, 100), 1, addr[0]! + 8, mpi.SUM);
        await win.flush(1);
        await win.get(back, 1, addr[0]! + 4);
        await win.flush(1);
      }
      await win.unlockAll();
      await mpi.barrier();
      await win.free();
      return { addr: [...addr], mem: [...mem], back: [...back] };
    });
    expect(res[1]!.addr[1]! - res[1]!.addr[0]!).toBe(16);
    expect(res[1]!.mem).toEqual([-1, 10, 111, 112, 113, 14, 15, -1]);
    expect(res[0]!.back).toEqual([10, 111, 112, 113, 14, 15]);
  });

  it('an access reaching from one attached buffer into another is MPI_ERR_RMA_RANGE: their addresses are not adjacent', async () => {
    const err = await rejection(
      run('xe6', 2, 1, async ({ mpi }) => {
        const win = await mpi.winCreateDynamic();
        const addr = new Float64Array(2);
        if (mpi.rank === 1) {
          addr[0] = win.attach(new Int32Array(25));
          addr[1] = win.attach(new Int32Array(25));
        }
        await mpi.bcast(addr, 1);
        await win.lockAll();
        if (mpi.rank === 0) await win.put(new Int32Array(30), 1, addr[0]!);
        await win.unlockAll();
      }),
    );
    expect(String(err)).toMatch(/MPI_ERR_RMA_RANGE: put: no region attached at rank 1 holds 120 bytes at address/);
  });

  it('xe6: winAllocateShared on one node: segments are contiguous, every rank loads and stores its neighbours\' directly, and RMA calls reach them too', async () => {
    const res = await run('xe6', 1, 4, async ({ mpi }) => {
      const me = mpi.rank;
      const { win, buf } = await mpi.winAllocateShared(8 * (me + 1), 8);
      f64(buf).fill(me);
      await win.fence();
      const right = win.sharedQuery((me + 1) % 4);
      const seen = [...f64(right.buf)];
      await win.fence();
      // store into the right neighbour's first element directly, put into its last with the NIC
      f64(right.buf)[0] = 100 + me;
      await win.put(Float64Array.of(200 + me), (me + 1) % 4, right.size / 8 - 1);
      await win.fence();
      const first = win.sharedQuery(mpi.PROC_NULL);
      const contiguous = win.sharedQuery(1).buf.byteOffset === first.buf.byteOffset + first.size;
      const out = { seen, mine: [...f64(buf)], size: right.size, contiguous };
      await win.free();
      return out;
    });
    for (let r = 0; r < 4; r++) {
      const right = (r + 1) % 4;
      const left = (r + 3) % 4;
      expect(res[r]!.seen).toEqual(Array(right + 1).fill(right));
      expect(res[r]!.size).toBe(8 * (right + 1));
      const mine = Array(r + 1).fill(r);
      mine[r] = 200 + left;
      if (r > 0) mine[0] = 100 + left;
      else mine[0] = 200 + left; // one element: the put (issued after the store) wins
      expect(res[r]!.mine).toEqual(mine);
      expect(res[r]!.contiguous).toBe(true);
    }
  });
});

describe('one-sided MPI on machines without an AMO cache or FMA', () => {
  it.each(['sc5832', 'xt4'])('%s: fence put/get, lock counter and int64 fetchAndOp move the right data over its own NIC blocks', async (machine) => {
    const n = 4;
    const res = await run(machine, 2, 2, async ({ mpi }) => {
      const { win, buf } = await mpi.winAllocate(8 * 8, 8);
      const mine = f64(buf);
      mine.fill(mpi.rank);
      await win.fence();
      await win.put(Float64Array.of(mpi.rank + 0.5), (mpi.rank + 1) % n, 1);
      const got = new Float64Array(1);
      await win.get(got, (mpi.rank + 1) % n, 4);
      await win.fence(mpi.MODE_NOSUCCEED);
      await win.lock(mpi.LOCK_EXCLUSIVE, 0);
      const v = new Float64Array(1);
      await win.get(v, 0, 2);
      await win.flush(0);
      await win.put(Float64Array.of(v[0]! + 1), 0, 2);
      await win.unlock(0);
      const ticket = new BigInt64Array(1);
      await win.lock(mpi.LOCK_SHARED, 0);
      await win.fetchAndOp(BigInt64Array.of(1n), ticket, 0, 3, mpi.SUM);
      await win.unlock(0);
      await mpi.barrier();
      const out = { mine: [...mine.subarray(0, 3)], got: got[0], ticket: Number(ticket[0]), count: Number(new BigInt64Array(buf.buffer, buf.byteOffset + 24, 1)[0]) };
      await win.free();
      return out;
    });
    for (let r = 0; r < n; r++) {
      const left = (r + n - 1) % n;
      expect(res[r]!.got).toBe((r + 1) % n);
      expect(res[r]!.mine.slice(0, 2)).toEqual([r, left + 0.5]);
    }
    expect(res[0]!.mine[2]).toBe(n);
    expect(res[0]!.count).toBe(n);
    expect(res.map((r) => r.ticket).sort()).toEqual([0, 1, 2, 3]);
  });
});
