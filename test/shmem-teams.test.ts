/**
 * OpenSHMEM 1.5 teams (§9.4) and team collectives (§9.9): splits, queries, TEAM_SHARED, and the
 * data every team collective gives, computed here for every PE; ports of the checks of SOS's
 * test/unit/reduce_active_set.c, test/unit team-creation loop and spec examples
 * (test/spec-example/shmem_team_translate.c, shmem_team_split_2D.c).
 */
import { describe, expect, it } from 'vitest';
import type { RankContext } from '../runtime/rank.ts';
import { ShmemError, type ShmemTeam, type ShmemType } from '../runtime/shmem/shmem.ts';
import { simulate } from '../runtime/simulate.ts';
import { rejection } from './helpers.ts';

async function run<R>(machine: string, nodes: number, ppn: number, program: (ctx: RankContext) => Promise<R>): Promise<readonly R[]> {
  const r = await simulate({ machine, nodes, ppn, program });
  return r.rankResults;
}

/** A deterministic value of PE `pe`, element `j` (seeded, no Math.random), in -1000..1000. */
function val(pe: number, j: number, salt: number): number {
  let x = (pe * 7919 + j * 104729 + salt * 1299709) >>> 0;
  x ^= x << 13;
  x ^= x >>> 17;
  x ^= x << 5;
  return ((x >>> 0) % 2001) - 1000;
}

type Op = 'sum' | 'prod' | 'min' | 'max' | 'and' | 'or' | 'xor';
const OPS: readonly Op[] = ['sum', 'prod', 'min', 'max', 'and', 'or', 'xor'];
const TYPES: readonly ShmemType[] = ['int32', 'uint32', 'int64', 'uint64', 'float64'];
const valid = (op: Op, type: ShmemType): boolean => type !== 'float64' || ['sum', 'prod', 'min', 'max'].includes(op);

/** PE `pe`'s element `j` for a reduction of `op` on `type` (small values for products). */
function elem(pe: number, j: number, op: Op, type: ShmemType): number | bigint {
  const v = op === 'prod' ? (val(pe, j, 9) % 7) + (val(pe, j, 9) % 7 === 0 ? 2 : 0) : val(pe, j, 5);
  if (type === 'float64') return v / 8;
  if (type === 'int32') return v;
  if (type === 'uint32') return v >>> 0;
  if (type === 'int64') return BigInt(v) * (op === 'prod' ? 1n : 4_000_000_007n);
  return BigInt.asUintN(64, BigInt(v) * (op === 'prod' ? 1n : 4_000_000_007n));
}

/** The reduction of `op` over `vals` in that order, wrapping as C's fixed-width `type` does. */
function reduce(op: Op, type: ShmemType, vals: readonly (number | bigint)[]): number | bigint {
  const f = (a: number | bigint, b: number | bigint): number | bigint => {
    if (typeof a === 'bigint' && typeof b === 'bigint') {
      const w = (x: bigint): bigint => (type === 'int64' ? BigInt.asIntN(64, x) : BigInt.asUintN(64, x));
      return w({ sum: a + b, prod: a * b, min: b < a ? b : a, max: b > a ? b : a, and: a & b, or: a | b, xor: a ^ b }[op]);
    }
    const x = a as number;
    const y = b as number;
    if (type === 'float64') return { sum: x + y, prod: x * y, min: Math.min(x, y), max: Math.max(x, y), and: 0, or: 0, xor: 0 }[op];
    const r = { sum: x + y, prod: Math.imul(x, y), min: Math.min(x, y), max: Math.max(x, y), and: x & y, or: x | y, xor: x ^ y }[op];
    return type === 'int32' ? r | 0 : r >>> 0;
  };
  return vals.reduce(f);
}

/** The typed view of `bytes` at element 0 for `type`. */
function view(s: { int32(): Int32Array; uint32(): Uint32Array; int64(): BigInt64Array; uint64(): BigUint64Array; float64(): Float64Array }, type: ShmemType): ArrayLike<number | bigint> & { [i: number]: number | bigint } {
  return s[type]() as unknown as ArrayLike<number | bigint> & { [i: number]: number | bigint };
}

const K = 3;

/** What one PE does on a team `t` (or nothing outside it): every team collective, its results. */
async function teamCollectives(ctx: RankContext, t: ShmemTeam | null, n: number): Promise<Record<string, unknown>> {
  const s = ctx.shmem;
  const me = s.myPe();
  const a = await s.malloc(8 * 64);
  const b = await s.malloc(8 * 64);
  const c = await s.malloc(8 * 64);
  if (t === null) return {};
  const tn = s.teamNPes(t);
  const tme = s.teamMyPe(t);
  const out: Record<string, unknown> = {};
  // broadcast from team PE root
  const root = (tn * 3 + 1) % tn;
  a.int64().set([BigInt(me) * 1000n + 1n, -BigInt(me), 7n]);
  b.int64().fill(-9n);
  await s.broadcast(t, b, a, 3, root, 'int64');
  out.bcast = [...b.int64().subarray(0, 4)];
  // fcollect of two int32 each
  a.int32().set([me, -3 * me]);
  await s.fcollect(t, b, a, 2, 'int32');
  out.fcollect = [...b.int32().subarray(0, 2 * tn)];
  // collect: PE me gives me % 3 int64 elements, 0 included
  a.int64().set([BigInt(me) * 10n, BigInt(me) * 10n + 1n]);
  b.int64().fill(-1n);
  await s.collect(t, b, a, me % 3, 'int64');
  out.collect = [...b.int64().subarray(0, 2 * tn + 1)];
  // alltoall: block j of source goes to team PE j
  for (let j = 0; j < tn; j++) a.int64().set([BigInt(me * 100 + j), BigInt(-me)], 2 * j);
  await s.alltoall(t, b, a, 2, 'int64');
  out.alltoall = [...b.int64().subarray(0, 2 * tn)];
  // alltoalls: 2 elements per pair, dest stride 2, source stride 3
  const src = a.int32();
  for (let i = 0; i < src.length; i++) src[i] = me * 1000 + i;
  c.int32().fill(-1);
  await s.alltoalls(t, c, a, 2, 3, 2, 'int32');
  out.alltoalls = [...c.int32().subarray(0, 4 * tn)];
  // every reduction on every type it takes
  for (const op of OPS) {
    for (const type of TYPES) {
      if (!valid(op, type)) continue;
      const v = view(a, type);
      for (let j = 0; j < K; j++) v[j] = elem(me, j, op, type);
      await s[`${op}Reduce`](t, b, a, K, type);
      out[`${op}.${type}`] = Array.from({ length: K }, (_, j) => view(b, type)[j]);
    }
  }
  // in place: dest is source
  a.float64().set([me + 0.25, -me, 1]);
  await s.sumReduce(t, a, a, 3, 'float64');
  out.inplace = [...a.float64().subarray(0, 3)];
  await s.teamSync(t);
  out.me = tme;
  out.n = n;
  return out;
}

/** What `teamCollectives` must give on the team of job PEs `pes` (in team order), PE `pe` of it. */
function expected(pes: readonly number[], pe: number): Record<string, unknown> {
  const tn = pes.length;
  const root = pes[(tn * 3 + 1) % tn]!;
  const tme = pes.indexOf(pe);
  const out: Record<string, unknown> = {
    bcast: [BigInt(root) * 1000n + 1n, -BigInt(root), 7n, -9n],
    fcollect: pes.flatMap((p) => [p, 0 - 3 * p]),
    collect: [...pes.flatMap((p) => [BigInt(p) * 10n, BigInt(p) * 10n + 1n].slice(0, p % 3)), -1n],
    alltoall: pes.flatMap((p) => [BigInt(p * 100 + tme), BigInt(-p)]),
    alltoalls: pes.flatMap((p) => [p * 1000 + (tme * 2 + 0) * 3, -1, p * 1000 + (tme * 2 + 1) * 3, -1]),
  };
  const col = out.collect as bigint[];
  while (col.length < 2 * tn + 1) col.push(-1n);
  out.collect = col.slice(0, 2 * tn + 1);
  for (const op of OPS) {
    for (const type of TYPES) {
      if (!valid(op, type)) continue;
      out[`${op}.${type}`] = Array.from({ length: K }, (_, j) =>
        reduce(
          op,
          type,
          pes.map((p) => elem(p, j, op, type)),
        ),
      );
    }
  }
  // folded in team order, as every PE folds
  out.inplace = [pes.map((p) => p + 0.25).reduce((u, w) => u + w), pes.map((p) => -p).reduce((u, w) => u + w), tn];
  out.me = tme;
  return out;
}

const shapes = [
  { n: 2, nodes: 2, ppn: 1 },
  { n: 4, nodes: 2, ppn: 2 },
  { n: 5, nodes: 5, ppn: 1 },
  { n: 8, nodes: 4, ppn: 2 },
];
const runs = [
  ...['xc30', 'xe6'].flatMap((machine) => shapes.map((s) => ({ machine, ...s }))),
  ...['xt4', 'sc5832', 'bw'].map((machine) => ({ machine, n: 8, nodes: 4, ppn: 2 })),
];

describe('OpenSHMEM teams', () => {
  it.each(runs)('$machine, $n PEs ($nodes nodes x $ppn): splits, queries, TEAM_SHARED and every team collective give the data computed here', async ({ machine, n, nodes, ppn }) => {
    const res = await run(machine, nodes, ppn, async (ctx) => {
      const s = ctx.shmem;
      const me = s.myPe();
      // the odd PEs, and every PE in reverse order (a negative stride)
      const odd = await s.teamSplitStrided(s.TEAM_WORLD, 1, 2, Math.floor(n / 2));
      const rev = await s.teamSplitStrided(s.TEAM_WORLD, n - 1, -1, n);
      const sh = s.TEAM_SHARED;
      const q = {
        world: [s.teamMyPe(s.TEAM_WORLD), s.teamNPes(s.TEAM_WORLD)],
        odd: [s.teamMyPe(odd), s.teamNPes(odd), s.teamTranslatePe(odd, s.teamMyPe(odd), s.TEAM_WORLD), s.teamTranslatePe(s.TEAM_WORLD, me, odd)],
        rev: [s.teamMyPe(rev), s.teamNPes(rev), s.teamTranslatePe(rev, 0, s.TEAM_WORLD), s.teamTranslatePe(rev, s.teamMyPe(rev), odd)],
        shared: [s.teamMyPe(sh), s.teamNPes(sh), s.teamTranslatePe(sh, 0, s.TEAM_WORLD)],
      };
      const onRev = await teamCollectives(ctx, rev, n);
      const onOdd = await teamCollectives(ctx, odd, n);
      // TEAM_SHARED: the sum of the node's PE numbers; TEAM_WORLD: the same as sumToAll
      const x = await s.malloc(16);
      x.int32().set([me + 1, 1]);
      await s.sumReduce(sh, x.at(8), x, 2, 'int32');
      const nodeSum = [...x.int32().subarray(2, 4)];
      x.float64().set([me / 4]);
      await s.maxReduce(s.TEAM_WORLD, x.at(8), x, 1, 'float64');
      const worldMax = x.float64()[1];
      await s.barrierAll();
      return { q, onRev, onOdd, nodeSum, worldMax, node: ctx.machine.nodeOf(me) };
    });
    expect(res).toHaveLength(n);
    const oddPes = Array.from({ length: Math.floor(n / 2) }, (_, i) => 1 + 2 * i);
    const revPes = Array.from({ length: n }, (_, i) => n - 1 - i);
    for (const [pe, r] of res.entries()) {
      const nodePes = res.flatMap((o, p) => (o.node === r.node ? [p] : []));
      const oi = oddPes.indexOf(pe);
      expect(r.q, `PE ${pe}`).toEqual({
        world: [pe, n],
        odd: oi >= 0 ? [oi, oddPes.length, pe, oi] : [-1, -1, -1, -1],
        rev: [n - 1 - pe, n, n - 1, oi],
        shared: [nodePes.indexOf(pe), nodePes.length, nodePes[0]],
      });
      expect(r.onRev, `PE ${pe} on the reversed team`).toEqual({ ...expected(revPes, pe), n });
      if (oi >= 0) expect(r.onOdd, `PE ${pe} on the odd team`).toEqual({ ...expected(oddPes, pe), n });
      else expect(r.onOdd).toEqual({});
      expect(r.nodeSum).toEqual([nodePes.reduce((a, p) => a + p + 1, 0), nodePes.length]);
      expect(r.worldMax).toBe((n - 1) / 4);
    }
  });

  // SOS test/unit/reduce_active_set.c (its team form): on every PE i..n-1 of a shrinking team,
  // the max of the PE numbers is n-1 and the min is i, for every iteration i
  it.each([
    { machine: 'xe6', nodes: 5, ppn: 1 },
    { machine: 'xc30', nodes: 4, ppn: 2 },
  ])('SOS reduce_active_set on $machine ($nodes x $ppn): max and min over shrinking teams of long', async ({ machine, nodes, ppn }) => {
    const nelem = 10;
    const res = await run(machine, nodes, ppn, async (ctx) => {
      const s = ctx.shmem;
      const me = s.myPe();
      const npes = s.nPes();
      const src = await s.malloc(8 * nelem);
      const dmax = await s.malloc(8 * nelem);
      const dmin = await s.malloc(8 * nelem);
      src.int64().fill(BigInt(me));
      dmax.int64().fill(-1n);
      dmin.int64().fill(-1n);
      await s.barrierAll();
      let errors = 0;
      for (let i = 0; i < npes; i++) {
        const team = await s.teamSplitStrided(s.TEAM_WORLD, i, 1, npes - i);
        if (team !== s.TEAM_INVALID) {
          await s.maxReduce(team, dmax, src, nelem, 'int64');
          errors += [...dmax.int64()].filter((v) => v !== BigInt(npes - 1)).length;
          await s.minReduce(team, dmin, src, nelem, 'int64');
          errors += [...dmin.int64()].filter((v) => v !== BigInt(i)).length;
        }
      }
      return errors;
    });
    expect(res).toEqual(res.map(() => 0));
  });

  // SOS's team-creation loop (test/unit, NUM_TEAMS 64): split teams of 1 + i % npes PEs until a
  // split fails everywhere, then destroy the oldest and retry; every PE sees the same outcome
  it('SOS team creation loop: 64 splits; a split fails on every PE when PE 0 has no slot left, and succeeds again after a destroy', async () => {
    const res = await run('xc30', 2, 2, async (ctx) => {
      const s = ctx.shmem;
      const npes = s.nPes();
      const teams: (ShmemTeam | null)[] = [];
      const sizes: number[] = [];
      const failures: number[] = [];
      let j = 0;
      let live = 0;
      let maxLive = 0;
      for (let i = 0; i < 64; ) {
        try {
          teams[i] = await s.teamSplitStrided(s.TEAM_WORLD, 0, 1, 1 + (i % npes));
          sizes[i] = s.teamNPes(teams[i]!);
          i++;
          maxLive = Math.max(maxLive, ++live);
        } catch (e) {
          if (!(e instanceof ShmemError)) throw e;
          failures.push(i);
          if (i === j) break;
          s.teamDestroy(teams[j++]!);
          live--;
        }
      }
      return { made: teams.length, failures, maxLive, sizes };
    });
    // PE 0 is in every team: it runs out after 14 (16 slots less TEAM_WORLD's and TEAM_SHARED's)
    expect(res[0]!.maxLive).toBe(14);
    for (const [pe, r] of res.entries()) {
      expect(r.made).toBe(64);
      expect(r.failures).toEqual(res[0]!.failures);
      expect(r.failures[0]).toBe(14);
      expect(r.sizes).toEqual(Array.from({ length: 64 }, (_, i) => (pe < 1 + (i % 4) ? 1 + (i % 4) : -1)));
    }
  });

  // SOS test/spec-example/shmem_team_translate.c and shmem_team_split_2D.c
  it.each([
    { machine: 'xe6', nodes: 4, ppn: 2 },
    { machine: 'xc30', nodes: 5, ppn: 1 },
  ])('spec examples on $machine ($nodes x $ppn): translate from the even team to TEAM_WORLD; 3-D coordinates from two 2-D splits', async ({ machine, nodes, ppn }) => {
    const res = await run(machine, nodes, ppn, async (ctx) => {
      const s = ctx.shmem;
      const npes = s.nPes();
      const even = await s.teamSplitStrided(s.TEAM_WORLD, 0, 2, Math.floor(npes / 2));
      const global = s.teamTranslatePe(even, s.teamMyPe(even), s.TEAM_WORLD);
      // x * y == npes with |x - y| smallest
      let ydim = 1;
      for (let d = Math.ceil(Math.sqrt(npes)); d >= 1; d--) {
        if (npes % d === 0) {
          ydim = d;
          break;
        }
      }
      const xdim = npes / ydim;
      const { xTeam, yTeam: yz } = await s.teamSplit2d(s.TEAM_WORLD, xdim);
      const { xTeam: yTeam, yTeam: zTeam } = await s.teamSplit2d(yz, ydim);
      s.teamDestroy(yz);
      const xyz = [s.teamMyPe(xTeam), s.teamMyPe(yTeam), s.teamMyPe(zTeam)];
      // one sync per cell, as the example prints in order
      for (let i = 0; i < xdim * ydim; i++) await s.teamSync(s.TEAM_WORLD);
      return { global, isEven: even !== null, xyz, dims: [xdim, ydim] };
    });
    for (const [pe, r] of res.entries()) {
      expect(r.global).toBe(r.isEven ? pe : -1);
      expect(r.isEven).toBe(pe % 2 === 0 && pe < 2 * Math.floor(res.length / 2));
      const [xdim, ydim] = r.dims as [number, number];
      const [x, y, z] = r.xyz as [number, number, number];
      expect(x + xdim * (y + ydim * z), `PE ${pe} at (${x}, ${y}, ${z})`).toBe(pe);
    }
  });

  // the checks of the OpenSHMEM verification suite's shmem_team_destroy test: each triplet
  // twice, so a destroyed team's slot must come back
  it('a team is destroyed and made again from the same triplet, a negative stride included; membership and size as the triplet says', async () => {
    const res = await run('xe6', 3, 2, async (ctx) => {
      const s = ctx.shmem;
      const npes = s.nPes();
      const me = s.myPe();
      const out: string[] = [];
      for (const [start, stride, size] of [
        [0, 1, npes],
        [0, 2, Math.floor((npes + 1) / 2)],
        [1, 2, Math.floor(npes / 2)],
        [npes - 1, -1, npes],
      ] as const) {
        for (let round = 0; round < 2; round++) {
          const team = await s.teamSplitStrided(s.TEAM_WORLD, start, stride, size);
          const named = Array.from({ length: size }, (_, i) => start + i * stride).includes(me);
          if (named !== (team !== null)) out.push(`${start},${stride},${size} round ${round}: membership`);
          if (team) {
            if (s.teamNPes(team) !== size) out.push(`${start},${stride},${size}: ${s.teamNPes(team)} PEs`);
            s.teamDestroy(team);
          }
          await s.barrierAll();
        }
      }
      return out;
    });
    expect(res).toEqual(res.map(() => []));
  });

  it('a team sync waits only for the PEs of the team: the odd PEs sync 20 times while the even ones compute', async () => {
    const res = await run('xc30', 2, 2, async (ctx) => {
      const s = ctx.shmem;
      const me = s.myPe();
      const odd = await s.teamSplitStrided(s.TEAM_WORLD, 1, 2, 2);
      const t0 = ctx.now();
      if (odd) for (let i = 0; i < 20; i++) await s.teamSync(odd);
      else await ctx.compute({ us: 200 });
      const took = ctx.now() - t0;
      await s.barrierAll();
      return { me, took };
    });
    // 20 syncs of two PEs on different nodes: a network round trip each, far less than 200 us
    expect(res[1]!.took).toBeGreaterThan(20 * 0.5);
    expect(res[1]!.took).toBeLessThan(100);
    expect(res[3]!.took).toBeLessThan(100);
    expect(res[0]!.took).toBeGreaterThanOrEqual(200);
  });

  it('traces and --metrics name the team calls as OpenSHMEM does', async () => {
    const r = await simulate({
      machine: 'xe6',
      nodes: 2,
      metrics: true,
      program: async (ctx) => {
        const s = ctx.shmem;
        const a = await s.malloc(64);
        const t = await s.teamSplitStrided(s.TEAM_WORLD, 0, 1, 2);
        await s.sumReduce(t, a.at(8), a, 1, 'int64');
        await s.broadcastmem(t, a.at(16), a, 8, 0);
        await s.teamSync(t);
        s.teamDestroy(t);
        return 0;
      },
    });
    const names = r.metrics!.calls.map((c) => c.name);
    for (const n of ['shmem_team_split_strided', 'shmem_sum_reduce', 'shmem_broadcastmem', 'shmem_team_sync', 'shmem_team_destroy']) expect(names).toContain(n);
    expect(r.metrics!.calls.find((c) => c.name === 'shmem_broadcastmem')).toMatchObject({ calls: 2, bytes: 16 });
  });

  it('bad arguments: each team routine fails with one line naming the routine and the value', async () => {
    const res = await run('xe6', 2, 1, async (ctx) => {
      const s = ctx.shmem;
      const a = await s.malloc(64);
      const out: string[] = [];
      const note = async (p: Promise<unknown> | (() => unknown)): Promise<void> => {
        const e = await rejection(typeof p === 'function' ? Promise.resolve().then(p) : p);
        out.push(`${e instanceof ShmemError ? 'ShmemError' : e.name}: ${e.message}`);
      };
      const t = await s.teamSplitStrided(s.TEAM_WORLD, 0, 1, 2);
      const gone = (await s.teamSplitStrided(s.TEAM_WORLD, 0, 1, 2))!;
      s.teamDestroy(gone);
      await note(s.teamSplitStrided(s.TEAM_WORLD, 2, 1, 1));
      await note(s.teamSplitStrided(s.TEAM_WORLD, 1, 1, 2));
      await note(s.teamSplit2d(s.TEAM_WORLD, 0));
      await note(() => s.teamDestroy(s.TEAM_WORLD));
      await note(() => s.teamMyPe(gone));
      await note(() => s.teamNPes({} as never));
      await note(() => s.teamGetConfig(null));
      await note(() => s.teamTranslatePe(t, 0.5, s.TEAM_WORLD));
      await note(s.teamSync(null));
      await note(s.teamSplitStrided(t, 0, 1, 1, { colors: 2 } as never));
      await note(s.broadcast(t, a, a.at(8), 1, 2, 'int64'));
      await note(s.collect(t, a.at(4), a, 1, 'int64'));
      await note(s.fcollect(t, a, a.at(8), 5, 'int64'));
      await note(s.alltoallmem(t, a, a, 40));
      await note(s.alltoalls(t, a, a, 0, 1, 1, 'int32'));
      await note(s.andReduce(t, a, a.at(8), 1, 'float64'));
      await note(s.sumReduce(t, a, a.at(8), 1, 'int128' as never));
      await note(s.collectmem(t, new Uint8Array(8) as never, a, 8));
      await note(s.fcollectmem(t, a, a, 33));
      await note(s.broadcastmem(t, a, a, -1, 0));
      await note(s.alltoall(t, a, a, 1, 'float128' as never));
      await note(s.alltoallsmem(t, a, a, 1, 0, 1));
      await note(s.prodReduce(t, a, a, 1.5, 'int32'));
      await note(s.minReduce(t, a.at(60), a, 1, 'int64'));
      await note(s.maxReduce(t, a, a.at(2), 1, 'uint32'));
      await note(s.orReduce(t, a, a, 1, 'float64'));
      await note(s.xorReduce(null, a, a, 1, 'int64'));
      return out;
    });
    expect(res[1]).toEqual(res[0]!.map((m) => m.replace('PE 0', 'PE 1')));
    expect(res[0]).toEqual([
      'ShmemError: teamSplitStrided: start=2 is not a PE of the parent TEAM_WORLD (0..1)',
      'ShmemError: teamSplitStrided: start=1, stride=1, size=2 name PE 2 of the parent TEAM_WORLD, which has PEs 0..1',
      'ShmemError: teamSplit2d: xrange=0 must be a positive integer',
      'ShmemError: teamDestroy: TEAM_WORLD is predefined and cannot be destroyed',
      'ShmemError: teamMyPe: team (team TEAM_WORLD/1 (2 PEs)) was destroyed',
      'ShmemError: teamNPes: team is not a team of PE 0 (make one with teamSplitStrided)',
      'ShmemError: teamGetConfig: team is TEAM_INVALID',
      'ShmemError: teamTranslatePe: srcPe=0.5 must be an integer',
      'ShmemError: teamSync: team is TEAM_INVALID',
      'ShmemError: teamSplitStrided: config.colors is not a team option; valid: numContexts',
      'ShmemError: broadcast: root=2 is not a PE of team TEAM_WORLD/0 (2 PEs) (0..1)',
      'ShmemError: collect: dest is at byte offset 4, not aligned to the 8-byte int64',
      'ShmemError: fcollect: 80 bytes at dest run past the end of its symmetric object (64 bytes from byte offset 0)',
      'ShmemError: alltoallmem: 80 bytes at dest run past the end of its symmetric object (64 bytes from byte offset 0)',
      'ShmemError: alltoalls: dst=0 must be a positive integer',
      'ShmemError: andReduce: type=float64; valid: int8, uint8, int16, uint16, int32, uint32, int64, uint64',
      'ShmemError: sumReduce: type=int128; valid: int8, uint8, int16, uint16, int32, uint32, int64, uint64, float32, float64, longdouble, complexf, complexd',
      'ShmemError: collectmem: dest is a Uint8Array(8), not a symmetric address of PE 0 (allocate it with shmem.malloc; private memory cannot be named remotely)',
      'ShmemError: fcollectmem: 66 bytes at dest run past the end of its symmetric object (64 bytes from byte offset 0)',
      'ShmemError: broadcastmem: nbytes=-1 must be a non-negative integer',
      'ShmemError: alltoall: type=float128; valid: int8, uint8, int16, uint16, int32, uint32, int64, uint64, float32, float64, longdouble',
      'ShmemError: alltoallsmem: sst=0 must be a positive integer',
      'ShmemError: prodReduce: nreduce=1.5 must be a non-negative integer',
      'ShmemError: minReduce: 8 bytes at dest run past the end of its symmetric object (4 bytes from byte offset 60)',
      'ShmemError: maxReduce: source is at byte offset 2, not aligned to the 4-byte uint32',
      'ShmemError: orReduce: type=float64; valid: int8, uint8, int16, uint16, int32, uint32, int64, uint64',
      'ShmemError: xorReduce: team is TEAM_INVALID',
    ]);
  });

  it('a team collective called with different arguments on different PEs fails with one line naming both PEs and their values', async () => {
    const err = await rejection(
      run('xc30', 2, 2, async (ctx) => {
        const s = ctx.shmem;
        const a = await s.malloc(64);
        const t = await s.teamSplitStrided(s.TEAM_WORLD, 1, 1, 3);
        if (t) await s.broadcastmem(t, a.at(32), a, s.myPe() === 3 ? 16 : 8, 0);
        return 0;
      }),
    );
    expect(err.message).toMatch(/^rank \d failed at [0-9.]+ us: broadcastmem: PE \d passes nbytes=(16|8) but PE \d passed nbytes=(8|16) \(collective call 1 on team TEAM_WORLD\/0 \(3 PEs\)\)$/);
    expect(err.message).toContain('PE 3');
  });

  it('syncAll on one PE where another calls a reduction on TEAM_WORLD fails naming both calls', async () => {
    const err = await rejection(
      run('xe6', 2, 1, async (ctx) => {
        const s = ctx.shmem;
        const a = await s.malloc(16);
        if (s.myPe() === 0) await s.syncAll();
        else {
          await ctx.compute({ us: 1 });
          await s.sumReduce(s.TEAM_WORLD, a.at(8), a, 1, 'int64');
        }
        return 0;
      }),
    );
    expect(err.message).toMatch(/^rank 1 failed at [0-9.]+ us: sumReduce: PE 1 passes a call of sumReduce but PE 0 passed a call of teamSync \(every PE must call the same collectives in the same order\) \(collective call \d+ on TEAM_WORLD\)$/);
  });
});
