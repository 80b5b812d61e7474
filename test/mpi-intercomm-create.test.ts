/** Intercommunicators made and unmade: intercommCreate's groups and contexts, intercommMerge's order, dup and free. */
import { describe, expect, it } from 'vitest';
import { LEFT, RIGHT, failure, halves, run } from './mpi-intercomm-helpers.ts';

describe('intercommCreate: an intercommunicator from the split halves of MPI_COMM_WORLD', () => {
  it('each side sees its own group as rank, size and group, the other as remoteSize and remoteGroup', async () => {
    const res = await run(async ({ mpi }) => {
      const { half, ic } = await halves(mpi);
      return { rank: ic.rank, size: ic.size, remote: ic.remoteSize, group: ic.group.ranks, remoteGroup: ic.remoteGroup.ranks, inter: ic.testInter(), worldInter: mpi.testInter(), halfInter: half.testInter() };
    });
    res.forEach((x, w) => {
      const left = w < 3;
      expect(x).toEqual({
        rank: left ? w : w - 3,
        size: left ? 3 : 5,
        remote: left ? 5 : 3,
        group: left ? LEFT : RIGHT,
        remoteGroup: left ? RIGHT : LEFT,
        inter: true,
        worldInter: false,
        halfInter: false,
      });
    });
  });

  it('leaders other than rank 0 and a peer communicator other than MPI_COMM_WORLD give the same groups', async () => {
    const res = await run(async ({ mpi }) => {
      const peer = await mpi.dup();
      const left = mpi.rank < 3;
      const half = (await mpi.split(left ? 0 : 1, mpi.rank))!;
      // leaders: left rank 2 (world 2), right rank 4 (world 7)
      const ic = await half.intercommCreate(left ? 2 : 4, peer, left ? 7 : 2, 99);
      const got = new Int32Array(1);
      const st = await ic.sendrecv(Int32Array.of(mpi.rank), ic.rank % ic.remoteSize, 1, got, ic.rank === 0 ? mpi.ANY_SOURCE : mpi.PROC_NULL, 1);
      // remote ranks send to (their rank % my size): rank 0 of each side gets at least one message
      return { group: ic.group.ranks, remoteGroup: ic.remoteGroup.ranks, got: ic.rank === 0 ? [st.source, got[0]] : null };
    });
    res.forEach((x, w) => {
      const left = w < 3;
      expect((x as { group: number[] }).group).toEqual(left ? LEFT : RIGHT);
      expect((x as { remoteGroup: number[] }).remoteGroup).toEqual(left ? RIGHT : LEFT);
    });
    // rank 0 of each side received from a remote rank that sent to it: its source and its world rank agree
    const [l0, r0] = [res[0] as { got: number[] }, res[3] as { got: number[] }];
    expect(RIGHT[l0.got[0]!]).toBe(l0.got[1]);
    expect(LEFT[r0.got[0]!]).toBe(r0.got[1]);
  });

  it('ic1 (MPICH test/mpi/comm): two COMM_SELFs joined over MPI_COMM_WORLD exchange their ranks', async () => {
    const res = await run(async ({ mpi }) => {
      if (mpi.rank >= 2) return null;
      const ic = await mpi.COMM_SELF.intercommCreate(0, mpi, 1 - mpi.rank, 27);
      const got = new Int32Array(1);
      await ic.sendrecv(Int32Array.of(mpi.rank), 0, 13, got, 0, 13);
      await ic.free();
      return got[0];
    });
    expect(res.slice(0, 2)).toEqual([1, 0]);
  });

  it('a second intercommunicator between the same groups has contexts of its own', async () => {
    const res = await run(async ({ mpi }) => {
      const { left, half, ic } = await halves(mpi);
      const ic2 = await half.intercommCreate(0, mpi, left ? 3 : 0, 7);
      const a = new Int32Array(1);
      const b = new Int32Array(1);
      if (left && ic.rank === 0) {
        // sent on ic2 first, then on ic: each receive gets the message of its own intercommunicator
        await ic2.send(Int32Array.of(2), 0, 5);
        await ic.send(Int32Array.of(1), 0, 5);
      }
      if (!left && ic.rank === 0) {
        await ic.recv(a, mpi.ANY_SOURCE, mpi.ANY_TAG);
        await ic2.recv(b, mpi.ANY_SOURCE, mpi.ANY_TAG);
      }
      return [a[0], b[0]];
    });
    expect(res[3]).toEqual([1, 2]);
  });
});

describe('intercommMerge, dup and free', () => {
  it('the group passing high=false comes first; with equal values the low group (holding world rank 0) does (MPICH icm)', async () => {
    const res = await run(async ({ mpi }) => {
      const { left, ic } = await halves(mpi);
      const out: [number, number, number[]][] = [];
      for (const high of [left, !left, false, true]) {
        const m = await ic.intercommMerge(high);
        // the merged communicator works: an allgather of world ranks in its order
        const all = new Int32Array(m.size);
        await m.allgather(Int32Array.of(mpi.rank), all);
        out.push([m.size, m.rank, Array.from(all)]);
        await m.free();
      }
      return out;
    });
    res.forEach((x, w) => {
      const left = w < 3;
      const rank = left ? w : w - 3;
      const leftFirst = [...LEFT, ...RIGHT];
      const rightFirst = [...RIGHT, ...LEFT];
      expect(x).toEqual([
        // left passes high: right first
        [8, left ? 5 + rank : rank, rightFirst],
        // right passes high: left first
        [8, left ? rank : 3 + rank, leftFirst],
        // all the same: the low group, the left one, first
        [8, left ? rank : 3 + rank, leftFirst],
        [8, left ? rank : 3 + rank, leftFirst],
      ]);
    });
  });

  it('when the low group is the larger one it still comes first on ties', async () => {
    const res = await run(async ({ mpi }) => {
      const { ic } = await halves(mpi, 5);
      const m = await ic.intercommMerge(true);
      return m.rank;
    });
    expect(res).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
  });

  it('dup gives an intercommunicator of the same groups whose messages do not match the original; free ends it', async () => {
    const res = await run(async ({ mpi }) => {
      const { left, ic } = await halves(mpi);
      const d = await ic.dup();
      const a = new Int32Array(1);
      const b = new Int32Array(1);
      if (left && ic.rank === 1) {
        await d.send(Int32Array.of(11), 1, 0);
        await ic.send(Int32Array.of(22), 1, 0);
      }
      if (!left && ic.rank === 1) {
        await ic.recv(a, mpi.ANY_SOURCE, mpi.ANY_TAG);
        await d.recv(b, mpi.ANY_SOURCE, mpi.ANY_TAG);
      }
      const sum = new Int32Array(1);
      await d.allreduce(Int32Array.of(1), sum, mpi.SUM);
      const kind = [d.testInter(), d.size, d.remoteSize];
      await d.free();
      return [a[0], b[0], sum[0], ...kind];
    });
    res.forEach((x, w) => {
      const left = w < 3;
      const [a, b, sum, inter, size, remote] = x as number[];
      expect([sum, inter, size, remote]).toEqual([left ? 5 : 3, true, left ? 3 : 5, left ? 5 : 3]);
      if (w === 4) expect([a, b]).toEqual([22, 11]);
    });
    const msg = await failure(async ({ mpi }) => {
      const { ic } = await halves(mpi);
      await ic.free();
      await ic.barrier();
    });
    expect(msg).toMatch(/MPI_ERR_COMM: barrier: the communicator was freed/);
  });
});
