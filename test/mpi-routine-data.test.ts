/**
 * Real data of the MPI routines no other test checks (test/mpi-routine-manifest.ts points here):
 * the nonblocking and persistent forms of the collectives, the graph topology's queries and its
 * neighbourhood collectives, ready sends, a derived type's true extent, and a window's group,
 * local flushes and sync. Each value is computed here from the ranks' inputs, independently of
 * phit's algorithms.
 */
import { describe, expect, it } from 'vitest';
import type { Mpi, Request } from '../runtime/mpi/mpi.ts';
import { simulate } from '../runtime/simulate.ts';

const P = 4;
/** Rank r's input block: n values r*100 + i. */
const block = (r: number, n: number): number[] => Array.from({ length: n }, (_, i) => r * 100 + i);
const sum = (xs: number[]): number => xs.reduce((a, b) => a + b, 0);

/** Runs `body` on 4 ranks of xe6 and returns what each rank returned. */
async function run<T>(body: (mpi: Mpi) => Promise<T>): Promise<T[]> {
  const r = await simulate({ machine: 'xe6', nodes: P, program: async ({ mpi }) => body(mpi) });
  return r.rankResults as T[];
}

describe('MPI routines checked here', () => {
  it('nonblocking collectives: ireduce, iallgatherv, ialltoall, ireduceScatterBlock, iscatter, iscatterv, iscan, iexscan', async () => {
    const res = await run(async (mpi) => {
      const r = mpi.rank;
      const out: Record<string, number[]> = {};
      const red = new Float64Array(2);
      await mpi.ireduce(Float64Array.from(block(r, 2)), r === 1 ? red : null, mpi.SUM, 1).wait();
      out.ireduce = [...red];
      const counts = [1, 2, 3, 4];
      const displs = [0, 1, 3, 6];
      const agv = new Float64Array(10);
      await mpi.iallgatherv(Float64Array.from(block(r, counts[r]!)), agv, counts, displs).wait();
      out.iallgatherv = [...agv];
      const a2a = new Float64Array(P);
      await mpi.ialltoall(Float64Array.from({ length: P }, (_, j) => r * 10 + j), a2a).wait();
      out.ialltoall = [...a2a];
      const rsb = new Float64Array(1);
      await mpi.ireduceScatterBlock(Float64Array.from({ length: P }, (_, j) => r + j), rsb, mpi.SUM).wait();
      out.ireduceScatterBlock = [...rsb];
      const sc = new Float64Array(2);
      await mpi.iscatter(r === 2 ? Float64Array.from(block(9, 2 * P)) : null, sc, 2).wait();
      out.iscatter = [...sc];
      const scv = new Float64Array(counts[r]!);
      await mpi.iscatterv(r === 0 ? Float64Array.from(block(7, 10)) : null, counts, displs, scv, 0).wait();
      out.iscatterv = [...scv];
      const scan = new Float64Array(1);
      await mpi.iscan(Float64Array.of(r + 1), scan, mpi.PROD).wait();
      out.iscan = [...scan];
      const ex = new Float64Array(1);
      await mpi.iexscan(Float64Array.of(r + 1), ex, mpi.SUM).wait();
      out.iexscan = r === 0 ? [] : [...ex];
      return out;
    });
    res.forEach((o, r) => {
      if (r === 1) expect(o.ireduce).toEqual([0, 1].map((i) => sum([0, 1, 2, 3].map((q) => q * 100 + i))));
      expect(o.iallgatherv).toEqual([0, 1, 2, 3].flatMap((q) => block(q, q + 1)));
      expect(o.ialltoall).toEqual([0, 1, 2, 3].map((q) => q * 10 + r));
      expect(o.ireduceScatterBlock).toEqual([sum([0, 1, 2, 3].map((q) => q + r))]);
      expect(o.iscatter).toEqual(block(9, 8).slice(2 * r, 2 * r + 2));
      expect(o.iscatterv).toEqual(block(7, 10).slice([0, 1, 3, 6][r], [0, 1, 3, 6][r]! + r + 1));
      expect(o.iscan).toEqual([[1, 2, 6, 24][r]]);
      expect(o.iexscan).toEqual(r === 0 ? [] : [[0, 1, 3, 6][r]]);
    });
  });

  it('persistent collectives started twice with new data: reduceInit, allgatherInit, allgathervInit, alltoallvInit, reduceScatterInit, reduceScatterBlockInit, gathervInit, scatterInit, scattervInit, scanInit, exscanInit', async () => {
    const res = await run(async (mpi) => {
      const r = mpi.rank;
      const s = new Float64Array(P);
      const out: Record<string, number[][]> = {};
      const bufs: Record<string, Float64Array> = {
        reduceInit: new Float64Array(P),
        allgatherInit: new Float64Array(P * P),
        allgathervInit: new Float64Array(P * P),
        alltoallvInit: new Float64Array(P),
        reduceScatterInit: new Float64Array(1),
        reduceScatterBlockInit: new Float64Array(1),
        gathervInit: new Float64Array(P * P),
        scatterInit: new Float64Array(1),
        scattervInit: new Float64Array(1),
        scanInit: new Float64Array(P),
        exscanInit: new Float64Array(P),
      };
      const ones = [1, 1, 1, 1];
      const steps = [0, 1, 2, 3];
      const b = bufs;
      const reqs: [string, Request][] = [
        ['reduceInit', mpi.reduceInit(s, r === 0 ? b.reduceInit! : null, mpi.SUM, 0)],
        ['allgatherInit', mpi.allgatherInit(s, b.allgatherInit!)],
        ['allgathervInit', mpi.allgathervInit(s, b.allgathervInit!, [4, 4, 4, 4], [0, 4, 8, 12])],
        ['alltoallvInit', mpi.alltoallvInit(s, ones, steps, b.alltoallvInit!, ones, steps)],
        ['reduceScatterInit', mpi.reduceScatterInit(s, b.reduceScatterInit!, ones, mpi.SUM)],
        ['reduceScatterBlockInit', mpi.reduceScatterBlockInit(s, b.reduceScatterBlockInit!, mpi.MAX)],
        ['gathervInit', mpi.gathervInit(s, r === 3 ? b.gathervInit! : null, r === 3 ? [4, 4, 4, 4] : null, r === 3 ? [0, 4, 8, 12] : null, 3)],
        ['scatterInit', mpi.scatterInit(r === 0 ? s : null, b.scatterInit!, 0)],
        ['scattervInit', mpi.scattervInit(r === 1 ? s : null, ones, [3, 2, 1, 0], b.scattervInit!, 1)],
        ['scanInit', mpi.scanInit(s, b.scanInit!, mpi.SUM)],
        ['exscanInit', mpi.exscanInit(s, b.exscanInit!, mpi.SUM)],
      ];
      for (const round of [1, 2]) {
        for (const [name, q] of reqs) {
          s.set([0, 1, 2, 3].map((j) => round * 1000 + r * 10 + j));
          mpi.start(q);
          await q.wait();
          (out[name] ??= []).push([...b[name]!]);
        }
      }
      for (const [, q] of reqs) mpi.requestFree(q);
      return out;
    });
    const input = (round: number, q: number): number[] => [0, 1, 2, 3].map((j) => round * 1000 + q * 10 + j);
    const all = [0, 1, 2, 3];
    res.forEach((o, r) => {
      [1, 2].forEach((round, k) => {
        const at = (name: string): number[] => o[name]![k]!;
        if (r === 0) expect(at('reduceInit')).toEqual(all.map((j) => sum(all.map((q) => input(round, q)[j]!))));
        expect(at('allgatherInit')).toEqual(all.flatMap((q) => input(round, q)));
        expect(at('allgathervInit')).toEqual(all.flatMap((q) => input(round, q)));
        expect(at('alltoallvInit')).toEqual(all.map((q) => input(round, q)[r]!));
        expect(at('reduceScatterInit')).toEqual([sum(all.map((q) => input(round, q)[r]!))]);
        expect(at('reduceScatterBlockInit')).toEqual([Math.max(...all.map((q) => input(round, q)[r]!))]);
        if (r === 3) expect(at('gathervInit')).toEqual(all.flatMap((q) => input(round, q)));
        expect(at('scatterInit')).toEqual([input(round, 0)[r]]);
        expect(at('scattervInit')).toEqual([input(round, 1)[3 - r]]);
        expect(at('scanInit')).toEqual(all.map((j) => sum(all.filter((q) => q <= r).map((q) => input(round, q)[j]!))));
        if (r > 0) expect(at('exscanInit')).toEqual(all.map((j) => sum(all.filter((q) => q < r).map((q) => input(round, q)[j]!))));
      });
    });
  });

  it('a graph ring: graphMap, graphGet, graphNeighborsCount; neighborAllgatherv, neighborAlltoallv and the nonblocking ineighborAllgather, ineighborAllgatherv, ineighborAlltoall', async () => {
    const index = [2, 4, 6, 8];
    const edges = [1, 3, 2, 0, 3, 1, 0, 2];
    const res = await run(async (mpi) => {
      const g = (await mpi.graphCreate(index, edges))!;
      const r = g.rank;
      const mine = (n: number): Float64Array => Float64Array.from(block(r, n));
      const nag = new Float64Array(4);
      await g.ineighborAllgather(mine(2), nag).wait();
      const nagv = new Float64Array(2 * (1 + ((r + 1) % 2)));
      await g.neighborAllgatherv(mine(1 + (r % 2)), nagv, [1 + (((r + 1) % 4) % 2), 1 + (((r + 3) % 4) % 2)], [0, 1 + (((r + 1) % 4) % 2)]);
      const inagv = new Float64Array(2 * (1 + ((r + 1) % 2)));
      await g.ineighborAllgatherv(mine(1 + (r % 2)), inagv, [1 + (((r + 1) % 4) % 2), 1 + (((r + 3) % 4) % 2)], [0, 1 + (((r + 1) % 4) % 2)]).wait();
      const na2a = new Float64Array(2);
      await g.ineighborAlltoall(Float64Array.of(r * 10, r * 10 + 1), na2a).wait();
      const na2av = new Float64Array(3);
      await g.neighborAlltoallv(Float64Array.of(r, r + 0.5, r + 0.25), [1, 2], [0, 1], na2av, [2, 1], [0, 2]);
      return { map: mpi.graphMap(index, edges), get: g.graphGet(), count: g.graphNeighborsCount(r), nb: g.graphNeighbors(r), nag: [...nag], nagv: [...nagv], inagv: [...inagv], na2a: [...na2a], na2av: [...na2av] };
    });
    res.forEach((o, r) => {
      const [next, prev] = [(r + 1) % 4, (r + 3) % 4];
      expect(o.map).toBe(r);
      expect(o.get).toEqual({ index, edges });
      expect(o.count).toBe(2);
      expect(o.nb).toEqual([next, prev]);
      expect(o.nag).toEqual([...block(next, 2), ...block(prev, 2)]);
      const v = [...block(next, 1 + (next % 2)), ...block(prev, 1 + (prev % 2))];
      expect(o.nagv).toEqual(v);
      expect(o.inagv).toEqual(v);
      // the next rank sends its block 1 (to its prev, me), the previous rank its block 0 (to its next, me)
      expect(o.na2a).toEqual([next * 10 + 1, prev * 10]);
      // a rank sends 1 element to its next and 2 to its prev: from next I get 2 (its elements 1..2), from prev 1 (its element 0)
      expect(o.na2av).toEqual([next + 0.5, next + 0.25, prev]);
    });
  });

  it('persistent forms started twice: neighborAllgathervInit, neighborAlltoallInit, neighborAlltoallvInit on a graph ring, alltoallwInit with a type per peer', async () => {
    const res = await run(async (mpi) => {
      const g = (await mpi.graphCreate([2, 4, 6, 8], [1, 3, 2, 0, 3, 1, 0, 2]))!;
      const r = g.rank;
      const s = new Float64Array(2);
      const agv = new Float64Array(4);
      const c = 1 + ((r + 1) % 2);
      const a2a = new Float64Array(2);
      const a2av = new Float64Array(3);
      const w = new Float64Array(P);
      const wsend = new Float64Array(P);
      const types = [mpi.DOUBLE, mpi.DOUBLE, mpi.DOUBLE, mpi.DOUBLE];
      const bytes = [0, 8, 16, 24];
      const reqs: [string, Request, Float64Array][] = [
        ['neighborAllgathervInit', g.neighborAllgathervInit(s.subarray(0, 1 + (r % 2)), agv, [c, c], [0, c]), agv],
        ['neighborAlltoallInit', g.neighborAlltoallInit(s.subarray(0, 2), a2a), a2a],
        ['neighborAlltoallvInit', g.neighborAlltoallvInit(s, [1, 1], [0, 1], a2av, [1, 1], [0, 2]), a2av],
        ['alltoallwInit', mpi.alltoallwInit(wsend, [1, 1, 1, 1], bytes, types, w, [1, 1, 1, 1], bytes, types), w],
      ];
      const out: Record<string, number[][]> = {};
      for (const round of [1, 2]) {
        for (const [name, q, buf] of reqs) {
          s.set([round * 100 + r * 10, round * 100 + r * 10 + 1]);
          wsend.set([0, 1, 2, 3].map((j) => round * 100 + r * 10 + j));
          g.start(q);
          await q.wait();
          (out[name] ??= []).push([...buf]);
        }
      }
      return out;
    });
    res.forEach((o, r) => {
      const [next, prev] = [(r + 1) % 4, (r + 3) % 4];
      [1, 2].forEach((round, k) => {
        const x = (q: number, i: number): number => round * 100 + q * 10 + i;
        // the neighbours of an even rank are odd and send 2 elements, those of an odd rank 1
        const c = 1 + (next % 2);
        const first = (q: number): number[] => [x(q, 0), x(q, 1)].slice(0, c);
        expect(o.neighborAllgathervInit![k]!.slice(0, 2 * c)).toEqual([...first(next), ...first(prev)]);
        expect(o.neighborAlltoallInit![k]).toEqual([x(next, 1), x(prev, 0)]);
        expect(o.neighborAlltoallvInit![k]!.filter((_, i) => i !== 1)).toEqual([x(next, 1), x(prev, 0)]);
        expect(o.alltoallwInit![k]).toEqual([0, 1, 2, 3].map((q) => x(q, r)));
      });
    });
  });

  it('nonblocking collectives on an intercommunicator of ranks 0-1 and 2-3: ibarrier, iallgather, iallgatherv, ialltoall, ialltoallv, ireduce, igatherv, iscatter, iscatterv, ireduceScatter, ireduceScatterBlock; worldRank of a remote rank', async () => {
    const res = await run(async (mpi) => {
      const left = mpi.rank < 2;
      const half = (await mpi.split(left ? 0 : 1, mpi.rank))!;
      const ic = await half.intercommCreate(0, mpi, left ? 2 : 0, 3);
      const me = ic.rank;
      const v = (i: number): number => mpi.rank * 10 + i;
      // left rank 0 is the root of the rooted calls; the right group passes its rank, left rank 1 PROC_NULL
      const root = left ? (me === 0 ? mpi.ROOT : mpi.PROC_NULL) : 0;
      const isRoot = left && me === 0;
      const o: Record<string, number[]> = {};
      await ic.ibarrier().wait();
      const ag = new Float64Array(2);
      await ic.iallgather(Float64Array.of(v(0)), ag).wait();
      o.iallgather = [...ag];
      const agv = new Float64Array(2);
      await ic.iallgatherv(Float64Array.of(v(1)), agv, [1, 1], [1, 0]).wait();
      o.iallgatherv = [...agv];
      const a2a = new Float64Array(2);
      await ic.ialltoall(Float64Array.of(v(0), v(1)), a2a).wait();
      o.ialltoall = [...a2a];
      const a2av = new Float64Array(2);
      await ic.ialltoallv(Float64Array.of(v(2), v(3)), [1, 1], [1, 0], a2av, [1, 1], [0, 1]).wait();
      o.ialltoallv = [...a2av];
      const red = new Float64Array(2);
      await ic.ireduce(left ? null : Float64Array.of(v(0), v(1)), isRoot ? red : null, mpi.SUM, root).wait();
      o.ireduce = [...red];
      const gv = new Float64Array(2);
      await ic.igatherv(left ? null : Float64Array.of(v(5)), isRoot ? gv : null, isRoot ? [1, 1] : null, isRoot ? [1, 0] : null, root).wait();
      o.igatherv = [...gv];
      const sc = new Float64Array(1);
      await ic.iscatter(isRoot ? Float64Array.of(70, 71) : null, left ? null : sc, root).wait();
      o.iscatter = [...sc];
      const scv = new Float64Array(1);
      await ic.iscatterv(isRoot ? Float64Array.of(80, 81) : null, isRoot ? [1, 1] : null, isRoot ? [1, 0] : null, left ? null : scv, root).wait();
      o.iscatterv = [...scv];
      const rs = new Float64Array(1);
      await ic.ireduceScatter(Float64Array.of(v(6), v(7)), rs, [1, 1], mpi.MAX).wait();
      o.ireduceScatter = [...rs];
      const rsb = new Float64Array(1);
      await ic.ireduceScatterBlock(Float64Array.of(v(8), v(9)), rsb, mpi.SUM).wait();
      o.ireduceScatterBlock = [...rsb];
      o.worldRank = [ic.worldRank(0), ic.worldRank(1)];
      return { left, me, o };
    });
    for (const { left, me, o } of res) {
      const remote = left ? [2, 3] : [0, 1];
      const v = (rank: number, i: number): number => rank * 10 + i;
      expect(o.worldRank).toEqual(remote);
      expect(o.iallgather).toEqual(remote.map((q) => v(q, 0)));
      expect(o.iallgatherv).toEqual([v(remote[1]!, 1), v(remote[0]!, 1)]);
      expect(o.ialltoall).toEqual(remote.map((q) => v(q, me)));
      // remote rank j sends its element 2 to local rank 1 and its element 3 to local rank 0
      expect(o.ialltoallv).toEqual(remote.map((q) => v(q, me === 0 ? 3 : 2)));
      if (left && me === 0) {
        expect(o.ireduce).toEqual([v(2, 0) + v(3, 0), v(2, 1) + v(3, 1)]);
        expect(o.igatherv).toEqual([v(3, 5), v(2, 5)]);
      }
      if (!left) {
        expect(o.iscatter).toEqual([70 + me]);
        expect(o.iscatterv).toEqual([81 - me]);
      }
      expect(o.ireduceScatter).toEqual([Math.max(...remote.map((q) => v(q, 6 + me)))]);
      expect(o.ireduceScatterBlock).toEqual([remote.map((q) => v(q, 8 + me)).reduce((a, b) => a + b)]);
    }
  });

  it('ready sends (rsend, irsend) after the receive is posted; typeGetTrueExtent of a resized vector; a window: getGroup, getErrhandler, flushLocal, flushLocalAll, sync', async () => {
    const res = await run(async (mpi) => {
      const r = mpi.rank;
      const got = new Int32Array(3);
      if (r === 1) {
        const q = mpi.irecv(got, 0, 5);
        await mpi.barrier();
        await q.wait();
        const q2 = mpi.irecv(got.subarray(2), 0, 6);
        await mpi.barrier();
        await q2.wait();
      } else {
        await mpi.barrier();
        if (r === 0) await mpi.rsend(Int32Array.of(7, 8), 1, 5);
        await mpi.barrier();
        if (r === 0) await mpi.irsend(Int32Array.of(9), 1, 6).wait();
      }
      const vec = mpi.typeVector(3, 2, 4, mpi.INT32_T);
      const resized = mpi.typeCreateResized(vec, -8, 64);
      const trueExtent = mpi.typeGetTrueExtent(resized);
      const { win, buf } = await mpi.winAllocate(8 * P, 8);
      const handlers = [win.getErrhandler() === mpi.ERRORS_ARE_FATAL];
      win.setErrhandler(mpi.ERRORS_RETURN);
      handlers.push(win.getErrhandler() === mpi.ERRORS_RETURN);
      const members = { ranks: win.getGroup().translateRanks([0, 1, 2, 3], mpi.group), cmp: win.getGroup().compare(mpi.group) };
      await win.lockAll();
      await win.put(Float64Array.of(r + 0.5), (r + 1) % P, r);
      await win.flushLocal((r + 1) % P);
      await win.put(Float64Array.of(r + 0.75), (r + 2) % P, r);
      await win.flushLocalAll();
      await win.flushAll();
      await mpi.barrier();
      await win.sync();
      const seen = [...new Float64Array(buf.buffer, buf.byteOffset, P)];
      await win.unlockAll();
      await win.free();
      return { got: r === 1 ? [...got] : [], trueExtent, members, seen, handlers };
    });
    expect(res[1]!.got).toEqual([7, 8, 9]);
    res.forEach((o, r) => {
      // 3 blocks of 2 int32 at strides of 4: bytes 0 .. (2*4+2)*4 = 40, whatever the resized bounds say
      expect(o.trueExtent).toEqual({ lb: 0, extent: 40 });
      expect(o.handlers).toEqual([true, true]);
      expect(o.members).toEqual({ ranks: [0, 1, 2, 3], cmp: 'ident' });
      expect(o.seen[(r + 3) % P]).toBe(((r + 3) % P) + 0.5);
      expect(o.seen[(r + 2) % P]).toBe(((r + 2) % P) + 0.75);
    });
  });
});
