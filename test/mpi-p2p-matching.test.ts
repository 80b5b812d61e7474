/** Point-to-point matching: ANY_SOURCE and ANY_TAG, non-overtaking order, and which receive takes which message. */
import { describe, expect, it } from 'vitest';
import type { Request, Status } from '../runtime/mpi/mpi.ts';
import { simulate } from '../runtime/simulate.ts';
import { firstMismatch, u8Pattern } from './helpers.ts';
import { f64Pattern, placements } from './mpi-p2p-helpers.ts';

describe('wildcards: ANY_SOURCE and ANY_TAG', () => {
  it('ANY_SOURCE + ANY_TAG receives every sender (network, shared memory, rendezvous) and reports the real source and tag', async () => {
    // nodes=2, ppn=2: rank 1 shares rank 0's node, ranks 2 and 3 are remote
    const sizes = [3, 700, 2600]; // doubles per sender 1..3; rank 3's 20800 B go by rendezvous
    const r = await simulate({
      machine: 'xe6',
      nodes: 2,
      ppn: 2,
      program: async ({ mpi }) => {
        if (mpi.rank !== 0) {
          const n = sizes[mpi.rank - 1]!;
          const msg = f64Pattern(n, mpi.rank);
          msg[0] = mpi.rank;
          msg[1] = 40 + mpi.rank;
          await mpi.send(msg, 0, 40 + mpi.rank);
          return [];
        }
        const out: { status: Status; claimed: [number, number]; ok: boolean }[] = [];
        for (let k = 0; k < 3; k++) {
          const buf = new Float64Array(3000);
          const status = await mpi.recv(buf, mpi.ANY_SOURCE, mpi.ANY_TAG);
          const want = f64Pattern(status.count, status.source);
          want[0] = status.source;
          want[1] = 40 + status.source;
          out.push({ status, claimed: [buf[0]!, buf[1]!], ok: firstMismatch(buf.subarray(0, status.count), want) === -1 });
        }
        return out;
      },
    });
    const out = r.result;
    expect(out.map((o) => o.status.source).sort()).toEqual([1, 2, 3]);
    for (const o of out) {
      expect(o.claimed).toEqual([o.status.source, o.status.tag]);
      expect(o.status.tag).toBe(40 + o.status.source);
      expect(o.status.count).toBe(sizes[o.status.source - 1]);
      expect(o.status.bytes).toBe(o.status.count * 8);
      expect(o.ok).toBe(true);
    }
  });

  it('ANY_SOURCE with a specific tag and ANY_TAG with a specific source select correctly', async () => {
    const r = await simulate({
      machine: 'xe6',
      nodes: 4,
      program: async ({ mpi, compute }) => {
        if (mpi.rank !== 0) {
          // every sender sends tags 100+rank and 200+rank
          await mpi.send(Int32Array.of(mpi.rank, 100), 0, 100 + mpi.rank);
          await mpi.send(Int32Array.of(mpi.rank, 200), 0, 200 + mpi.rank);
          return [];
        }
        await compute({ us: 30 }); // everything is in the unexpected queue by now
        const buf = new Int32Array(2);
        const seen: [Status, number, number][] = [];
        // tag 202 can only come from rank 2
        let s = await mpi.recv(buf, mpi.ANY_SOURCE, 202);
        seen.push([s, buf[0]!, buf[1]!]);
        // the first message of rank 3 is its tag-103 one
        s = await mpi.recv(buf, 3, mpi.ANY_TAG);
        seen.push([s, buf[0]!, buf[1]!]);
        s = await mpi.recv(buf, 3, mpi.ANY_TAG);
        seen.push([s, buf[0]!, buf[1]!]);
        for (const tag of [101, 201, 102]) {
          s = await mpi.recv(buf, mpi.ANY_SOURCE, tag);
          seen.push([s, buf[0]!, buf[1]!]);
        }
        return seen;
      },
    });
    expect(r.result.map(([s, a, b]) => [s.source, s.tag, a, b])).toEqual([
      [2, 202, 2, 200],
      [3, 103, 3, 100],
      [3, 203, 3, 200],
      [1, 101, 1, 100],
      [1, 201, 1, 200],
      [2, 102, 2, 100],
    ]);
  });
});

describe('ordering and matching', () => {
  const N = 50;
  const sizeOf = (i: number): number => (i % 2 === 0 ? 16 : 20000); // eager, rendezvous, ...

  describe.each(placements)('$name', ({ nodes, ppn, a, b }) => {
    it('non-overtaking: 50 isends with one tag, alternating eager and rendezvous, are received in send order', async () => {
      const r = await simulate({
        machine: 'xe6',
        nodes,
        ppn,
        program: async ({ mpi }) => {
          if (mpi.rank === a) {
            const reqs: Request[] = [];
            for (let i = 0; i < N; i++) {
              const msg = new Uint32Array(sizeOf(i) / 4);
              for (let j = 0; j < msg.length; j++) msg[j] = i * 100000 + j;
              reqs.push(mpi.isend(msg, b, 9));
            }
            await mpi.waitAll(reqs);
            return [];
          }
          if (mpi.rank !== b) return [];
          const got: { seq: number; bytes: number; intact: boolean }[] = [];
          const buf = new Uint32Array(20000 / 4);
          for (let i = 0; i < N; i++) {
            const s = await mpi.recv(buf, a, 9);
            const seq = Math.floor(buf[0]! / 100000);
            let intact = true;
            for (let j = 0; j < s.count; j++) if (buf[j] !== seq * 100000 + j) intact = false;
            got.push({ seq, bytes: s.bytes, intact });
          }
          return got;
        },
      });
      const got = r.rankResults[b]!;
      expect(got.map((g) => g.seq)).toEqual(Array.from({ length: N }, (_, i) => i));
      expect(got.map((g) => g.bytes)).toEqual(Array.from({ length: N }, (_, i) => sizeOf(i)));
      expect(got.every((g) => g.intact)).toBe(true);
    });

    it('non-overtaking: 50 pre-posted irecvs with one tag are matched in send order', async () => {
      const r = await simulate({
        machine: 'xe6',
        nodes,
        ppn,
        program: async ({ mpi }) => {
          if (mpi.rank === a) {
            for (let i = 0; i < N; i++) {
              const msg = new Uint8Array(sizeOf(i)).fill(i);
              await mpi.send(msg, b, 9);
            }
            return [];
          }
          if (mpi.rank !== b) return [];
          const bufs = Array.from({ length: N }, () => new Uint8Array(20000).fill(255));
          const reqs = bufs.map((buf) => mpi.irecv(buf, a, 9));
          const statuses = await mpi.waitAll(reqs);
          return bufs.map((buf, i) => ({ first: buf[0]!, last: buf[statuses[i]!.bytes - 1]!, bytes: statuses[i]!.bytes, after: buf[statuses[i]!.bytes] ?? -1 }));
        },
      });
      const got = r.rankResults[b]!;
      expect(got).toHaveLength(N);
      got.forEach((g, i) => {
        expect(g, `message ${i}`).toEqual({ first: i, last: i, bytes: sizeOf(i), after: sizeOf(i) === 20000 ? -1 : 255 });
      });
    });

    it('unexpected eager messages of one size, each sent after the one before completed, keep their own bytes (the mailbox buffer is lent and reused)', async () => {
      const r = await simulate({
        machine: 'xe6',
        nodes,
        ppn,
        program: async ({ mpi, compute }) => {
          if (mpi.rank === a) {
            // one at a time: each message's NIC transaction (and its landing buffer) is free again before the next
            for (let i = 0; i < 6; i++) await mpi.send(u8Pattern(64, i), b, 4);
            return [];
          }
          if (mpi.rank !== b) return [];
          await compute({ us: 100 }); // all six wait in the unexpected queue
          const got: number[] = [];
          for (let i = 0; i < 6; i++) {
            const buf = new Uint8Array(64);
            await mpi.recv(buf, a, 4);
            got.push(firstMismatch(buf, u8Pattern(64, i)));
          }
          return got;
        },
      });
      expect(r.rankResults[b]).toEqual([-1, -1, -1, -1, -1, -1]);
    });

    it('unexpected messages: sent before the receive is posted (receiver computes 100 us), eager and rendezvous', async () => {
      const r = await simulate({
        machine: 'xe6',
        nodes,
        ppn,
        program: async ({ mpi, compute, now }) => {
          if (mpi.rank === a) {
            const e = mpi.isend(u8Pattern(100, 1), b, 1);
            const z = mpi.isend(u8Pattern(50000, 2), b, 2);
            await mpi.wait(e);
            const eagerDone = now();
            await mpi.wait(z);
            return { eagerDone, rndvDone: now() };
          }
          if (mpi.rank !== b) return null;
          await compute({ us: 100 });
          const posted = now();
          const e = new Uint8Array(100);
          const z = new Uint8Array(50000);
          const se = await mpi.recv(e, a, 1);
          const sz = await mpi.recv(z, a, 2);
          return { posted, done: now(), se, sz, eOk: firstMismatch(e, u8Pattern(100, 1)), zOk: firstMismatch(z, u8Pattern(50000, 2)) };
        },
      });
      const s = r.rankResults[a] as { eagerDone: number; rndvDone: number };
      const g = r.rankResults[b] as { posted: number; done: number; se: Status; sz: Status; eOk: number; zOk: number };
      expect(g.posted).toBeGreaterThanOrEqual(100);
      expect(g.eOk).toBe(-1);
      expect(g.zOk).toBe(-1);
      expect(g.se).toEqual({ source: a, tag: 1, count: 100, bytes: 100 });
      expect(g.sz).toEqual({ source: a, tag: 2, count: 50000, bytes: 50000 });
      expect(g.done).toBeGreaterThan(g.posted);
      // an eager send completes without the receiver
      expect(s.eagerDone).toBeLessThan(100);
      if (nodes > 1) {
        // over the network a rendezvous send waits until the receiver has matched and pulled it
        expect(s.rndvDone).toBeGreaterThan(g.posted);
      }
    });

    it('tag selectivity: recv(tag 2) then recv(tag 1) gets the right messages although tag 1 was sent first', async () => {
      for (const size of [24, 16384]) {
        const r = await simulate({
          machine: 'xe6',
          nodes,
          ppn,
          program: async ({ mpi }) => {
            if (mpi.rank === a) {
              const one = new Float64Array(size / 8).fill(1.5);
              const two = new Float64Array(size / 8).fill(2.25);
              const r1 = mpi.isend(one, b, 1);
              const r2 = mpi.isend(two, b, 2);
              await mpi.waitAll([r1, r2]);
              return null;
            }
            if (mpi.rank !== b) return null;
            const x = new Float64Array(size / 8);
            const y = new Float64Array(size / 8);
            const s2 = await mpi.recv(x, a, 2);
            const s1 = await mpi.recv(y, a, 1);
            return { s2, s1, x: [...new Set(x)], y: [...new Set(y)] };
          },
        });
        const g = r.rankResults[b]!;
        expect(g, `size ${size}`).toEqual({
          s2: { source: a, tag: 2, count: size / 8, bytes: size },
          s1: { source: a, tag: 1, count: size / 8, bytes: size },
          x: [2.25],
          y: [1.5],
        });
      }
    });
  });
});
