/**
 * isendrecv and isendrecvReplace: one request for a send and a receive, complete once both halves
 * are, on xe6 over the network and within a node.
 */
import { describe, expect, it } from 'vitest';
import type { Status } from '../runtime/mpi/mpi.ts';
import { simulate } from '../runtime/simulate.ts';
import { SIZES, mismatch, pattern, placements } from './mpi-requests-helpers.ts';

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
