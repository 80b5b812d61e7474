import { describe, expect, it } from 'vitest';
import { RankError } from '../fabric/engine/engine.ts';
import { MpiError, type Request, type Status } from '../runtime/mpi/mpi.ts';
import type { RankContext } from '../runtime/rank.ts';
import { simulate } from '../runtime/simulate.ts';
import { firstMismatch, rejection, u8Pattern } from './helpers.ts';

/** Deterministic, non-trivial payloads (every element differs from its neighbours). */
function f64Pattern(n: number, salt: number): Float64Array {
  const a = new Float64Array(n);
  for (let i = 0; i < n; i++) a[i] = Math.sin(i * 0.37 + salt) * 1e6 + i / 7;
  return a;
}

/** The two placements of a sender/receiver pair: over the network and over shared memory. */
const placements = [
  { name: 'different nodes (nodes=4, ppn=1, ranks 0 <-> 3)', nodes: 4, ppn: 1, a: 0, b: 3 },
  { name: 'same node (nodes=1, ppn=2, shared memory)', nodes: 1, ppn: 2, a: 0, b: 1 },
] as const;

/** Bytes of the messages: empty, tiny, eager, the eager limit (8 KiB), just above it, rendezvous. */
const BYTE_SIZES = [0, 1, 8, 1000, 8192, 8193, 100000];
/** Float64 element counts around the same boundaries (1024 doubles = 8192 B, 1025 = 8200 B). */
const F64_COUNTS = [0, 1, 125, 1024, 1025, 12500];
const SENTINEL = 0xa5;

interface Got {
  size: number;
  status: Status;
  mismatch: number;
  /** Receive-buffer elements past the message that were overwritten. */
  tailClobbered: number;
}

describe('point-to-point data correctness', () => {
  describe.each(placements)('$name', ({ nodes, ppn, a, b }) => {
    it('Uint8Array messages of 0, 1, 8, 1000, 8192, 8193 and 100000 bytes arrive intact, both directions', async () => {
      const r = await simulate({
        machine: 'xe6',
        nodes,
        ppn,
        program: async ({ mpi }) => {
          const got: Got[] = [];
          const me = mpi.rank;
          if (me !== a && me !== b) return got;
          const other = me === a ? b : a;
          for (const size of BYTE_SIZES) {
            // a sends first, then b answers with a different pattern
            for (const sender of [a, b]) {
              if (me === sender) {
                await mpi.send(u8Pattern(size, sender + size), other, 7);
              } else {
                const buf = new Uint8Array(size + 16).fill(SENTINEL);
                const status = await mpi.recv(buf, other, 7);
                const want = u8Pattern(size, sender + size);
                let tail = 0;
                for (let i = size; i < buf.length; i++) if (buf[i] !== SENTINEL) tail++;
                got.push({ size, status, mismatch: firstMismatch(buf.subarray(0, size), want, size), tailClobbered: tail });
              }
            }
          }
          return got;
        },
      });
      for (const rank of [a, b]) {
        const got = r.rankResults[rank]!;
        const from = rank === a ? b : a;
        expect(got.map((g) => g.size)).toEqual(BYTE_SIZES);
        for (const g of got) {
          expect(g.mismatch, `${g.size} bytes to rank ${rank}: first wrong byte`).toBe(-1);
          expect(g.tailClobbered, `${g.size} bytes: bytes written past the message`).toBe(0);
          expect(g.status).toEqual({ source: from, tag: 7, count: g.size, bytes: g.size });
        }
      }
    });

    it('Float64Array messages around the eager limit arrive bit-exact; count is in doubles', async () => {
      const r = await simulate({
        machine: 'xe6',
        nodes,
        ppn,
        program: async ({ mpi }) => {
          const got: Got[] = [];
          if (mpi.rank === a) {
            for (const n of F64_COUNTS) await mpi.send(f64Pattern(n, n), b, n % 1000);
          } else if (mpi.rank === b) {
            for (const n of F64_COUNTS) {
              const buf = new Float64Array(n + 3).fill(-0.5);
              const status = await mpi.recv(buf, a, n % 1000);
              let tail = 0;
              for (let i = n; i < buf.length; i++) if (buf[i] !== -0.5) tail++;
              got.push({ size: n, status, mismatch: firstMismatch(buf.subarray(0, n), f64Pattern(n, n), n), tailClobbered: tail });
            }
          }
          return got;
        },
      });
      const got = r.rankResults[b]!;
      expect(got).toHaveLength(F64_COUNTS.length);
      for (const g of got) {
        expect(g.mismatch, `${g.size} doubles: first wrong element`).toBe(-1);
        expect(g.tailClobbered).toBe(0);
        expect(g.status).toEqual({ source: a, tag: g.size % 1000, count: g.size, bytes: g.size * 8 });
      }
    });

    it('status.count is in elements of the receive buffer type, whatever the sender used', async () => {
      const r = await simulate({
        machine: 'xe6',
        nodes,
        ppn,
        program: async ({ mpi }) => {
          if (mpi.rank === a) {
            await mpi.send(f64Pattern(10, 1), b, 3); // 80 bytes
            await mpi.send(u8Pattern(1000, 2), b, 4); // 1000 bytes
            await mpi.send(new Int32Array([1, 2, 3, 4, 5]), b, 5); // 20 bytes
            return null;
          }
          if (mpi.rank !== b) return null;
          const asI32 = new Int32Array(40);
          const s1 = await mpi.recv(asI32, a, 3);
          const asF64 = new Float64Array(200);
          const s2 = await mpi.recv(asF64, a, 4);
          const asU8 = new Uint8Array(64);
          const s3 = await mpi.recv(asU8, a, 5);
          const back = new Float64Array(asI32.buffer, 0, 10);
          return { s1, s2, s3, f64Ok: firstMismatch(back, f64Pattern(10, 1)), u8Ok: firstMismatch(new Uint8Array(asF64.buffer, 0, 1000), u8Pattern(1000, 2)), i32: Array.from(new Int32Array(asU8.buffer, 0, 5)) };
        },
      });
      const g = r.rankResults[b]!;
      expect(g).not.toBeNull();
      expect(g!.s1).toEqual({ source: a, tag: 3, count: 20, bytes: 80 });
      expect(g!.s2).toEqual({ source: a, tag: 4, count: 125, bytes: 1000 });
      expect(g!.s3).toEqual({ source: a, tag: 5, count: 20, bytes: 20 });
      expect(g!.f64Ok).toBe(-1);
      expect(g!.u8Ok).toBe(-1);
      expect(g!.i32).toEqual([1, 2, 3, 4, 5]);
    });
  });

  it('on-node messages use the shared-memory path (no network packets); off-node ones do not', async () => {
    const prog = async ({ mpi }: RankContext): Promise<void> => {
      if (mpi.rank === 0) await mpi.send(u8Pattern(5000, 1), 1, 0);
      else if (mpi.rank === 1) await mpi.recv(new Uint8Array(5000), 0, 0);
    };
    const shm = await simulate({ machine: 'xe6', nodes: 1, ppn: 2, program: prog });
    const net = await simulate({ machine: 'xe6', nodes: 2, ppn: 1, program: prog });
    expect(shm.packets).toBe(0);
    expect(net.packets).toBeGreaterThan(5000 / 64);
  });
});

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

describe('buffers, self-sends and the eager boundary', () => {
  it('sends from and receives into typed-array views at a byte offset without touching the bytes around them', async () => {
    for (const doubles of [5, 3000]) {
      const r = await simulate({
        machine: 'xe6',
        nodes: 2,
        program: async ({ mpi }) => {
          const backing = new ArrayBuffer(8 * (doubles + 4));
          const all = new Uint8Array(backing).fill(0xee);
          const view = new Float64Array(backing, 16, doubles);
          if (mpi.rank === 0) {
            view.set(f64Pattern(doubles, 4));
            await mpi.send(view, 1, 0);
            return { ok: -1, around: 0 };
          }
          const s = await mpi.recv(view, 0, 0);
          let around = 0;
          for (let i = 0; i < all.length; i++) if ((i < 16 || i >= 16 + 8 * doubles) && all[i] !== 0xee) around++;
          return { ok: firstMismatch(view, f64Pattern(doubles, 4)), around, count: s.count };
        },
      });
      expect(r.rankResults[1], `${doubles} doubles`).toEqual({ ok: -1, around: 0, count: doubles });
    }
  });

  it('a DataView is a byte buffer: count is in bytes', async () => {
    const r = await simulate({
      machine: 'xe6',
      nodes: 2,
      program: async ({ mpi }) => {
        if (mpi.rank === 0) {
          await mpi.send(new Uint16Array([0x1234, 0x5678, 0x9abc]), 1, 0);
          return null;
        }
        const dv = new DataView(new ArrayBuffer(10));
        const s = await mpi.recv(dv, 0, 0);
        return { s, v: [dv.getUint16(0, true), dv.getUint16(2, true), dv.getUint16(4, true)] };
      },
    });
    expect(r.rankResults[1]).toEqual({ s: { source: 0, tag: 0, count: 6, bytes: 6 }, v: [0x1234, 0x5678, 0x9abc] });
  });

  it('a rank can send to itself (isend, then recv)', async () => {
    const r = await simulate({
      machine: 'xe6',
      nodes: 2,
      program: async ({ mpi }) => {
        const out = [];
        for (const n of [4, 5000]) {
          const sreq = mpi.isend(f64Pattern(n, mpi.rank), mpi.rank, 3);
          const buf = new Float64Array(n);
          const s = await mpi.recv(buf, mpi.rank, 3);
          await mpi.wait(sreq);
          out.push({ s, ok: firstMismatch(buf, f64Pattern(n, mpi.rank)) });
        }
        return out;
      },
    });
    r.rankResults.forEach((out, rank) => {
      expect(out).toEqual([
        { s: { source: rank, tag: 3, count: 4, bytes: 32 }, ok: -1 },
        { s: { source: rank, tag: 3, count: 5000, bytes: 40000 }, ok: -1 },
      ]);
    });
  });

  it('posted receives are matched in posting order: irecv(ANY_SOURCE) posted first takes the first message', async () => {
    const r = await simulate({
      machine: 'xe6',
      nodes: 2,
      program: async ({ mpi, compute }) => {
        if (mpi.rank === 1) {
          await compute({ us: 10 });
          await mpi.send(Int32Array.of(1), 0, 5);
          await mpi.send(Int32Array.of(2), 0, 5);
          return null;
        }
        const wild = new Int32Array(1);
        const specific = new Int32Array(1);
        const reqs = [mpi.irecv(wild, mpi.ANY_SOURCE, mpi.ANY_TAG), mpi.irecv(specific, 1, 5)];
        const st = await mpi.waitAll(reqs);
        return { wild: wild[0], specific: specific[0], sources: st.map((s) => s.source), tags: st.map((s) => s.tag) };
      },
    });
    expect(r.result).toEqual({ wild: 1, specific: 2, sources: [1, 1], tags: [5, 5] });
  });

  it.each([
    { bytes: 8192, eager: true },
    { bytes: 8193, eager: false },
  ])('protocol boundary: a $bytes-byte send completes before the receiver posts: $eager', async ({ bytes, eager }) => {
    const r = await simulate({
      machine: 'xe6',
      nodes: 2,
      program: async ({ mpi, compute, now }) => {
        if (mpi.rank === 0) {
          await mpi.send(u8Pattern(bytes, 0), 1, 0);
          return now();
        }
        await compute({ us: 100 });
        const buf = new Uint8Array(bytes);
        await mpi.recv(buf, 0, 0);
        return firstMismatch(buf, u8Pattern(bytes, 0));
      },
    });
    expect(r.rankResults[1]).toBe(-1);
    if (eager) expect(r.result).toBeLessThan(100);
    else expect(r.result).toBeGreaterThan(100);
  });

  it('raising mpi.eagerMaxBytes with `set` makes a 20000-byte send eager', async () => {
    const r = await simulate({
      machine: 'xe6',
      nodes: 2,
      set: { 'mpi.eagerMaxBytes': '32KiB' },
      program: async ({ mpi, compute, now }) => {
        if (mpi.rank === 0) {
          await mpi.send(u8Pattern(20000, 0), 1, 0);
          return now();
        }
        await compute({ us: 100 });
        const buf = new Uint8Array(20000);
        await mpi.recv(buf, 0, 0);
        return firstMismatch(buf, u8Pattern(20000, 0));
      },
    });
    expect(r.rankResults[1]).toBe(-1);
    expect(r.result).toBeLessThan(100);
  });
});

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

describe('errors', () => {
  it.each([
    { what: 'eager over the network', nodes: 2, ppn: 1, bytes: 100, cap: 10 },
    { what: 'rendezvous over the network', nodes: 2, ppn: 1, bytes: 20000, cap: 10000 },
    { what: 'shared memory', nodes: 1, ppn: 2, bytes: 100, cap: 10 },
  ])('truncation ($what): a $bytes-byte message into a $cap-byte buffer rejects with MPI_ERR_TRUNCATE', async ({ nodes, ppn, bytes, cap }) => {
    const e = await rejection(
      simulate({
        machine: 'xe6',
        nodes,
        ppn,
        program: async ({ mpi }) => {
          if (mpi.rank === 0) await mpi.send(new Uint8Array(bytes), 1, 4);
          else await mpi.recv(new Uint8Array(cap), 0, 4);
        },
      }),
    );
    expect(e).toBeInstanceOf(RankError);
    const re = e as RankError;
    expect(re.rank).toBe(1);
    expect(re.message).toContain('MPI_ERR_TRUNCATE');
    expect(re.message).toContain(`${bytes} bytes`);
    expect(re.error).toBeInstanceOf(MpiError);
    expect((re.error as MpiError).errorClass).toBe('MPI_ERR_TRUNCATE');
  });

  const bad: { name: string; cls: string; mentions: string; call: (ctx: RankContext) => Promise<unknown> }[] = [
    { name: 'send dest = size', cls: 'MPI_ERR_RANK', mentions: 'dest=2', call: ({ mpi }) => mpi.send(new Uint8Array(1), 2, 0) },
    { name: 'send dest = -3', cls: 'MPI_ERR_RANK', mentions: 'dest=-3', call: ({ mpi }) => mpi.send(new Uint8Array(1), -3, 0) },
    { name: 'send dest = ANY_SOURCE', cls: 'MPI_ERR_RANK', mentions: 'dest=-2', call: ({ mpi }) => mpi.send(new Uint8Array(1), mpi.ANY_SOURCE, 0) },
    { name: 'send dest = 0.5', cls: 'MPI_ERR_RANK', mentions: 'dest=0.5', call: ({ mpi }) => mpi.send(new Uint8Array(1), 0.5, 0) },
    { name: 'isend dest = 7', cls: 'MPI_ERR_RANK', mentions: 'dest=7', call: async ({ mpi }) => {
      mpi.isend(new Uint8Array(1), 7, 0);
    } },
    { name: 'recv source = 5', cls: 'MPI_ERR_RANK', mentions: 'source=5', call: ({ mpi }) => mpi.recv(new Uint8Array(1), 5, 0) },
    { name: 'send tag = -5', cls: 'MPI_ERR_TAG', mentions: 'tag=-5', call: ({ mpi }) => mpi.send(new Uint8Array(1), 1, -5) },
    { name: 'send tag = ANY_TAG', cls: 'MPI_ERR_TAG', mentions: 'tag=-1', call: ({ mpi }) => mpi.send(new Uint8Array(1), 1, mpi.ANY_TAG) },
    { name: 'send tag above TAG_UB', cls: 'MPI_ERR_TAG', mentions: 'tag=2147483648', call: ({ mpi }) => mpi.send(new Uint8Array(1), 1, 2 ** 31) },
    { name: 'recv tag = -7', cls: 'MPI_ERR_TAG', mentions: 'tag=-7', call: ({ mpi }) => mpi.recv(new Uint8Array(1), 1, -7) },
    { name: 'send plain array', cls: 'MPI_ERR_BUFFER', mentions: 'buf must be a typed array', call: ({ mpi }) => mpi.send([1, 2, 3] as never, 1, 0) },
    { name: 'send ArrayBuffer', cls: 'MPI_ERR_BUFFER', mentions: 'ArrayBuffer', call: ({ mpi }) => mpi.send(new ArrayBuffer(8) as never, 1, 0) },
    { name: 'recv null', cls: 'MPI_ERR_BUFFER', mentions: 'got null', call: ({ mpi }) => mpi.recv(null as never, 1, 0) },
    { name: 'irecv string', cls: 'MPI_ERR_BUFFER', mentions: 'got string', call: async ({ mpi }) => {
      mpi.irecv('abc' as never, 1, 0);
    } },
  ];
  it.each(bad)('bad argument ($name) rejects with $cls naming it', async ({ cls, mentions, call }) => {
    const e = await rejection(
      simulate({
        machine: 'xe6',
        nodes: 2,
        program: async (ctx) => {
          if (ctx.rank === 0) await call(ctx);
        },
      }),
    );
    expect(e).toBeInstanceOf(RankError);
    expect((e as RankError).rank).toBe(0);
    expect(e.message).toContain(`${cls}:`);
    expect(e.message).toContain(mentions);
    expect(((e as RankError).error as MpiError).errorClass).toBe(cls);
  });
});
