import { describe, expect, it } from 'vitest';
import type { MpiError } from '../runtime/mpi/mpi.ts';
import { simulate } from '../runtime/simulate.ts';

describe('one-sided accumulates with derived datatypes', () => {
  it('a strided origin summed into an indexed target, a strided result of getAccumulate, and 8-byte integers by NIC atomics', async () => {
    const r = await simulate({
      machine: 'xe6',
      nodes: 3,
      program: async ({ mpi }) => {
        const every2 = mpi.typeCommit(mpi.typeVector(4, 1, 2, mpi.DOUBLE));
        // target elements 1, 2 and 6, 7 of the window
        const idx = mpi.typeCommit(mpi.typeIndexed(2, [2, 2], [1, 6], mpi.DOUBLE));
        const mem = Float64Array.from({ length: 8 }, (_, i) => 100 * i);
        const win = await mpi.winCreate(mem);
        const big = new BigInt64Array(8);
        const bwin = await mpi.winCreate(big);
        const src = Float64Array.from({ length: 8 }, (_, i) => (mpi.rank + 1) * (i + 1));
        await win.fence();
        // ranks 1 and 2 add src[0], src[2], src[4], src[6] to rank 0's elements 1, 2, 6, 7
        if (mpi.rank > 0) await win.accumulate(src, 1, every2, 0, 0, 1, idx, mpi.SUM);
        await win.fence();
        const old = new Float64Array(8).fill(-1);
        await win.lockAll();
        // rank 1 reads the same elements as they are and replaces them, the old ones into every other slot
        if (mpi.rank === 1) await win.getAccumulate(Float64Array.of(-1, -2, -3, -4), 4, mpi.DOUBLE, old, 1, every2, 0, 0, 1, idx, mpi.REPLACE);
        await win.unlockAll();
        await bwin.lockAll();
        // every rank adds rank+1 to elements 0, 3 and 6 of rank 2's window (a vector of stride 3)
        const stride3 = mpi.typeCommit(mpi.typeVector(3, 1, 3, mpi.INT64_T));
        await bwin.accumulate(BigInt64Array.of(1n, 1n, 1n).map((x) => x * BigInt(mpi.rank + 1)), 3, mpi.INT64_T, 2, 0, 1, stride3, mpi.SUM);
        await bwin.unlockAll();
        await mpi.barrier();
        await win.free();
        await bwin.free();
        return { mem: [...mem], old: [...old], big: big.map((x) => x).join(',') };
      },
    });
    const res = r.rankResults as readonly { mem: number[]; old: number[]; big: string }[];
    // ranks 1 and 2 add (rank + 1) x [1, 3, 5, 7] at elements 1, 2, 6, 7
    const added = [1, 3, 5, 7].map((x) => 2 * x + 3 * x);
    const before = [100, 200, 600, 700].map((x, i) => x + added[i]!);
    expect(res[1]!.old.filter((_, i) => i % 2 === 0)).toEqual(before);
    expect(res[1]!.old.filter((_, i) => i % 2 === 1)).toEqual([-1, -1, -1, -1]);
    expect(res[0]!.mem).toEqual([0, -1, -2, 300, 400, 500, -3, -4]);
    // 1 + 2 + 3 at every third element
    expect(res[2]!.big).toBe('6,0,0,6,0,0,6,0');
  });

  it('pair types: MAXLOC and MINLOC accumulates, getAccumulate with NO_OP, fetchAndOp with REPLACE', async () => {
    const r = await simulate({
      machine: 'xe6',
      nodes: 4,
      program: async ({ mpi }) => {
        // struct { double; int } is 16 bytes in C: value at 0, index at 8
        const di = new DataView(new ArrayBuffer(16 * 2));
        const win = await mpi.winCreate(di);
        const two = new Int32Array(4);
        const win2 = await mpi.winCreate(two);
        const si = new DataView(new ArrayBuffer(8));
        const win3 = await mpi.winCreate(si);
        if (mpi.rank === 0) {
          for (let k = 0; k < 2; k++) {
            di.setFloat64(16 * k, 0.5, true);
            di.setInt32(16 * k + 8, -1, true);
          }
          two.set([1000, -1, -1000, -1]);
        }
        await win.fence();
        await win2.fence();
        // item 0: MAXLOC of value rank*1.5 (rank 3 wins); item 1: MAXLOC of 7 (all tie, the lowest index wins)
        const mine = new DataView(new ArrayBuffer(32));
        mine.setFloat64(0, mpi.rank * 1.5, true);
        mine.setInt32(8, mpi.rank, true);
        mine.setFloat64(16, 7, true);
        mine.setInt32(24, 10 + mpi.rank, true);
        await win.accumulate(mine, 2, mpi.DOUBLE_INT, 0, 0, 2, mpi.DOUBLE_INT, mpi.MAXLOC);
        // MINLOC of (rank, rank) and (-rank, rank) on MPI_2INT
        await win2.accumulate(Int32Array.of(mpi.rank, mpi.rank, -mpi.rank, mpi.rank), 2, mpi.TWO_INT, 0, 0, 2, mpi.TWO_INT, mpi.MINLOC);
        await win.fence();
        await win2.fence();
        const seen = new DataView(new ArrayBuffer(32));
        await win.lockAll();
        if (mpi.rank === 1) await win.getAccumulate(null, 0, mpi.DOUBLE_INT, seen, 2, mpi.DOUBLE_INT, 0, 0, 2, mpi.DOUBLE_INT, mpi.NO_OP);
        await win.unlockAll();
        // fetchAndOp with MPI_SHORT_INT: every rank swaps in (rank, rank); the fetched values are each another rank's or the initial zero
        const swapIn = new DataView(new ArrayBuffer(8));
        swapIn.setInt16(0, 100 + mpi.rank, true);
        swapIn.setInt32(4, mpi.rank, true);
        const fetched = new DataView(new ArrayBuffer(8));
        await win3.lockAll();
        await win3.fetchAndOp(swapIn, fetched, mpi.SHORT_INT, 0, 0, mpi.REPLACE);
        await win3.unlockAll();
        await mpi.barrier();
        await win.free();
        await win2.free();
        await win3.free();
        const items = (v: DataView): number[] => [v.getFloat64(0, true), v.getInt32(8, true), v.getFloat64(16, true), v.getInt32(24, true)];
        return { di: items(di), seen: items(seen), two: [...two], fetched: [fetched.getInt16(0, true), fetched.getInt32(4, true)], last: [si.getInt16(0, true), si.getInt32(4, true)] };
      },
    });
    const res = r.rankResults as readonly { di: number[]; seen: number[]; two: number[]; fetched: number[]; last: number[] }[];
    expect(res[0]!.di).toEqual([4.5, 3, 7, 10]);
    expect(res[1]!.seen).toEqual([4.5, 3, 7, 10]);
    // (0, 0) is below the initial 1000; -3 from rank 3 is the least second value but -1000 started lower
    expect(res[0]!.two).toEqual([0, 0, -1000, -1]);
    // each rank fetched the initial (0, 0) or another rank's pair, and they form a chain: 4 distinct values
    const got = res.map((x) => x.fetched.join(':')).sort();
    expect(new Set(got).size).toBe(4);
    for (const g of got) expect(['0:0', '100:0', '101:1', '102:2', '103:3']).toContain(g);
    // the pair left in the window is the one nobody fetched
    const left = res[0]!.last.join(':');
    expect(got).not.toContain(left);
  });

  it('errors name the call and carry the MPI class', async () => {
    const r = await simulate({
      machine: 'xe6',
      nodes: 2,
      program: async ({ mpi }) => {
        const win = await mpi.winCreate(new Float64Array(8));
        win.setErrhandler(mpi.ERRORS_RETURN);
        const out: string[] = [];
        const vec = mpi.typeCommit(mpi.typeVector(3, 1, 4, mpi.DOUBLE));
        const uncommitted = mpi.typeVector(2, 1, 2, mpi.DOUBLE);
        const mixed = mpi.typeCommit(mpi.typeCreateStruct(2, [1, 1], [0, 8], [mpi.DOUBLE, mpi.FLOAT]));
        const peer = mpi.rank ^ 1;
        await win.fence();
        const tries = [
          // origin doubles, target ints
          () => win.accumulate(new Float64Array(2), 2, mpi.DOUBLE, peer, 0, 4, mpi.INT, mpi.SUM),
          // a vector of 3 doubles 4 apart spans 9 doubles: from displacement 0 it passes the 8-double window
          () => win.accumulate(new Float64Array(3), 3, mpi.DOUBLE, peer, 0, 1, vec, mpi.SUM),
          () => win.accumulate(new Float64Array(2), 1, mpi.DOUBLE_INT, peer, 0, 1, mpi.DOUBLE_INT, mpi.SUM),
          () => win.accumulate(new Float64Array(4), 1, uncommitted, peer, 0, 2, mpi.DOUBLE, mpi.SUM),
          () => win.getAccumulate(new Float64Array(2), 1, mixed, new Float64Array(2), 1, mixed, peer, 0, 1, mixed, mpi.REPLACE),
          () => win.accumulate(new Float64Array(2), 2, mpi.DOUBLE, peer, 0, 2, mpi.DOUBLE, mpi.MAXLOC),
        ];
        for (const f of tries) {
          try {
            await f();
            out.push('none');
          } catch (e) {
            out.push((e as MpiError).message);
          }
        }
        await win.fence();
        await win.free();
        return out;
      },
    });
    const [mismatch, range, pairSum, uncommitted, mixed, loc] = r.rankResults[0] as string[];
    expect(mismatch).toMatch(/^MPI_ERR_TYPE: accumulate: targetType MPI_INT is made of MPI_INT, originType MPI_DOUBLE of MPI_DOUBLE/);
    expect(range).toMatch(/^MPI_ERR_RMA_RANGE: accumulate: 72 bytes at displacement 0 .* run past the end of rank 1's 64-byte window/);
    expect(pairSum).toMatch(/^MPI_ERR_OP: accumulate: MPI_SUM is not defined on MPI_DOUBLE_INT/);
    expect(uncommitted).toMatch(/^MPI_ERR_TYPE: accumulate: originType .* is not committed/);
    expect(mixed).toMatch(/^MPI_ERR_TYPE: getAccumulate: originType struct.* is not made of one predefined type/);
    expect(loc).toMatch(/^MPI_ERR_OP: accumulate: MPI_MAXLOC works on the pair types/);
  });
});
