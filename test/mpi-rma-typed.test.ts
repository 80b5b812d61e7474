import { describe, expect, it } from 'vitest';
import type { MpiError } from '../runtime/mpi/mpi.ts';
import { simulate } from '../runtime/simulate.ts';

describe('one-sided calls take (buffer, count, datatype) at both ends', () => {
  it('a strided origin put into a contiguous target, a strided target got into a contiguous origin, and rput/rget of a column', async () => {
    const r = await simulate({
      machine: 'xe6',
      nodes: 2,
      program: async ({ mpi }) => {
        const every2 = mpi.typeCommit(mpi.typeVector(4, 1, 2, mpi.DOUBLE));
        // a 4x4 row-major matrix's column: 4 doubles 32 bytes apart
        const column = mpi.typeCommit(mpi.typeVector(4, 1, 4, mpi.DOUBLE));
        const mem = Float64Array.from({ length: 16 }, (_, i) => mpi.rank * 1000 + i);
        const win = await mpi.winCreate(mem);
        const src = Float64Array.from({ length: 8 }, (_, i) => 500 + i);
        const got = new Float64Array(4).fill(-1);
        await win.fence();
        if (mpi.rank === 0) {
          // src[0], src[2], src[4], src[6] -> rank 1's mem[0..3]
          await win.put(src, 1, every2, 1, 0, 4, mpi.DOUBLE);
          // rank 1's column 1 (mem[1], mem[5], mem[9], mem[13]) into got
          await win.get(got, 4, mpi.DOUBLE, 1, 1, 1, column);
        }
        await win.fence();
        const col = new Float64Array(4).fill(-1);
        await win.lockAll();
        if (mpi.rank === 1) {
          // column 3 of rank 0 <- 4 contiguous values; then read it back
          const rq = await win.rput(Float64Array.of(9, 8, 7, 6), 4, mpi.DOUBLE, 0, 3, 1, column);
          await rq.wait();
          await win.flush(0);
          await (await win.rget(col, 4, mpi.DOUBLE, 0, 3, 1, column)).wait();
        }
        await win.unlockAll();
        await mpi.barrier();
        await win.free();
        return { mem: [...mem], got: [...got], col: [...col] };
      },
    });
    const [r0, r1] = r.rankResults as { mem: number[]; got: number[]; col: number[] }[];
    // rank 1's first four doubles came from every other element of rank 0's src
    expect(r1!.mem.slice(0, 4)).toEqual([500, 502, 504, 506]);
    expect(r1!.mem.slice(4)).toEqual(Array.from({ length: 12 }, (_, i) => 1004 + i));
    // the get read rank 1's column 1; its first element, mem[1], was also put in that epoch, so MPI leaves it undefined
    expect(r0!.got.slice(1)).toEqual([1005, 1009, 1013]);
    expect(r0!.mem.filter((_, i) => i % 4 === 3)).toEqual([9, 8, 7, 6]);
    expect(r0!.mem.filter((_, i) => i % 4 !== 3)).toEqual(Array.from({ length: 16 }, (_, i) => i).filter((i) => i % 4 !== 3));
    expect(r1!.col).toEqual([9, 8, 7, 6]);
  });

  it('a signature mismatch is MPI_ERR_TYPE and an uncommitted type is named', async () => {
    const r = await simulate({
      machine: 'xe6',
      nodes: 2,
      program: async ({ mpi }) => {
        const win = await mpi.winCreate(new Float64Array(8));
        win.setErrhandler(mpi.ERRORS_RETURN);
        const out: string[] = [];
        await win.fence();
        for (const f of [() => win.put(new Float64Array(4), 4, mpi.DOUBLE, mpi.rank ^ 1, 0, 3, mpi.DOUBLE), () => win.get(new Float64Array(4), 2, mpi.typeVector(2, 1, 2, mpi.DOUBLE), mpi.rank ^ 1, 0, 2, mpi.DOUBLE)]) {
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
    const [a, b] = r.rankResults[0] as string[];
    expect(a).toMatch(/^MPI_ERR_TYPE: put: the origin's 4 x MPI_DOUBLE are 32 bytes, the target's 3 x MPI_DOUBLE 24/);
    expect(b).toMatch(/^MPI_ERR_TYPE: get: originType .* is not committed/);
  });
});

describe('accumulates take (buffer, count, datatype) for predefined types', () => {
  it('accumulate, getAccumulate, fetchAndOp and compareAndSwap in their long forms', async () => {
    const r = await simulate({
      machine: 'xe6',
      nodes: 3,
      program: async ({ mpi }) => {
        const mem = new Float64Array(4);
        const counter = new BigInt64Array(2);
        const win = await mpi.winCreate(mem);
        const cwin = await mpi.winCreate(counter);
        await win.fence();
        // every rank adds (rank + 1) x [1, 2, 3, 4] to rank 0's window
        await win.accumulate(Float64Array.from([1, 2, 3, 4], (x) => x * (mpi.rank + 1)), 4, mpi.DOUBLE, 0, 0, 4, mpi.DOUBLE, mpi.SUM);
        await win.fence();
        const old = new Float64Array(2);
        await win.lockAll();
        if (mpi.rank === 1) await win.getAccumulate(Float64Array.of(100, 100), 2, mpi.DOUBLE, old, 2, mpi.DOUBLE, 0, 2, 2, mpi.DOUBLE, mpi.MAX);
        await win.unlockAll();
        await cwin.lockAll();
        const fetched = new BigInt64Array(1);
        await cwin.fetchAndOp(BigInt64Array.of(1n), fetched, mpi.INT64_T, 0, 0, mpi.SUM);
        await cwin.flushAll();
        const swapped = new BigInt64Array(1);
        if (mpi.rank === 2) await cwin.compareAndSwap(BigInt64Array.of(77n), BigInt64Array.of(0n), swapped, mpi.INT64_T, 0, 1);
        await cwin.unlockAll();
        await mpi.barrier();
        await win.free();
        await cwin.free();
        return { mem: [...mem], old: [...old], fetched: fetched[0], counter: [...counter], swapped: swapped[0] };
      },
    });
    const res = r.rankResults as readonly { mem: number[]; old: number[]; fetched: bigint | undefined; counter: bigint[] }[];
    // 1 + 2 + 3 = 6 times [1, 2, 3, 4], then MAX with 100 on elements 2 and 3
    expect(res[0]!.mem).toEqual([6, 12, 100, 100]);
    expect(res[1]!.old).toEqual([18, 24]);
    // three fetch-and-adds of 1: each rank saw a distinct old value
    expect(res.map((x) => Number(x.fetched)).sort()).toEqual([0, 1, 2]);
    expect(res[0]!.counter).toEqual([3n, 77n]);
  });

  it('raccumulate and rgetAccumulate in their long forms; a target type of another size is MPI_ERR_TYPE', async () => {
    const r = await simulate({
      machine: 'xe6',
      nodes: 2,
      program: async ({ mpi }) => {
        const mem = Int32Array.of(10, 20, 30);
        const win = await mpi.winCreate(mem);
        win.setErrhandler(mpi.ERRORS_RETURN);
        await win.lockAll();
        const old = new Int32Array(2);
        let bad = '';
        if (mpi.rank === 1) {
          const a = await win.raccumulate(Int32Array.of(1, 2), 2, mpi.INT, 0, 1, 2, mpi.INT, mpi.SUM);
          await mpi.wait(a);
          await win.flush(0);
          const g = await win.rgetAccumulate(Int32Array.of(5, 5), 2, mpi.INT, old, 2, mpi.INT, 0, 0, 2, mpi.INT, mpi.PROD);
          await mpi.wait(g);
          try {
            await win.raccumulate(Int32Array.of(1, 2), 2, mpi.INT, 0, 0, 1, mpi.DOUBLE, mpi.SUM);
          } catch (e) {
            bad = String(e);
          }
        }
        await win.unlockAll();
        await mpi.barrier();
        await win.free();
        return { mem: [...mem], old: [...old], bad };
      },
    });
    const res = r.rankResults as readonly { mem: number[]; old: number[]; bad: string }[];
    expect(res[0]!.mem).toEqual([50, 105, 32]);
    expect(res[1]!.old).toEqual([10, 21]);
    expect(res[1]!.bad).toMatch(/MPI_ERR_TYPE: raccumulate: targetType MPI_DOUBLE is made of MPI_DOUBLE, originType MPI_INT of MPI_INT/);
  });
});
