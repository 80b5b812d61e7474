/**
 * Point-to-point data correctness: messages of every size and type arrive intact over the network
 * and over shared memory.
 */
import { describe, expect, it } from 'vitest';
import type { Status } from '../runtime/mpi/mpi.ts';
import type { RankContext } from '../runtime/rank.ts';
import { simulate } from '../runtime/simulate.ts';
import { firstMismatch, u8Pattern } from './helpers.ts';
import { f64Pattern, placements } from './mpi-p2p-helpers.ts';

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
