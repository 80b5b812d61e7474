/** Nonblocking point-to-point: isend/irecv with waitAll, the send overhead, test() polls, and PROC_NULL. */
import { describe, expect, it } from 'vitest';
import { simulate } from '../runtime/simulate.ts';

describe('nonblocking operations', () => {
  it('isend/irecv ring exchange with waitAll returns statuses in request order with correct data', async () => {
    const r = await simulate({
      machine: 'xe6',
      nodes: 3,
      ppn: 2,
      program: async ({ mpi }) => {
        const n = mpi.size;
        const left = (mpi.rank - 1 + n) % n;
        const right = (mpi.rank + 1) % n;
        const fromLeft = new Float64Array(2000); // 16000 B: rendezvous over the network
        const fromRight = new Int32Array(7);
        const reqs = [mpi.irecv(fromLeft, left, 11), mpi.irecv(fromRight, right, 22)];
        const toRight = new Float64Array(2000).map((_, i) => mpi.rank * 10000 + i);
        const toLeft = Int32Array.from({ length: 7 }, (_, i) => -(mpi.rank * 100 + i));
        reqs.push(mpi.isend(toRight, right, 11));
        reqs.push(mpi.isend(toLeft, left, 22));
        const st = await mpi.waitAll(reqs);
        let bad = 0;
        for (let i = 0; i < 2000; i++) if (fromLeft[i] !== left * 10000 + i) bad++;
        for (let i = 0; i < 7; i++) if (fromRight[i] !== -(right * 100 + i)) bad++;
        return { left, right, s0: st[0]!, s1: st[1]!, n: st.length, bad, done: reqs.every((q) => q.done) };
      },
    });
    for (const g of r.rankResults) {
      expect(g.bad).toBe(0);
      expect(g.n).toBe(4);
      expect(g.done).toBe(true);
      expect(g.s0).toEqual({ source: g.left, tag: 11, count: 2000, bytes: 16000 });
      expect(g.s1).toEqual({ source: g.right, tag: 22, count: 7, bytes: 28 });
    }
  });

  it('isend returns a Request at once and charges the send overhead to the caller\'s clock', async () => {
    const r = await simulate({
      machine: 'xe6',
      nodes: 2,
      set: { 'mpi.sendOverhead': '2us' },
      program: async ({ mpi, now }) => {
        if (mpi.rank === 1) {
          const bufs = [new Float64Array(2), new Float64Array(2), new Float64Array(2)];
          const st = await mpi.waitAll(bufs.map((b) => mpi.irecv(b, 0, 1)));
          return { arrived: now(), data: bufs.map((b) => b[0]), counts: st.map((s) => s.count) };
        }
        const t0 = now();
        const reqs = [1, 2, 3].map((v) => mpi.isend(Float64Array.of(v, -v), 1, 1));
        const afterCalls = now() - t0;
        const isPromise = reqs.some((q) => typeof (q as unknown as { then?: unknown }).then === 'function');
        await mpi.waitAll(reqs);
        return { afterCalls, isPromise, done: now() - t0 };
      },
    });
    const s = r.rankResults[0] as { afterCalls: number; isPromise: boolean; done: number };
    const g = r.rankResults[1] as { arrived: number; data: number[]; counts: number[] };
    expect(s.isPromise).toBe(false);
    // three calls, 2 us of overhead each (plus a few ns of FMA stores)
    expect(s.afterCalls).toBeGreaterThanOrEqual(6);
    expect(s.afterCalls).toBeLessThan(6.5);
    expect(s.done).toBeGreaterThanOrEqual(s.afterCalls);
    expect(g.data).toEqual([1, 2, 3]);
    expect(g.counts).toEqual([2, 2, 2]);
    // the last message cannot leave before its call's overhead is spent
    expect(g.arrived).toBeGreaterThan(6);
  });

  // Regression: a rank's finish time is its own clock, which an isend moves ahead of the engine.
  it('simulatedTimeUs is at least the time every rank reports with ctx.now() when it returns', async () => {
    const r = await simulate({
      machine: 'xe6',
      nodes: 2,
      program: async ({ mpi, now }) => {
        if (mpi.rank === 0) for (let i = 0; i < 10; i++) mpi.isend(new Uint8Array(8), 1, 0);
        return now();
      },
    });
    expect(r.rankResults[0]).toBeGreaterThan(4);
    for (const t of r.rankResults) expect(r.simulatedTimeUs).toBeGreaterThanOrEqual(t);
  });

  it('test() polls return false until the message arrives, then true; each poll costs simulated time', async () => {
    const r = await simulate({
      machine: 'xe6',
      nodes: 2,
      set: { 'mpi.testOverhead': '100ns' },
      program: async ({ mpi, compute, now }) => {
        if (mpi.rank === 1) {
          await compute({ us: 50 });
          await mpi.send(Float64Array.of(3.5, 4.5), 0, 8);
          return null;
        }
        const buf = new Float64Array(2);
        const req = mpi.irecv(buf, 1, 8);
        const t0 = now();
        let polls = 0;
        const first = await mpi.test(req);
        const afterFirst = now();
        let ok = first;
        while (!ok) {
          polls++;
          if (polls > 100000) throw new Error('test() never returned true');
          ok = await mpi.test(req);
        }
        const t1 = now();
        const status = await mpi.wait(req);
        return { first, afterFirst: afterFirst - t0, polls, elapsed: t1 - t0, status, data: Array.from(buf) };
      },
    });
    const g = r.result!;
    expect(g.first).toBe(false);
    expect(g.afterFirst).toBeCloseTo(0.1, 9);
    // the sender only starts at 50 us: hundreds of 0.1-us polls happen before the message is there
    expect(g.polls).toBeGreaterThan(400);
    expect(g.elapsed).toBeGreaterThanOrEqual(50);
    expect(g.elapsed).toBeGreaterThanOrEqual((g.polls + 1) * 0.1 - 1e-9);
    expect(g.status).toEqual({ source: 1, tag: 8, count: 2, bytes: 16 });
    expect(g.data).toEqual([3.5, 4.5]);
  });

  it('PROC_NULL: send, recv, isend and irecv complete at once and leave the buffer alone', async () => {
    const r = await simulate({
      machine: 'xe6',
      nodes: 2,
      program: async ({ mpi, now, compute }) => {
        await compute({ us: 3 });
        const t0 = now();
        await mpi.send(new Uint8Array(100), mpi.PROC_NULL, 5);
        const buf = new Uint8Array(16).fill(9);
        const st = await mpi.recv(buf, mpi.PROC_NULL, 5);
        const sreq = mpi.isend(new Uint8Array(20000), mpi.PROC_NULL, 6);
        const rreq = mpi.irecv(buf, mpi.PROC_NULL, mpi.ANY_TAG);
        const doneAtOnce = sreq.done && rreq.done;
        const st2 = await mpi.wait(rreq);
        await mpi.wait(sreq);
        return { dt: now() - t0, st, st2, doneAtOnce, untouched: buf.every((v) => v === 9) };
      },
    });
    for (const g of r.rankResults) {
      expect(g.dt).toBe(0);
      expect(g.doneAtOnce).toBe(true);
      expect(g.untouched).toBe(true);
      expect(g.st).toEqual({ source: -1, tag: -1, count: 0, bytes: 0 });
      expect(g.st2).toEqual({ source: -1, tag: -1, count: 0, bytes: 0 });
    }
    expect(r.packets).toBe(0);
  });
});
