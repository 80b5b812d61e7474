/**
 * The collectives as a communicator offers them: every call on a sub-communicator with real
 * data, algorithm choice per call and per run, MPI_IN_PLACE, and argument checks that fail on
 * every rank before any message moves.
 */
import { describe, expect, it } from 'vitest';
import { main } from '../cli/main.ts';
import { RankError } from '../fabric/engine/engine.ts';
import { MpiError } from '../runtime/mpi/mpi.ts';
import { simulate } from '../runtime/simulate.ts';
import { rejection } from './helpers.ts';

describe('collectives on a communicator', () => {
  it('every collective on the odd ranks of 14 (a 7-rank split), with data computed serially', async () => {
    const r = await simulate({
      machine: 'xe6',
      nodes: 7,
      ppn: 2,
      program: async ({ mpi }) => {
        const c = (await mpi.split(mpi.rank % 2, 0))!;
        if (mpi.rank % 2 === 0) return null;
        const n = c.size;
        const me = c.rank;
        const root = 4;
        const v = (r: number, i: number): number => 10 * r + i;
        const out: Record<string, number[]> = {};
        const b = Int32Array.from({ length: 3 }, (_, i) => (me === root ? v(root, i) : -1));
        await c.bcast(b, root);
        out.bcast = Array.from(b);
        const mine = Int32Array.from({ length: 3 }, (_, i) => v(me, i));
        const red = new Int32Array(3);
        await c.reduce(mine, me === root ? red : null, mpi.SUM, root);
        if (me === root) out.reduce = Array.from(red);
        const all = new Int32Array(3);
        await c.allreduce(mine, all, mpi.MAX);
        out.allreduce = Array.from(all);
        const ag = new Int32Array(3 * n);
        await c.allgather(mine, ag);
        out.allgather = Array.from(ag);
        // rank r contributes r + 1 elements
        const counts = Array.from({ length: n }, (_, r) => r + 1);
        const displs = counts.map((_, r) => (r * (r + 1)) / 2);
        const agv = new Int32Array(displs[n - 1]! + counts[n - 1]!);
        await c.allgatherv(Int32Array.from({ length: me + 1 }, (_, i) => v(me, i)), agv, counts, displs);
        out.allgatherv = Array.from(agv);
        const a2a = new Int32Array(n);
        await c.alltoall(Int32Array.from({ length: n }, (_, j) => 100 * me + j), a2a);
        out.alltoall = Array.from(a2a);
        const rs = new Int32Array(1);
        await c.reduceScatterBlock(Int32Array.from({ length: n }, (_, j) => me + j), rs, mpi.SUM);
        out.reduceScatterBlock = Array.from(rs);
        const g = new Int32Array(n);
        await c.gather(Int32Array.of(me * me), me === root ? g : null, root);
        if (me === root) out.gather = Array.from(g);
        const sc = new Int32Array(1);
        await c.scatter(me === root ? Int32Array.from({ length: n }, (_, j) => 7 * j) : null, sc, root);
        out.scatter = Array.from(sc);
        const scan = new Int32Array(1);
        await c.scan(Int32Array.of(me + 1), scan, mpi.SUM);
        out.scan = Array.from(scan);
        const ex = Int32Array.of(-5);
        await c.exscan(Int32Array.of(me + 1), ex, mpi.SUM);
        out.exscan = Array.from(ex);
        return { me, n, out };
      },
    });
    const results = r.rankResults.filter((x) => x !== null);
    expect(results).toHaveLength(7);
    const n = 7;
    const v = (r: number, i: number): number => 10 * r + i;
    for (const { me, out } of results) {
      expect(out.bcast).toEqual([40, 41, 42]);
      if (me === 4) {
        expect(out.reduce).toEqual([0, 1, 2].map((i) => [...Array(n).keys()].reduce((s, r) => s + v(r, i), 0)));
        expect(out.gather).toEqual([...Array(n).keys()].map((r) => r * r));
      }
      expect(out.allreduce).toEqual([60, 61, 62]);
      expect(out.allgather).toEqual([...Array(n).keys()].flatMap((r) => [v(r, 0), v(r, 1), v(r, 2)]));
      expect(out.allgatherv).toEqual([...Array(n).keys()].flatMap((r) => Array.from({ length: r + 1 }, (_, i) => v(r, i))));
      expect(out.alltoall).toEqual([...Array(n).keys()].map((r) => 100 * r + me));
      expect(out.reduceScatterBlock).toEqual([[...Array(n).keys()].reduce((s, r) => s + r + me, 0)]);
      expect(out.scatter).toEqual([7 * me]);
      expect(out.scan).toEqual([((me + 1) * (me + 2)) / 2]);
      expect(out.exscan).toEqual(me === 0 ? [-5] : [(me * (me + 1)) / 2]);
    }
  });

  it('IN_PLACE: allreduce, allgather, alltoall, scan and reduce at the root take their data from the receive buffer', async () => {
    const r = await simulate({
      machine: 'xc30',
      nodes: 5,
      program: async ({ mpi }) => {
        const me = mpi.rank;
        const a = Float64Array.of(me, 2 * me);
        await mpi.allreduce(mpi.IN_PLACE, a, mpi.SUM);
        const g = new Int32Array(5);
        g[me] = me * 3;
        await mpi.allgather(mpi.IN_PLACE, g);
        const t = Int32Array.from({ length: 5 }, (_, j) => 10 * me + j);
        await mpi.alltoall(mpi.IN_PLACE, t);
        const s = Int32Array.of(me);
        await mpi.scan(mpi.IN_PLACE, s, mpi.MAX);
        const red = Int32Array.of(me + 1);
        await mpi.reduce(me === 2 ? mpi.IN_PLACE : red.slice(), red, mpi.PROD, 2);
        return { a: Array.from(a), g: Array.from(g), t: Array.from(t), s: s[0], red: red[0] };
      },
    });
    r.rankResults.forEach((x, me) => {
      expect(x.a).toEqual([10, 20]);
      expect(x.g).toEqual([0, 3, 6, 9, 12]);
      expect(x.t).toEqual([0, 1, 2, 3, 4].map((j) => 10 * j + me));
      expect(x.s).toBe(me);
      if (me === 2) expect(x.red).toBe(120);
    });
  });
});

describe('choosing algorithms', () => {
  /** Time of one 64 KiB allreduce on 8 ranks, and its result. */
  async function allreduceRun(opts: { algorithm?: string; run?: Record<string, string> }): Promise<{ us: number; ok: boolean }> {
    const r = await simulate({
      machine: 'xe6',
      nodes: 8,
      algorithms: opts.run,
      program: async ({ mpi, now }) => {
        const send = Float64Array.from({ length: 8192 }, (_, i) => mpi.rank + i);
        const recv = new Float64Array(8192);
        await mpi.barrier();
        const t0 = now();
        await mpi.allreduce(send, recv, mpi.SUM, opts.algorithm ? { algorithm: opts.algorithm } : undefined);
        const ok = recv.every((x, i) => x === 28 + 8 * i);
        return { us: now() - t0, ok };
      },
    });
    return { us: Math.max(...r.rankResults.map((x) => x.us)), ok: r.rankResults.every((x) => x.ok) };
  }

  it('a per-call algorithm changes the time, not the answer; the run-wide choice does the same; a call option wins over the run', async () => {
    const auto = await allreduceRun({});
    const ring = await allreduceRun({ algorithm: 'ring' });
    const rd = await allreduceRun({ algorithm: 'recursiveDoubling' });
    const runRing = await allreduceRun({ run: { allreduce: 'ring' } });
    const runRingCallRd = await allreduceRun({ run: { allreduce: 'ring' }, algorithm: 'recursiveDoubling' });
    for (const x of [auto, ring, rd, runRing, runRingCallRd]) expect(x.ok).toBe(true);
    // 64 KiB on 8 ranks: MPICH picks Rabenseifner, which moves less than recursive doubling
    expect(auto.us).toBeLessThan(rd.us);
    expect(ring.us).not.toBe(rd.us);
    expect(runRing.us).toBe(ring.us);
    expect(runRingCallRd.us).toBe(rd.us);
  });

  it('an unknown algorithm fails the call with MPI_ERR_ARG listing the valid names; an unknown run choice fails before any rank starts', async () => {
    const e = await rejection(
      simulate({
        machine: 'xe6',
        nodes: 2,
        program: async ({ mpi }) => {
          await mpi.bcast(new Int32Array(1), 0, { algorithm: 'fastest' });
        },
      }),
    );
    expect(e).toBeInstanceOf(RankError);
    expect(e.message).toMatch(/MPI_ERR_ARG: unknown bcast algorithm 'fastest'; valid: binomial, scatterRecursiveDoubling, scatterRing, linear/);
    await expect(simulate({ machine: 'xe6', nodes: 2, algorithms: { allreduce: 'nope' }, program: async () => 0 })).rejects.toThrow(/unknown allreduce algorithm 'nope'/);
    await expect(simulate({ machine: 'xe6', nodes: 2, algorithms: { allreduse: 'ring' }, program: async () => 0 })).rejects.toThrow(/unknown collective 'allreduse'/);
  });

  it('phit collectives lists every collective and its algorithms; run --coll picks one and rejects a bad one', async () => {
    const out: string[] = [];
    expect(await main(['collectives'], { out: (s) => out.push(s), err: () => {} })).toBe(0);
    expect(out).toContain('allreduce:');
    expect(out.some((l) => l.startsWith('  rabenseifner [MPICH] (commutative ops only):') && l.includes('; time 2·lg p·α'))).toBe(true);
    const err: string[] = [];
    const code = await main(['run', 'halo2d', '--nodes', '2', '--coll', 'allreduce=nope'], { out: () => {}, err: (s) => err.push(s) });
    expect(code).not.toBe(0);
    expect(err.join('\n')).toMatch(/--coll: MPI_ERR_ARG: unknown allreduce algorithm 'nope'/);
    expect(await main(['run', 'halo2d', '--nodes', '4', '--coll', 'allreduce=ring', '--param', 'iterations=1'], { out: () => {}, err: () => {} })).toBe(0);
  });
});

describe('collective argument checks (every rank fails before any message moves)', () => {
  it.each([
    { what: 'a root out of range', cls: 'MPI_ERR_ROOT', call: (m: Mpi) => m.bcast(new Int32Array(1), 3) },
    { what: 'allgather into a buffer that is not size x send', cls: 'MPI_ERR_COUNT', call: (m: Mpi) => m.allgather(new Int32Array(2), new Int32Array(5)) },
    { what: 'a bitwise op on doubles', cls: 'MPI_ERR_OP', call: (m: Mpi) => m.allreduce(new Float64Array(2), new Float64Array(2), m.BAND) },
    { what: 'MINLOC on an odd number of elements', cls: 'MPI_ERR_COUNT', call: (m: Mpi) => m.allreduce(new Float64Array(3), new Float64Array(3), m.MINLOC) },
    { what: 'alltoallv blocks past the buffer', cls: 'MPI_ERR_COUNT', call: (m: Mpi) => m.alltoallv(new Int32Array(3), [2, 2, 2], [0, 1, 2], new Int32Array(6), [2, 2, 2], [0, 2, 4]) },
    { what: 'a plain object as op', cls: 'MPI_ERR_OP', call: (m: Mpi) => m.allreduce(new Int32Array(1), new Int32Array(1), {} as never) },
    { what: 'a DataView as buffer', cls: 'MPI_ERR_BUFFER', call: (m: Mpi) => m.bcast(new DataView(new ArrayBuffer(8)) as never, 0) },
  ])('$what: $cls', async ({ cls, call }) => {
    const e = await rejection(
      simulate({
        machine: 'xe6',
        nodes: 3,
        program: async ({ mpi }) => {
          await call(mpi);
        },
      }),
    );
    expect(e).toBeInstanceOf(RankError);
    expect(((e as RankError).error as MpiError).errorClass).toBe(cls);
    // the failure names the call
    expect(e.message).toMatch(/bcast|allgather|allreduce|alltoallv/);
  });
});

type Mpi = Parameters<Parameters<typeof simulate>[0]['program']>[0]['mpi'];
