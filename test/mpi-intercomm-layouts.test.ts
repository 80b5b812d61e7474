/**
 * Group layouts other than two halves: remote ranks map to the right processes in point-to-point,
 * collectives and merge.
 */
import { describe, expect, it } from 'vitest';
import { run } from './mpi-intercomm-helpers.ts';

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
