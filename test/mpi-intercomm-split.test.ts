/**
 * MPI_Comm_split and MPI_Comm_create on an intercommunicator (MPI 4.1 §7.4.2, communicator constructors): the
 * result joins a subgroup of each group; its ranks, sizes and messages are checked against the
 * subgroups worked out here from the colors and groups passed, and the errors are named.
 */
import { describe, expect, it } from 'vitest';
import type { Mpi } from '../runtime/mpi/mpi.ts';
import { simulate } from '../runtime/simulate.ts';

/** World split 3 | 5 into an intercommunicator (leaders: world ranks 0 and 3). */
async function halves(mpi: Mpi) {
  const left = mpi.rank < 3;
  const half = (await mpi.split(left ? 0 : 1, mpi.rank))!;
  const ic = await half.intercommCreate(0, mpi, left ? 3 : 0, 7);
  return { left, ic };
}

describe('split on an intercommunicator', () => {
  it('each color joins its ranks of both groups, ordered by key; a color one group lacks gives null', async () => {
    const r = await simulate({
      machine: 'xe6',
      nodes: 4,
      ppn: 2,
      program: async ({ mpi }) => {
        const { ic } = await halves(mpi);
        // colors: world ranks 0-7 -> 0 1 0 | 0 1 1 2 0 ; key: the reverse of the world rank
        const color = [0, 1, 0, 0, 1, 1, 2, 0][mpi.rank]!;
        const sub = await ic.split(color, 10 - mpi.rank);
        if (sub === null) return { w: mpi.rank, sub: null };
        // every rank sends its world rank to each remote rank, and receives theirs
        const got = new Int32Array(sub.remoteSize);
        const reqs = [];
        for (let j = 0; j < sub.remoteSize; j++) reqs.push(sub.isend(Int32Array.of(mpi.rank), j, 5));
        for (let j = 0; j < sub.remoteSize; j++) await sub.recv(got.subarray(j, j + 1), j, 5);
        await mpi.waitAll(reqs);
        return { w: mpi.rank, sub: { inter: sub.testInter(), rank: sub.rank, size: sub.size, remote: [...got], remoteGroup: sub.remoteGroup.ranks } };
      },
    });
    const res = new Map(r.rankResults.map((x) => [x.w, x.sub]));
    // color 0: left 2, 0 (by key, descending world rank) against right 7, 3
    expect(res.get(0)).toEqual({ inter: true, rank: 1, size: 2, remote: [7, 3], remoteGroup: [7, 3] });
    expect(res.get(2)).toEqual({ inter: true, rank: 0, size: 2, remote: [7, 3], remoteGroup: [7, 3] });
    expect(res.get(3)).toEqual({ inter: true, rank: 1, size: 2, remote: [2, 0], remoteGroup: [2, 0] });
    expect(res.get(7)).toEqual({ inter: true, rank: 0, size: 2, remote: [2, 0], remoteGroup: [2, 0] });
    // color 1: left 1 against right 5, 4
    expect(res.get(1)).toEqual({ inter: true, rank: 0, size: 1, remote: [5, 4], remoteGroup: [5, 4] });
    expect(res.get(4)).toEqual({ inter: true, rank: 1, size: 2, remote: [1], remoteGroup: [1] });
    // color 2 is only on the right
    expect(res.get(6)).toBeNull();
  });

  it('UNDEFINED gives null; a bad color is MPI_ERR_ARG naming it', async () => {
    const r = await simulate({
      machine: 'xe6',
      nodes: 4,
      ppn: 2,
      program: async ({ mpi }) => {
        const { ic } = await halves(mpi);
        const sub = await ic.split(mpi.rank === 0 ? mpi.UNDEFINED : 0, 0);
        ic.setErrhandler(mpi.ERRORS_RETURN);
        let err = '';
        try {
          await ic.split(-3, 0);
        } catch (e) {
          err = (e as Error).message;
        }
        return { none: sub === null, size: sub?.size ?? 0, err };
      },
    });
    expect(r.rankResults[0]!.none).toBe(true);
    expect(r.rankResults[1]!.size).toBe(2);
    expect(r.rankResults[5]!.size).toBe(5);
    expect(r.rankResults[0]!.err).toBe('MPI_ERR_ARG: split: color=-3 must be a non-negative integer or mpi.UNDEFINED');
  });
});

describe('create on an intercommunicator', () => {
  it('joins the subgroups each group passes, in the group order; ranks outside get null; an empty side gives null everywhere', async () => {
    const r = await simulate({
      machine: 'xe6',
      nodes: 4,
      ppn: 2,
      program: async ({ mpi }) => {
        const { left, ic } = await halves(mpi);
        // left keeps its ranks 2, 0; right keeps its ranks 4, 1 (world 7, 4)
        const sub = await ic.create(ic.group.incl(left ? [2, 0] : [4, 1]));
        let out = null;
        if (sub !== null) {
          const got = new Int32Array(sub.remoteSize);
          await Promise.all([...Array.from({ length: sub.remoteSize }, (_, j) => sub.send(Int32Array.of(mpi.rank), j, 1)), ...Array.from({ length: sub.remoteSize }, (_, j) => sub.recv(got.subarray(j, j + 1), j, 1))]);
          out = { rank: sub.rank, remote: [...got], cmp: ic.compare(sub) };
        }
        const dup = await ic.create(ic.group);
        const empty = await ic.create(left ? ic.group : ic.group.incl([]));
        return { w: mpi.rank, out, dupCmp: dup ? ic.compare(dup) : null, empty: empty === null };
      },
    });
    const res = new Map(r.rankResults.map((x) => [x.w, x]));
    expect(res.get(2)!.out).toEqual({ rank: 0, remote: [7, 4], cmp: 'unequal' });
    expect(res.get(0)!.out).toEqual({ rank: 1, remote: [7, 4], cmp: 'unequal' });
    expect(res.get(7)!.out).toEqual({ rank: 0, remote: [2, 0], cmp: 'unequal' });
    expect(res.get(4)!.out).toEqual({ rank: 1, remote: [2, 0], cmp: 'unequal' });
    for (const w of [1, 3, 5, 6]) expect(res.get(w)!.out).toBeNull();
    for (const x of r.rankResults) {
      expect(x.dupCmp).toBe('congruent');
      expect(x.empty).toBe(true);
    }
  });

  it('a rank outside the local group, or ranks of one group passing different groups, is MPI_ERR_GROUP naming them', async () => {
    const r = await simulate({
      machine: 'xe6',
      nodes: 4,
      ppn: 2,
      program: async ({ mpi }) => {
        mpi.setErrhandler(mpi.ERRORS_RETURN);
        const { left, ic } = await halves(mpi);
        ic.setErrhandler(mpi.ERRORS_RETURN);
        try {
          await ic.create(mpi.group.incl([left ? 5 : 0]));
        } catch (e) {
          return (e as Error).message;
        }
        return '';
      },
    });
    expect(r.rankResults[0]).toBe('MPI_ERR_GROUP: create: world rank 5 of the group is not in the local group of the intercommunicator (world ranks 0-2)');
    expect(r.rankResults[3]).toBe('MPI_ERR_GROUP: create: world rank 0 of the group is not in the local group of the intercommunicator (world ranks 3-7)');
    // fatal by default: the ranks of the right group pass their own rank alone
    const msg = String(
      await simulate({
        machine: 'xe6',
        nodes: 4,
        ppn: 2,
        program: async ({ mpi }) => {
          const { left, ic } = await halves(mpi);
          await ic.create(ic.group.incl([left ? 0 : ic.rank]));
        },
      }).then(
        () => 'no error',
        (e: unknown) => e,
      ),
    );
    expect(msg).toMatch(/MPI_ERR_GROUP: create \(collective call \d+ on the intercommunicator .*\): rank \d of group \[3-7\] passes the group of world ranks \[\d\] but rank \d of group \[3-7\] passes \[\d\]: the ranks of one group pass the same group/);
  });
});
