/**
 * Collectives on an intercommunicator: data goes from one group to the other, blocking and
 * nonblocking, on xe6 and xc30.
 */
import { describe, expect, it } from 'vitest';
import { simulate } from '../runtime/simulate.ts';
import { LEFT, RIGHT, data, halves, run } from './mpi-intercomm-helpers.ts';

describe('collectives on an intercommunicator: data goes from one group to the other', () => {
  it('barrier returns on no rank before every rank of the other group has entered it', async () => {
    const res = await run(async (ctx) => {
      const { mpi } = ctx;
      const { ic } = await halves(mpi);
      // world rank 7 (right) arrives 40 us late, then world rank 1 (left) 80 us late at a second barrier
      if (mpi.rank === 7) await ctx.compute({ us: 40 });
      await ic.barrier();
      const first = ctx.now();
      if (mpi.rank === 1) await ctx.compute({ us: 80 });
      await ic.barrier();
      return [first, ctx.now()];
    });
    const times = res as number[][];
    const late = times[7]![0]!;
    for (const [first, second] of times) {
      expect(first).toBeGreaterThanOrEqual(40);
      expect(second).toBeGreaterThanOrEqual(late + 80);
    }
  });

  it('bcast: the root sends to every rank of the other group; the rest of its group keeps its buffer (MPICH icbcast)', async () => {
    const res = await run(async ({ mpi }) => {
      const { left, ic } = await halves(mpi);
      let errs = 0;
      for (let count = 1; count < 65000; count *= 2) {
        const buf = new Int32Array(count);
        if (left) {
          if (ic.rank === 0) for (let i = 0; i < count; i++) buf[i] = i;
          else buf.fill(-1);
          await ic.bcast(buf, ic.rank === 0 ? mpi.ROOT : mpi.PROC_NULL);
          if (ic.rank !== 0) for (let i = 0; i < count; i++) if (buf[i] !== -1) errs++;
        } else {
          buf.fill(-1);
          await ic.bcast(buf, 0);
          for (let i = 0; i < count; i++) if (buf[i] !== i) errs++;
        }
      }
      return errs;
    });
    expect(res).toEqual([0, 0, 0, 0, 0, 0, 0, 0]);
  });

  it('bcast from a root in the larger group, not its rank 0', async () => {
    const res = await run(async ({ mpi }) => {
      const { left, ic } = await halves(mpi);
      const buf = left ? new Float64Array(3) : ic.rank === 3 ? Float64Array.of(1.5, 2.5, 3.5) : null;
      await ic.bcast(buf, left ? 3 : ic.rank === 3 ? mpi.ROOT : mpi.PROC_NULL);
      return buf ? Array.from(buf) : null;
    });
    expect(res).toEqual([[1.5, 2.5, 3.5], [1.5, 2.5, 3.5], [1.5, 2.5, 3.5], null, null, null, [1.5, 2.5, 3.5], null]);
  });

  it('reduce: the other group reduced into the root, in rank order for a non-commutative op', async () => {
    const res = await run(async ({ mpi }) => {
      const { left, ic } = await halves(mpi);
      // the decimal digits of a followed by those of b: associative, not commutative
      const digits = mpi.opCreate((inout, input) => {
        const [a, b] = [inout as Float64Array, input as Float64Array];
        for (let i = 0; i < a.length; i++) a[i] = a[i]! * 10 ** String(b[i]).length + b[i]!;
      }, false);
      if (left) {
        const recv = new Float64Array(2);
        await ic.reduce(null, ic.rank === 1 ? recv : null, mpi.SUM, ic.rank === 1 ? mpi.ROOT : mpi.PROC_NULL);
        const ordered = new Float64Array(1);
        await ic.reduce(null, ic.rank === 1 ? ordered : null, digits, ic.rank === 1 ? mpi.ROOT : mpi.PROC_NULL);
        return ic.rank === 1 ? [...recv, ...ordered] : null;
      }
      await ic.reduce(Float64Array.of(mpi.rank, 1), null, mpi.SUM, 1);
      await ic.reduce(Float64Array.of(ic.rank + 1), null, digits, 1);
      return null;
    });
    expect(res[1]).toEqual([3 + 4 + 5 + 6 + 7, 5, 12345]);
    expect(res.filter((x) => x !== null)).toHaveLength(1);
  });

  it('allreduce: each group gets the reduction of the other group\'s data (MPICH icallreduce)', async () => {
    const res = await run(async ({ mpi }) => {
      const { left, ic } = await halves(mpi);
      let errs = 0;
      for (let count = 1; count < 65000; count *= 2) {
        const send = Int32Array.from({ length: count }, (_, i) => (left ? i : -i));
        const recv = new Int32Array(count);
        await ic.allreduce(send, recv, mpi.SUM);
        for (let i = 0; i < count; i++) if (recv[i] !== (left ? -i : i) * ic.remoteSize) errs++;
      }
      const max = new Float64Array(1);
      await ic.allreduce(Float64Array.of(mpi.rank), max, mpi.MAX);
      return [errs, max[0]];
    });
    res.forEach((x, w) => expect(x).toEqual([0, w < 3 ? 7 : 2]));
  });

  it('allgather: every rank gets the other group\'s blocks in its rank order (blocks of 2 from the left, 3 from the right)', async () => {
    const res = await run(async ({ mpi }) => {
      const { left, ic } = await halves(mpi);
      const send = data(mpi.rank, left ? 2 : 3);
      const recv = new Int32Array(ic.remoteSize * (left ? 3 : 2));
      await ic.allgather(send, recv);
      return Array.from(recv);
    });
    res.forEach((x, w) => expect(x).toEqual(w < 3 ? RIGHT.flatMap((r) => [...data(r, 3)]) : LEFT.flatMap((r) => [...data(r, 2)])));
  });

  it('allgatherv: remote rank r\'s block lands at displs[r]; the gaps keep what they held', async () => {
    const res = await run(async ({ mpi }) => {
      const { left, ic } = await halves(mpi);
      // world rank w sends (w % 3) + 1 elements
      const send = data(mpi.rank, (mpi.rank % 3) + 1);
      const remote = left ? RIGHT : LEFT;
      const counts = remote.map((w) => (w % 3) + 1);
      const displs = counts.map((_, r) => counts.slice(0, r).reduce((a, b) => a + b, 0) + r);
      const recv = new Int32Array(displs[remote.length - 1]! + counts[remote.length - 1]! + 1).fill(-1);
      await ic.allgatherv(send, recv, counts, displs);
      return Array.from(recv);
    });
    res.forEach((x, w) => {
      const remote = w < 3 ? RIGHT : LEFT;
      const want: number[] = [];
      for (const r of remote) want.push(...data(r, (r % 3) + 1), -1);
      expect(x).toEqual(want);
    });
  });

  it('alltoall: block j to remote rank j, the left sending blocks of 2 and the right blocks of 3', async () => {
    const res = await run(async ({ mpi }) => {
      const { left, ic } = await halves(mpi);
      const ks = left ? 2 : 3;
      const kr = left ? 3 : 2;
      // element i of the block for remote rank j: world * 1000 + j * 10 + i
      const send = Int32Array.from({ length: ic.remoteSize * ks }, (_, e) => mpi.rank * 1000 + Math.floor(e / ks) * 10 + (e % ks));
      const recv = new Int32Array(ic.remoteSize * kr);
      await ic.alltoall(send, recv);
      return Array.from(recv);
    });
    res.forEach((x, w) => {
      const left = w < 3;
      const me = left ? w : w - 3;
      const [remote, kr] = left ? [RIGHT, 3] : [LEFT, 2];
      expect(x).toEqual(remote.flatMap((r) => Array.from({ length: kr }, (_, i) => r * 1000 + me * 10 + i)));
    });
  });

  it('alltoallv: each pair\'s own counts and displacements', async () => {
    const res = await run(async ({ mpi }) => {
      const { left, ic } = await halves(mpi);
      const me = ic.rank;
      // local rank a sends (a + b) % 3 elements to remote rank b, whichever side it is on
      const sendCounts = Array.from({ length: ic.remoteSize }, (_, b) => (me + b) % 3);
      const recvCounts = sendCounts;
      const at = (c: number[]): number[] => c.map((_, i) => c.slice(0, i).reduce((s, v) => s + v, 0));
      const send = Int32Array.from({ length: sendCounts.reduce((s, v) => s + v, 0) }, (_, e) => mpi.rank * 100 + e);
      const recv = new Int32Array(recvCounts.reduce((s, v) => s + v, 0));
      await ic.alltoallv(send, sendCounts, at(sendCounts), recv, recvCounts, at(recvCounts));
      return { left, me, recv: Array.from(recv) };
    });
    for (const x of res as { left: boolean; me: number; recv: number[] }[]) {
      const remote = x.left ? RIGHT : LEFT;
      const want: number[] = [];
      remote.forEach((w, b) => {
        // remote rank b's block for me starts after its blocks for my lower ranks
        let off = 0;
        for (let a = 0; a < x.me; a++) off += (b + a) % 3;
        for (let i = 0; i < (b + x.me) % 3; i++) want.push(w * 100 + off + i);
      });
      expect(x.recv).toEqual(want);
    }
  });

  it('gather and gatherv: the other group\'s blocks into the root, in its rank order', async () => {
    const res = await run(async ({ mpi }) => {
      const { left, ic } = await halves(mpi);
      if (left) {
        const root = ic.rank === 2;
        const all = root ? new Int32Array(2 * 5) : null;
        await ic.gather(null, all, root ? mpi.ROOT : mpi.PROC_NULL);
        // gatherv from the right: world rank w sends w - 2 elements, at displs with one-element gaps
        const counts = RIGHT.map((w) => w - 2);
        const displs = counts.map((_, r) => counts.slice(0, r).reduce((a, b) => a + b, 0) + r);
        const v = root ? new Int32Array(displs[4]! + counts[4]! + 1).fill(-1) : null;
        await ic.gatherv(null, v, root ? counts : null, root ? displs : null, root ? mpi.ROOT : mpi.PROC_NULL);
        // gatherv into the right's rank 0: left world rank w sends w + 1 elements
        await ic.gatherv(data(mpi.rank, mpi.rank + 1), null, null, null, 0);
        return root ? [Array.from(all!), Array.from(v!)] : null;
      }
      await ic.gather(data(mpi.rank, 2), null, 2);
      await ic.gatherv(data(mpi.rank, mpi.rank - 2), null, null, null, 2);
      const root = ic.rank === 0;
      const v = root ? new Int32Array(6) : null;
      await ic.gatherv(null, v, root ? [1, 2, 3] : null, root ? [0, 1, 3] : null, root ? mpi.ROOT : mpi.PROC_NULL);
      return root ? Array.from(v!) : null;
    });
    const wantV: number[] = [];
    for (const w of RIGHT) wantV.push(...data(w, w - 2), -1);
    expect(res[2]).toEqual([RIGHT.flatMap((w) => [...data(w, 2)]), wantV]);
    expect(res[3]).toEqual(LEFT.flatMap((w) => [...data(w, w + 1)]));
    expect(res.filter((x) => x !== null)).toHaveLength(2);
  });

  it('scatter and scatterv: the root\'s blocks to the other group\'s ranks', async () => {
    const res = await run(async ({ mpi }) => {
      const { left, ic } = await halves(mpi);
      if (!left) {
        const root = ic.rank === 4;
        await ic.scatter(root ? data(50, 3 * 2) : null, null, root ? mpi.ROOT : mpi.PROC_NULL);
        // scatterv to the left: rank r gets r + 1 elements from displs 0, 2, 5
        await ic.scatterv(root ? data(60, 9) : null, root ? [1, 2, 3] : null, root ? [0, 2, 5] : null, null, root ? mpi.ROOT : mpi.PROC_NULL);
        return null;
      }
      const block = new Int32Array(2);
      await ic.scatter(null, block, 4);
      const v = new Int32Array(ic.rank + 1);
      await ic.scatterv(null, null, null, v, 4);
      return [Array.from(block), Array.from(v)];
    });
    const all = data(50, 6);
    const v = data(60, 9);
    expect(res[0]).toEqual([[...all.slice(0, 2)], [...v.slice(0, 1)]]);
    expect(res[1]).toEqual([[...all.slice(2, 4)], [...v.slice(2, 4)]]);
    expect(res[2]).toEqual([[...all.slice(4, 6)], [...v.slice(5, 8)]]);
  });

  it('reduceScatter and reduceScatterBlock: the other group\'s reduction, scattered in blocks over this group', async () => {
    const res = await run(async ({ mpi }) => {
      const { left, ic } = await halves(mpi);
      // both sides reduce 6 elements: the left keeps blocks of 1, 2, 3, the right 2, 1, 1, 1, 1
      const counts = left ? [1, 2, 3] : [2, 1, 1, 1, 1];
      const recv = new Int32Array(counts[ic.rank]!);
      await ic.reduceScatter(data(mpi.rank, 6), recv, counts, mpi.SUM);
      // block form: 15 elements, 5 per left rank and 3 per right rank
      const block = new Int32Array(left ? 5 : 3);
      await ic.reduceScatterBlock(data(mpi.rank, 15), block, mpi.MAX);
      return [Array.from(recv), Array.from(block)];
    });
    const sum = (ws: number[]): number[] => Array.from({ length: 6 }, (_, i) => ws.reduce((s, w) => s + w * 100 + i, 0));
    const fromRight = sum(RIGHT);
    const fromLeft = sum(LEFT);
    const max = (w: number): number[] => [...data(w, 15)];
    expect(res[0]).toEqual([fromRight.slice(0, 1), max(7).slice(0, 5)]);
    expect(res[1]).toEqual([fromRight.slice(1, 3), max(7).slice(5, 10)]);
    expect(res[2]).toEqual([fromRight.slice(3, 6), max(7).slice(10, 15)]);
    const rightBlocks = [[0, 2], [2, 3], [3, 4], [4, 5], [5, 6]];
    rightBlocks.forEach(([a, b], r) => expect(res[3 + r]).toEqual([fromLeft.slice(a, b), max(2).slice(3 * r, 3 * r + 3)]));
  });

  it('nonblocking forms: an ibcast and an iallreduce in flight together, then an igather', async () => {
    const res = await run(async ({ mpi }) => {
      const { left, ic } = await halves(mpi);
      const buf = left ? new Int32Array(4) : ic.rank === 0 ? Int32Array.of(9, 8, 7, 6) : null;
      const b = ic.ibcast(buf, left ? 0 : ic.rank === 0 ? mpi.ROOT : mpi.PROC_NULL);
      const sum = new Int32Array(1);
      const a = ic.iallreduce(Int32Array.of(mpi.rank), sum, mpi.SUM);
      await mpi.waitAll([a, b]);
      const all = !left && ic.rank === 1 ? new Int32Array(3) : null;
      const g = ic.igather(left ? Int32Array.of(mpi.rank * 2) : null, all, left ? 1 : ic.rank === 1 ? mpi.ROOT : mpi.PROC_NULL);
      await g.wait();
      return [buf && Array.from(buf), sum[0], all && Array.from(all)];
    });
    res.forEach((x, w) => {
      const left = w < 3;
      expect(x).toEqual([left ? [9, 8, 7, 6] : w === 3 ? [9, 8, 7, 6] : null, left ? 25 : 3, w === 4 ? [0, 2, 4] : null]);
    });
  });

  it('xc30 (dragonfly): allreduce, alltoall and a merge over groups of 5 and 3', async () => {
    const res = await run(
      async ({ mpi }) => {
        const { left, ic } = await halves(mpi, 5);
        const sum = new Float64Array(2);
        await ic.allreduce(Float64Array.of(mpi.rank, 1), sum, mpi.SUM);
        const recv = new Int32Array(ic.remoteSize);
        await ic.alltoall(Int32Array.from({ length: ic.remoteSize }, (_, j) => mpi.rank * 10 + j), recv);
        const m = await ic.intercommMerge(left);
        return [Array.from(sum), Array.from(recv), m.rank];
      },
      { machine: 'xc30' },
    );
    res.forEach((x, w) => {
      const left = w < 5;
      const me = left ? w : w - 5;
      const remote = left ? [5, 6, 7] : [0, 1, 2, 3, 4];
      expect(x).toEqual([[remote.reduce((s, r) => s + r, 0), remote.length], remote.map((r) => r * 10 + me), left ? 3 + me : me]);
    });
  });

  it('traces and metrics name the calls (MPI_Intercomm_create, MPI_Intercomm_merge, the collectives on the intercommunicator)', async () => {
    const r = await simulate({
      machine: 'xe6',
      nodes: 4,
      ppn: 2,
      metrics: true,
      program: async ({ mpi }) => {
        const { left, ic } = await halves(mpi);
        await ic.allreduce(Int32Array.of(1), new Int32Array(1), mpi.SUM);
        await ic.intercommMerge(left);
      },
    });
    const calls = Object.fromEntries(r.metrics!.calls.map((c) => [c.name, c.calls]));
    expect(calls['MPI_Intercomm_create']).toBe(8);
    expect(calls['MPI_Intercomm_merge']).toBe(8);
    expect(calls['MPI_Allreduce']).toBe(8);
  });
});

/** Group layouts of MPI_COMM_WORLD's 8 ranks: each world rank's split (color, key). */
