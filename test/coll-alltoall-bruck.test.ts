/**
 * Bruck's alltoall as the apps use it at scale: its blocks moved without a view per block, the
 * count of blocks each step sends, real counts arrays in a skeleton run, and a skeleton send
 * buffer that moves nothing and takes the time of a real one.
 */
import { describe, expect, it } from 'vitest';
import { withBit } from '../runtime/mpi/coll/alltoall.ts';
import type { RankContext } from '../runtime/rank.ts';
import { simulate } from '../runtime/simulate.ts';

/** Rank s's block for rank d: c values that name both. */
const value = (s: number, d: number, i: number): number => s * 10_000 + d * 10 + i;

describe("Bruck's alltoall", () => {
  it('counts the blocks of a step as a scan of 0 .. n-1 does', () => {
    for (let n = 1; n <= 70; n++) {
      for (let bit = 1; bit < 2 * n; bit *= 2) {
        let k = 0;
        for (let i = 0; i < n; i++) if (i & bit) k++;
        expect(withBit(n, bit), `n=${n} bit=${bit}`).toBe(k);
      }
    }
  });

  // 13 ranks (not a power of two) and blocks of 1 and of 20 elements (a loop and a set per block)
  it.each([1, 20])('moves real blocks of %i elements in a skeleton run, and a skeleton buffer takes the same time as a real one', async (c) => {
    const run = (skeleton: boolean, skeletonSend: boolean) =>
      simulate({
        machine: 'xe6',
        nodes: 13,
        skeleton,
        program: async (ctx: RankContext) => {
          const { mpi } = ctx;
          const n = mpi.size;
          const send = skeletonSend ? ctx.alloc(Int32Array, n * c) : Int32Array.from({ length: n * c }, (_, k) => value(mpi.rank, Math.floor(k / c), k % c));
          const recv = new Int32Array(n * c).fill(-1);
          const t0 = ctx.now();
          await mpi.COMM_WORLD.alltoall(send, recv, { algorithm: 'bruck' });
          const us = ctx.now() - t0;
          let wrong = 0;
          for (let k = 0; k < n * c; k++) if (recv[k] !== (skeletonSend ? -1 : value(Math.floor(k / c), mpi.rank, k % c))) wrong++;
          return { us, wrong };
        },
      });
    const real = await run(false, false);
    const countsInSkeleton = await run(true, false);
    const skeletonSend = await run(true, true);
    for (const r of [real, countsInSkeleton, skeletonSend]) expect(r.rankResults.map((x) => x.wrong)).toEqual(new Array(13).fill(0));
    expect(countsInSkeleton.rankResults.map((x) => x.us)).toEqual(real.rankResults.map((x) => x.us));
    expect(skeletonSend.rankResults.map((x) => x.us)).toEqual(real.rankResults.map((x) => x.us));
  });
});
