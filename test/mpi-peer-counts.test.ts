/**
 * MPI's per-pair sequence numbers: a count per peer, in a Map for a few peers and in an array of
 * one entry per rank once a rank talks to many (all-to-all at scale), with the same values either
 * way; a run's messages matched in their pair's order before and after.
 */
import { describe, expect, it } from 'vitest';
import { PeerCounts } from '../runtime/mpi/peer-counts.ts';
import { simulate } from '../runtime/simulate.ts';

describe('PeerCounts', () => {
  it('reads 0 for a peer never set, and the same values before and after moving to an array', () => {
    const c = new PeerCounts(30);
    expect(c.get(7)).toBe(0);
    const want = new Map<number, number>();
    for (let k = 0; k < 12; k++) {
      const peer = (k * 7) % 30;
      c.set(peer, c.get(peer) + 1 + k);
      want.set(peer, (want.get(peer) ?? 0) + 1 + k);
      // 30 ranks: an array once more than 10 peers have a count
      expect(c.isDense, `after ${k + 1} peers`).toBe(k + 1 > 10);
      for (let p = 0; p < 30; p++) expect(c.get(p)).toBe(want.get(p) ?? 0);
    }
    c.set(29, 2 ** 40);
    expect(c.get(29)).toBe(2 ** 40);
  });

  it('messages keep their pair order before and after all-to-all moves the counts to arrays', async () => {
    const size = 24;
    const r = await simulate({
      machine: 'xe6',
      nodes: size,
      program: async (ctx) => {
        const { mpi } = ctx;
        const me = mpi.rank;
        // three messages to each of two neighbours, received in order
        const ring = async (): Promise<number[]> => {
          const got: number[] = [];
          const reqs = [];
          for (const d of [1, size - 1]) for (let k = 0; k < 3; k++) reqs.push(mpi.isend(Int32Array.of(me * 100 + k), (me + d) % size, 5));
          for (const d of [1, size - 1]) {
            for (let k = 0; k < 3; k++) {
              const b = new Int32Array(1);
              await mpi.recv(b, (me - d + size) % size, 5);
              got.push(b[0]! - ((me - d + size) % size) * 100);
            }
          }
          await mpi.waitAll(reqs);
          return got;
        };
        const first = await ring();
        // every rank sends to every other: each rank's counts move to arrays
        const send = Int32Array.from({ length: size }, (_, q) => me * 1000 + q);
        const recv = new Int32Array(size);
        await mpi.alltoall(send, recv, { algorithm: 'linear' });
        const right = recv.every((v, q) => v === q * 1000 + me);
        return { first, right, second: await ring() };
      },
    });
    for (const x of r.rankResults) expect(x).toEqual({ first: [0, 1, 2, 0, 1, 2], right: true, second: [0, 1, 2, 0, 1, 2] });
  });
});
