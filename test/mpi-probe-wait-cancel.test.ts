import { describe, expect, it } from 'vitest';
import { BSEND_OVERHEAD, type Request } from '../runtime/mpi/mpi.ts';
import type { RankContext } from '../runtime/rank.ts';
import { simulate } from '../runtime/simulate.ts';
import { firstMismatch, u8Pattern } from './helpers.ts';

describe('probe and iprobe', () => {
  it('iprobe reports source, tag, bytes and count (in elemBytes units) before the receive; the probed message is then received', async () => {
    const r = await simulate({
      machine: 'xe6',
      nodes: 3,
      program: async ({ mpi, compute }) => {
        if (mpi.rank === 1) {
          await mpi.send(Float64Array.from({ length: 10 }, (_, i) => i + 0.5), 0, 7);
          return null;
        }
        if (mpi.rank === 2) {
          await compute({ us: 5 });
          await mpi.send(new Uint8Array(20000).fill(2), 0, 8); // rendezvous: only the RTS has come
          return null;
        }
        const none = await mpi.iprobe(mpi.ANY_SOURCE, mpi.ANY_TAG);
        await compute({ us: 30 });
        const exact = await mpi.iprobe(1, 7, 8);
        const wild = await mpi.iprobe(mpi.ANY_SOURCE, mpi.ANY_TAG, 8);
        const bytes = await mpi.iprobe(mpi.ANY_SOURCE, 7);
        const big = await mpi.iprobe(2, mpi.ANY_TAG, 4);
        const wrongTag = await mpi.iprobe(1, 8);
        const wrongSource = await mpi.iprobe(2, 7);
        // receive what the wildcard probe saw, with its source and tag
        const buf = new Float64Array(wild!.count);
        const st = await mpi.recv(buf, wild!.source, wild!.tag);
        const big2 = new Uint8Array(big!.bytes);
        await mpi.recv(big2, big!.source, big!.tag);
        const after = await mpi.iprobe(mpi.ANY_SOURCE, mpi.ANY_TAG);
        return { none, exact, wild, bytes, big, wrongTag, wrongSource, st, data: Array.from(buf), bigOk: big2.every((v) => v === 2), after };
      },
    });
    const g = r.result!;
    expect(g.none).toBeNull();
    expect(g.exact).toEqual({ source: 1, tag: 7, count: 10, bytes: 80 });
    expect(g.wild).toEqual({ source: 1, tag: 7, count: 10, bytes: 80 });
    expect(g.bytes).toEqual({ source: 1, tag: 7, count: 80, bytes: 80 });
    expect(g.big).toEqual({ source: 2, tag: 8, count: 5000, bytes: 20000 });
    expect(g.wrongTag).toBeNull();
    expect(g.wrongSource).toBeNull();
    expect(g.st).toEqual({ source: 1, tag: 7, count: 10, bytes: 80 });
    expect(g.data).toEqual(Array.from({ length: 10 }, (_, i) => i + 0.5));
    expect(g.bigOk).toBe(true);
    expect(g.after).toBeNull();
  });

  it('probe blocks until a message arrives (the sender computes 40 us first), then reports it', async () => {
    const r = await simulate({
      machine: 'xe6',
      nodes: 2,
      ppn: 2,
      program: async ({ mpi, compute, now }) => {
        if (mpi.rank === 3) {
          await compute({ us: 40 });
          await mpi.send(Int32Array.of(1, 2, 3), 0, 99);
          return null;
        }
        if (mpi.rank === 1) {
          await compute({ us: 60 });
          await mpi.send(Int16Array.of(4, 5), 0, 98); // on-node
          return null;
        }
        if (mpi.rank !== 0) return null;
        const s1 = await mpi.probe(mpi.ANY_SOURCE, mpi.ANY_TAG, 4);
        const t1 = now();
        const s2 = await mpi.probe(1, 98, 2);
        const t2 = now();
        const a = new Int32Array(s1.count);
        const b = new Int16Array(s2.count);
        await mpi.recv(a, s1.source, s1.tag);
        await mpi.recv(b, s2.source, s2.tag);
        return { s1, t1, s2, t2, a: Array.from(a), b: Array.from(b) };
      },
    });
    const g = r.result!;
    expect(g.s1).toEqual({ source: 3, tag: 99, count: 3, bytes: 12 });
    expect(g.t1).toBeGreaterThan(40);
    expect(g.t1).toBeLessThan(45);
    expect(g.s2).toEqual({ source: 1, tag: 98, count: 2, bytes: 4 });
    expect(g.t2).toBeGreaterThan(60);
    expect(g.t2).toBeLessThan(62);
    expect(g.a).toEqual([1, 2, 3]);
    expect(g.b).toEqual([4, 5]);
  });

  it('probe(source 2) ignores an earlier message from rank 1 and returns on rank 2\'s', async () => {
    const r = await simulate({
      machine: 'xe6',
      nodes: 3,
      program: async ({ mpi, compute, now }) => {
        if (mpi.rank === 1) await mpi.send(Int32Array.of(1), 0, 5);
        if (mpi.rank === 2) {
          await compute({ us: 20 });
          await mpi.send(Int32Array.of(2), 0, 5);
        }
        if (mpi.rank !== 0) return null;
        const s = await mpi.probe(2, 5);
        const t = now();
        const x = new Int32Array(1);
        const y = new Int32Array(1);
        await mpi.recv(x, 2, 5);
        await mpi.recv(y, 1, 5);
        return { s, t, x: x[0], y: y[0] };
      },
    });
    expect(r.result).toMatchObject({ s: { source: 2, tag: 5, count: 4, bytes: 4 }, x: 2, y: 1 });
    expect(r.result!.t).toBeGreaterThan(20);
  });

  it('probe and iprobe on a sub-communicator see only its messages and report comm ranks', async () => {
    const r = await simulate({
      machine: 'xe6',
      nodes: 4,
      program: async ({ mpi, compute, now }) => {
        // world ranks 3, 1 -> comm ranks 0, 1; world ranks 0, 2 -> comm ranks 1, 0
        const c = (await mpi.split(mpi.rank % 2, -mpi.rank))!;
        if (mpi.rank === 1) await mpi.send(Int32Array.of(-1), 3, 6); // world message, same tag
        if (mpi.rank === 1) {
          await compute({ us: 30 });
          await c.send(Float32Array.of(1, 2, 3), 0, 6);
        }
        if (mpi.rank !== 3) return null;
        await compute({ us: 10 });
        const early = await c.iprobe(mpi.ANY_SOURCE, mpi.ANY_TAG);
        const s = await c.probe(mpi.ANY_SOURCE, 6, 4);
        const t = now();
        const onWorld = await mpi.iprobe(mpi.ANY_SOURCE, mpi.ANY_TAG);
        const buf = new Float32Array(s.count);
        await c.recv(buf, s.source, s.tag);
        await mpi.recv(new Int32Array(1), 1, 6);
        return { commRank: c.rank, early, s, t, onWorld, data: Array.from(buf) };
      },
    });
    const g = r.rankResults[3]!;
    expect(g.commRank).toBe(0);
    expect(g.early).toBeNull();
    expect(g.s).toEqual({ source: 1, tag: 6, count: 3, bytes: 12 });
    expect(g.t).toBeGreaterThan(30);
    expect(g.onWorld).toEqual({ source: 1, tag: 6, count: 4, bytes: 4 });
    expect(g.data).toEqual([1, 2, 3]);
  });

  it('probe and iprobe with PROC_NULL return at once with source PROC_NULL and count 0', async () => {
    const r = await simulate({
      machine: 'xe6',
      nodes: 2,
      program: async ({ mpi, now }) => {
        const a = await mpi.probe(mpi.PROC_NULL, mpi.ANY_TAG);
        const b = await mpi.iprobe(mpi.PROC_NULL, 3);
        return { a, b, t: now() };
      },
    });
    for (const g of r.rankResults) {
      expect(g.a).toEqual({ source: -1, tag: -1, count: 0, bytes: 0 });
      expect(g.b).toEqual({ source: -1, tag: -1, count: 0, bytes: 0 });
      expect(g.t).toBeLessThan(1);
    }
  });
});

describe('waitAny, waitSome, testAll, testAny, testSome', () => {
  /** Ranks 1, 2, 3 send one message each to rank 0 after computing 30, 10 and 20 us. */
  const sendAt = [0, 30, 10, 20];
  const sender = async ({ mpi, compute }: RankContext): Promise<void> => {
    await compute({ us: sendAt[mpi.rank]! });
    await mpi.send(Int32Array.of(mpi.rank * 11), 0, mpi.rank);
  };

  it('waitAny returns the request that completes first (the sender at 10 us), then 20 us, then 30 us, putting REQUEST_NULL in its place; all-null and empty lists give UNDEFINED and the empty status at once', async () => {
    const r = await simulate({
      machine: 'xe6',
      nodes: 4,
      program: async (ctx) => {
        const { mpi, now } = ctx;
        if (mpi.rank !== 0) return sender(ctx);
        const bufs = [1, 2, 3].map(() => new Int32Array(1));
        const reqs: (Request | null)[] = bufs.map((b, i) => mpi.irecv(b, i + 1, i + 1));
        const got: { index: number; t: number; source: number; value: number }[] = [];
        for (let k = 0; k < 3; k++) {
          const { index, status } = await mpi.waitAny(reqs);
          got.push({ index, t: now(), source: status.source, value: bufs[index]![0]! });
        }
        const replaced = reqs.every((r) => r === mpi.REQUEST_NULL);
        const t0 = now();
        const allNull = await mpi.waitAny(reqs);
        const empty = await mpi.waitAny([null]);
        return { got, replaced, allNull, empty, dt: now() - t0, UNDEFINED: mpi.UNDEFINED };
      },
    });
    const g = r.result!;
    expect(g.got.map((x) => [x.index, x.source, x.value])).toEqual([
      [1, 2, 22],
      [2, 3, 33],
      [0, 1, 11],
    ]);
    const [a, b, c] = g.got;
    expect(a!.t).toBeGreaterThan(10);
    expect(a!.t).toBeLessThan(15);
    expect(b!.t).toBeGreaterThan(20);
    expect(b!.t).toBeLessThan(25);
    expect(c!.t).toBeGreaterThan(30);
    expect(c!.t).toBeLessThan(35);
    expect(g.replaced).toBe(true);
    expect(g.allNull).toEqual({ index: g.UNDEFINED, status: { source: -2, tag: -1, count: 0, bytes: 0 } });
    expect(g.empty).toEqual({ index: g.UNDEFINED, status: { source: -2, tag: -1, count: 0, bytes: 0 } });
    expect(g.dt).toBe(0);
  });

  it('waitAny over a list whose first entry is already complete returns index 0 without blocking', async () => {
    const r = await simulate({
      machine: 'xe6',
      nodes: 2,
      program: async ({ mpi, now, compute }) => {
        if (mpi.rank === 1) {
          await mpi.send(Int32Array.of(5), 0, 0);
          await compute({ us: 100 });
          await mpi.send(Int32Array.of(6), 0, 1);
          return null;
        }
        const a = new Int32Array(1);
        const b = new Int32Array(1);
        const reqs = [mpi.irecv(a, 1, 0), mpi.irecv(b, 1, 1)];
        await compute({ us: 20 });
        const { index } = await mpi.waitAny(reqs);
        const t = now();
        await mpi.wait(reqs[1]!);
        return { index, t, a: a[0], b: b[0] };
      },
    });
    expect(r.result).toMatchObject({ index: 0, a: 5, b: 6 });
    expect(r.result!.t).toBeLessThan(21);
  });

  it('waitSome after 25 us returns both requests done by then (10 and 20 us) with their statuses; the next call waits for the 30-us one; then no request is active and it gives UNDEFINED', async () => {
    const r = await simulate({
      machine: 'xe6',
      nodes: 4,
      program: async (ctx) => {
        const { mpi, now, compute } = ctx;
        if (mpi.rank !== 0) return sender(ctx);
        const bufs = [1, 2, 3].map(() => new Int32Array(1));
        const reqs: (Request | null)[] = bufs.map((b, i) => mpi.irecv(b, i + 1, i + 1));
        await compute({ us: 25 });
        const first = await mpi.waitSome(reqs);
        const t1 = now();
        const second = await mpi.waitSome(reqs);
        const t2 = now();
        const none = await mpi.waitSome(reqs);
        const empty = await mpi.waitSome([]);
        if (first === mpi.UNDEFINED || second === mpi.UNDEFINED) throw new Error('waitSome found no active request');
        return { first, t1, second, t2, none, empty, UNDEFINED: mpi.UNDEFINED, values: bufs.map((b) => b[0]) };
      },
    });
    const g = r.result!;
    expect(g.first.map((x) => [x.index, x.status.source, x.status.tag])).toEqual([
      [1, 2, 2],
      [2, 3, 3],
    ]);
    expect(g.t1).toBeLessThan(26);
    expect(g.second.map((x) => [x.index, x.status.source])).toEqual([[0, 1]]);
    expect(g.t2).toBeGreaterThan(30);
    expect(g.t2).toBeLessThan(35);
    expect(g.none).toBe(g.UNDEFINED);
    expect(g.empty).toBe(g.UNDEFINED);
    expect(g.values).toEqual([11, 22, 33]);
  });

  it('testAll / testAny / testSome report what has completed at 5, 15, 25 and 35 us, each on its own list of receives', async () => {
    const r = await simulate({
      machine: 'xe6',
      nodes: 4,
      program: async ({ mpi, compute, now }) => {
        if (mpi.rank !== 0) {
          // one message per list: tags 10 (testAll's), 20 (testAny's), 30 (testSome's)
          await compute({ us: sendAt[mpi.rank]! });
          for (const list of [10, 20, 30]) await mpi.send(Int32Array.of(mpi.rank * 11 + list), 0, list);
          return null;
        }
        const post = (list: number) => [1, 2, 3].map((s) => mpi.irecv(new Int32Array(1), s, list));
        const [allReqs, anyReqs, someReqs] = [post(10), post(20), post(30)];
        const srcs = (st: { source: number }[] | null) => st && st.map((x) => x.source);
        const rows: unknown[] = [];
        for (const until of [5, 15, 25, 35]) {
          await compute({ us: until - now() });
          const all = srcs(await mpi.testAll(allReqs));
          const any = await mpi.testAny(anyReqs);
          const some = await mpi.testSome(someReqs);
          rows.push({ all, any: [any.flag, any.index, any.status?.source], some: some === mpi.UNDEFINED ? 'UNDEFINED' : some.map((x) => [x.index, x.status.source]) });
        }
        const nulls = anyReqs.every((q) => q === mpi.REQUEST_NULL) && someReqs.every((q) => q === mpi.REQUEST_NULL) && allReqs.every((q) => q !== mpi.REQUEST_NULL);
        return {
          rows,
          nulls,
          anyAfter: await mpi.testAny(anyReqs),
          someAfter: await mpi.testSome(someReqs),
          emptyAll: await mpi.testAll([]),
          emptyAny: await mpi.testAny([]),
          emptySome: await mpi.testSome([]),
          UNDEFINED: mpi.UNDEFINED,
        };
      },
    });
    const g = r.result!;
    const U = g.UNDEFINED;
    expect(g.rows).toEqual([
      { all: null, any: [false, U, undefined], some: [] },
      { all: null, any: [true, 1, 2], some: [[1, 2]] },
      { all: null, any: [true, 2, 3], some: [[2, 3]] },
      { all: [1, 2, 3], any: [true, 0, 1], some: [[0, 1]] },
    ]);
    expect(g.nulls).toBe(true);
    const empty = { source: -2, tag: -1, count: 0, bytes: 0 };
    expect(g.anyAfter).toEqual({ flag: true, index: U, status: empty });
    expect(g.someAfter).toBe(U);
    expect(g.emptyAll).toEqual([]);
    expect(g.emptyAny).toEqual({ flag: true, index: U, status: empty });
    expect(g.emptySome).toBe(U);
  });

  it('each test call costs one poll (mpi.testOverhead) of simulated time', async () => {
    const r = await simulate({
      machine: 'xe6',
      nodes: 2,
      set: { 'mpi.testOverhead': '1us' },
      program: async ({ mpi, now }) => {
        if (mpi.rank === 1) return 0;
        const reqs = [mpi.irecv(new Uint8Array(1), 1, 0), mpi.irecv(new Uint8Array(1), 1, 1)];
        const t0 = now();
        await mpi.testAll(reqs);
        await mpi.testAny(reqs);
        await mpi.testSome(reqs);
        const dt = now() - t0;
        for (const q of reqs) mpi.cancel(q);
        return dt;
      },
    });
    expect(r.result).toBeCloseTo(3, 6);
  });
});

describe('polling drives progress', () => {
  it('a testAll loop over [ibsend request, rendezvous irecv] completes the receive (every MPI call progresses)', async () => {
    const r = await simulate({
      machine: 'xe6',
      nodes: 2,
      program: async ({ mpi, compute, now }) => {
        if (mpi.rank === 0) {
          await mpi.send(u8Pattern(50000, 1), 1, 0);
          const b = new Int32Array(1);
          await mpi.recv(b, 1, 1);
          return b[0];
        }
        mpi.bufferAttach(4 + BSEND_OVERHEAD);
        const buf = new Uint8Array(50000);
        const reqs = [mpi.ibsend(Int32Array.of(77), 0, 1), mpi.irecv(buf, 0, 0)];
        await compute({ us: 20 }); // the RTS matches while the rank computes
        let polls = 0;
        while (!(await mpi.testAll(reqs))) if (++polls > 100000) throw new Error('testAll never returned true');
        await mpi.bufferDetach();
        return { t: now(), bad: firstMismatch(buf, u8Pattern(50000, 1)) };
      },
    });
    expect(r.rankResults[0]).toBe(77);
    const g = r.rankResults[1] as { t: number; bad: number };
    expect(g.bad).toBe(-1);
    expect(g.t).toBeLessThan(100);
  });
});

describe('cancel', () => {
  it('a posted irecv that never matched is cancelled (status.cancelled, buffer untouched); the later message goes to the next receive', async () => {
    const r = await simulate({
      machine: 'xe6',
      nodes: 2,
      program: async ({ mpi }) => {
        if (mpi.rank === 1) {
          await mpi.barrier();
          await mpi.send(Int32Array.of(42), 0, 5);
          return null;
        }
        const victim = new Int32Array(1).fill(-1);
        const req = mpi.irecv(victim, 1, 5);
        const ok = mpi.cancel(req);
        const st = await mpi.wait(req);
        await mpi.barrier();
        const buf = new Int32Array(1);
        const st2 = await mpi.recv(buf, 1, 5);
        return { ok, cancelled: st.cancelled === true, victim: victim[0], got: buf[0], st2, again: mpi.cancel(req) };
      },
    });
    expect(r.result).toEqual({ ok: true, cancelled: true, victim: -1, got: 42, st2: { source: 1, tag: 5, count: 1, bytes: 4 }, again: false });
  });

  it('a rendezvous isend whose RTS waits unmatched at the receiver is cancelled; the receiver only ever sees the next message', async () => {
    const r = await simulate({
      machine: 'xe6',
      nodes: 2,
      program: async ({ mpi, compute }) => {
        if (mpi.rank === 0) {
          const req = mpi.isend(new Uint8Array(20000).fill(1), 1, 9);
          await compute({ us: 20 }); // the RTS is at rank 1 by now
          const ok = mpi.cancel(req);
          const st = await mpi.wait(req);
          await mpi.send(new Uint8Array(16).fill(2), 1, 9);
          return { ok, cancelled: st.cancelled === true };
        }
        await compute({ us: 50 });
        const buf = new Uint8Array(20000);
        const st = await mpi.recv(buf, mpi.ANY_SOURCE, 9);
        const rest = await mpi.iprobe(mpi.ANY_SOURCE, mpi.ANY_TAG);
        return { st, ones: buf.filter((v) => v === 1).length, twos: buf.filter((v) => v === 2).length, rest };
      },
    });
    expect(r.rankResults[0]).toEqual({ ok: true, cancelled: true });
    expect(r.rankResults[1]).toEqual({ st: { source: 0, tag: 9, count: 16, bytes: 16 }, ones: 0, twos: 16, rest: null });
  });

  it('a synchronous eager isend not yet matched is cancelled; the receiver never sees it', async () => {
    const r = await simulate({
      machine: 'xe6',
      nodes: 2,
      program: async ({ mpi, compute }) => {
        if (mpi.rank === 0) {
          const req = mpi.issend(Int32Array.of(1), 1, 3);
          await compute({ us: 10 });
          const ok = mpi.cancel(req);
          const st = await mpi.wait(req);
          await mpi.barrier();
          return { ok, cancelled: st.cancelled === true };
        }
        await mpi.barrier();
        return { probe: await mpi.iprobe(mpi.ANY_SOURCE, mpi.ANY_TAG) };
      },
    });
    expect(r.rankResults).toEqual([{ ok: true, cancelled: true }, { probe: null }]);
  });

  it('completed requests and matched rendezvous sends cannot be cancelled: cancel returns false and the operation takes effect', async () => {
    const r = await simulate({
      machine: 'xe6',
      nodes: 2,
      program: async ({ mpi, compute }) => {
        if (mpi.rank === 0) {
          const eager = mpi.isend(Int32Array.of(7), 1, 1);
          await compute({ us: 10 });
          const eagerCancel = mpi.cancel(eager); // done already: the NIC has sent it
          const big = mpi.isend(new Uint8Array(50000).fill(3), 1, 2);
          await compute({ us: 30 }); // matched by the posted receive and pulled
          const bigCancel = mpi.cancel(big);
          const st = await mpi.wait(big);
          return { eagerCancel, bigCancel, cancelled: st.cancelled ?? false };
        }
        const big = new Uint8Array(50000);
        const reqs = [mpi.irecv(new Int32Array(1), 0, 1), mpi.irecv(big, 0, 2)];
        await mpi.waitAll(reqs);
        const recvCancel = mpi.cancel(reqs[0]!);
        return { recvCancel, threes: big.filter((v) => v === 3).length };
      },
    });
    expect(r.rankResults[0]).toEqual({ eagerCancel: false, bigCancel: false, cancelled: false });
    expect(r.rankResults[1]).toEqual({ recvCancel: false, threes: 50000 });
  });
});

describe('progress model (mpi.asyncProgress)', () => {
  /** Rank 1 posts a 1 MiB receive, computes 500 us, then waits; rank 0 sends at once. */
  const run = (machine: string, asyncProgress: 'yes' | 'no') =>
    simulate({
      machine,
      nodes: 2,
      set: { 'mpi.asyncProgress': asyncProgress },
      program: async ({ mpi, compute, now }) => {
        const n = 1 << 20;
        if (mpi.rank === 0) {
          await mpi.send(u8Pattern(n, 9), 1, 0);
          return { sent: now() };
        }
        const buf = new Uint8Array(n);
        const req = mpi.irecv(buf, 0, 0);
        await compute({ us: 500 });
        const computed = now();
        await mpi.wait(req);
        return { computed, received: now(), bad: firstMismatch(buf, u8Pattern(n, 9)) };
      },
    });

  it.each(['xc30', 'xe6'])('%s: without asynchronous progress a 1 MiB rendezvous moves only once the receiver re-enters MPI; with it, it overlaps the compute', async (machine) => {
    const off = await run(machine, 'no');
    const on = await run(machine, 'yes');
    const offR = off.rankResults[1] as { computed: number; received: number; bad: number };
    const onR = on.rankResults[1] as { computed: number; received: number; bad: number };
    const offS = off.rankResults[0] as { sent: number };
    const onS = on.rankResults[0] as { sent: number };
    expect(offR.bad).toBe(-1);
    expect(onR.bad).toBe(-1);
    expect(offR.computed).toBeCloseTo(500, 0);
    expect(onR.computed).toBeCloseTo(500, 0);
    // 1 MiB at a few GB/s takes well over 50 us; it starts only at the wait
    expect(offR.received - offR.computed).toBeGreaterThan(50);
    expect(offS.sent).toBeGreaterThan(offR.computed);
    // with a progress thread the data is there when the compute ends
    expect(onR.received - onR.computed).toBeLessThan(5);
    expect(onS.sent).toBeLessThan(onR.computed);
    // the transfer itself takes the same time either way
    expect(offR.received - offR.computed).toBeCloseTo(onS.sent, -1);
  });
});
