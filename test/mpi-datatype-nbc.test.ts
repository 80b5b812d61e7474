import { describe, expect, it } from 'vitest';
import type { Request } from '../runtime/mpi/mpi.ts';
import { simulate } from '../runtime/simulate.ts';
import { rejection } from './helpers.ts';

describe('nonblocking collectives take (buffer, count, datatype) too', () => {
  it('ibcast of a vector, iallgather of a contiguous type, igatherv, ialltoallw and iallreduce land their data when completed', async () => {
    const r = await simulate({
      machine: 'xe6',
      nodes: 4,
      program: async ({ mpi }) => {
        const p = mpi.size;
        const me = mpi.rank;
        const bad: string[] = [];
        // every other element of 8 doubles
        const vec = mpi.typeCommit(mpi.typeVector(4, 1, 2, mpi.DOUBLE));
        const b = new Float64Array(8).fill(-1);
        if (me === 1) for (let i = 0; i < 8; i++) b[i] = i % 2 === 0 ? 100 + i : -1;
        const pair = mpi.typeCommit(mpi.typeContiguous(2, mpi.INT));
        const ag = new Int32Array(2 * p);
        const gv = new Float64Array(8 * p).fill(-1);
        const a2aSend = Int32Array.from({ length: p }, (_, j) => me * 10 + j);
        const a2aRecv = new Float64Array(p).fill(-1);
        const ar = new Float64Array(3);
        const reqs: Request[] = [
          mpi.ibcast(b, 1, vec, 1),
          mpi.iallgather(Int32Array.of(me, -me), 1, pair, ag, 1, pair),
          mpi.igatherv(b.slice(0, 2), 2, mpi.DOUBLE, me === 0 ? gv : null, Array(p).fill(2), Array.from({ length: p }, (_, r) => 8 * r), mpi.DOUBLE, 0),
          // ints out, doubles in would mismatch bytes: send int32 pairs as 4 bytes each, receive as INT too, laid out in a Float64Array's bytes
          mpi.ialltoallw(a2aSend, Array(p).fill(1), Array.from({ length: p }, (_, j) => 4 * j), Array(p).fill(mpi.INT), a2aRecv, Array(p).fill(1), Array.from({ length: p }, (_, j) => 8 * j), Array(p).fill(mpi.INT)),
          mpi.iallreduce(Float64Array.of(me, 1, 2), ar, 3, mpi.DOUBLE, mpi.SUM),
        ];
        await mpi.waitAll(reqs);
        for (let i = 0; i < 8; i++) if (b[i] !== (i % 2 === 0 ? 100 + i : -1)) bad.push(`ibcast[${i}]=${b[i]}`);
        for (let r = 0; r < p; r++) if (ag[2 * r] !== r || ag[2 * r + 1] !== -r) bad.push(`iallgather[${r}]`);
        if (me === 0) {
          // each rank sent b's first two elements as they were when it called: only the bcast root had data then
          for (let r = 0; r < p; r++) if (gv[8 * r] !== (r === 1 ? 100 : -1) || gv[8 * r + 1] !== -1 || gv[8 * r + 2] !== -1) bad.push(`igatherv[${r}]`);
        }
        const got = new Int32Array(a2aRecv.buffer);
        for (let j = 0; j < p; j++) if (got[2 * j] !== j * 10 + me) bad.push(`ialltoallw[${j}]=${got[2 * j]}`);
        const s = (p * (p - 1)) / 2;
        if (ar[0] !== s || ar[1] !== p || ar[2] !== 2 * p) bad.push(`iallreduce ${[...ar]}`);
        return bad;
      },
    });
    for (const bad of r.rankResults) expect(bad).toEqual([]);
  });

  it('a non-contiguous receive lands only when the completion is taken', async () => {
    const r = await simulate({
      machine: 'xe6',
      nodes: 2,
      program: async ({ mpi }) => {
        const vec = mpi.typeCommit(mpi.typeVector(2, 1, 2, mpi.DOUBLE));
        const b = mpi.rank === 0 ? Float64Array.of(7, -1, 8, -1) : new Float64Array(4).fill(-1);
        const req = mpi.ibcast(b, 1, vec, 0);
        const before = [...b];
        await mpi.wait(req);
        return { before, after: [...b] };
      },
    });
    expect(r.rankResults[1]).toEqual({ before: [-1, -1, -1, -1], after: [7, -1, 8, -1] });
  });

  it('errors of a nonblocking long form name it', async () => {
    const err = await rejection(
      simulate({
        machine: 'xe6',
        nodes: 2,
        program: async ({ mpi }) => {
          mpi.ibcast(new Float64Array(4), -2, mpi.DOUBLE, 0);
        },
      }),
    );
    expect(String(err)).toMatch(/MPI_ERR_COUNT: ibcast: count=-2/);
  });
});

describe('mpi.IN_PLACE in the long forms', () => {
  it('gatherv, alltoallv, reduceScatterBlock and reduceScatter (blocking and nonblocking) give the short forms\' data', async () => {
    const r = await simulate({
      machine: 'xe6',
      nodes: 3,
      program: async ({ mpi }) => {
        const p = mpi.size;
        const me = mpi.rank;
        const bad: string[] = [];
        // gatherv at root 1: its own block already in place
        const g = new Float64Array(2 * p).fill(-1);
        g.set([10, 11], 2);
        const counts = Array(p).fill(2);
        const displs = Array.from({ length: p }, (_, i) => 2 * i);
        if (me === 1) await mpi.gatherv(mpi.IN_PLACE, -1, mpi.DOUBLE, g, counts, displs, mpi.DOUBLE, 1);
        else await mpi.gatherv(Float64Array.of(me * 10, me * 10 + 1), 2, mpi.DOUBLE, null, null, null, mpi.DOUBLE, 1);
        if (me === 1 && g.join() !== Array.from({ length: 2 * p }, (_, i) => Math.floor(i / 2) * 10 + (i % 2)).join()) bad.push(`gatherv ${g.join()}`);
        // alltoallv in place: block j of rank i is i*100+j, and comes back as j*100+i
        const a = Float64Array.from({ length: p }, (_, j) => me * 100 + j);
        await mpi.wait(mpi.ialltoallv(mpi.IN_PLACE, null, null, null, a, Array(p).fill(1), Array.from({ length: p }, (_, j) => j), mpi.DOUBLE));
        if (a.join() !== Array.from({ length: p }, (_, j) => j * 100 + me).join()) bad.push(`ialltoallv ${a.join()}`);
        // reduceScatterBlock in place: the sum of every rank's block `me` lands at the start
        const rsb = Float64Array.from({ length: 2 * p }, (_, i) => me + i);
        await mpi.reduceScatterBlock(mpi.IN_PLACE, rsb, 2, mpi.DOUBLE, mpi.SUM);
        const sum = (i: number): number => Array.from({ length: p }, (_, q) => q + i).reduce((x, y) => x + y, 0);
        if (rsb[0] !== sum(2 * me) || rsb[1] !== sum(2 * me + 1)) bad.push(`reduceScatterBlock ${rsb[0]},${rsb[1]}`);
        const rs = Float64Array.from({ length: p }, (_, i) => me + i);
        await mpi.wait(mpi.ireduceScatter(mpi.IN_PLACE, rs, Array(p).fill(1), mpi.DOUBLE, mpi.SUM));
        if (rs[0] !== sum(me)) bad.push(`ireduceScatter ${rs[0]}`);
        return bad;
      },
    });
    for (const bad of r.rankResults) expect(bad).toEqual([]);
  });
});
