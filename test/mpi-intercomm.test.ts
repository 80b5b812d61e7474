import { describe, expect, it } from 'vitest';
import type { Comm, InterComm, Mpi, MpiError } from '../runtime/mpi/mpi.ts';
import type { RankContext } from '../runtime/rank.ts';
import { simulate, type SimulateOptions } from '../runtime/simulate.ts';
import { rejection } from './helpers.ts';

type Program = (ctx: RankContext) => Promise<unknown>;

/** 8 ranks on xe6 (4 nodes, 2 per node) unless told otherwise. */
async function run(program: Program, opts: Partial<SimulateOptions> = {}): Promise<readonly unknown[]> {
  const r = await simulate({ machine: 'xe6', nodes: 4, ppn: 2, ...opts, program });
  return r.rankResults;
}

async function failure(program: Program, opts: Partial<SimulateOptions> = {}): Promise<string> {
  return String(await rejection(simulate({ machine: 'xe6', nodes: 4, ppn: 2, ...opts, program })));
}

/**
 * MPI_COMM_WORLD split into the left group, world ranks 0..cut-1, and the right group, the
 * others, joined by an intercommunicator whose leaders are rank `leader` of each group.
 */
async function halves(mpi: Mpi, cut = 3, leader = 0): Promise<{ left: boolean; half: Comm; ic: InterComm }> {
  const left = mpi.rank < cut;
  const half = (await mpi.split(left ? 0 : 1, mpi.rank))!;
  const ic = await half.intercommCreate(leader, mpi, left ? cut + leader : leader, 7);
  return { left, half, ic };
}

/** World ranks of the left (0..2) and right (3..7) groups of `halves`. */
const LEFT = [0, 1, 2];
const RIGHT = [3, 4, 5, 6, 7];

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

describe('point-to-point on an intercommunicator', () => {
  it('ranks name the remote group; wildcards match any remote rank, and status.source is a remote rank', async () => {
    const res = await run(async ({ mpi }) => {
      const { left, ic } = await halves(mpi);
      if (left) {
        // left rank r sends one message to every right rank j, tag 10 + r, data [world rank, j]
        for (let j = 0; j < ic.remoteSize; j++) await ic.send(Int32Array.of(mpi.rank, j), j, 10 + ic.rank);
        await ic.send(new Int32Array(1), mpi.PROC_NULL, 0);
        return null;
      }
      const got: number[][] = [];
      for (let k = 0; k < ic.remoteSize; k++) {
        const buf = new Int32Array(2);
        const st = await ic.recv(buf, mpi.ANY_SOURCE, mpi.ANY_TAG);
        got.push([st.source, st.tag, buf[0]!, buf[1]!]);
      }
      got.sort((a, b) => a[0]! - b[0]!);
      return got;
    });
    for (let w = 3; w < 8; w++) {
      const j = w - 3;
      expect(res[w]).toEqual(LEFT.map((world, r) => [r, 10 + r, world, j]));
    }
  });

  it('a receive from a named remote rank, probes and nonblocking calls see remote ranks', async () => {
    const res = await run(async ({ mpi }) => {
      const { left, ic } = await halves(mpi);
      if (!left) {
        if (ic.rank < 3) await ic.send(Float64Array.of(ic.rank + 0.5, mpi.rank), ic.rank, 4);
        return null;
      }
      // left rank r hears from right rank r only
      const st = await ic.probe(mpi.ANY_SOURCE, 4, 8);
      const buf = new Float64Array(2);
      const req = ic.irecv(buf, ic.rank, 4);
      const done = await req.wait();
      return [st.source, st.count, done.source, ...buf];
    });
    for (let r = 0; r < 3; r++) expect(res[r]).toEqual([r, 2, r, r + 0.5, RIGHT[r]]);
  });

  it('messages of the intercommunicator never match a receive on MPI_COMM_WORLD or on the local group, nor the other way', async () => {
    const res = await run(async ({ mpi }) => {
      const { half, ic } = await halves(mpi);
      if (mpi.rank === 0) {
        await mpi.send(Int32Array.of(100), 3, 6); // world rank 3
        await ic.send(Int32Array.of(200), 0, 6); // right rank 0, world rank 3
        await half.send(Int32Array.of(300), 1, 6); // left rank 1, world rank 1
      }
      if (mpi.rank === 3) {
        const a = new Int32Array(1);
        const b = new Int32Array(1);
        const rb = ic.irecv(b, mpi.ANY_SOURCE, mpi.ANY_TAG);
        const sa = await mpi.recv(a, mpi.ANY_SOURCE, mpi.ANY_TAG);
        const sb = await rb.wait();
        return [a[0], sa.source, b[0], sb.source];
      }
      if (mpi.rank === 1) {
        const a = new Int32Array(1);
        const st = await half.recv(a, mpi.ANY_SOURCE, 6);
        return [a[0], st.source];
      }
      return null;
    });
    expect(res[3]).toEqual([100, 0, 200, 0]);
    expect(res[1]).toEqual([300, 0]);
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

/** The values rank `w` (world) contributes: `n` elements w * 100 + i. */
function data(w: number, n: number): Int32Array {
  return Int32Array.from({ length: n }, (_, i) => w * 100 + i);
}

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
const LAYOUTS: Record<string, (w: number) => [number, number]> = {
  'halves of 4': (w) => [w < 4 ? 0 : 1, w],
  '1 and 7': (w) => [w === 0 ? 0 : 1, w],
  'even and odd ranks, each in reverse order': (w) => [w % 2, -w],
};

/** The two groups of a layout, as world ranks in group rank order (split's order: key, then rank). */
function groupsOf(layout: (w: number) => [number, number]): [number[], number[]] {
  const g: [number[], number[]] = [[], []];
  for (let w = 0; w < 8; w++) g[layout(w)[0]]!.push(w);
  for (const m of g) m.sort((a, b) => layout(a)[1] - layout(b)[1] || a - b);
  return g;
}

describe('other group layouts: one rank against seven, interleaved groups in reverse order', () => {
  for (const [name, layout] of Object.entries(LAYOUTS)) {
    it(`${name}: remote ranks map to the right processes in point-to-point, collectives and merge`, async () => {
      const groups = groupsOf(layout);
      const res = await run(async ({ mpi }) => {
        const [color, key] = layout(mpi.rank);
        const half = (await mpi.split(color, key))!;
        const other = groups[1 - color]!;
        const ic = await half.intercommCreate(0, mpi, other[0]!, 5);
        const m = ic.remoteSize;
        // every rank sends its world rank to every remote rank; receives name their source
        const from = new Int32Array(m);
        const reqs = [];
        for (let j = 0; j < m; j++) reqs.push(ic.isend(Int32Array.of(mpi.rank), j, 1));
        for (let k = 0; k < m; k++) {
          const b = new Int32Array(1);
          const st = await ic.recv(b, mpi.ANY_SOURCE, 1);
          from[st.source] = b[0]!;
        }
        await mpi.waitAll(reqs);
        const sum = new Int32Array(1);
        await ic.allreduce(Int32Array.of(mpi.rank), sum, mpi.SUM);
        const all = new Int32Array(m);
        await ic.allgather(Int32Array.of(mpi.rank), all);
        const a2a = new Int32Array(m);
        await ic.alltoall(Int32Array.from({ length: m }, (_, j) => mpi.rank * 100 + j), a2a);
        // the last rank of group 1 broadcasts and gathers
        const rootHere = color === 1 && ic.rank === ic.size - 1;
        const root = color === 1 ? (rootHere ? mpi.ROOT : mpi.PROC_NULL) : m - 1;
        const b = color === 0 ? new Int32Array(2) : rootHere ? Int32Array.of(mpi.rank, -mpi.rank) : null;
        await ic.bcast(b, root);
        const gathered = rootHere ? new Int32Array(m) : null;
        await ic.gather(color === 0 ? Int32Array.of(mpi.rank * 3) : null, gathered, root);
        const merged = await ic.intercommMerge(false);
        return { from: [...from], sum: sum[0], all: [...all], a2a: [...a2a], b: b && [...b], gathered: gathered && [...gathered], merged: merged.rank };
      });
      const [g0, g1] = groups;
      const low = g0[0]! < g1[0]! ? 0 : 1;
      const order = low === 0 ? [...g0, ...g1] : [...g1, ...g0];
      const root = g1[g1.length - 1]!;
      res.forEach((x, w) => {
        const color = layout(w)[0];
        const [mine, other] = color === 0 ? [g0, g1] : [g1, g0];
        const me = mine.indexOf(w);
        expect(x).toEqual({
          from: other,
          sum: other.reduce((s, v) => s + v, 0),
          all: other,
          a2a: other.map((v) => v * 100 + me),
          b: color === 0 ? [root, -root] : w === root ? [root, -root] : null,
          gathered: w === root ? g0.map((v) => v * 3) : null,
          merged: order.indexOf(w),
        });
      });
    });
  }
});

describe('errors on intercommunicators', () => {
  it('intercommCreate: a local leader out of range, or ranks of one group passing different leaders or tags', async () => {
    expect(
      await failure(async ({ mpi }) => {
        const half = (await mpi.split(mpi.rank < 3 ? 0 : 1, 0))!;
        await half.intercommCreate(5, mpi, 0, 7);
      }),
    ).toMatch(/MPI_ERR_RANK: intercommCreate: localLeader=5 is not a rank of the local communicator \(0\.\.[24]\)/);
    expect(
      await failure(async ({ mpi }) => {
        const left = mpi.rank < 3;
        const half = (await mpi.split(left ? 0 : 1, 0))!;
        await half.intercommCreate(left && half.rank === 2 ? 1 : 0, mpi, left ? 3 : 0, 7);
      }),
    ).toMatch(/MPI_ERR_RANK: intercommCreate \(collective call \d+ on .*\): rank \d passes localLeader=\d but rank \d passes \d/);
    expect(
      await failure(async ({ mpi }) => {
        const left = mpi.rank < 3;
        const half = (await mpi.split(left ? 0 : 1, 0))!;
        await half.intercommCreate(0, mpi, left ? 3 : 0, !left && half.rank === 4 ? 8 : 7);
      }),
    ).toMatch(/MPI_ERR_TAG: intercommCreate \(collective call \d+ on .*\): rank \d passes tag=\d but rank \d passes \d/);
  });

  it('intercommCreate: the two leaders passing different tags, a remote leader out of range or the leader itself, a peer that is no communicator', async () => {
    expect(
      await failure(async ({ mpi }) => {
        const left = mpi.rank < 3;
        const half = (await mpi.split(left ? 0 : 1, 0))!;
        await half.intercommCreate(0, mpi, left ? 3 : 0, left ? 7 : 8);
      }),
    ).toMatch(/MPI_ERR_TAG: intercommCreate: this leader \(world rank \d\) passes tag=\d but the remote leader \(world rank \d\) passed tag=\d/);
    expect(
      await failure(async ({ mpi }) => {
        const left = mpi.rank < 3;
        const half = (await mpi.split(left ? 0 : 1, 0))!;
        await half.intercommCreate(0, mpi, left ? 8 : 0, 7);
      }),
    ).toMatch(/MPI_ERR_RANK: intercommCreate: remoteLeader=8 is not a rank of peerComm \(0\.\.7\)/);
    expect(
      await failure(async ({ mpi }) => {
        const left = mpi.rank < 3;
        const half = (await mpi.split(left ? 0 : 1, 0))!;
        await half.intercommCreate(0, mpi, left ? 0 : 3, 7);
      }),
    ).toMatch(/MPI_ERR_RANK: intercommCreate: remoteLeader=0 is this rank, the local leader/);
    expect(
      await failure(async ({ mpi }) => {
        const half = (await mpi.split(mpi.rank < 3 ? 0 : 1, 0))!;
        await half.intercommCreate(0, null, 3, 7);
      }),
    ).toMatch(/MPI_ERR_COMM: intercommCreate: peerComm must be an intracommunicator holding both leaders, got null/);
  });

  it('point-to-point with a rank outside the remote group', async () => {
    expect(
      await failure(async ({ mpi }) => {
        const { left, ic } = await halves(mpi);
        if (left) await ic.send(new Int32Array(1), 5, 0);
      }),
    ).toMatch(/MPI_ERR_RANK: send: dest=5 is not a rank of the remote group \(0\.\.4 or mpi\.PROC_NULL\)/);
    expect(
      await failure(async ({ mpi }) => {
        const { left, ic } = await halves(mpi);
        if (!left) await ic.recv(new Int32Array(1), 3, 0);
      }),
    ).toMatch(/MPI_ERR_RANK: recv: source=3 is not a rank of the remote group \(0\.\.2, mpi\.ANY_SOURCE or mpi\.PROC_NULL\)/);
  });

  it('calls MPI defines on intracommunicators only fail with MPI_ERR_COMM', async () => {
    const res = await run(async ({ mpi }) => {
      const { ic } = await halves(mpi);
      ic.setErrhandler(mpi.ERRORS_RETURN);
      const intra = ic as unknown as Comm;
      const out: string[] = [];
      const attempts: (() => unknown)[] = [
        () => intra.cartCreate([2], [false]),
        () => intra.graphCreate([1, 2], [1, 0]),
        () => intra.distGraphCreateAdjacent([], null, [], null),
        () => intra.neighborAllgather(new Int32Array(1), new Int32Array(1)),
        () => intra.scan(new Int32Array(1), new Int32Array(1), mpi.SUM),
        () => intra.winCreate(new Int32Array(1)),
        () => intra.createGroup(mpi.group),
        () => intra.splitType(mpi.COMM_TYPE_SHARED),
      ];
      for (const f of attempts) {
        try {
          await f();
          out.push('no error');
        } catch (e) {
          out.push((e as MpiError).message);
        }
      }
      return out;
    });
    expect(res[0]).toEqual([
      expect.stringMatching(/^MPI_ERR_COMM: cartCreate: the communicator is an intercommunicator; cartCreate takes an intracommunicator/),
      expect.stringMatching(/^MPI_ERR_COMM: graphCreate: /),
      expect.stringMatching(/^MPI_ERR_COMM: distGraphCreateAdjacent: /),
      expect.stringMatching(/^MPI_ERR_COMM: neighborAllgather: /),
      expect.stringMatching(/^MPI_ERR_COMM: scan: /),
      expect.stringMatching(/^MPI_ERR_COMM: winCreate: /),
      expect.stringMatching(/^MPI_ERR_COMM: createGroup: /),
      expect.stringMatching(/^MPI_ERR_COMM: splitType: phit does not implement splitType on intercommunicators/),
    ]);
    // fatal by default
    expect(
      await failure(async ({ mpi }) => {
        const { ic } = await halves(mpi);
        await (ic as unknown as Comm).cartCreate([2], [false]);
      }),
    ).toMatch(/MPI_ERR_COMM: cartCreate: the communicator is an intercommunicator/);
  });

  it('root arguments against MPI\'s conventions', async () => {
    // a root that is neither ROOT, PROC_NULL nor a remote rank
    expect(
      await failure(async ({ mpi }) => {
        const { ic } = await halves(mpi);
        await ic.bcast(new Int32Array(1), 7);
      }),
    ).toMatch(/MPI_ERR_ROOT: bcast: root=7 must be mpi\.ROOT .* or the root's rank in the remote group \(0\.\.[24]\)/);
    // two ranks of one group pass ROOT
    expect(
      await failure(async ({ mpi }) => {
        const { left, ic } = await halves(mpi);
        await ic.bcast(new Int32Array(1), left ? (ic.rank < 2 ? mpi.ROOT : mpi.PROC_NULL) : 0);
      }),
    ).toMatch(/MPI_ERR_ROOT: bcast \(collective call \d+ on the intercommunicator .*\): rank [01] of group \[0-2\] and rank [01] of group \[0-2\] both pass root=mpi\.ROOT/);
    // the other group names a rank that passes PROC_NULL
    expect(
      await failure(async ({ mpi }) => {
        const { left, ic } = await halves(mpi);
        await ic.reduce(left ? null : new Int32Array(1), left && ic.rank === 0 ? new Int32Array(1) : null, mpi.SUM, left ? (ic.rank === 0 ? mpi.ROOT : mpi.PROC_NULL) : 1);
      }),
    ).toMatch(/MPI_ERR_ROOT: reduce .*: rank \d of group \[3-7\] passes root=1 but (the root is rank 0 of group \[0-2\], which passes mpi\.ROOT|that rank passes mpi\.PROC_NULL, not mpi\.ROOT)/);
    // both groups name a root in the other
    expect(
      await failure(async ({ mpi }) => {
        const { ic } = await halves(mpi);
        await ic.gather(new Int32Array(1), new Int32Array(5), 0);
      }),
    ).toMatch(/MPI_ERR_ROOT: gather .*: each names a root in the other's group, so neither group holds it/);
    // both groups pass ROOT/PROC_NULL
    expect(
      await failure(async ({ mpi }) => {
        const { ic } = await halves(mpi);
        await ic.bcast(new Int32Array(1), ic.rank === 0 ? mpi.ROOT : mpi.PROC_NULL);
      }),
    ).toMatch(/MPI_ERR_ROOT: bcast .*: only the root's group passes mpi\.ROOT or mpi\.PROC_NULL/);
  });

  it('counts that do not pair up across the groups, IN_PLACE, the long form, merge with two high values in a group', async () => {
    expect(
      await failure(async ({ mpi }) => {
        const { left, ic } = await halves(mpi);
        await ic.allgather(new Int32Array(2), new Int32Array(ic.remoteSize * (left ? 3 : 1)));
      }),
    ).toMatch(/MPI_ERR_COUNT: allgather .*: rank \d of group \[\d-\d\] sends \d elements but rank \d of group \[\d-\d\] receives \d from each remote rank/);
    expect(
      await failure(async ({ mpi }) => {
        const { ic } = await halves(mpi);
        await ic.allreduce(mpi.IN_PLACE as never, new Int32Array(1), mpi.SUM);
      }),
    ).toMatch(/MPI_ERR_BUFFER: allreduce: sendBuf may not be mpi\.IN_PLACE on an intercommunicator/);
    expect(
      await failure(async ({ mpi }) => {
        const { left, ic } = await halves(mpi);
        const bcast = ic.bcast as unknown as (...a: unknown[]) => Promise<void>;
        await bcast.call(ic, new Int32Array(2), 2, mpi.INT, left ? 0 : 0);
      }),
    ).toMatch(/MPI_ERR_ARG: bcast: on an intercommunicator only the short form \(typed arrays, no options\) is available; got 4 arguments, expected 2/);
    expect(
      await failure(async ({ mpi }) => {
        const { ic } = await halves(mpi);
        await ic.intercommMerge(ic.rank === 1);
      }),
    ).toMatch(/MPI_ERR_ARG: intercommMerge .*: rank \d of group \[\d-\d\] passes high=(true|false) but rank \d of group \[\d-\d\] passes high=(true|false): the ranks of one group pass the same value/);
  });

  it('a collective only one group calls ends the run naming the ranks in it by group', async () => {
    expect(
      await failure(async ({ mpi }) => {
        const { left, ic } = await halves(mpi);
        if (left) await ic.barrier();
      }),
    ).toMatch(/MPI_ERR_OTHER: barrier \(collective call 1 on the intercommunicator of context \d+ \(groups \[0-2\] and \[3-7\]\)\) was called by ranks 0-2 of group \[0-2\] but not by ranks 0-4 of group \[3-7\]: rank 0 of group \[3-7\] finished its program/);
  });

  it('the intercommunicator inherits the local communicator\'s error handler: under ERRORS_RETURN the program goes on', async () => {
    const res = await run(async ({ mpi }) => {
      const left = mpi.rank < 3;
      const half = (await mpi.split(left ? 0 : 1, 0))!;
      half.setErrhandler(mpi.ERRORS_RETURN);
      const ic = await half.intercommCreate(0, mpi, left ? 3 : 0, 7);
      let cls = 'none';
      try {
        await ic.send(new Int32Array(1), 9, 0);
      } catch (e) {
        cls = (e as MpiError).errorClass;
      }
      const sum = new Int32Array(1);
      await ic.allreduce(Int32Array.of(1), sum, mpi.SUM);
      return [cls, sum[0]];
    });
    res.forEach((x, w) => expect(x).toEqual(['MPI_ERR_RANK', w < 3 ? 5 : 3]));
  });
});
