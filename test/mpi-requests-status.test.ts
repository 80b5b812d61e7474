/**
 * What completing a request returns: REQUEST_NULL and inactive requests, the wait and test
 * families' statuses and their REQUEST_NULL replacement, requestGetStatus and getCount, with real
 * data on xe6 over the network and within a node.
 */
import { describe, expect, it } from 'vitest';
import type { Status } from '../runtime/mpi/mpi.ts';
import { simulate } from '../runtime/simulate.ts';
import { EMPTY, SIZES, UNDEFINED, mismatch, pattern, placements } from './mpi-requests-helpers.ts';

describe('REQUEST_NULL and inactive requests', () => {
  it('wait, test, requestGetStatus and cancel of REQUEST_NULL return at once with the empty status; waitAll gives it for null entries too', async () => {
    const r = await simulate({
      machine: 'xe6',
      nodes: 2,
      program: async ({ mpi, now }) => {
        if (mpi.rank === 1) {
          await mpi.send(Int32Array.of(41, 42), 0, 6);
          return null;
        }
        const t0 = now();
        const waited = await mpi.wait(mpi.REQUEST_NULL);
        const direct = await mpi.REQUEST_NULL.wait();
        const dtWait = now() - t0;
        const tested = await mpi.test(mpi.REQUEST_NULL);
        const got = await mpi.requestGetStatus(mpi.REQUEST_NULL);
        const cancelled = mpi.cancel(mpi.REQUEST_NULL);
        const buf = new Int32Array(2);
        const all = await mpi.waitAll([mpi.REQUEST_NULL, null, mpi.irecv(buf, 1, 6)]);
        return { waited, direct, dtWait, tested, got, cancelled, all, data: Array.from(buf), active: mpi.REQUEST_NULL.active, isNull: mpi.REQUEST_NULL.isNull };
      },
    });
    const g = r.result!;
    expect(g.waited).toEqual(EMPTY);
    expect(g.direct).toEqual(EMPTY);
    expect(g.dtWait).toBe(0);
    expect(g.tested).toBe(true);
    expect(g.got).toEqual({ flag: true, status: EMPTY });
    expect(g.cancelled).toBe(false);
    expect(g.all).toEqual([EMPTY, EMPTY, { source: 1, tag: 6, count: 2, bytes: 8 }]);
    expect(g.data).toEqual([41, 42]);
    expect(g.active).toBe(false);
    expect(g.isNull).toBe(true);
  });

  it('a request whose completion wait returned is REQUEST_NULL: waitAny skips it, a second wait or test returns the empty status at once', async () => {
    const r = await simulate({
      machine: 'xe6',
      nodes: 2,
      program: async ({ mpi }) => {
        if (mpi.rank === 1) {
          await mpi.send(Int32Array.of(1), 0, 1);
          await mpi.send(Int32Array.of(2), 0, 2);
          return null;
        }
        const a = mpi.irecv(new Int32Array(1), 1, 1);
        const b = mpi.irecv(new Int32Array(1), 1, 2);
        const first = await mpi.wait(a);
        const activeAfter = a.active;
        const reqs = [a, b];
        const any = await mpi.waitAny(reqs);
        const none = await mpi.waitAny(reqs);
        // the first wait returned its completion: the request is REQUEST_NULL now
        const again = await mpi.wait(a);
        const direct = await a.wait();
        const tested = await mpi.test(a);
        const requestStatus = await mpi.requestGetStatus(a);
        return { first, activeAfter, any, none, again, direct, tested, requestStatus, aKept: reqs[0] === a, bNull: reqs[1] === mpi.REQUEST_NULL };
      },
    });
    const g = r.result!;
    expect(g.first).toEqual({ source: 1, tag: 1, count: 1, bytes: 4 });
    expect(g.activeAfter).toBe(false);
    expect(g.any).toEqual({ index: 1, status: { source: 1, tag: 2, count: 1, bytes: 4 } });
    expect(g.none).toEqual({ index: UNDEFINED, status: EMPTY });
    expect(g.again).toEqual(EMPTY);
    expect(g.direct).toEqual(EMPTY);
    expect(g.tested).toBe(true);
    expect(g.requestStatus).toEqual({ flag: true, status: EMPTY });
    expect(g.aKept).toBe(true);
    expect(g.bNull).toBe(true);
  });
});

describe('wait and test families return statuses', () => {
  it.each(placements)('$name: a waitSome loop until UNDEFINED receives every message once, eager and rendezvous, each status field by field', async ({ nodes, ppn, a, b }) => {
    const r = await simulate({
      machine: 'xe6',
      nodes,
      ppn,
      program: async ({ mpi, compute }) => {
        if (mpi.rank === b) {
          for (const [k, n] of SIZES.entries()) {
            await compute({ us: 5 });
            await mpi.send(pattern(n, k), a, 40 + k);
          }
          return null;
        }
        if (mpi.rank !== a) return null;
        const bufs = SIZES.map((n) => new Uint8Array(n));
        const reqs = bufs.map((buf, k) => mpi.irecv(buf, b, 40 + k));
        const seen: { index: number; status: Status }[] = [];
        let calls = 0;
        for (;;) {
          const done = await mpi.waitSome(reqs);
          if (done === mpi.UNDEFINED) break;
          calls++;
          seen.push(...done);
        }
        return { seen, calls, bad: bufs.map((buf, k) => mismatch(buf, pattern(SIZES[k]!, k))), nulls: reqs.every((q) => q === mpi.REQUEST_NULL) };
      },
    });
    const g = r.rankResults[a] as { seen: { index: number; status: Status }[]; calls: number; bad: number[]; nulls: boolean };
    expect(g.seen).toEqual(SIZES.map((n, k) => ({ index: k, status: { source: b, tag: 40 + k, count: n, bytes: n } })));
    expect(g.calls).toBe(2);
    expect(g.bad).toEqual([-1, -1]);
    expect(g.nulls).toBe(true);
  });

  it.each(placements)('$name: a testAny loop takes each completion once, then reports no active request', async ({ nodes, ppn, a, b }) => {
    const r = await simulate({
      machine: 'xe6',
      nodes,
      ppn,
      program: async ({ mpi }) => {
        if (mpi.rank === b) {
          for (const [k, n] of SIZES.entries()) await mpi.send(pattern(n, k + 7), a, k);
          return null;
        }
        if (mpi.rank !== a) return null;
        const f64 = new Float64Array(3);
        const big = new Uint8Array(SIZES[1]!);
        const reqs = [mpi.irecv(f64, b, 0), mpi.irecv(big, b, 1)];
        const got: { flag: boolean; index: number; status: Status | null }[] = [];
        let polls = 0;
        for (;;) {
          const t = await mpi.testAny(reqs);
          if (t.index === mpi.UNDEFINED && t.flag) break;
          if (t.flag) got.push(t);
          if (++polls > 1e5) throw new Error('testAny never completed');
        }
        return { got, small: mismatch(new Uint8Array(f64.buffer), pattern(24, 7)), big: mismatch(big, pattern(SIZES[1]!, 8)) };
      },
    });
    const g = r.rankResults[a] as { got: unknown[]; small: number; big: number };
    expect(g.got).toEqual([
      { flag: true, index: 0, status: { source: b, tag: 0, count: 3, bytes: 24 } },
      { flag: true, index: 1, status: { source: b, tag: 1, count: SIZES[1], bytes: SIZES[1] } },
    ]);
    expect(g.small).toBe(-1);
    expect(g.big).toBe(-1);
  });

  it('testAll returns null until every request is complete, then all statuses in order; a testSome poll returns the completed ones and replaces them', async () => {
    const r = await simulate({
      machine: 'xe6',
      nodes: 3,
      program: async ({ mpi, compute }) => {
        if (mpi.rank !== 0) {
          await compute({ us: mpi.rank * 20 });
          await mpi.send(Int16Array.of(mpi.rank, -mpi.rank, 7), 0, mpi.rank + 100);
          return null;
        }
        const bufs = [new Int16Array(3), new Int16Array(3)];
        const reqs = bufs.map((buf, i) => mpi.irecv(buf, i + 1, i + 101));
        await compute({ us: 30 });
        const early = await mpi.testAll(reqs);
        const some = await mpi.testSome([...reqs]);
        await compute({ us: 30 });
        const late = await mpi.testAll(reqs);
        return { early, some, late, data: bufs.map((x) => Array.from(x)) };
      },
    });
    expect(r.result).toEqual({
      early: null,
      some: [{ index: 0, status: { source: 1, tag: 101, count: 3, bytes: 6 } }],
      // testSome returned the first completion: that request is REQUEST_NULL since, its status empty
      late: [
        EMPTY,
        { source: 2, tag: 102, count: 3, bytes: 6 },
      ],
      data: [
        [1, -1, 7],
        [2, -2, 7],
      ],
    });
  });
});

describe('requestGetStatus', () => {
  it('reports completion without taking it (one poll), so a later wait returns the status; a rendezvous receive progresses while it is polled', async () => {
    const r = await simulate({
      machine: 'xe6',
      nodes: 2,
      set: { 'mpi.testOverhead': '1us' },
      program: async ({ mpi, now }) => {
        const n = 50000;
        if (mpi.rank === 1) {
          await mpi.send(pattern(n, 3), 0, 9);
          return null;
        }
        const buf = new Uint8Array(n);
        const req = mpi.irecv(buf, 1, 9);
        const t0 = now();
        const before = await mpi.requestGetStatus(req);
        const dt = now() - t0;
        let polls = 1;
        let got = before;
        while (!got.flag) {
          got = await mpi.requestGetStatus(req);
          if (++polls > 1e5) throw new Error('never completed');
        }
        const stillActive = req.active;
        const waited = await mpi.wait(req);
        return { before, dt, got, stillActive, waited, bad: mismatch(buf, pattern(n, 3)) };
      },
    });
    const g = r.result!;
    expect(g.before).toEqual({ flag: false, status: null });
    expect(g.dt).toBeCloseTo(1, 6);
    expect(g.got).toEqual({ flag: true, status: { source: 1, tag: 9, count: 50000, bytes: 50000 } });
    expect(g.stillActive).toBe(true);
    expect(g.waited).toEqual(g.got.status);
    expect(g.bad).toBe(-1);
  });
});

describe('getCount', () => {
  it('counts whole elements of a size or typed array type, and UNDEFINED for a partial element', async () => {
    const r = await simulate({
      machine: 'xe6',
      nodes: 2,
      program: async ({ mpi }) => {
        if (mpi.rank === 1) {
          await mpi.send(Uint8Array.of(1, 2, 3, 4, 5, 6), 0, 0);
          await mpi.send(new Uint8Array(0), 0, 1);
          return null;
        }
        // bytes into a byte buffer (6 bytes into an Int32Array would be MPI_ERR_TYPE), counted as other types
        const st = await mpi.recv(new Uint8Array(8), 1, 0);
        const zero = await mpi.recv(new Int32Array(2), 1, 1);
        return {
          st,
          i32: mpi.getCount(st, Int32Array),
          u16: mpi.getCount(st, Uint16Array),
          two: mpi.getCount(st, 2),
          one: mpi.getCount(st, 1),
          f64: mpi.getCount(st, Float64Array),
          zero: mpi.getCount(zero, Float64Array),
          UNDEFINED: mpi.UNDEFINED,
        };
      },
    });
    const g = r.result!;
    expect(g.st).toEqual({ source: 1, tag: 0, count: 6, bytes: 6 });
    expect(g.i32).toBe(g.UNDEFINED);
    expect(g.u16).toBe(3);
    expect(g.two).toBe(3);
    expect(g.one).toBe(6);
    expect(g.f64).toBe(g.UNDEFINED);
    expect(g.zero).toBe(0);
  });
});
