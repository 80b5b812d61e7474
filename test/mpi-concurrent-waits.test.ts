/**
 * Blocking calls a rank starts together without awaiting the first (`Promise.all` over waits, a
 * send and a receive started at once): they end together once all have completed, as
 * MPI_Waitall would; a blocking call that cannot join (a compute) fails with a line naming it.
 */
import { describe, expect, it } from 'vitest';
import { simulate } from '../runtime/simulate.ts';

describe('concurrent blocking calls of one rank', () => {
  it('Promise.all of two waits returns both statuses, at the time the later request completes', async () => {
    const r = await simulate({
      machine: 'xe6',
      nodes: 2,
      program: async ({ mpi, now, compute }) => {
        if (mpi.rank === 1) {
          await mpi.send(Int32Array.of(7), 0, 1);
          await compute({ us: 50 });
          await mpi.send(Int32Array.of(9), 0, 2);
          return null;
        }
        const a = new Int32Array(1);
        const b = new Int32Array(1);
        const r1 = mpi.irecv(a, 1, 1);
        const r2 = mpi.irecv(b, 1, 2);
        const [s1, s2] = await Promise.all([r1.wait(), r2.wait()]);
        return { a: a[0], b: b[0], tags: [s1.tag, s2.tag], at: now() };
      },
    });
    expect(r.result).toMatchObject({ a: 7, b: 9, tags: [1, 2] });
    // the second message left after rank 1's 50 us of compute
    expect((r.result as { at: number }).at).toBeGreaterThan(50);
  });

  it('a send and a receive started together (Promise.all of the blocking calls) swap messages between two ranks', async () => {
    const r = await simulate({
      machine: 'xc30',
      nodes: 2,
      ppn: 2,
      program: async ({ mpi }) => {
        const peer = mpi.rank ^ 1;
        const got = new Float64Array(4);
        await Promise.all([mpi.send(Float64Array.of(mpi.rank, 1, 2, 3), peer, 0), mpi.recv(got, peer, 0)]);
        return got[0];
      },
    });
    expect(r.rankResults).toEqual([1, 0, 3, 2]);
  });

  it('three waits at once, one of them already complete, and a waitAll joined to them', async () => {
    const r = await simulate({
      machine: 'xe6',
      nodes: 2,
      program: async ({ mpi }) => {
        if (mpi.rank === 1) {
          for (let t = 0; t < 4; t++) await mpi.send(Int32Array.of(10 + t), 0, t);
          return null;
        }
        const bufs = [0, 1, 2, 3].map(() => new Int32Array(1));
        const reqs = bufs.map((b, t) => mpi.irecv(b, 1, t));
        const all = await Promise.all([reqs[0]!.wait(), reqs[1]!.wait(), mpi.waitAll([reqs[2]!, reqs[3]!])]);
        return { values: bufs.map((b) => b[0]), n: all.length };
      },
    });
    expect(r.result).toEqual({ values: [10, 11, 12, 13], n: 3 });
  });

  it('a compute started while a wait is pending fails with one line naming both, not an internal error', async () => {
    const run = simulate({
      machine: 'xe6',
      nodes: 2,
      program: async ({ mpi, compute }) => {
        const b = new Int32Array(1);
        const r = mpi.irecv(b, mpi.rank ^ 1, 0);
        await Promise.all([r.wait(), compute({ us: 1 })]);
      },
    });
    await expect(run).rejects.toThrow(/rank 0.*compute began while another blocking call of this rank is still pending/);
  });
});
