/**
 * Point-to-point buffers: typed-array views at an offset, DataViews, self-sends, posting order and
 * the eager boundary.
 */
import { describe, expect, it } from 'vitest';
import { simulate } from '../runtime/simulate.ts';
import { firstMismatch, u8Pattern } from './helpers.ts';
import { f64Pattern } from './mpi-p2p-helpers.ts';

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
