/**
 * Communicators made from groups alone (MPI 4.0): commCreateFromGroup and
 * intercommCreateFromGroups, with real data over what they make, calls of one tag pairing up in
 * order, the error handler they are given, and their errors.
 */
import { describe, expect, it } from 'vitest';
import { simulate } from '../runtime/simulate.ts';

describe('commCreateFromGroup', () => {
  it('makes a communicator of the group only its ranks call, with the handler given; two calls of one tag are two communicators', async () => {
    const r = await simulate({
      machine: 'xc30',
      nodes: 6,
      program: async ({ mpi }) => {
        if (mpi.rank % 2 === 1) return null;
        const evens = mpi.group.incl([4, 2, 0]);
        const a = await mpi.commCreateFromGroup(evens, 'org.phit.evens', mpi.INFO_NULL, mpi.ERRORS_RETURN);
        const b = await mpi.commCreateFromGroup(evens, 'org.phit.evens');
        const sum = new Int32Array(1);
        await a.allreduce(Int32Array.of(mpi.rank), sum, mpi.SUM);
        // a message on b does not match a receive on a: b's goes first, a's receive gets a's message
        const got = new Int32Array(2);
        if (a.rank === 0) {
          await b.send(Int32Array.of(7), 1, 0);
          await a.send(Int32Array.of(9), 1, 0);
        } else if (a.rank === 1) {
          await a.recv(got.subarray(0, 1), 0, 0);
          await b.recv(got.subarray(1, 2), 0, 0);
        }
        return { rank: a.rank, size: a.size, sum: sum[0], got: [...got], handlers: [a.getErrhandler() === mpi.ERRORS_RETURN, b.getErrhandler() === mpi.ERRORS_ARE_FATAL], cmp: a.compare(b) };
      },
    });
    const by = r.rankResults as ({ rank: number; size: number; sum: number; got: number[]; handlers: boolean[]; cmp: string } | null)[];
    expect(by.map((x) => x?.rank ?? null)).toEqual([2, null, 1, null, 0, null]);
    for (const w of [0, 2, 4]) {
      expect(by[w]!.size).toBe(3);
      expect(by[w]!.sum).toBe(6);
      expect(by[w]!.handlers).toEqual([true, true]);
      expect(by[w]!.cmp).toBe('congruent');
    }
    expect(by[2]!.got).toEqual([9, 7]);
  });

  it('a rank outside the group, a tag that is no string, a bad handler are named', async () => {
    const r = await simulate({
      machine: 'xe6',
      nodes: 2,
      program: async ({ mpi }) => {
        mpi.setErrhandler(mpi.ERRORS_RETURN);
        const out: string[] = [];
        for (const f of [
          () => mpi.commCreateFromGroup(mpi.group.incl([1 - mpi.rank]), 't'),
          () => mpi.commCreateFromGroup(mpi.group, 5 as never),
          () => mpi.commCreateFromGroup(mpi.group, 't', null, 'fatal' as never),
        ]) {
          try {
            await f();
            out.push('no error');
          } catch (e) {
            out.push((e as Error).message);
          }
        }
        return out;
      },
    });
    expect(r.rankResults[0]).toEqual([
      "MPI_ERR_GROUP: commCreateFromGroup: only the group's ranks call it, and world rank 0 is not in the group [1]",
      'MPI_ERR_TAG: commCreateFromGroup: stringtag must be a string, got number',
      expect.stringMatching(/^MPI_ERR_ARG: commCreateFromGroup: errhandler must be mpi\.ERRORS_ARE_FATAL, .*got string$/),
    ]);
  });
});

describe('intercommCreateFromGroups', () => {
  it('joins two disjoint groups: each side sees the other as remote, messages cross, merge orders them', async () => {
    const r = await simulate({
      machine: 'sc5832',
      nodes: 5,
      program: async ({ mpi }) => {
        // world ranks 3, 1 against 0, 4; rank 2 takes no part
        const a = mpi.group.incl([3, 1]);
        const b = mpi.group.incl([0, 4]);
        if (mpi.rank === 2) return null;
        const inA = mpi.rank === 3 || mpi.rank === 1;
        const ic = await mpi.intercommCreateFromGroups(inA ? a : b, 0, inA ? b : a, 1, 'pair');
        const got = new Int32Array(ic.remoteSize);
        await Promise.all([...Array.from({ length: ic.remoteSize }, (_, j) => ic.send(Int32Array.of(100 * mpi.rank + j), j, 3)), ...Array.from({ length: ic.remoteSize }, (_, j) => ic.recv(got.subarray(j, j + 1), j, 3))]);
        const merged = await ic.intercommMerge(inA);
        return { rank: ic.rank, remote: ic.remoteGroup.ranks, got: [...got], inter: ic.testInter(), merged: merged.group.ranks };
      },
    });
    const x = r.rankResults as ({ rank: number; remote: number[]; got: number[]; inter: boolean; merged: number[] } | null)[];
    expect(x[2]).toBeNull();
    expect(x[3]).toEqual({ rank: 0, remote: [0, 4], got: [0, 400], inter: true, merged: [0, 4, 3, 1] });
    expect(x[1]).toEqual({ rank: 1, remote: [0, 4], got: [1, 401], inter: true, merged: [0, 4, 3, 1] });
    expect(x[0]).toEqual({ rank: 0, remote: [3, 1], got: [300, 100], inter: true, merged: [0, 4, 3, 1] });
    expect(x[4]).toEqual({ rank: 1, remote: [3, 1], got: [301, 101], inter: true, merged: [0, 4, 3, 1] });
  });

  it('overlapping groups, a leader outside its group, a rank outside its local group are named', async () => {
    const r = await simulate({
      machine: 'xe6',
      nodes: 2,
      program: async ({ mpi }) => {
        mpi.setErrhandler(mpi.ERRORS_RETURN);
        const me = mpi.group.incl([mpi.rank]);
        const other = mpi.group.incl([1 - mpi.rank]);
        const out: string[] = [];
        for (const f of [
          () => mpi.intercommCreateFromGroups(me, 0, mpi.group, 0, 't'),
          () => mpi.intercommCreateFromGroups(me, 0, other, 2, 't'),
          () => mpi.intercommCreateFromGroups(other, 0, me, 0, 't'),
        ]) {
          try {
            await f();
            out.push('no error');
          } catch (e) {
            out.push((e as Error).message);
          }
        }
        return out;
      },
    });
    expect(r.rankResults[0]).toEqual([
      'MPI_ERR_GROUP: intercommCreateFromGroups: world rank 0 is in both localGroup and remoteGroup: the groups must be disjoint',
      'MPI_ERR_RANK: intercommCreateFromGroups: remoteLeader=2 is not a rank of its group (0..0)',
      'MPI_ERR_GROUP: intercommCreateFromGroups: world rank 0 is not in localGroup [1]: the ranks of each group pass their own group as localGroup',
    ]);
  });
});
