import { describe, expect, it } from 'vitest';
import type { RankContext } from '../runtime/rank.ts';
import { simulate } from '../runtime/simulate.ts';
import { rejection } from './helpers.ts';

/** Element i of rank r's data. */
const val = (r: number, i: number): number => r * 1000 + i * 3 + 1;

/** Index of the first element where a and b differ, or -1. */
function mismatch(a: ArrayLike<number>, b: ArrayLike<number>): number {
  if (a.length !== b.length) return Math.min(a.length, b.length);
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return i;
  return -1;
}

/** Every collective that takes mpi.IN_PLACE since MPI 2.2, called with it; per call, the first wrong element (-1: right). */
async function inPlace({ mpi }: RankContext): Promise<Record<string, number>> {
  const p = mpi.size;
  const me = mpi.rank;
  const root = 1;
  const out: Record<string, number> = {};
  const k = 3;
  // the concatenation of every rank's k elements
  const all = Float64Array.from({ length: p * k }, (_, j) => val(Math.floor(j / k), j % k));

  // gather: the root's own block is already in place
  const g = new Float64Array(p * k).fill(-1);
  if (me === root) for (let i = 0; i < k; i++) g[root * k + i] = val(root, i);
  const mine = Float64Array.from({ length: k }, (_, i) => val(me, i));
  await mpi.gather(me === root ? mpi.IN_PLACE : mine, me === root ? g : null, root);
  out.gather = me === root ? mismatch(g, all) : -1;

  // gatherv and allgatherv: rank r has r + 1 elements at displs[r]
  const counts = Array.from({ length: p }, (_, r) => r + 1);
  const displs = counts.map((_, r) => (r * (r + 1)) / 2 + r); // a gap of one element between blocks
  const len = displs[p - 1]! + counts[p - 1]! + 1;
  const allV = new Float64Array(len).fill(-1);
  for (let r = 0; r < p; r++) for (let i = 0; i <= r; i++) allV[displs[r]! + i] = val(r, i);
  const gv = new Float64Array(len).fill(-1);
  if (me === root) for (let i = 0; i <= root; i++) gv[displs[root]! + i] = val(root, i);
  await mpi.gatherv(me === root ? mpi.IN_PLACE : Float64Array.from({ length: me + 1 }, (_, i) => val(me, i)), me === root ? gv : null, me === root ? counts : null, me === root ? displs : null, root);
  out.gatherv = me === root ? mismatch(gv, allV) : -1;

  const agv = new Float64Array(len).fill(-1);
  for (let i = 0; i <= me; i++) agv[displs[me]! + i] = val(me, i);
  await mpi.allgatherv(mpi.IN_PLACE, agv, counts, displs);
  out.allgatherv = mismatch(agv, allV);

  // alltoallv in place: recvBuf holds, per peer j, the block for j (j + 1 elements) and gets j's block for me
  const blk = (from: number, to: number, i: number): number => from * 100 + to * 10 + i;
  const a2aCounts = Array.from({ length: p }, () => 2);
  const a2aDispls = Array.from({ length: p }, (_, j) => 2 * j);
  const a2a = Float64Array.from({ length: 2 * p }, (_, x) => blk(me, Math.floor(x / 2), x % 2));
  await mpi.alltoallv(mpi.IN_PLACE, null, null, a2a, a2aCounts, a2aDispls);
  out.alltoallv = mismatch(a2a, Float64Array.from({ length: 2 * p }, (_, x) => blk(Math.floor(x / 2), me, x % 2)));

  // reduceScatter: the input is recvBuf's first `total` elements; block r has r + 1 elements
  const total = (p * (p + 1)) / 2;
  const rs = Float64Array.from({ length: total }, (_, i) => val(me, i));
  await mpi.reduceScatter(mpi.IN_PLACE, rs, counts, mpi.SUM);
  const first = (me * (me + 1)) / 2;
  const sumAt = (i: number): number => Array.from({ length: p }, (_, r) => val(r, i)).reduce((a, b) => a + b, 0);
  out.reduceScatter = mismatch(rs.subarray(0, me + 1), Float64Array.from({ length: me + 1 }, (_, i) => sumAt(first + i)));

  const rsb = Float64Array.from({ length: 2 * p }, (_, i) => val(me, i));
  await mpi.reduceScatterBlock(mpi.IN_PLACE, rsb, mpi.SUM);
  out.reduceScatterBlock = mismatch(rsb.subarray(0, 2), [sumAt(2 * me), sumAt(2 * me + 1)]);

  // scatter: the root keeps its block where it is
  const sc = me === root ? Float64Array.from(all) : new Float64Array(k);
  await mpi.scatter(me === root ? sc : null, me === root ? mpi.IN_PLACE : sc, root);
  out.scatter = me === root ? mismatch(sc, all) : mismatch(sc, mine);

  const scv = me === root ? Float64Array.from(allV) : new Float64Array(me + 1);
  await mpi.scatterv(me === root ? scv : null, me === root ? counts : null, me === root ? displs : null, me === root ? mpi.IN_PLACE : scv, root);
  out.scatterv = me === root ? mismatch(scv, allV) : mismatch(scv, Float64Array.from({ length: me + 1 }, (_, i) => val(me, i)));
  return out;
}

describe('mpi.IN_PLACE in every collective that takes it', () => {
  it.each([
    { nodes: 5, ppn: 1 },
    { nodes: 2, ppn: 3 },
  ])('gather(v), allgatherv, alltoallv, reduceScatter(Block), scatter(v) on $nodes x $ppn ranks', async ({ nodes, ppn }) => {
    const r = await simulate({ machine: 'xe6', nodes, ppn, program: inPlace });
    for (const [rank, res] of r.rankResults.entries()) {
      for (const [call, bad] of Object.entries(res as Record<string, number>)) expect(`${call} on rank ${rank}: ${bad}`).toBe(`${call} on rank ${rank}: -1`);
    }
    expect(Object.keys(r.rankResults[0] as object)).toHaveLength(8);
  });

  it('a non-root passing IN_PLACE to gather fails with MPI_ERR_BUFFER', async () => {
    const err = await rejection(
      simulate({
        machine: 'xe6',
        nodes: 2,
        program: async ({ mpi }) => {
          await mpi.gather(mpi.IN_PLACE, new Float64Array(4), 0);
        },
      }),
    );
    expect(String(err)).toMatch(/MPI_ERR_BUFFER: gather: only the root may pass mpi.IN_PLACE/);
  });

  it('reduceScatter in place with a recvBuf too short for the input fails with MPI_ERR_COUNT', async () => {
    const err = await rejection(
      simulate({
        machine: 'xe6',
        nodes: 2,
        program: async ({ mpi }) => {
          await mpi.reduceScatter(mpi.IN_PLACE, new Float64Array(2), [2, 2], mpi.SUM);
        },
      }),
    );
    expect(String(err)).toMatch(/MPI_ERR_COUNT: reduceScatter: with mpi.IN_PLACE recvBuf holds the input/);
  });
});
