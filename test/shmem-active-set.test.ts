/**
 * The active-set collectives of OpenSHMEM 1.4 (barrier, sync, broadcast32/64, collect32/64,
 * fcollect32/64, alltoall32/64, alltoalls32/64, the typed ..._to_all reductions) with their pSync and pWrk: real data on
 * overlapping sets, the pSync back to SYNC_VALUE after every call, and the checks the
 * specification asks for (a pSync not reset, PEs of one set passing different triplets). Ports
 * the deprecated branches of SOS test/unit/reduce_active_set.c, broadcast_active_set.c,
 * collect_active_set.c and repeated_barriers.c.
 */
import { describe, expect, it } from 'vitest';
import type { RankContext } from '../runtime/rank.ts';
import { ShmemError, type Shmem, type Symmetric } from '../runtime/shmem/shmem.ts';
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

/** A pSync of `n` longs, every element SYNC_VALUE, allocated on every PE. */
async function psync(s: Shmem, n = s.COLLECT_SYNC_SIZE): Promise<Symmetric> {
  const p = await s.malloc(8 * n);
  p.int64().fill(s.SYNC_VALUE);
  return p;
}

type Set3 = readonly [start: number, log: number, size: number];
const members = ([start, log, size]: Set3): number[] => Array.from({ length: size }, (_, i) => start + i * 2 ** log);

/** Every active-set call on `set` by this PE (in it), and what it gave. */
async function onSet(ctx: RankContext, set: Set3, ps: Symmetric, bufs: Record<string, Symmetric>): Promise<Record<string, unknown>> {
  const s = ctx.shmem;
  const me = s.myPe();
  const [start, log, size] = set;
  const { a, b, wrk } = bufs as { a: Symmetric; b: Symmetric; wrk: Symmetric };
  const out: Record<string, unknown> = {};
  const clean = (): boolean => ps.int64().every((v) => v === s.SYNC_VALUE);
  await s.barrier(start, log, size, ps);
  // broadcast from set PE 1 % size; the root's dest is left alone
  a.int64().set([BigInt(me) * 7n + 1n, -BigInt(me)]);
  b.int64().fill(-5n);
  await s.broadcast64(b, a, 2, 1 % size, start, log, size, ps);
  out.bcast = [...b.int64().subarray(0, 3)];
  // collect32: PE me gives me % 3 ints
  a.int32().set([me * 10, me * 10 + 1]);
  b.int32().fill(-1);
  await s.collect32(b, a, me % 3, start, log, size, ps);
  out.collect = [...b.int32().subarray(0, 2 * size + 1)];
  // fcollect64: two longs each
  a.int64().set([BigInt(me), BigInt(me) * -3n]);
  await s.fcollect64(b, a, 2, start, log, size, ps);
  out.fcollect = [...b.int64().subarray(0, 2 * size)];
  await s.sync(start, log, size, ps);
  // reductions on int, long and double
  for (const [ctype, ops] of [
    ['int', ['Sum', 'Prod', 'Min', 'Max', 'And', 'Or', 'Xor']],
    ['long', ['Sum', 'Prod', 'Min', 'Max', 'And', 'Or', 'Xor']],
    ['double', ['Sum', 'Prod', 'Min', 'Max']],
  ] as const) {
    for (const op of ops) {
      for (let j = 0; j < 3; j++) {
        const v = op === 'Prod' ? (val(me, j, 4) % 5) + 6 : val(me, j, 3);
        if (ctype === 'int') a.int32()[j] = v;
        else if (ctype === 'long') a.int64()[j] = BigInt(v) * 3_000_000_001n;
        else a.float64()[j] = v / 16;
      }
      await (s as unknown as Record<string, (...x: unknown[]) => Promise<void>>)[`${ctype}${op}ToAll`]!.call(s, b, a, 3, start, log, size, wrk, ps);
      out[`${ctype}${op}`] = ctype === 'int' ? [...b.int32().subarray(0, 3)] : ctype === 'long' ? [...b.int64().subarray(0, 3)] : [...b.float64().subarray(0, 3)];
    }
  }
  out.clean = clean();
  return out;
}

/** What `onSet` must give PE `pe` on `set`. */
function expected(set: Set3, pe: number): Record<string, unknown> {
  const pes = members(set);
  const size = pes.length;
  const root = pes[1 % size]!;
  const out: Record<string, unknown> = {
    bcast: pe === root ? [-5n, -5n, -5n] : [BigInt(root) * 7n + 1n, -BigInt(root), -5n],
    collect: [...pes.flatMap((p) => [p * 10, p * 10 + 1].slice(0, p % 3))],
    fcollect: pes.flatMap((p) => [BigInt(p), BigInt(p) * -3n]),
    clean: true,
  };
  const col = out.collect as number[];
  while (col.length < 2 * size + 1) col.push(-1);
  const f = {
    Sum: (x: number, y: number) => x + y,
    Prod: (x: number, y: number) => x * y,
    Min: Math.min,
    Max: Math.max,
    And: (x: number, y: number) => x & y,
    Or: (x: number, y: number) => x | y,
    Xor: (x: number, y: number) => x ^ y,
  };
  const g = {
    Sum: (x: bigint, y: bigint) => x + y,
    Prod: (x: bigint, y: bigint) => x * y,
    Min: (x: bigint, y: bigint) => (y < x ? y : x),
    Max: (x: bigint, y: bigint) => (y > x ? y : x),
    And: (x: bigint, y: bigint) => x & y,
    Or: (x: bigint, y: bigint) => x | y,
    Xor: (x: bigint, y: bigint) => x ^ y,
  };
  for (const op of ['Sum', 'Prod', 'Min', 'Max', 'And', 'Or', 'Xor'] as const) {
    const v = (p: number, j: number): number => (op === 'Prod' ? (val(p, j, 4) % 5) + 6 : val(p, j, 3));
    out[`int${op}`] = [0, 1, 2].map((j) => pes.map((p) => v(p, j)).reduce((x, y) => (op === 'Prod' ? Math.imul(x, y) : f[op](x, y)) | 0));
    out[`long${op}`] = [0, 1, 2].map((j) => pes.map((p) => BigInt(v(p, j)) * 3_000_000_001n).reduce((x, y) => BigInt.asIntN(64, g[op](x, y))));
    if (['Sum', 'Prod', 'Min', 'Max'].includes(op)) out[`double${op}`] = [0, 1, 2].map((j) => pes.map((p) => v(p, j) / 16).reduce((x, y) => f[op](x, y)));
  }
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

describe('OpenSHMEM 1.4 active-set collectives', () => {
  it.each(runs)('$machine, $n PEs ($nodes nodes x $ppn): every call on all PEs, the even PEs and the odd PEs at once, and PEs 1..n-1 gives the data computed here; pSync ends at SYNC_VALUE', async ({ machine, n, nodes, ppn }) => {
    const all: Set3 = [0, 0, n];
    const even: Set3 = [0, 1, Math.ceil(n / 2)];
    const odd: Set3 = [1, 1, Math.floor(n / 2)];
    const tail: Set3 = [1, 0, n - 1];
    const res = await run(machine, nodes, ppn, async (ctx) => {
      const s = ctx.shmem;
      const me = s.myPe();
      const ps = [await psync(s), await psync(s)];
      const bufs = { a: await s.malloc(8 * 16), b: await s.malloc(8 * 32), wrk: await s.malloc(8 * s.REDUCE_MIN_WRKDATA_SIZE) };
      const out: Record<string, unknown> = {};
      out.all = await onSet(ctx, all, ps[0]!, bufs);
      // the even and the odd PEs at the same time, on the same pSync (their PEs differ)
      out.parity = await onSet(ctx, me % 2 === 0 ? even : odd, ps[1]!, bufs);
      await s.barrierAll();
      if (me >= 1) out.tail = await onSet(ctx, tail, ps[0]!, bufs);
      await s.barrierAll();
      return out;
    });
    for (const [pe, r] of res.entries()) {
      expect(r.all, `PE ${pe}, all PEs`).toEqual(expected(all, pe));
      expect(r.parity, `PE ${pe}, its parity's PEs`).toEqual(expected(pe % 2 === 0 ? even : odd, pe));
      if (pe >= 1) expect(r.tail, `PE ${pe}, PEs 1..n-1`).toEqual(expected(tail, pe));
    }
  });

  // SOS test/unit/reduce_active_set.c, broadcast_active_set.c, collect_active_set.c and
  // repeated_barriers.c, their ENABLE_DEPRECATED_TESTS branches: shrinking sets i..npes-1, each
  // PE in the sets i <= me (collect_active_set.c loops i < me, which leaves PE i out of set i and
  // cannot finish; it is run with i <= me as the other three do)
  it.each([
    { machine: 'xe6', nodes: 5, ppn: 1 },
    { machine: 'xc30', nodes: 4, ppn: 2 },
  ])('SOS shrinking active sets on $machine ($nodes x $ppn): long max/min to_all, long broadcast, long collect, 50 repeated barriers per set', async ({ machine, nodes, ppn }) => {
    const NELEM = 10;
    const res = await run(machine, nodes, ppn, async (ctx) => {
      const s = ctx.shmem;
      const me = s.myPe();
      const npes = s.nPes();
      const maxPsync = await psync(s, s.REDUCE_SYNC_SIZE);
      const minPsync = await psync(s, s.REDUCE_SYNC_SIZE);
      const bcastPsync = await psync(s, s.BCAST_SYNC_SIZE);
      const collectPsync = await psync(s, s.COLLECT_SYNC_SIZE);
      const barrierPsync = [await psync(s, s.BARRIER_SYNC_SIZE), await psync(s, s.BARRIER_SYNC_SIZE)];
      const wrk = NELEM / 2 + s.REDUCE_MIN_WRKDATA_SIZE;
      const pwrk = [await s.malloc(8 * wrk), await s.malloc(8 * wrk)];
      const src = await s.malloc(8 * npes * npes);
      const dmax = await s.malloc(8 * NELEM);
      const dmin = await s.malloc(8 * NELEM);
      const dst = await s.malloc(8 * npes * npes);
      const bdst = await s.malloc(8 * NELEM);
      src.int64().fill(BigInt(me));
      bdst.int64().fill(-1n);
      dmax.int64().fill(-1n);
      dmin.int64().fill(-1n);
      dst.int64().fill(-1n);
      await s.barrierAll();
      const errors: string[] = [];
      for (let i = 0; i <= me; i++) {
        const set = [i, 0, npes - i] as const;
        await s.longMaxToAll(dmax, src, NELEM, ...set, pwrk[0]!, maxPsync);
        if (dmax.int64().some((v) => v !== BigInt(npes - 1))) errors.push(`max ${i}`);
        await s.longMinToAll(dmin, src, NELEM, ...set, pwrk[1]!, minPsync);
        if (dmin.int64().some((v) => v !== BigInt(i))) errors.push(`min ${i}`);
        // the set's PE 0 (PE i) is the root: its dest keeps the last iteration's value
        await s.broadcast64(bdst, src, NELEM, 0, ...set, bcastPsync);
        const want = BigInt(me === i ? i - 1 : i);
        if (bdst.int64().some((v) => v !== want)) errors.push(`broadcast ${i}`);
        await s.barrier(...set, barrierPsync[i % 2]!);
        dst.int64().fill(-1n);
        await s.collect64(dst, src, me, ...set, collectPsync);
        let idx = 0;
        for (let j = 0; j < npes - i; j++) for (let k = 0; k < i + j; k++, idx++) if (dst.int64()[idx] !== BigInt(i + j)) errors.push(`collect ${i} [${idx}]`);
        if (dst.int64().subarray(idx).some((v) => v !== -1n)) errors.push(`collect ${i}: past the data`);
        for (let j = 0; j < 50; j++) await s.barrier(...set, barrierPsync[i % 2]!);
      }
      await s.barrierAll();
      for (const p of [maxPsync, minPsync, bcastPsync, collectPsync, ...barrierPsync]) if (p.int64().some((v) => v !== s.SYNC_VALUE)) errors.push('a pSync not restored');
      return errors;
    });
    expect(res).toEqual(res.map(() => []));
  });

  it('alltoall32/64 and alltoalls32/64 on the active set of PEs 1, 3, 5: block j to set PE j, the pSync back to SYNC_VALUE; too small a dest fails naming the routine', async () => {
    const res = await run('xe6', 3, 2, async (ctx) => {
      const s = ctx.shmem;
      const me = s.myPe();
      const ps = await psync(s, s.ALLTOALL_SYNC_SIZE);
      const a = await s.malloc(8 * 16);
      const b = await s.malloc(8 * 16);
      if (me % 2 === 0) return null;
      const idx = (me - 1) / 2;
      // alltoall32: 2 ints to each of the 3 PEs
      a.int32().set(Array.from({ length: 6 }, (_, i) => me * 100 + i));
      b.int32().fill(-1);
      await s.alltoall32(b, a, 2, 1, 1, 3, ps);
      const a32 = [...b.int32().subarray(0, 7)];
      // alltoall64: 1 long each
      a.int64().set([10n * BigInt(me), 10n * BigInt(me) + 1n, 10n * BigInt(me) + 2n]);
      await s.alltoall64(b, a, 1, 1, 1, 3, ps);
      const a64 = [...b.int64().subarray(0, 3)];
      // alltoalls64: 2 longs to each PE, from every element of source (sst 1) to every second of dest (dst 2)
      a.int64().set(Array.from({ length: 6 }, (_, i) => BigInt(me * 1000 + i)));
      b.int64().fill(-1n);
      await s.alltoalls64(b, a, 2, 1, 2, 1, 1, 3, ps);
      const as64 = [...b.int64().subarray(0, 12)];
      // alltoalls32: 1 int to each PE, from every second element of source (sst 2)
      a.int32().set(Array.from({ length: 6 }, (_, i) => me * 10 + i));
      b.int32().fill(-1);
      await s.alltoalls32(b, a, 1, 2, 1, 1, 1, 3, ps);
      const as32 = [...b.int32().subarray(0, 4)];
      const clean = ps.int64().every((v) => v === s.SYNC_VALUE);
      const small = await rejection(s.alltoall32(b, a, 32, 1, 1, 3, ps));
      return { idx, a32, a64, as64, as32, clean, small: small.message };
    });
    const set = [1, 3, 5];
    for (const pe of set) {
      const r = res[pe]!;
      const i = r.idx;
      expect(r.a32).toEqual([...set.flatMap((p) => [p * 100 + 2 * i, p * 100 + 2 * i + 1]), -1]);
      expect(r.a64).toEqual(set.map((p) => 10n * BigInt(p) + BigInt(i)));
      expect(r.as64).toEqual(set.flatMap((p) => [BigInt(p * 1000 + 2 * i), -1n, BigInt(p * 1000 + 2 * i + 1), -1n]));
      expect(r.as32).toEqual([...set.map((p) => p * 10 + 2 * i), -1]);
      expect(r.clean).toBe(true);
      expect(r.small).toBe('alltoall32: 384 bytes at dest run past the end of its symmetric object (128 bytes from byte offset 0)');
    }
    expect(res[0]).toBeNull();
  });

  it('every *_SYNC_SIZE is one size: a pSync of COLLECT_SYNC_SIZE initialised over BCAST_SYNC_SIZE elements serves collect32 (tests-uh test_shmem_collects)', async () => {
    const res = await run('xe6', 2, 1, async (ctx) => {
      const s = ctx.shmem;
      const sizes = [s.BARRIER_SYNC_SIZE, s.SYNC_SIZE, s.BCAST_SYNC_SIZE, s.REDUCE_SYNC_SIZE, s.COLLECT_SYNC_SIZE, s.ALLTOALL_SYNC_SIZE, s.ALLTOALLS_SYNC_SIZE];
      const ps = await s.malloc(8 * s.COLLECT_SYNC_SIZE);
      ps.int64().fill(s.SYNC_VALUE, 0, s.BCAST_SYNC_SIZE);
      const src = await s.malloc(4 * 4);
      const dst = await s.malloc(4 * 8);
      src.int32().set([0, 1, 2, 3].map((i) => s.myPe() * 10 + i));
      await s.barrierAll();
      await s.fcollect32(dst, src, 4, 0, 0, 2, ps);
      return { sizes, got: [...dst.int32()], clean: ps.int64().every((v) => v === s.SYNC_VALUE) };
    });
    for (const r of res) {
      expect(new Set(r.sizes).size).toBe(1);
      expect(r.got).toEqual([0, 1, 2, 3, 10, 11, 12, 13]);
      expect(r.clean).toBe(true);
    }
  });

  it('a pSync never reset to SYNC_VALUE fails on entry with one line naming the element, its value and the PE', async () => {
    const err = await rejection(
      run('xe6', 2, 1, async (ctx) => {
        const s = ctx.shmem;
        const ps = await s.malloc(8 * s.BARRIER_SYNC_SIZE);
        if (s.myPe() === 0) ps.int64().fill(s.SYNC_VALUE);
        await s.barrier(0, 0, 2, ps);
        return 0;
      }),
    );
    expect(err.message).toMatch(/^rank 1 failed at [0-9.]+ us: barrier: pSync\[0\]=0 on PE 1 is not SYNC_VALUE \(-1\): set every element to SYNC_VALUE before first use, and reuse a pSync only when no PE still uses it$/);
  });

  it.each([
    { what: 'PE_size', change: (set: number[]) => [set[0]!, set[1]!, 3], want: /PE 0 passes PE_size=3 but PE \d passed PE_size=4/ },
    { what: 'logPE_stride', change: () => [0, 1, 2], want: /PE 2 passes logPE_stride=1, PE_size=2 but PE \d passed logPE_stride=0, PE_size=4/ },
  ])('PEs of one active set passing different $what fail with one line naming the PEs and the values', async ({ change, want }) => {
    const err = await rejection(
      run('xc30', 2, 2, async (ctx) => {
        const s = ctx.shmem;
        const me = s.myPe();
        const ps = await psync(s);
        const a = await s.malloc(64);
        const set = [0, 0, 4];
        const mine = (me === 0 && change(set)[2] === 3) || (me === 2 && change(set)[1] === 1) ? change(set) : set;
        // the odd one out waits so that it is not the first to enter
        if (mine !== set) await ctx.compute({ us: 2 });
        await s.fcollect64(a, a.at(32), 1, mine[0]!, mine[1]!, mine[2]!, ps);
        return 0;
      }),
    );
    expect(err.message).toMatch(/^rank \d failed at [0-9.]+ us: fcollect64: /);
    expect(err.message).toMatch(want);
    expect(err.message).toMatch(/\(collective call 1 on the pSync at segment \d+ byte 0\)$/);
  });

  it('traces and --metrics name the active-set calls as OpenSHMEM 1.4 does', async () => {
    const r = await simulate({
      machine: 'xe6',
      nodes: 2,
      metrics: true,
      program: async (ctx) => {
        const s = ctx.shmem;
        const ps = await psync(s);
        const a = await s.malloc(64);
        // a pWrk of complexd elements (16 bytes each)
        const w = await s.malloc(16 * s.REDUCE_MIN_WRKDATA_SIZE);
        await s.barrier(0, 0, 2, ps);
        await s.broadcast64(a, a.at(8), 1, 0, 0, 0, 2, ps);
        await s.longSumToAll(a.at(16), a, 2, 0, 0, 2, w, ps);
        await s.shortXorToAll(a.at(16), a, 3, 0, 0, 2, w, ps);
        await s.complexdProdToAll(a.at(32), a, 2, 0, 0, 2, w, ps);
        await s.sync(0, 0, 2, ps);
        return 0;
      },
    });
    const calls = Object.fromEntries(r.metrics!.calls.map((c) => [c.name, c]));
    expect(calls.shmem_barrier).toMatchObject({ calls: 2 });
    expect(calls.shmem_broadcast64).toMatchObject({ calls: 2, bytes: 16 });
    expect(calls.shmem_long_sum_to_all).toMatchObject({ calls: 2, bytes: 32 });
    expect(calls.shmem_short_xor_to_all).toMatchObject({ calls: 2, bytes: 12 });
    expect(calls.shmem_complexd_prod_to_all).toMatchObject({ calls: 2, bytes: 64 });
    expect(calls.shmem_sync).toMatchObject({ calls: 2 });
  });

  it('bad arguments: each active-set routine fails with one line naming the routine and the value', async () => {
    const res = await run('xe6', 2, 1, async (ctx) => {
      const s = ctx.shmem;
      const ps = await psync(s);
      const a = await s.malloc(64);
      const w = await s.malloc(8);
      const out: string[] = [];
      const note = async (p: Promise<unknown>): Promise<void> => {
        const e = await rejection(p);
        out.push(`${e instanceof ShmemError ? 'ShmemError' : e.name}: ${e.message}`);
      };
      await note(s.barrier(0, 0, 3, ps));
      await note(s.sync(1 - s.myPe(), 0, 1, ps));
      await note(s.broadcast32(a, a, 1, 2, 0, 0, 2, ps));
      await note(s.broadcast64(a, a.at(4), 1, 0, 0, 0, 2, ps));
      await note(s.collect32(a.at(2), a, 1, 0, 0, 2, ps));
      await note(s.collect64(a, a, 1, 0, -1, 2, ps));
      await note(s.fcollect32(a, a, 9, 0, 0, 2, ps));
      await note(s.fcollect64(a, a, 1, 0, 0, 2, a.at(8)));
      await note(s.intSumToAll(a, a, 2, 0, 0, 2, w, ps));
      await note(s.doubleMaxToAll(a, a, 9, 0, 0, 2, w, ps));
      // every ..._to_all: a pWrk too small
      const all = ['int', 'long', 'longlong'].flatMap((c) => ['Sum', 'Prod', 'Min', 'Max', 'And', 'Or', 'Xor'].map((o) => `${c}${o}ToAll`)).concat(['Sum', 'Prod', 'Min', 'Max'].map((o) => `double${o}ToAll`));
      for (const name of all) await note((s as unknown as Record<string, (...x: unknown[]) => Promise<void>>)[name]!.call(s, a, a.at(32), 1, 0, 0, 2, w, ps));
      return out;
    });
    expect(res[0]!.slice(0, 10)).toEqual([
      'ShmemError: barrier: PE_start=0, logPE_stride=0, PE_size=3 names PE 2, but the PEs are 0..1',
      'ShmemError: sync: PE 0 is not in the active set PE_start=1, logPE_stride=0, PE_size=1 (PE 1)',
      'ShmemError: broadcast32: PE_root=2 is not a PE of the active set (0..1, numbers within the set)',
      'ShmemError: broadcast64: source is at byte offset 4, not aligned to 8-byte elements',
      'ShmemError: collect32: dest is at byte offset 2, not aligned to 4-byte elements',
      'ShmemError: collect64: logPE_stride=-1 must be a non-negative integer',
      'ShmemError: fcollect32: 72 bytes at dest run past the end of its symmetric object (64 bytes from byte offset 0)',
      'ShmemError: fcollect64: pSync has 7 longs, fewer than the 33 this call needs',
      'ShmemError: intSumToAll: pWrk has 2 elements, fewer than the 16 needed (max(nreduce / 2 + 1, REDUCE_MIN_WRKDATA_SIZE))',
      'ShmemError: doubleMaxToAll: 72 bytes at dest run past the end of its symmetric object (64 bytes from byte offset 0)',
    ]);
    expect(res[0]!.slice(10)).toEqual(
      ['int', 'long', 'longlong']
        .flatMap((c) => ['Sum', 'Prod', 'Min', 'Max', 'And', 'Or', 'Xor'].map((o) => [`${c}${o}ToAll`, c === 'int' ? 2 : 1] as const))
        .concat(['Sum', 'Prod', 'Min', 'Max'].map((o) => [`double${o}ToAll`, 1] as const))
        .map(([name, have]) => `ShmemError: ${name}: pWrk has ${have} elements, fewer than the 16 needed (max(nreduce / 2 + 1, REDUCE_MIN_WRKDATA_SIZE))`),
    );
  });
});
