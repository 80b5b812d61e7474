/**
 * The amg app's DataExchangeList (hypre's, utilities/exchange_data.c): every rank gets exactly
 * the contacts sent to it, whatever the lists, and no rank stops before all are answered; the
 * termination tree is hypre_CreateBinaryTree's.
 */
import { describe, expect, it } from 'vitest';
import { binaryTree, dataExchangeList, type Contact } from '../apps/amg-exchange.ts';
import { Prng } from '../fabric/engine/prng.ts';
import { simulate } from '../runtime/simulate.ts';

/** Rank r's contacts: up to 5 ranks drawn from a seed (itself allowed, none at all too), each sent [r, dest, k]. */
function contactsOf(r: number, size: number, seed: number): Contact[] {
  const rng = new Prng(seed * 1000 + r);
  const dests = new Set<number>();
  const n = rng.nextU32() % 6;
  for (let i = 0; i < n; i++) dests.add(rng.nextU32() % size);
  return [...dests].map((d, k) => ({ rank: d, data: Int32Array.of(r, d, k) }));
}

describe('amg data exchange', () => {
  it.each([1, 2, 7, 13, 32])('on %i ranks: each rank receives exactly the contacts sent to it', async (size) => {
    for (const seed of [1, 2, 3]) {
      const r = await simulate({
        machine: 'xe6',
        nodes: size,
        program: async (ctx) => {
          const got = await dataExchangeList(ctx, contactsOf(ctx.mpi.rank, size, seed), 3, 5000);
          return got.map((c) => [c.rank, ...c.data].join(','));
        },
      });
      // what each rank should get, worked out from every rank's list
      const expected: string[][] = Array.from({ length: size }, () => []);
      for (let s = 0; s < size; s++) for (const c of contactsOf(s, size, seed)) expected[c.rank]!.push([s, ...c.data].join(','));
      expect(r.rankResults).toEqual(expected);
    }
  });

  it('two exchanges in a row with different tags: a fast rank\'s contacts of the second never land in the first', async () => {
    const size = 16;
    const r = await simulate({
      machine: 'xe6',
      nodes: size,
      program: async (ctx) => {
        const me = ctx.mpi.rank;
        // rank 0 computes long before the first exchange; the others race into the second
        if (me === 0) await ctx.compute(50_000_000);
        const a = await dataExchangeList(ctx, [{ rank: (me + 1) % size, data: Int32Array.of(1) }], 1, 5000);
        const b = await dataExchangeList(ctx, [{ rank: (me + 3) % size, data: Int32Array.of(2) }], 1, 5010);
        return [a.map((c) => `${c.rank}:${c.data[0]}`), b.map((c) => `${c.rank}:${c.data[0]}`)];
      },
    });
    r.rankResults.forEach((res, me) => expect(res).toEqual([[`${(me + size - 1) % size}:1`], [`${(me + size - 3) % size}:2`]]));
  });

  it('the termination tree spans the ranks: each rank but 0 has a lower parent that lists it as a child', () => {
    for (let size = 1; size <= 40; size++) {
      let edges = 0;
      for (let me = 0; me < size; me++) {
        const { parent, children } = binaryTree(me, size);
        if (me === 0) expect(parent).toBe(-1);
        else {
          expect(parent).toBeGreaterThanOrEqual(0);
          expect(parent).toBeLessThan(me);
          expect(binaryTree(parent, size).children).toContain(me);
        }
        for (const c of children) expect(c).toBeGreaterThan(me);
        edges += children.length;
      }
      expect(edges).toBe(size - 1);
    }
  });
});
