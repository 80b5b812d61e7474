import { describe, expect, it } from 'vitest';
import { RankError } from '../fabric/engine/engine.ts';
import { BSEND_OVERHEAD, MpiError, type Status } from '../runtime/mpi/mpi.ts';
import { simulate } from '../runtime/simulate.ts';
import { firstMismatch, rejection, u8Pattern } from './helpers.ts';

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
