/**
 * NPB BT's and SP's multi-partition (make_set.f), checked by brute force over every rank: the
 * cells of all ranks tile the grid once, every rank holds one cell of each slab along each axis,
 * and the owner of each cell's neighbour along an axis is the rank's successor or predecessor.
 * Their data check fails when the solves' messages leave values behind.
 */
import { describe, expect, it } from 'vitest';
import { BT_BENCHMARK } from '../apps/npb-bt.ts';
import { multiPartition, runMultiPartition } from '../apps/npb-multipartition.ts';
import { SP_BENCHMARK } from '../apps/npb-sp.ts';
import { simulate } from '../runtime/simulate.ts';
import { rejection } from './helpers.ts';

describe('multiPartition', () => {
  it.each([
    [1, 12],
    [4, 12],
    [9, 12],
    [16, 13],
    [25, 17],
  ])('on %i ranks, %i points per axis: the cells tile the grid, one per slab per axis, neighbours on the successor and predecessor', (ranks, n) => {
    const p = Math.sqrt(ranks);
    const owner = new Map<string, number>();
    const covered = new Uint8Array(n ** 3);
    const layouts = Array.from({ length: ranks }, (_, r) => multiPartition('npb-bt', 'S', n, ranks, r));
    layouts.forEach((mp, r) => {
      expect(mp.ncells).toBe(p);
      for (let axis = 0; axis < 3; axis++) expect(new Set(mp.cells.map((c) => c.coord[axis])).size).toBe(p);
      mp.cells.forEach((c, ci) => {
        owner.set(c.coord.join(','), r);
        for (let axis = 0; axis < 3; axis++) expect(mp.slice[axis]![c.coord[axis]!]).toBe(ci);
        for (let z = 0; z < c.size[2]; z++) for (let y = 0; y < c.size[1]; y++) for (let x = 0; x < c.size[0]; x++) covered[((c.low[2] + z) * n + c.low[1] + y) * n + c.low[0] + x]! += 1;
      });
    });
    expect(owner.size).toBe(p ** 3);
    expect(covered.every((v) => v === 1)).toBe(true);
    layouts.forEach((mp) => {
      for (const c of mp.cells) {
        for (let axis = 0; axis < 3; axis++) {
          const next = [...c.coord];
          next[axis] = (next[axis]! + 1) % p;
          const prev = [...c.coord];
          prev[axis] = (prev[axis]! - 1 + p) % p;
          expect(owner.get(next.join(','))).toBe(mp.successor[axis]);
          expect(owner.get(prev.join(','))).toBe(mp.predecessor[axis]);
        }
      }
    });
  });

  it('gives the first n mod ncells cells along an axis one point more (make_set.f)', () => {
    const sizes = new Set<string>();
    for (let r = 0; r < 16; r++) for (const c of multiPartition('npb-sp', 'S', 14, 16, r).cells) sizes.add(`${c.coord[0]}:${c.low[0]}+${c.size[0]}`);
    expect([...sizes].sort()).toEqual(['0:0+4', '1:4+4', '2:8+3', '3:11+3']);
  });

  it('refuses a rank count that is not a square, and cells under 3 points per axis', () => {
    expect(() => multiPartition('npb-bt', 'S', 12, 8, 0)).toThrow(/^npb-bt: 8 ranks; NPB BT runs on a square number of ranks \(1, 4, 9, 16, \.\.\.\)$/);
    expect(() => multiPartition('npb-sp', 'S', 12, 25, 0)).toThrow(/^npb-sp: class S \(12\^3 points\) on 25 ranks \(5 cells per axis\) leaves cells of fewer than 3 points per axis/);
    // class C's 162 points over 64 cells (4,096 ranks) leave cells of 2 or 3: NPB aborts, so does the app
    expect(() => multiPartition('npb-bt', 'C', 162, 4096, 0)).toThrow(RangeError);
    expect(multiPartition('npb-bt', 'C', 162, 2916, 0).ncells).toBe(54);
  });

  it.each([
    ['npb-bt', BT_BENCHMARK],
    ['npb-sp', SP_BENCHMARK],
  ])('%s: a forward solve message too short to carry every line fails the data check', async (name, bench) => {
    const broken = { ...bench, scheme: { ...bench.scheme, forwardDoubles: (): number => 1 } };
    const err = await rejection(simulate({ machine: 'xe6', nodes: 4, program: (ctx) => runMultiPartition(ctx, { class: 'S', iterations: 1 }, broken) }));
    expect(err.message).toMatch(new RegExp(`${name}: data check failed: \\d+ ghost or swept values differ from a serial run of the whole grid`));
  });
});
