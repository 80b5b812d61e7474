/**
 * Requests as MPI has them: REQUEST_NULL and inactive requests, the wait and test families'
 * statuses and their REQUEST_NULL replacement, requestGetStatus, getCount, isendrecv, matched
 * probes (mprobe, improbe, mrecv, imrecv) and cancel of sends, with real data on xe6 over the
 * network and within a node, and every error case.
 */
import { describe, expect, it } from 'vitest';
import { RankError } from '../fabric/engine/engine.ts';
import { MpiError, type Status } from '../runtime/mpi/mpi.ts';
import type { RankContext } from '../runtime/rank.ts';
import { simulate } from '../runtime/simulate.ts';
import { rejection } from './helpers.ts';

/** MPI's empty status: what waits and tests return for an inactive request. */
const EMPTY = { source: -2, tag: -1, count: 0, bytes: 0 };
/** MPI_UNDEFINED. */
const UNDEFINED = -32766;

/** A payload that differs per element, per message and per sender. */
function pattern(n: number, salt: number): Uint8Array {
  const a = new Uint8Array(n);
  for (let i = 0; i < n; i++) a[i] = (i * 29 + salt * 53 + (i >> 7)) & 255;
  return a;
}

/** Index of the first differing element, or -1. */
function mismatch(a: ArrayLike<number>, b: ArrayLike<number>): number {
  if (a.length !== b.length) return Math.min(a.length, b.length);
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return i;
  return -1;
}

/** Two ranks over the network (ranks 0 and 3 of 4 nodes) and two ranks of one node. */
const placements = [
  { name: 'over the network', nodes: 4, ppn: 1, a: 0, b: 3 },
  { name: 'within a node', nodes: 1, ppn: 2, a: 0, b: 1 },
] as const;

/** Sizes: eager, and above xe6's 8 KiB eager limit (rendezvous over the network). */
const SIZES = [24, 20000];

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

describe('isendrecv and isendrecvReplace', () => {
  it.each(placements)('$name: a pair swaps eager and rendezvous payloads; the one request completes with the receive\'s status', async ({ nodes, ppn, a, b }) => {
    const r = await simulate({
      machine: 'xe6',
      nodes,
      ppn,
      program: async ({ mpi }) => {
        if (mpi.rank !== a && mpi.rank !== b) return null;
        const peer = mpi.rank === a ? b : a;
        const out: { status: Status; bad: number; replaced: Status; badReplace: number }[] = [];
        for (const n of SIZES) {
          const recv = new Uint8Array(n);
          const req = mpi.isendrecv(pattern(n, mpi.rank), peer, mpi.rank + 1, recv, peer, peer + 1);
          const status = await mpi.wait(req);
          const buf = pattern(n, mpi.rank + 10);
          const replaced = await mpi.wait(mpi.isendrecvReplace(buf, peer, 50 + mpi.rank, peer, 50 + peer));
          out.push({ status, bad: mismatch(recv, pattern(n, peer)), replaced, badReplace: mismatch(buf, pattern(n, peer + 10)) });
        }
        return out;
      },
    });
    for (const [me, peer] of [
      [a, b],
      [b, a],
    ] as const) {
      expect(r.rankResults[me]).toEqual(
        SIZES.map((n) => ({
          status: { source: peer, tag: peer + 1, count: n, bytes: n },
          bad: -1,
          replaced: { source: peer, tag: 50 + peer, count: n, bytes: n },
          badReplace: -1,
        })),
      );
    }
  });

  it('the request completes only once both halves have: a send to a rank that receives late keeps it pending', async () => {
    const r = await simulate({
      machine: 'xe6',
      nodes: 2,
      program: async ({ mpi, compute, now }) => {
        const n = 30000; // rendezvous: the send completes once rank 1 pulls it
        if (mpi.rank === 1) {
          await mpi.send(Int32Array.of(5), 0, 1);
          await compute({ us: 80 });
          await mpi.recv(new Uint8Array(n), 0, 2);
          return null;
        }
        const got = new Int32Array(1);
        const req = mpi.isendrecv(new Uint8Array(n), 1, 2, got, 1, 1);
        const st = await mpi.wait(req);
        return { st, got: got[0], t: now() };
      },
    });
    expect(r.result).toMatchObject({ st: { source: 1, tag: 1, count: 1, bytes: 4 }, got: 5 });
    expect(r.result!.t).toBeGreaterThan(80);
  });
});

describe('matched probes', () => {
  it.each(placements)('$name: improbe finds nothing, then matches a message that no other receive can take; mrecv and imrecv receive eager and rendezvous messages', async ({ nodes, ppn, a, b }) => {
    const r = await simulate({
      machine: 'xe6',
      nodes,
      ppn,
      program: async ({ mpi, compute }) => {
        if (mpi.rank === b) {
          await mpi.barrier();
          for (const [k, n] of SIZES.entries()) {
            await mpi.send(pattern(n, k), a, 7);
            await mpi.send(pattern(n, k + 20), a, 7);
          }
          return null;
        }
        if (mpi.rank !== a) return mpi.barrier();
        const nothing = await mpi.improbe(mpi.ANY_SOURCE, mpi.ANY_TAG);
        await mpi.barrier();
        await compute({ us: 40 });
        const out = [];
        for (const [k, n] of SIZES.entries()) {
          const m = await mpi.improbe(b, 7);
          if (!m) throw new Error('no message');
          // a receive posted now takes the next message, not the matched one
          const other = new Uint8Array(n);
          const otherReq = mpi.irecv(other, mpi.ANY_SOURCE, mpi.ANY_TAG);
          const buf = new Uint8Array(n);
          const st = k === 0 ? await mpi.mrecv(buf, m.message) : await mpi.wait(mpi.imrecv(buf, m.message));
          const otherSt = await mpi.wait(otherReq);
          out.push({ probed: m.status, st, bad: mismatch(buf, pattern(n, k)), otherSt, otherBad: mismatch(other, pattern(n, k + 20)) });
        }
        return { nothing, out, left: await mpi.iprobe(mpi.ANY_SOURCE, mpi.ANY_TAG) };
      },
    });
    const g = r.rankResults[a] as { nothing: unknown; out: unknown[]; left: unknown };
    expect(g.nothing).toBeNull();
    expect(g.out).toEqual(
      SIZES.map((n) => ({
        probed: { source: b, tag: 7, count: n, bytes: n },
        st: { source: b, tag: 7, count: n, bytes: n },
        bad: -1,
        otherSt: { source: b, tag: 7, count: n, bytes: n },
        otherBad: -1,
      })),
    );
    expect(g.left).toBeNull();
  });

  it('mprobe + mrecv with ANY_SOURCE from 5 senders receives each of their 4 messages exactly once, in each sender\'s order, none lost', async () => {
    const perSender = 4;
    const size = (src: number, k: number) => (k % 2 === 0 ? 8 * (src + k + 1) : 9000 + 1000 * src + k);
    const r = await simulate({
      machine: 'xe6',
      nodes: 3,
      ppn: 2,
      program: async ({ mpi, compute }) => {
        if (mpi.rank !== 0) {
          for (let k = 0; k < perSender; k++) {
            await compute({ us: ((mpi.rank * 7 + k * 3) % 5) + 1 });
            await mpi.send(pattern(size(mpi.rank, k), mpi.rank * 100 + k), 0, k);
          }
          return mpi.barrier();
        }
        const got: { source: number; tag: number; bytes: number; bad: number }[] = [];
        for (let i = 0; i < (mpi.size - 1) * perSender; i++) {
          const { message, status } = await mpi.mprobe(mpi.ANY_SOURCE, mpi.ANY_TAG);
          const buf = new Uint8Array(status.count);
          const st = await mpi.mrecv(buf, message);
          if (st.source !== status.source || st.tag !== status.tag || st.bytes !== status.bytes) throw new Error('mrecv status differs from mprobe status');
          got.push({ source: st.source, tag: st.tag, bytes: st.bytes, bad: mismatch(buf, pattern(size(st.source, st.tag), st.source * 100 + st.tag)) });
        }
        await mpi.barrier();
        return { got, left: await mpi.iprobe(mpi.ANY_SOURCE, mpi.ANY_TAG) };
      },
    });
    const g = r.result as unknown as { got: { source: number; tag: number; bytes: number; bad: number }[]; left: unknown };
    expect(g.left).toBeNull();
    expect(g.got).toHaveLength(5 * perSender);
    expect(g.got.every((x) => x.bad === -1)).toBe(true);
    for (let src = 1; src <= 5; src++) {
      const mine = g.got.filter((x) => x.source === src);
      expect(mine.map((x) => x.tag)).toEqual([0, 1, 2, 3]);
      expect(mine.map((x) => x.bytes)).toEqual([0, 1, 2, 3].map((k) => size(src, k)));
    }
  });

  it('a rendezvous message matched by improbe is pulled from the imrecv on: imrecv before 100 us of compute overlaps the pull, mrecv after it does not', async () => {
    const n = 2_000_000;
    const run = (early: boolean) =>
      simulate({
        machine: 'xe6',
        nodes: 2,
        program: async ({ mpi, compute, now }) => {
          if (mpi.rank === 1) {
            await mpi.send(pattern(n, 4), 0, 0);
            return null;
          }
          let m = null;
          while (!m) m = await mpi.improbe(1, 0);
          const buf = new Uint8Array(n);
          const t0 = now();
          let st: Status;
          if (early) {
            const req = mpi.imrecv(buf, m.message);
            await compute({ us: 100 });
            st = await mpi.wait(req);
          } else {
            await compute({ us: 100 });
            st = await mpi.mrecv(buf, m.message);
          }
          return { dt: now() - t0, st, bad: mismatch(buf, pattern(n, 4)) };
        },
      });
    const [early, late] = await Promise.all([run(true), run(false)]);
    for (const x of [early.result!, late.result!]) {
      expect(x.st).toEqual({ source: 1, tag: 0, count: n, bytes: n });
      expect(x.bad).toBe(-1);
    }
    // the pull of 2 MB takes several hundred us on Gemini: overlapped, it ends ~100 us sooner
    const pull = late.result!.dt - 100;
    expect(pull).toBeGreaterThan(150);
    expect(early.result!.dt).toBeLessThan(late.result!.dt - 90);
    expect(early.result!.dt).toBeGreaterThan(pull);
  });

  it('a probe of PROC_NULL returns MESSAGE_NO_PROC, whose receive returns at once with the PROC_NULL status; statuses use communicator ranks', async () => {
    const r = await simulate({
      machine: 'xe6',
      nodes: 4,
      program: async ({ mpi }) => {
        const half = (await mpi.split(mpi.rank % 2, -mpi.rank))!;
        // in `half`, world rank 2 is rank 0 and world rank 0 is rank 1 (keys reverse the order)
        if (mpi.rank === 2) await half.send(Int32Array.of(99), 1, 3);
        if (mpi.rank !== 0) return null;
        const p = await mpi.mprobe(mpi.PROC_NULL, 0);
        const ip = await mpi.improbe(mpi.PROC_NULL, mpi.ANY_TAG);
        const buf = Int32Array.of(-1);
        const st = await mpi.mrecv(buf, p.message);
        const st2 = await mpi.wait(mpi.imrecv(buf, mpi.MESSAGE_NO_PROC));
        const m = await half.mprobe(mpi.ANY_SOURCE, 3, 4);
        const got = new Int32Array(1);
        const st3 = await half.mrecv(got, m.message);
        return { noProc: p.message === mpi.MESSAGE_NO_PROC && ip!.message === mpi.MESSAGE_NO_PROC, p: p.status, st, st2, untouched: buf[0], probed: m.status, st3, got: got[0] };
      },
    });
    const nullStatus = { source: -1, tag: -1, count: 0, bytes: 0 };
    expect(r.result).toEqual({ noProc: true, p: nullStatus, st: nullStatus, st2: nullStatus, untouched: -1, probed: { source: 0, tag: 3, count: 1, bytes: 4 }, st3: { source: 0, tag: 3, count: 1, bytes: 4 }, got: 99 });
  });
});

describe('metrics', () => {
  it('count matched probes, isendrecv and requestGetStatus under their MPI names', async () => {
    const r = await simulate({
      machine: 'xe6',
      nodes: 2,
      metrics: true,
      program: async ({ mpi }) => {
        const peer = 1 - mpi.rank;
        const buf = new Int32Array(1);
        const req = mpi.isendrecv(Int32Array.of(mpi.rank), peer, 0, buf, peer, 0);
        await mpi.requestGetStatus(req);
        await mpi.wait(req);
        await mpi.send(Int32Array.of(1), peer, 1);
        const m = await mpi.mprobe(peer, 1);
        await mpi.mrecv(buf, m.message);
        await mpi.wait(mpi.isendrecvReplace(buf, peer, 2, peer, 2));
        return null;
      },
    });
    const calls = Object.fromEntries(r.metrics!.calls.map((c) => [c.name, c.calls]));
    expect(calls).toMatchObject({ MPI_Isendrecv: 2, MPI_Isendrecv_replace: 2, MPI_Request_get_status: 2, MPI_Mprobe: 2, MPI_Mrecv: 2, MPI_Wait: 4 });
  });
});

describe('cancel of a send', () => {
  it.each(placements)('$name: an eager isend, complete at the sender but unmatched at the receiver, is cancelled; the receiver only ever sees the next message', async ({ nodes, ppn, a, b }) => {
    const r = await simulate({
      machine: 'xe6',
      nodes,
      ppn,
      program: async ({ mpi, compute }) => {
        if (mpi.rank === a) {
          const req = mpi.isend(Int32Array.of(111), b, 4);
          await compute({ us: 20 }); // sent (complete) and queued unexpected at b
          const doneBefore = req.done;
          const ok = mpi.cancel(req);
          const st = await mpi.wait(req);
          await mpi.send(Int32Array.of(222), b, 4);
          await mpi.barrier();
          return { doneBefore, ok, st };
        }
        if (mpi.rank !== b) return mpi.barrier();
        await compute({ us: 40 });
        const buf = new Int32Array(1);
        const st = await mpi.recv(buf, a, 4);
        await mpi.barrier();
        return { st, got: buf[0], left: await mpi.iprobe(mpi.ANY_SOURCE, mpi.ANY_TAG) };
      },
    });
    expect(r.rankResults[a]).toEqual({ doneBefore: true, ok: true, st: { source: b, tag: 4, count: 0, bytes: 0, cancelled: true } });
    expect(r.rankResults[b]).toEqual({ st: { source: a, tag: 4, count: 1, bytes: 4 }, got: 222, left: null });
  });

  it.each(placements)('$name: eager and rendezvous sends cancelled at once (still leaving or in flight) never match; later messages of the pair still arrive in order', async ({ nodes, ppn, a, b }) => {
    const r = await simulate({
      machine: 'xe6',
      nodes,
      ppn,
      program: async ({ mpi }) => {
        if (mpi.rank === a) {
          const res = [];
          for (const [k, n] of SIZES.entries()) {
            const req = mpi.isend(pattern(n, 1), b, 0);
            const ok = mpi.cancel(req);
            res.push({ ok, st: await mpi.wait(req) });
            await mpi.send(pattern(n, k + 2), b, 0);
          }
          return res;
        }
        if (mpi.rank !== b) return null;
        const res = [];
        for (const [k, n] of SIZES.entries()) {
          const buf = new Uint8Array(n);
          const st = await mpi.recv(buf, a, 0);
          res.push({ st, bad: mismatch(buf, pattern(n, k + 2)) });
        }
        return res;
      },
    });
    expect(r.rankResults[a]).toEqual(SIZES.map(() => ({ ok: true, st: { source: b, tag: 0, count: 0, bytes: 0, cancelled: true } })));
    expect(r.rankResults[b]).toEqual(SIZES.map((n) => ({ st: { source: a, tag: 0, count: n, bytes: n }, bad: -1 })));
  });

  it('a send matched by a posted receive or by mprobe cannot be cancelled: cancel returns false and the data arrives', async () => {
    const r = await simulate({
      machine: 'xe6',
      nodes: 2,
      program: async ({ mpi, compute }) => {
        if (mpi.rank === 0) {
          const posted = mpi.isend(Int32Array.of(1), 1, 1);
          const probed = mpi.isend(pattern(20000, 5), 1, 2);
          await compute({ us: 30 }); // rank 1 matched both by now
          const okPosted = mpi.cancel(posted);
          const okProbed = mpi.cancel(probed);
          const st = await mpi.waitAll([posted, probed]);
          return { okPosted, okProbed, cancelled: st.map((s) => s.cancelled ?? false) };
        }
        const one = new Int32Array(1);
        const req = mpi.irecv(one, 0, 1);
        const m = await mpi.mprobe(0, 2);
        await compute({ us: 40 });
        const big = new Uint8Array(20000);
        const st = await mpi.mrecv(big, m.message);
        await mpi.wait(req);
        return { one: one[0], st, bad: mismatch(big, pattern(20000, 5)) };
      },
    });
    expect(r.rankResults[0]).toEqual({ okPosted: false, okProbed: false, cancelled: [false, false] });
    expect(r.rankResults[1]).toEqual({ one: 1, st: { source: 0, tag: 2, count: 20000, bytes: 20000 }, bad: -1 });
  });
});

describe('bad use of requests and messages', () => {
  const bad: { name: string; cls: string; mentions: string; call: (ctx: RankContext) => Promise<unknown> }[] = [
    { name: 'wait on a freed request', cls: 'MPI_ERR_REQUEST', mentions: 'wait: the request irecv(source=1, tag=0) was freed', call: async ({ mpi }) => {
      const r = mpi.irecv(new Uint8Array(1), 1, 0);
      mpi.requestFree(r);
      await mpi.wait(r);
    } },
    { name: 'test on a freed request', cls: 'MPI_ERR_REQUEST', mentions: 'test: the request', call: async ({ mpi }) => {
      const r = mpi.irecv(new Uint8Array(1), 1, 0);
      mpi.requestFree(r);
      await mpi.test(r);
    } },
    { name: 'waitAll over a freed request', cls: 'MPI_ERR_REQUEST', mentions: 'waitAll: reqs[1]: the request', call: async ({ mpi }) => {
      const r = mpi.irecv(new Uint8Array(1), 1, 0);
      mpi.requestFree(r);
      await mpi.waitAll([null, r]);
    } },
    { name: 'cancel of a freed request', cls: 'MPI_ERR_REQUEST', mentions: 'cancel: the request', call: async ({ mpi }) => {
      const r = mpi.irecv(new Uint8Array(1), 1, 0);
      mpi.requestFree(r);
      mpi.cancel(r);
    } },
    { name: 'requestGetStatus of a freed request', cls: 'MPI_ERR_REQUEST', mentions: 'requestGetStatus: the request', call: async ({ mpi }) => {
      const r = mpi.irecv(new Uint8Array(1), 1, 0);
      mpi.requestFree(r);
      await mpi.requestGetStatus(r);
    } },
    { name: 'requestFree twice', cls: 'MPI_ERR_REQUEST', mentions: 'requestFree: the request', call: async ({ mpi }) => {
      const r = mpi.irecv(new Uint8Array(1), 1, 0);
      mpi.requestFree(r);
      mpi.requestFree(r);
    } },
    { name: 'requestFree of REQUEST_NULL', cls: 'MPI_ERR_REQUEST', mentions: 'REQUEST_NULL cannot be freed', call: async ({ mpi }) => mpi.requestFree(mpi.REQUEST_NULL) },
    { name: 'wait on a non-request', cls: 'MPI_ERR_REQUEST', mentions: 'wait: expected a request, got number', call: ({ mpi }) => mpi.wait(3 as never) },
    { name: 'test on a non-request', cls: 'MPI_ERR_REQUEST', mentions: 'test: expected a request, got undefined', call: ({ mpi }) => mpi.test(undefined as never) },
    { name: 'waitAll over a non-request', cls: 'MPI_ERR_REQUEST', mentions: 'waitAll: reqs[0]: expected a request, got Object', call: ({ mpi }) => mpi.waitAll([{} as never]) },
    { name: 'waitAll of a non-array', cls: 'MPI_ERR_ARG', mentions: 'waitAll: expected an array of requests, got string', call: ({ mpi }) => mpi.waitAll('x' as never) },
    { name: 'waitAny over a non-request', cls: 'MPI_ERR_REQUEST', mentions: 'waitAny: reqs[1]: expected a request, got string', call: ({ mpi }) => mpi.waitAny([null, 'r' as never]) },
    { name: 'waitSome over a non-request', cls: 'MPI_ERR_REQUEST', mentions: 'waitSome: reqs[0]', call: ({ mpi }) => mpi.waitSome([1 as never]) },
    { name: 'testAll over a non-request', cls: 'MPI_ERR_REQUEST', mentions: 'testAll: reqs[0]', call: ({ mpi }) => mpi.testAll([1 as never]) },
    { name: 'testAny over a non-request', cls: 'MPI_ERR_REQUEST', mentions: 'testAny: reqs[0]', call: ({ mpi }) => mpi.testAny([1 as never]) },
    { name: 'testSome over a non-request', cls: 'MPI_ERR_REQUEST', mentions: 'testSome: reqs[0]', call: ({ mpi }) => mpi.testSome([1 as never]) },
    { name: 'requestGetStatus of a non-request', cls: 'MPI_ERR_REQUEST', mentions: 'requestGetStatus: expected a request, got null', call: ({ mpi }) => mpi.requestGetStatus(null as never) },
    { name: 'requestFree of a non-request', cls: 'MPI_ERR_REQUEST', mentions: 'requestFree: expected a request', call: async ({ mpi }) => mpi.requestFree(5 as never) },
    { name: 'mrecv of a message already received', cls: 'MPI_ERR_REQUEST', mentions: 'the message was received already', call: async ({ mpi }) => {
      const m = await mpi.mprobe(1, 0);
      await mpi.mrecv(new Int32Array(1), m.message);
      await mpi.mrecv(new Int32Array(1), m.message);
    } },
    { name: 'imrecv of a message already received', cls: 'MPI_ERR_REQUEST', mentions: 'imrecv(message from 1, tag 0, 4 bytes): the message was received already', call: async ({ mpi }) => {
      const m = await mpi.mprobe(1, 0);
      const r = mpi.imrecv(new Int32Array(1), m.message);
      mpi.imrecv(new Int32Array(1), m.message);
      await r.wait();
    } },
    { name: 'mrecv of a non-message', cls: 'MPI_ERR_REQUEST', mentions: 'mrecv: expected a message from mprobe or improbe, got Object', call: ({ mpi }) => mpi.mrecv(new Int32Array(1), {} as never) },
    { name: 'mrecv into a buffer too small', cls: 'MPI_ERR_TRUNCATE', mentions: 'does not fit the 2-byte receive buffer', call: async ({ mpi }) => {
      const m = await mpi.mprobe(1, 0);
      await mpi.mrecv(new Uint8Array(2), m.message);
    } },
    { name: 'mprobe source = 4', cls: 'MPI_ERR_RANK', mentions: 'mprobe: source=4', call: ({ mpi }) => mpi.mprobe(4, 0) },
    { name: 'improbe tag = -5', cls: 'MPI_ERR_TAG', mentions: 'improbe: tag=-5', call: ({ mpi }) => mpi.improbe(0, -5) },
    { name: 'isendrecv dest = 4', cls: 'MPI_ERR_RANK', mentions: 'isendrecv: dest=4', call: async ({ mpi }) => mpi.isendrecv(new Uint8Array(1), 4, 0, new Uint8Array(1), 1, 0) },
    { name: 'isendrecvReplace source = 7', cls: 'MPI_ERR_RANK', mentions: 'isendrecvReplace: source=7', call: async ({ mpi }) => mpi.isendrecvReplace(new Uint8Array(1), 1, 0, 7, 0) },
    { name: 'getCount of a non-status', cls: 'MPI_ERR_ARG', mentions: 'getCount: expected a status', call: async ({ mpi }) => mpi.getCount(null as never, 4) },
    { name: 'getCount with a zero element size', cls: 'MPI_ERR_TYPE', mentions: 'getCount: type must be a positive element size', call: async ({ mpi }) => mpi.getCount({ source: 0, tag: 0, count: 0, bytes: 4 }, 0) },
  ];
  it.each(bad)('$name fails with $cls naming the call', async ({ cls, mentions, call }) => {
    const e = await rejection(
      simulate({
        machine: 'xe6',
        nodes: 4,
        program: async (ctx) => {
          if (ctx.rank === 1) await ctx.mpi.send(Int32Array.of(3), 0, 0);
          if (ctx.rank === 0) await call(ctx);
        },
      }),
    );
    expect(e).toBeInstanceOf(RankError);
    expect((e as RankError).rank).toBe(0);
    expect(((e as RankError).error as MpiError).errorClass).toBe(cls);
    expect(e.message).toContain(`${cls}:`);
    expect(e.message).toContain(mentions);
  });
});
