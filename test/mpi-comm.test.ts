import { describe, expect, it } from 'vitest';
import { RankError } from '../fabric/engine/engine.ts';
import { dimsCreate } from '../runtime/mpi/comm.ts';
import { BSEND_OVERHEAD, CartComm, Comm, MpiError, type Request, type Status } from '../runtime/mpi/mpi.ts';
import type { RankContext } from '../runtime/rank.ts';
import { simulate } from '../runtime/simulate.ts';
import { rejection } from './helpers.ts';

/** Index of the first element where a and b differ, or -1. */
function firstMismatch(a: ArrayLike<number>, b: ArrayLike<number>, n = Math.max(a.length, b.length)): number {
  for (let i = 0; i < n; i++) if (!Object.is(a[i], b[i])) return i;
  return -1;
}

/** Deterministic bytes, different for every (n, salt). */
function u8Pattern(n: number, salt: number): Uint8Array {
  const a = new Uint8Array(n);
  for (let i = 0; i < n; i++) a[i] = (i * 31 + salt * 17 + (i >> 8)) & 255;
  return a;
}

/** The two placements of a sender/receiver pair: over the network and over shared memory. */
const placements = [
  { name: 'different nodes', nodes: 2, ppn: 1 },
  { name: 'same node (ppn 2)', nodes: 1, ppn: 2 },
] as const;

/** Message sizes on each side of the eager limit (8 KiB on xe6). */
const sizes = [
  { bytes: 64, protocol: 'eager' },
  { bytes: 20000, protocol: 'rendezvous' },
] as const;

/** How long the receivers of the timing tests compute before they post their receive (us). */
const LATE_US = 50;

describe('synchronous sends (ssend, issend)', () => {
  describe.each(placements)('$name', ({ nodes, ppn }) => {
    it.each(sizes)('a $bytes-byte ($protocol) ssend completes only after the receiver posts its receive; data intact', async ({ bytes }) => {
      const r = await simulate({
        machine: 'xe6',
        nodes,
        ppn,
        program: async ({ mpi, compute, now }) => {
          if (mpi.rank === 0) {
            await mpi.ssend(u8Pattern(bytes, 1), 1, 3);
            return { done: now() };
          }
          await compute({ us: LATE_US });
          const posted = now();
          const buf = new Uint8Array(bytes);
          const status = await mpi.recv(buf, 0, 3);
          return { posted, status, bad: firstMismatch(buf, u8Pattern(bytes, 1)) };
        },
      });
      const s = r.rankResults[0] as { done: number };
      const g = r.rankResults[1] as { posted: number; status: Status; bad: number };
      expect(g.posted).toBeGreaterThanOrEqual(LATE_US);
      expect(s.done).toBeGreaterThan(g.posted);
      expect(g.bad).toBe(-1);
      expect(g.status).toEqual({ source: 0, tag: 3, count: bytes, bytes });
    });

    it.each(sizes)('a $bytes-byte issend: test() is false while the receiver computes, wait returns after it posts', async ({ bytes }) => {
      const r = await simulate({
        machine: 'xe6',
        nodes,
        ppn,
        program: async ({ mpi, compute, now }) => {
          if (mpi.rank === 0) {
            const req = mpi.issend(u8Pattern(bytes, 2), 1, 4);
            await compute({ us: LATE_US - 10 });
            const early = await mpi.test(req);
            await mpi.wait(req);
            return { early, done: now() };
          }
          await compute({ us: LATE_US });
          const posted = now();
          const buf = new Uint8Array(bytes);
          await mpi.recv(buf, 0, 4);
          return { posted, bad: firstMismatch(buf, u8Pattern(bytes, 2)) };
        },
      });
      const s = r.rankResults[0] as { early: boolean; done: number };
      const g = r.rankResults[1] as { posted: number; bad: number };
      expect(s.early).toBe(false);
      expect(s.done).toBeGreaterThan(g.posted);
      expect(g.bad).toBe(-1);
    });

    it('contrast: a standard send of 64 bytes completes before the receive is posted', async () => {
      const r = await simulate({
        machine: 'xe6',
        nodes,
        ppn,
        program: async ({ mpi, compute, now }) => {
          if (mpi.rank === 0) {
            await mpi.send(u8Pattern(64, 3), 1, 3);
            return now();
          }
          await compute({ us: LATE_US });
          const buf = new Uint8Array(64);
          await mpi.recv(buf, 0, 3);
          return firstMismatch(buf, u8Pattern(64, 3));
        },
      });
      expect(r.rankResults[0]).toBeLessThan(5);
      expect(r.rankResults[1]).toBe(-1);
    });
  });

  it('an ssend to a receive posted long before completes within a few microseconds', async () => {
    const r = await simulate({
      machine: 'xe6',
      nodes: 2,
      program: async ({ mpi, compute, now }) => {
        if (mpi.rank === 1) {
          const buf = new Uint8Array(64);
          await mpi.recv(buf, 0, 0);
          return firstMismatch(buf, u8Pattern(64, 4));
        }
        await compute({ us: 20 });
        const t0 = now();
        await mpi.ssend(u8Pattern(64, 4), 1, 0);
        return now() - t0;
      },
    });
    expect(r.rankResults[1]).toBe(-1);
    // one message there and an ACK back
    expect(r.result).toBeGreaterThan(1);
    expect(r.result).toBeLessThan(10);
  });
});

describe('ready sends (rsend, irsend)', () => {
  it.each(sizes)('$bytes bytes ($protocol) to a receive posted before a barrier arrive intact', async ({ bytes }) => {
    const r = await simulate({
      machine: 'xe6',
      nodes: 2,
      program: async ({ mpi }) => {
        if (mpi.rank === 1) {
          const a = new Uint8Array(bytes);
          const b = new Uint8Array(bytes);
          const reqs = [mpi.irecv(a, 0, 1), mpi.irecv(b, 0, 2)];
          await mpi.barrier();
          const st = await mpi.waitAll(reqs);
          return { st, bad: [firstMismatch(a, u8Pattern(bytes, 5)), firstMismatch(b, u8Pattern(bytes, 6))] };
        }
        await mpi.barrier();
        await mpi.rsend(u8Pattern(bytes, 5), 1, 1);
        await mpi.wait(mpi.irsend(u8Pattern(bytes, 6), 1, 2));
        return null;
      },
    });
    const g = r.rankResults[1]!;
    expect(g.bad).toEqual([-1, -1]);
    expect(g.st).toEqual([
      { source: 0, tag: 1, count: bytes, bytes },
      { source: 0, tag: 2, count: bytes, bytes },
    ]);
  });
});

describe('buffered sends (bsend, ibsend, bufferAttach, bufferDetach)', () => {
  it.each(sizes)('a $bytes-byte ($protocol) bsend returns before the receive is posted; overwriting the user buffer at once does not change what arrives', async ({ bytes }) => {
    const r = await simulate({
      machine: 'xe6',
      nodes: 2,
      program: async ({ mpi, compute, now }) => {
        if (mpi.rank === 0) {
          mpi.bufferAttach(bytes + BSEND_OVERHEAD);
          const msg = u8Pattern(bytes, 7);
          await mpi.bsend(msg, 1, 2);
          const returned = now();
          msg.fill(0xee);
          const detached = await mpi.bufferDetach();
          return { returned, detachedAt: now(), detached };
        }
        await compute({ us: LATE_US });
        const posted = now();
        const buf = new Uint8Array(bytes);
        const status = await mpi.recv(buf, 0, 2);
        return { posted, status, bad: firstMismatch(buf, u8Pattern(bytes, 7)) };
      },
    });
    const s = r.rankResults[0] as { returned: number; detachedAt: number; detached: number };
    const g = r.rankResults[1] as { posted: number; status: Status; bad: number };
    // the call's overhead and the copy into the attached buffer, not the receiver's 50 us
    expect(s.returned).toBeLessThan(10);
    expect(s.detached).toBe(bytes + BSEND_OVERHEAD);
    expect(g.bad).toBe(-1);
    expect(g.status).toEqual({ source: 0, tag: 2, count: bytes, bytes });
    if (bytes > 8192) {
      // the copy in the attached buffer is pulled only once the receiver has matched it
      expect(s.detachedAt).toBeGreaterThan(g.posted);
    }
  });

  it('bufferDetach waits for a pending rendezvous bsend and returns the attached size', async () => {
    const r = await simulate({
      machine: 'xe6',
      nodes: 2,
      program: async ({ mpi, compute, now }) => {
        if (mpi.rank === 0) {
          mpi.bufferAttach(100000);
          await mpi.bsend(u8Pattern(30000, 8), 1, 0);
          const sent = now();
          const n = await mpi.bufferDetach();
          return { sent, n, detached: now() };
        }
        await compute({ us: 100 });
        const posted = now();
        const buf = new Uint8Array(30000);
        await mpi.recv(buf, 0, 0);
        return { posted, received: now(), bad: firstMismatch(buf, u8Pattern(30000, 8)) };
      },
    });
    const s = r.rankResults[0] as { sent: number; n: number; detached: number };
    const g = r.rankResults[1] as { posted: number; received: number; bad: number };
    expect(s.sent).toBeLessThan(20);
    expect(s.n).toBe(100000);
    expect(g.bad).toBe(-1);
    expect(s.detached).toBeGreaterThan(g.posted);
    expect(s.detached).toBeGreaterThan(100);
  });

  it('ibsend returns a request that is complete at once; a receiver computing meanwhile gets all messages in order', async () => {
    const r = await simulate({
      machine: 'xe6',
      nodes: 2,
      program: async ({ mpi, compute, now }) => {
        if (mpi.rank === 0) {
          mpi.bufferAttach(3 * (20000 + BSEND_OVERHEAD));
          const done: boolean[] = [];
          for (let i = 0; i < 3; i++) {
            const msg = new Uint8Array(20000).fill(i + 1);
            const req = mpi.ibsend(msg, 1, 6);
            msg.fill(0);
            done.push(req.done);
            await mpi.wait(req);
          }
          const t = now();
          await mpi.bufferDetach();
          return { done, t };
        }
        await compute({ us: LATE_US });
        const got: number[] = [];
        for (let i = 0; i < 3; i++) {
          const buf = new Uint8Array(20000);
          await mpi.recv(buf, 0, 6);
          got.push(buf.every((v) => v === buf[0]) ? buf[0]! : -1);
        }
        return { got };
      },
    });
    const s = r.rankResults[0] as { done: boolean[]; t: number };
    expect(s.done).toEqual([true, true, true]);
    // three copies of 20000 bytes, all before the receiver posts anything
    expect(s.t).toBeLessThan(LATE_US);
    expect((r.rankResults[1] as { got: number[] }).got).toEqual([1, 2, 3]);
  });

  it('a buffer one byte short of the message plus BSEND_OVERHEAD rejects with MPI_ERR_BUFFER; the exact size works', async () => {
    const run = (extra: number): Promise<unknown> =>
      simulate({
        machine: 'xe6',
        nodes: 2,
        program: async ({ mpi }) => {
          if (mpi.rank === 0) {
            mpi.bufferAttach(1000 + BSEND_OVERHEAD + extra);
            await mpi.bsend(new Uint8Array(1000), 1, 0);
            await mpi.bufferDetach();
          } else {
            await mpi.recv(new Uint8Array(1000), 0, 0);
          }
        },
      });
    await run(0);
    const e = await rejection(run(-1));
    expect(e).toBeInstanceOf(RankError);
    expect((e as RankError).rank).toBe(0);
    expect(((e as RankError).error as MpiError).errorClass).toBe('MPI_ERR_BUFFER');
    expect(e.message).toContain(`needs ${1000 + BSEND_OVERHEAD}`);
  });

  it('space of a buffered send is reused once it has left: one-message buffer, five bsends spaced by compute', async () => {
    const r = await simulate({
      machine: 'xe6',
      nodes: 2,
      program: async ({ mpi, compute }) => {
        if (mpi.rank === 0) {
          mpi.bufferAttach(64 + BSEND_OVERHEAD);
          for (let i = 0; i < 5; i++) {
            await mpi.bsend(new Uint8Array(64).fill(i), 1, 0);
            await compute({ us: 20 });
          }
          await mpi.bufferDetach();
          return [];
        }
        const got: number[] = [];
        for (let i = 0; i < 5; i++) {
          const buf = new Uint8Array(64);
          await mpi.recv(buf, 0, 0);
          got.push(buf[63]!);
        }
        return got;
      },
    });
    expect(r.rankResults[1]).toEqual([0, 1, 2, 3, 4]);
  });

  it('two bsends that together exceed the buffer: the second rejects with MPI_ERR_BUFFER while the first is still pending', async () => {
    const e = await rejection(
      simulate({
        machine: 'xe6',
        nodes: 2,
        program: async ({ mpi, compute }) => {
          if (mpi.rank === 0) {
            mpi.bufferAttach(20000 + BSEND_OVERHEAD + 100);
            await mpi.bsend(new Uint8Array(20000), 1, 0);
            await mpi.bsend(new Uint8Array(8), 1, 0);
          } else {
            await compute({ us: LATE_US });
            await mpi.recv(new Uint8Array(20000), 0, 0);
          }
        },
      }),
    );
    expect(e).toBeInstanceOf(RankError);
    expect((e as RankError).rank).toBe(0);
    expect(((e as RankError).error as MpiError).errorClass).toBe('MPI_ERR_BUFFER');
    expect(e.message).toContain(`has 100 of ${20000 + BSEND_OVERHEAD + 100} bytes free`);
  });
});

describe('sendrecv and sendrecvReplace', () => {
  it('a ring shift on 5 ranks with sendrecv: every rank gets its left neighbour\'s data, eager and rendezvous', async () => {
    const r = await simulate({
      machine: 'xe6',
      nodes: 5,
      program: async ({ mpi }) => {
        const n = mpi.size;
        const right = (mpi.rank + 1) % n;
        const left = (mpi.rank + n - 1) % n;
        const out: { status: Status; bad: number }[] = [];
        for (const count of [3, 3000]) {
          const send = Float64Array.from({ length: count }, (_, i) => mpi.rank * 1e5 + i);
          const recv = new Float64Array(count);
          const status = await mpi.sendrecv(send, right, 10 + mpi.rank, recv, left, 10 + left);
          out.push({ status, bad: firstMismatch(recv, Float64Array.from({ length: count }, (_, i) => left * 1e5 + i)) });
        }
        return out;
      },
    });
    r.rankResults.forEach((out, rank) => {
      const left = (rank + 4) % 5;
      expect(out).toEqual([
        { status: { source: left, tag: 10 + left, count: 3, bytes: 24 }, bad: -1 },
        { status: { source: left, tag: 10 + left, count: 3000, bytes: 24000 }, bad: -1 },
      ]);
    });
  });

  it('sendrecvReplace shifts a buffer around a 5-rank ring (3 ranks on one node): after 5 shifts every rank has its own data back', async () => {
    const r = await simulate({
      machine: 'xe6',
      nodes: 2,
      ppn: 3,
      program: async ({ mpi }) => {
        if (mpi.rank === 5) return null;
        const n = 5;
        const right = (mpi.rank + 1) % n;
        const left = (mpi.rank + n - 1) % n;
        const buf = Int32Array.from({ length: 2500 }, (_, i) => mpi.rank * 10000 + i); // 10000 B: rendezvous
        const firstFrom: number[] = [];
        const sources: number[] = [];
        for (let step = 0; step < n; step++) {
          const st = await mpi.sendrecvReplace(buf, right, 0, left, 0);
          sources.push(st.source);
          firstFrom.push(Math.floor(buf[0]! / 10000));
          if (st.count !== 2500) throw new Error(`count ${st.count}`);
        }
        const back = firstMismatch(buf, Int32Array.from({ length: 2500 }, (_, i) => mpi.rank * 10000 + i));
        return { sources, firstFrom, back };
      },
    });
    for (let rank = 0; rank < 5; rank++) {
      const g = r.rankResults[rank]!;
      const left = (rank + 4) % 5;
      expect(g.sources).toEqual([left, left, left, left, left]);
      // after step s the buffer holds the data of rank - (s + 1)
      expect(g.firstFrom).toEqual([1, 2, 3, 4, 5].map((s) => (rank - s + 5) % 5));
      expect(g.back).toBe(-1);
    }
  });

  it('sendrecv with PROC_NULL at the ends of a line: the end ranks\' receive buffers stay untouched', async () => {
    const r = await simulate({
      machine: 'xe6',
      nodes: 4,
      program: async ({ mpi }) => {
        const up = mpi.rank + 1 < mpi.size ? mpi.rank + 1 : mpi.PROC_NULL;
        const down = mpi.rank > 0 ? mpi.rank - 1 : mpi.PROC_NULL;
        const recv = new Int32Array(2).fill(-9);
        const st = await mpi.sendrecv(Int32Array.of(mpi.rank, 7), up, 1, recv, down, 1);
        return { source: st.source, recv: Array.from(recv) };
      },
    });
    expect(r.rankResults).toEqual([
      { source: -1, recv: [-9, -9] },
      { source: 0, recv: [0, 7] },
      { source: 1, recv: [1, 7] },
      { source: 2, recv: [2, 7] },
    ]);
  });
});

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

describe('communicators: dup, split, create, groups', () => {
  it('dup: same ranks and size; a message on the dup never matches a receive on the parent with the same source and tag', async () => {
    const r = await simulate({
      machine: 'xe6',
      nodes: 2,
      ppn: 2,
      program: async ({ mpi, compute }) => {
        const d = await mpi.dup();
        const shape = { rank: d.rank, size: d.size, isComm: d instanceof Comm };
        if (mpi.rank === 0) {
          await d.send(Int32Array.of(111), 3, 1); // on the dup first
          await mpi.send(Int32Array.of(222), 3, 1); // then on the parent, same tag
          await d.send(new Int32Array(3000).fill(333), 3, 1); // a rendezvous one on the dup
          return { shape };
        }
        if (mpi.rank !== 3) return { shape };
        await compute({ us: 30 }); // all three are unexpected by now
        const a = new Int32Array(3000);
        const onWorld = await mpi.recv(a, mpi.ANY_SOURCE, mpi.ANY_TAG);
        const worldValue = a[0];
        const none = await mpi.iprobe(mpi.ANY_SOURCE, mpi.ANY_TAG);
        const b = new Int32Array(3000);
        const onDup1 = await d.recv(b, 0, 1);
        const dupValue1 = b[0];
        const onDup2 = await d.recv(b, mpi.ANY_SOURCE, 1);
        return { shape, onWorld, worldValue, none, onDup1, dupValue1, onDup2, dupValue2: b[2999] };
      },
    });
    r.rankResults.forEach((g, rank) => expect(g.shape).toEqual({ rank, size: 4, isComm: true }));
    expect(r.rankResults[3]).toMatchObject({
      onWorld: { source: 0, tag: 1, count: 1, bytes: 4 },
      worldValue: 222,
      none: null,
      onDup1: { source: 0, tag: 1, count: 1 },
      dupValue1: 111,
      onDup2: { source: 0, tag: 1, count: 3000 },
      dupValue2: 333,
    });
  });

  /** Colors and keys of 7 ranks: ties in key fall back to the old rank; rank 6 joins nothing. */
  const colorOf = (r: number, UNDEFINED: number): number => (r === 6 ? UNDEFINED : r % 2);
  const keyOf = (r: number): number => [3, 5, 0, -1, 0, 5, 0][r]!;

  it('split by color and key: sizes, ranks ordered by key then old rank, group members, null for UNDEFINED', async () => {
    const r = await simulate({
      machine: 'xe6',
      nodes: 4,
      ppn: 2,
      program: async ({ mpi }) => {
        // create is collective over the world: rank 7 takes part and gets null
        const seven = await mpi.create(mpi.group.excl([7]));
        if (!seven) return null;
        const c = await seven!.split(colorOf(seven!.rank, mpi.UNDEFINED), keyOf(seven!.rank));
        if (!c) return { none: true };
        return { rank: c.rank, size: c.size, members: c.group.ranks, groupRank: c.group.rank };
      },
    });
    // the serial answer: sort each color's ranks by (key, rank)
    const want = (color: number): number[] => [0, 1, 2, 3, 4, 5].filter((x) => x % 2 === color).sort((a, b) => keyOf(a) - keyOf(b) || a - b);
    // ties (2 and 4, 1 and 5) keep the old order
    expect(want(0)).toEqual([2, 4, 0]);
    expect(want(1)).toEqual([3, 1, 5]);
    for (let w = 0; w < 6; w++) {
      const order = want(w % 2);
      expect(r.rankResults[w], `world rank ${w}`).toEqual({ rank: order.indexOf(w), size: 3, members: order, groupRank: order.indexOf(w) });
    }
    expect(r.rankResults[6]).toEqual({ none: true });
    expect(r.rankResults[7]).toBeNull();
  });

  it('messages on a split comm use its ranks: a ring on each half, status.source is a comm rank', async () => {
    const r = await simulate({
      machine: 'xe6',
      nodes: 3,
      ppn: 2,
      program: async ({ mpi }) => {
        // color by parity, reversed order: even world ranks 4, 2, 0 become 0, 1, 2
        const c = (await mpi.split(mpi.rank % 2, -mpi.rank))!;
        const right = (c.rank + 1) % c.size;
        const left = (c.rank + c.size - 1) % c.size;
        const got = new Int32Array(2);
        const st = await c.sendrecv(Int32Array.of(mpi.rank, c.rank), right, 4, got, left, 4);
        return { commRank: c.rank, st, got: Array.from(got) };
      },
    });
    const commOrder = [[4, 2, 0], [5, 3, 1]];
    r.rankResults.forEach((g, w) => {
      const order = commOrder[w % 2]!;
      const me = order.indexOf(w);
      const left = (me + 2) % 3;
      expect(g.commRank).toBe(me);
      expect(g.st).toEqual({ source: left, tag: 4, count: 2, bytes: 8 });
      expect(g.got).toEqual([order[left], left]);
    });
  });

  it('ANY_SOURCE on a sub-communicator matches only its members: a world message from a non-member is left for the world receive', async () => {
    const r = await simulate({
      machine: 'xe6',
      nodes: 3,
      ppn: 2,
      program: async ({ mpi, compute, now }) => {
        const c = (await mpi.split(mpi.rank < 3 ? 0 : 1, 0))!;
        if (mpi.rank === 3) await mpi.send(Int32Array.of(3), 0, 5); // not a member of rank 0's comm
        if (mpi.rank === 2) {
          await compute({ us: 20 });
          await c.send(Int32Array.of(2), 0, 5);
        }
        if (mpi.rank !== 0) return null;
        const a = new Int32Array(1);
        const sa = await c.recv(a, mpi.ANY_SOURCE, mpi.ANY_TAG);
        const ta = now();
        const b = new Int32Array(1);
        const sb = await mpi.recv(b, mpi.ANY_SOURCE, mpi.ANY_TAG);
        return { sa, ta, a: a[0], sb, b: b[0] };
      },
    });
    expect(r.result).toMatchObject({ sa: { source: 2, tag: 5 }, a: 2, sb: { source: 3, tag: 5 }, b: 3 });
    expect(r.result!.ta).toBeGreaterThan(20);
  });

  it('group operations: incl, excl, union, intersection, difference, compare, translateRanks, rank', async () => {
    const r = await simulate({
      machine: 'xe6',
      nodes: 6,
      program: async ({ mpi }) => {
        const g = mpi.group;
        const a = g.incl([5, 1, 3]);
        const b = g.excl([0, 1]);
        return {
          world: g.ranks,
          size: g.size,
          a: a.ranks,
          b: b.ranks,
          union: a.union(b).ranks,
          unionBA: b.union(a).ranks,
          inter: a.intersection(b).ranks,
          interBA: b.intersection(a).ranks,
          diff: a.difference(b).ranks,
          diffBA: b.difference(a).ranks,
          empty: a.difference(g).size,
          cmp: [a.compare(a), a.compare(g.incl([5, 1, 3])), a.compare(g.incl([1, 3, 5])), a.compare(b), a.compare(g.incl([5, 1, 2]))],
          aToWorld: a.translateRanks([0, 1, 2], g),
          bToA: b.translateRanks([0, 1, 2, 3, mpi.PROC_NULL], a),
          aRank: a.rank,
          UNDEFINED: mpi.UNDEFINED,
        };
      },
    });
    const U = r.result.UNDEFINED;
    expect(r.result).toMatchObject({
      world: [0, 1, 2, 3, 4, 5],
      size: 6,
      a: [5, 1, 3],
      b: [2, 3, 4, 5],
      union: [5, 1, 3, 2, 4],
      unionBA: [2, 3, 4, 5, 1],
      inter: [5, 3],
      interBA: [3, 5],
      diff: [1],
      diffBA: [2, 4],
      empty: 0,
      cmp: ['ident', 'ident', 'similar', 'unequal', 'unequal'],
      aToWorld: [5, 1, 3],
      bToA: [U, 2, U, 0, -1],
    });
    expect(r.rankResults.map((x) => x.aRank)).toEqual([U, 1, U, 2, U, 0]);
  });

  it('create(group) makes a communicator in the group\'s order for its members and null for the rest; a gather over it works', async () => {
    const r = await simulate({
      machine: 'xe6',
      nodes: 6,
      program: async ({ mpi }) => {
        const c = await mpi.create(mpi.group.incl([5, 1, 3]));
        if (!c) return null;
        if (c.rank === 0) {
          const got: number[] = [];
          for (let k = 1; k < c.size; k++) {
            const b = new Int32Array(1);
            const st = await c.recv(b, k, 0);
            got.push(st.source * 100 + b[0]!);
          }
          return { rank: c.rank, size: c.size, got };
        }
        await c.send(Int32Array.of(mpi.rank), 0, 0);
        return { rank: c.rank, size: c.size };
      },
    });
    expect(r.rankResults).toEqual([null, { rank: 1, size: 3 }, null, { rank: 2, size: 3 }, null, { rank: 0, size: 3, got: [101, 203] }]);
  });

  it('create(group) with different, disjoint groups (MPI 2.2): odd ranks pass the odd group, even ranks the even one, and each gets its own communicator', async () => {
    const r = await simulate({
      machine: 'xe6',
      nodes: 8,
      program: async ({ mpi }) => {
        const mine = [0, 1, 2, 3, 4, 5, 6, 7].filter((w) => w % 2 === mpi.rank % 2);
        const c = await mpi.create(mpi.group.incl(mine));
        const sum = new Int32Array(1);
        await c!.allreduce(Int32Array.of(mpi.rank), sum, mpi.SUM);
        return { rank: c!.rank, size: c!.size, sum: sum[0] };
      },
    });
    expect(r.rankResults.map((x) => x.rank)).toEqual([0, 0, 1, 1, 2, 2, 3, 3]);
    expect(r.rankResults.map((x) => x.size)).toEqual([4, 4, 4, 4, 4, 4, 4, 4]);
    expect(r.rankResults.map((x) => x.sum)).toEqual([12, 16, 12, 16, 12, 16, 12, 16]);
  });

  it('create(group) where two members pass different versions of their group fails with MPI_ERR_GROUP naming both', async () => {
    const r = simulate({
      machine: 'xe6',
      nodes: 4,
      program: async ({ mpi }) => {
        const g = mpi.rank === 1 ? [0, 1, 2] : [0, 1];
        await mpi.create(mpi.group.incl(mpi.rank === 3 ? [3] : g));
      },
    });
    await expect(r).rejects.toThrow(/MPI_ERR_GROUP.*passes the group of world ranks \[0, 1(, 2)?\], but rank \d, a member too, passed/);
  });

  it('nested splits: a split of a split has the right members, and allreduce and barrier on each level give the serial answers', async () => {
    const r = await simulate({
      machine: 'xe6',
      nodes: 4,
      ppn: 3,
      program: async ({ mpi, compute, now }) => {
        const half = (await mpi.split(mpi.rank % 2, mpi.rank))!; // evens, odds
        const quarter = (await half.split(half.rank < 3 ? 0 : 1, 0))!; // first three / last three of each
        const v = Float64Array.of(mpi.rank + 1, (mpi.rank + 1) ** 2);
        const s1 = new Float64Array(2);
        const s2 = new Float64Array(2);
        await half.allreduce(v, s1, mpi.SUM);
        await quarter.allreduce(v, s2, mpi.MAX);
        // world rank 4 (in the evens' first quarter) is late: only its quarter waits for it
        if (mpi.rank === 4) await compute({ us: 50 });
        await quarter.barrier();
        const out = now();
        return { members: quarter.group.ranks, s1: Array.from(s1), s2: Array.from(s2), out };
      },
    });
    const quarters = [[0, 2, 4], [6, 8, 10], [1, 3, 5], [7, 9, 11]];
    for (let w = 0; w < 12; w++) {
      const halfMembers = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11].filter((x) => x % 2 === w % 2);
      const q = quarters.find((m) => m.includes(w))!;
      const g = r.rankResults[w]!;
      expect(g.members, `world rank ${w}`).toEqual(q);
      expect(g.s1).toEqual([halfMembers.reduce((a, x) => a + x + 1, 0), halfMembers.reduce((a, x) => a + (x + 1) ** 2, 0)]);
      expect(g.s2).toEqual([Math.max(...q) + 1, (Math.max(...q) + 1) ** 2]);
      if (q.includes(4)) expect(g.out).toBeGreaterThan(50);
      else expect(g.out).toBeLessThan(50);
    }
  });

  it('30 communicators made in a loop (dups and splits) keep their messages apart', async () => {
    const r = await simulate({
      machine: 'xe6',
      nodes: 3,
      ppn: 2,
      program: async ({ mpi }) => {
        const comms: Comm[] = [];
        for (let i = 0; i < 30; i++) {
          const base = i % 3 === 0 ? mpi : comms[i - 1]!;
          comms.push(i % 2 === 0 ? await base.dup() : (await base.split((mpi.rank + i) % 2, mpi.rank))!);
        }
        // every rank sends (i, world rank) to its right neighbour on every communicator, all with tag 0
        const reqs = comms.map((c, i) => c.isend(Int32Array.of(i, mpi.rank), (c.rank + 1) % c.size, 0));
        const bad: string[] = [];
        for (let i = comms.length - 1; i >= 0; i--) {
          const c = comms[i]!;
          const b = new Int32Array(2);
          const st = await c.recv(b, mpi.ANY_SOURCE, 0);
          const left = (c.rank + c.size - 1) % c.size;
          if (b[0] !== i || st.source !== left || b[1] !== c.worldRank(left)) bad.push(`comm ${i}: got ${Array.from(b).join(',')} from ${st.source}`);
        }
        await mpi.waitAll(reqs);
        return { bad, sizes: comms.map((c) => c.size) };
      },
    });
    for (const g of r.rankResults) expect(g.bad).toEqual([]);
    // dups keep the size; a split of the world by parity halves it, a split of a half keeps it
    expect(r.result.sizes.slice(0, 7)).toEqual([6, 3, 3, 3, 3, 3, 6]);
  });
});

describe('Cartesian topologies', () => {
  it.each([
    { n: 12, dims: [0, 0], want: [4, 3] },
    { n: 64, dims: [0, 0, 0], want: [4, 4, 4] },
    { n: 24, dims: [0, 3, 0], want: [4, 3, 2] },
    { n: 6, dims: [2, 0], want: [2, 3] },
    { n: 7, dims: [0, 0], want: [7, 1] },
    { n: 30, dims: [0, 0, 0], want: [5, 3, 2] },
    { n: 16, dims: [0, 0, 0, 0], want: [2, 2, 2, 2] },
    { n: 1, dims: [0, 0], want: [1, 1] },
    { n: 12, dims: [3, 4], want: [3, 4] },
    { n: 9, dims: [0], want: [9] },
  ])('dimsCreate($n, $dims) = $want', ({ n, dims, want }) => {
    expect(dimsCreate(n, dims)).toEqual(want);
  });

  it.each([
    { n: 12, dims: [5, 0], cls: 'MPI_ERR_DIMS', mentions: 'do not divide' },
    { n: 12, dims: [3, 3], cls: 'MPI_ERR_DIMS', mentions: 'do not divide' },
    { n: 12, dims: [2, 3], cls: 'MPI_ERR_DIMS', mentions: 'give 6 ranks' },
    { n: 12, dims: [-1, 0], cls: 'MPI_ERR_DIMS', mentions: 'dims=[-1,0]' },
    { n: 12, dims: [], cls: 'MPI_ERR_DIMS', mentions: 'dims=[]' },
    { n: 0, dims: [0, 0], cls: 'MPI_ERR_ARG', mentions: 'nnodes=0' },
    { n: 2.5, dims: [0], cls: 'MPI_ERR_ARG', mentions: 'nnodes=2.5' },
  ])('dimsCreate($n, $dims) throws $cls', ({ n, dims, cls, mentions }) => {
    let err: unknown = null;
    try {
      dimsCreate(n, dims);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(MpiError);
    expect((err as MpiError).errorClass).toBe(cls);
    expect((err as MpiError).message).toContain(mentions);
  });

  it('cartCreate 4x3 (periodic x, open y) on 14 ranks: coordinates, cartRank round trip, shifts at edges and wrapping; ranks 12 and 13 get null', async () => {
    const r = await simulate({
      machine: 'xe6',
      nodes: 7,
      ppn: 2,
      program: async ({ mpi }) => {
        const dims = mpi.dimsCreate(12, [0, 0]);
        const cart = await mpi.cartCreate(dims, [true, false]);
        if (!cart) return null;
        const roundTrip = Array.from({ length: cart.size }, (_, k) => cart.cartRank(cart.cartCoords(k)) === k).every(Boolean);
        return {
          isCart: cart instanceof CartComm,
          dims: cart.dims,
          rank: cart.rank,
          size: cart.size,
          coords: cart.coords,
          roundTrip,
          x1: cart.cartShift(0, 1),
          x5: cart.cartShift(0, 5),
          y1: cart.cartShift(1, 1),
          yMinus2: cart.cartShift(1, -2),
          wrapped: cart.cartRank([-1, 2]),
        };
      },
    });
    expect(r.rankResults[12]).toBeNull();
    expect(r.rankResults[13]).toBeNull();
    const P = -1;
    for (let k = 0; k < 12; k++) {
      const x = Math.floor(k / 3);
      const y = k % 3;
      const at = (xx: number, yy: number): number => (yy < 0 || yy > 2 ? P : (((xx % 4) + 4) % 4) * 3 + yy);
      expect(r.rankResults[k], `rank ${k}`).toEqual({
        isCart: true,
        dims: [4, 3],
        rank: k,
        size: 12,
        coords: [x, y],
        roundTrip: true,
        x1: { source: at(x - 1, y), dest: at(x + 1, y) },
        x5: { source: at(x - 5, y), dest: at(x + 5, y) },
        y1: { source: at(x, y - 1), dest: at(x, y + 1) },
        yMinus2: { source: at(x, y + 2), dest: at(x, y - 2) },
        wrapped: 11,
      });
    }
    // spot checks of the formula itself
    expect(r.rankResults[0]!.y1).toEqual({ source: P, dest: 1 });
    expect(r.rankResults[0]!.x1).toEqual({ source: 9, dest: 3 });
    expect(r.rankResults[11]!.x1).toEqual({ source: 8, dest: 2 });
  });

  it('cartSub into rows and columns: sizes, ranks, and a row sum and column max by allreduce', async () => {
    const r = await simulate({
      machine: 'xe6',
      nodes: 6,
      ppn: 2,
      program: async ({ mpi }) => {
        const cart = (await mpi.cartCreate([4, 3], [false, true]))!;
        const row = await cart.cartSub([false, true]);
        const col = await cart.cartSub([true, false]);
        const sum = new Int32Array(1);
        const max = new Int32Array(1);
        await row.allreduce(Int32Array.of(mpi.rank), sum, mpi.SUM);
        await col.allreduce(Int32Array.of(mpi.rank * 7 % 12), max, mpi.MAX);
        return { row: { size: row.size, rank: row.rank, dims: row.dims, periods: row.periods, members: row.group.ranks }, col: { size: col.size, rank: col.rank, dims: col.dims, members: col.group.ranks }, sum: sum[0], max: max[0] };
      },
    });
    r.rankResults.forEach((g, k) => {
      const x = Math.floor(k / 3);
      const y = k % 3;
      const rowMembers = [0, 1, 2].map((yy) => x * 3 + yy);
      const colMembers = [0, 1, 2, 3].map((xx) => xx * 3 + y);
      expect(g.row, `rank ${k}`).toEqual({ size: 3, rank: y, dims: [3], periods: [true], members: rowMembers });
      expect(g.col, `rank ${k}`).toEqual({ size: 4, rank: x, dims: [4], members: colMembers });
      expect(g.sum).toBe(rowMembers.reduce((a, b) => a + b, 0));
      expect(g.max).toBe(Math.max(...colMembers.map((m) => (m * 7) % 12)));
    });
  });

  it('2-D halo exchange on a 3x4 grid (periodic in x, open in y) with cartShift and sendrecv: every halo cell holds its neighbour\'s value', async () => {
    const NX = 4; // interior rows per rank
    const NY = 5; // interior columns per rank
    const PX = 3;
    const PY = 4;
    const value = (gi: number, gj: number): number => gi * 1000 + gj;
    const r = await simulate({
      machine: 'xe6',
      nodes: 6,
      ppn: 2,
      program: async ({ mpi }) => {
        const cart = (await mpi.cartCreate([PX, PY], [true, false]))!;
        const [cx, cy] = cart.coords as [number, number];
        const W = NY + 2;
        const a = new Float64Array((NX + 2) * W).fill(-1);
        for (let i = 1; i <= NX; i++) for (let j = 1; j <= NY; j++) a[i * W + j] = value(cx * NX + i - 1, cy * NY + j - 1);
        const rowOf = (i: number): Float64Array => a.subarray(i * W + 1, i * W + 1 + NY);
        const col = (j: number): Float64Array => Float64Array.from({ length: NX }, (_, i) => a[(i + 1) * W + j]!);
        const setCol = (j: number, v: Float64Array): void => v.forEach((x, i) => (a[(i + 1) * W + j] = x));
        // x: last interior row down, top halo from up; then first interior row up, bottom halo from down
        const x = cart.cartShift(0, 1);
        const top = new Float64Array(NY);
        const bottom = new Float64Array(NY);
        await cart.sendrecv(rowOf(NX), x.dest, 0, top, x.source, 0);
        await cart.sendrecv(rowOf(1), x.source, 1, bottom, x.dest, 1);
        a.set(top, 1);
        a.set(bottom, (NX + 1) * W + 1);
        // y (open): PROC_NULL at the edges leaves the halo at -1
        const y = cart.cartShift(1, 1);
        const left = new Float64Array(NX).fill(-1);
        const right = new Float64Array(NX).fill(-1);
        await cart.sendrecv(col(NY), y.dest, 2, left, y.source, 2);
        await cart.sendrecv(col(1), y.source, 3, right, y.dest, 3);
        setCol(0, left);
        setCol(NY + 1, right);
        return { cx, cy, a: Array.from(a) };
      },
    });
    let checked = 0;
    for (const g of r.rankResults) {
      const W = NY + 2;
      for (let i = 0; i <= NX + 1; i++) {
        for (let j = 0; j <= NY + 1; j++) {
          const corner = (i === 0 || i === NX + 1) && (j === 0 || j === NY + 1);
          if (corner) continue;
          const gi = (((g.cx * NX + i - 1) % (PX * NX)) + PX * NX) % (PX * NX);
          const gj = g.cy * NY + j - 1;
          const want = gj < 0 || gj >= PY * NY ? -1 : value(gi, gj);
          expect(g.a[i * W + j], `rank at (${g.cx},${g.cy}) cell (${i},${j})`).toBe(want);
          checked++;
        }
      }
    }
    expect(checked).toBe(12 * ((NX + 2) * (NY + 2) - 4));
  });
});

describe('bad input', () => {
  const u8 = new Uint8Array(4);
  /** Each call runs on rank 0 of 4 ranks (nodes 4) while the others do nothing. */
  const bad: { name: string; cls: string; mentions: string; call: (ctx: RankContext) => Promise<unknown> }[] = [
    { name: 'ssend dest = size', cls: 'MPI_ERR_RANK', mentions: 'ssend: dest=4', call: ({ mpi }) => mpi.ssend(u8, 4, 0) },
    { name: 'issend tag = ANY_TAG', cls: 'MPI_ERR_TAG', mentions: 'issend: tag=-1', call: async ({ mpi }) => mpi.issend(u8, 1, mpi.ANY_TAG) },
    { name: 'rsend buf = null', cls: 'MPI_ERR_BUFFER', mentions: 'rsend: buf must be a typed array', call: ({ mpi }) => mpi.rsend(null as never, 1, 0) },
    { name: 'irsend dest = ANY_SOURCE', cls: 'MPI_ERR_RANK', mentions: 'irsend: dest=-2', call: async ({ mpi }) => mpi.irsend(u8, mpi.ANY_SOURCE, 0) },
    { name: 'bsend without an attached buffer', cls: 'MPI_ERR_BUFFER', mentions: 'has 0 of 0 bytes free', call: ({ mpi }) => mpi.bsend(u8, 1, 0) },
    { name: 'bsend dest = 9', cls: 'MPI_ERR_RANK', mentions: 'bsend: dest=9', call: ({ mpi }) => mpi.bsend(u8, 9, 0) },
    { name: 'ibsend tag above TAG_UB', cls: 'MPI_ERR_TAG', mentions: 'tag=2147483648', call: async ({ mpi }) => mpi.ibsend(u8, 1, 2 ** 31) },
    { name: 'ibsend buf = plain array', cls: 'MPI_ERR_BUFFER', mentions: 'got Array', call: async ({ mpi }) => mpi.ibsend([1] as never, 1, 0) },
    { name: 'bufferAttach(-1)', cls: 'MPI_ERR_BUFFER', mentions: 'bytes=-1', call: async ({ mpi }) => mpi.bufferAttach(-1) },
    { name: 'bufferAttach twice', cls: 'MPI_ERR_BUFFER', mentions: 'already attached', call: async ({ mpi }) => {
      mpi.bufferAttach(100);
      mpi.bufferAttach(100);
    } },
    { name: 'sendrecv source = 4', cls: 'MPI_ERR_RANK', mentions: 'sendrecv: source=4', call: ({ mpi }) => mpi.sendrecv(u8, 1, 0, u8, 4, 0) },
    { name: 'sendrecv sendTag = -3', cls: 'MPI_ERR_TAG', mentions: 'sendrecv: sendTag=-3', call: ({ mpi }) => mpi.sendrecv(u8, 1, -3, u8, 1, 0) },
    { name: 'sendrecv recvBuf = string', cls: 'MPI_ERR_BUFFER', mentions: 'got string', call: ({ mpi }) => mpi.sendrecv(u8, 1, 0, 'x' as never, 1, 0) },
    { name: 'sendrecvReplace buf = undefined', cls: 'MPI_ERR_BUFFER', mentions: 'sendrecvReplace: buf', call: ({ mpi }) => mpi.sendrecvReplace(undefined as never, 1, 0, 1, 0) },
    { name: 'sendrecvReplace dest = 1.5', cls: 'MPI_ERR_RANK', mentions: 'dest=1.5', call: ({ mpi }) => mpi.sendrecvReplace(u8, 1.5, 0, 1, 0) },
    { name: 'probe source = 4', cls: 'MPI_ERR_RANK', mentions: 'probe: source=4', call: ({ mpi }) => mpi.probe(4, 0) },
    { name: 'iprobe tag = -3', cls: 'MPI_ERR_TAG', mentions: 'iprobe: tag=-3', call: ({ mpi }) => mpi.iprobe(0, -3) },
    { name: 'cancel a non-request', cls: 'MPI_ERR_REQUEST', mentions: 'expected a request, got Object', call: async ({ mpi }) => mpi.cancel({} as never) },
    { name: 'split color = -5', cls: 'MPI_ERR_ARG', mentions: 'split: color=-5', call: ({ mpi }) => mpi.split(-5, 0) },
    { name: 'split key = 0.5', cls: 'MPI_ERR_ARG', mentions: 'split: key=0.5', call: ({ mpi }) => mpi.split(0, 0.5) },
    { name: 'create with a non-group', cls: 'MPI_ERR_GROUP', mentions: 'expected a Group, got Array', call: ({ mpi }) => mpi.create([0, 1] as never) },
    { name: 'group incl out of range', cls: 'MPI_ERR_RANK', mentions: 'incl: ranks[1]=4', call: async ({ mpi }) => mpi.group.incl([0, 4]) },
    { name: 'group incl twice', cls: 'MPI_ERR_RANK', mentions: 'rank 2 appears twice', call: async ({ mpi }) => mpi.group.incl([2, 1, 2]) },
    { name: 'group excl -1', cls: 'MPI_ERR_RANK', mentions: 'excl: ranks[0]=-1', call: async ({ mpi }) => mpi.group.excl([-1]) },
    { name: 'translateRanks out of range', cls: 'MPI_ERR_RANK', mentions: 'translateRanks: ranks[0]=3', call: async ({ mpi }) => mpi.group.incl([0, 1, 2]).translateRanks([3], mpi.group) },
    { name: 'cartCreate dims [0, 2]', cls: 'MPI_ERR_DIMS', mentions: 'dims=[0,2]', call: ({ mpi }) => mpi.cartCreate([0, 2], [false, false]) },
    { name: 'cartCreate grid larger than the comm', cls: 'MPI_ERR_DIMS', mentions: 'the grid 3x2 has 6 ranks', call: ({ mpi }) => mpi.cartCreate([3, 2], [false, false]) },
    { name: 'cartCreate periods too short', cls: 'MPI_ERR_ARG', mentions: 'periods must have one entry per dimension (2)', call: ({ mpi }) => mpi.cartCreate([2, 2], [true]) },
    { name: 'dimsCreate via ctx.mpi', cls: 'MPI_ERR_DIMS', mentions: 'do not divide nnodes=4', call: async ({ mpi }) => mpi.dimsCreate(4, [3, 0]) },
  ];
  it.each(bad)('$name rejects with $cls naming the argument', async ({ cls, mentions, call }) => {
    const e = await rejection(
      simulate({
        machine: 'xe6',
        nodes: 4,
        program: async (ctx) => {
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

  /** Calls on a 2x2 CartComm or a sub-communicator, made by every rank first. */
  const badOnComms: { name: string; cls: string; mentions: string; call: (cart: CartComm, half: Comm, ctx: RankContext) => Promise<unknown> }[] = [
    { name: 'cartShift direction = 2', cls: 'MPI_ERR_DIMS', mentions: 'cartShift: direction=2', call: async (c) => c.cartShift(2, 1) },
    { name: 'cartShift disp = 0.5', cls: 'MPI_ERR_ARG', mentions: 'cartShift: disp=0.5', call: async (c) => c.cartShift(0, 0.5) },
    { name: 'cartCoords rank = 4', cls: 'MPI_ERR_RANK', mentions: 'cartCoords: rank=4', call: async (c) => c.cartCoords(4) },
    { name: 'cartRank with one coordinate', cls: 'MPI_ERR_ARG', mentions: 'cartRank: coords must have 2 entries', call: async (c) => c.cartRank([0]) },
    { name: 'cartRank off a non-periodic edge', cls: 'MPI_ERR_ARG', mentions: 'coords[1]=2', call: async (c) => c.cartRank([0, 2]) },
    { name: 'cartSub with a wrong length', cls: 'MPI_ERR_ARG', mentions: 'cartSub: remainDims must have 2 entries', call: (c) => c.cartSub([true]) },
    { name: 'send to a world rank beyond a 2-rank comm', cls: 'MPI_ERR_RANK', mentions: 'dest=2 is not a rank of the communicator (0..1', call: (_, h) => h.send(u8, 2, 0) },
    { name: 'recv source beyond a 2-rank comm', cls: 'MPI_ERR_RANK', mentions: 'source=3', call: (_, h) => h.recv(u8, 3, 0) },
    { name: 'create with a group not inside the comm', cls: 'MPI_ERR_GROUP', mentions: 'world rank 1 of the group is not in this communicator', call: (_, h, { mpi }) => h.create(mpi.group.incl([0, 1])) },
  ];
  it.each(badOnComms)('$name rejects with $cls naming the argument', async ({ cls, mentions, call }) => {
    const e = await rejection(
      simulate({
        machine: 'xe6',
        nodes: 4,
        program: async (ctx) => {
          const cart = (await ctx.mpi.cartCreate([2, 2], [true, false]))!;
          const half = (await ctx.mpi.split(ctx.rank % 2, 0))!;
          if (ctx.rank === 0) await call(cart, half, ctx);
        },
      }),
    );
    expect(e).toBeInstanceOf(RankError);
    expect((e as RankError).rank).toBe(0);
    expect(((e as RankError).error as MpiError).errorClass).toBe(cls);
    expect(e.message).toContain(mentions);
  });

  it('a bad color on one rank while the others enter split fails the run instead of hanging', async () => {
    const e = await rejection(
      simulate({
        machine: 'xe6',
        nodes: 4,
        program: async ({ mpi }) => {
          await mpi.split(mpi.rank === 2 ? -7 : 0, 0);
        },
      }),
    );
    expect(e).toBeInstanceOf(RankError);
    expect((e as RankError).rank).toBe(2);
    expect(((e as RankError).error as MpiError).errorClass).toBe('MPI_ERR_ARG');
    expect(e.message).toContain('color=-7');
  });
});
