/**
 * The symmetric-heap and query calls of OpenSHMEM 1.5 §9.2, §9.3 and §9.1: `realloc`, `align`,
 * `ptr` (a view on the PEs of this node, null elsewhere), `addrAccessible`, `peAccessible`,
 * `infoGetVersion`, `infoGetName`, `globalExit`, the thread levels (`initThread`, `queryThread`)
 * and `pcontrol`, with real data and their error cases.
 */
import { describe, expect, it } from 'vitest';
import { ShmemError, ShmemGlobalExit } from '../runtime/shmem/shmem.ts';
import { simulate } from '../runtime/simulate.ts';
import { rejection } from './helpers.ts';

/** The message of a rejected call, with its class. */
async function failure(p: Promise<unknown> | (() => unknown)): Promise<string> {
  try {
    await (typeof p === 'function' ? p() : p);
    return 'resolved';
  } catch (e) {
    return `${e instanceof ShmemError ? 'ShmemError' : String(e)}: ${(e as Error).message}`;
  }
}

describe('SHMEM memory and query calls', () => {
  it('xe6, 4 PEs: realloc keeps the data and moves the address, null and 0 allocate and free; align allocates', async () => {
    const r = await simulate({
      machine: 'xe6',
      nodes: 2,
      ppn: 2,
      program: async (ctx) => {
        const s = ctx.shmem;
        const me = s.myPe();
        const n = s.nPes();
        const a = await s.malloc(16);
        await s.putInt64(a, [BigInt(me * 10), BigInt(me * 10 + 1)], 2, (me + 1) % n);
        await s.barrierAll();
        const b = (await s.realloc(a, 64))!;
        const kept = [...b.int64().subarray(0, 2)];
        // the new object is symmetric: a put at its far end lands on the neighbour
        await s.pInt64(b.element('int64', 7), BigInt(100 + me), (me + 1) % n);
        await s.barrierAll();
        const far = b.int64()[7];
        const stale = await failure(s.gInt64(a, (me + 1) % n));
        const c = await s.realloc(null, 8);
        const gone = await s.realloc(c, 0);
        const al = await s.align(4096, 24);
        const hinted = await s.mallocWithHints(8, s.MALLOC_ATOMICS_REMOTE | s.MALLOC_SIGNAL_REMOTE);
        await s.atomicAdd(hinted, 5, (me + 1) % n);
        const badHints = await failure(s.mallocWithHints(8, 1.5));
        // a hint the library does not know is ignored (SOS's shmem_malloc_with_hints passes ~MALLOC_ATOMICS_REMOTE)
        const unknownHint = await s.mallocWithHints(8, ~s.MALLOC_ATOMICS_REMOTE);
        await s.pInt64(unknownHint, BigInt(me), (me + 1) % n);
        await s.pFloat64(al, me + 0.5, (me + 1) % n);
        await s.barrierAll();
        const hintedValue = hinted.int64()[0];
        const unknownHintValue = unknownHint.int64()[0];
        const shrunk = (await s.realloc(b, 8))!;
        return { kept, far, stale, made: c !== null && c.bytes, gone, al: al.float64()[0], shrunk: [...shrunk.int64()], badAlign: await failure(s.align(48, 8)), badSize: await failure(s.realloc(shrunk, -1)), hintedValue, badHints, unknownHintValue };
      },
    });
    for (const [pe, x] of r.rankResults.entries()) {
      const left = (pe + 3) % 4;
      expect(x.kept).toEqual([BigInt(left * 10), BigInt(left * 10 + 1)]);
      expect(x.far).toBe(BigInt(100 + left));
      expect(x.stale).toMatch(/^ShmemError: gInt64: source \(symmetric segment \d+\) has been freed$/);
      expect(x.made).toBe(8);
      expect(x.gone).toBeNull();
      expect(x.al).toBe(left + 0.5);
      expect(x.shrunk).toEqual([BigInt(left * 10)]);
      expect(x.badAlign).toBe('ShmemError: align: alignment=48 must be a power of two');
      expect(x.hintedValue).toBe(5n);
      expect(x.badHints).toBe('ShmemError: mallocWithHints: hints=1.5 must be an integer (0 or an OR of MALLOC_ATOMICS_REMOTE (1) and MALLOC_SIGNAL_REMOTE (2))');
      expect(x.unknownHintValue).toBe(BigInt(left));
      expect(x.badSize).toBe('ShmemError: realloc: bytes=-1 must be a non-negative integer');
    }
  });

  it('xc30, 4 PEs (2 nodes x 2): ptr gives the copy of a PE on this node (stores through it are seen there), null across nodes; the accessibility queries', async () => {
    const r = await simulate({
      machine: 'xc30',
      nodes: 2,
      ppn: 2,
      program: async (ctx) => {
        const s = ctx.shmem;
        const me = s.myPe();
        const v = await s.malloc(16);
        v.int32()[0] = 1000 + me;
        await s.barrierAll();
        const views = [0, 1, 2, 3].map((pe) => s.ptr(v.at(4), pe));
        // PE 0 stores into PE 1's copy through the pointer
        if (me === 0) new Int32Array(views[1]!.buffer, views[1]!.byteOffset, 1)[0] = 77;
        const seen = views.map((view) => (view === null ? null : new DataView(view.buffer, view.byteOffset - 4).getInt32(0, true)));
        await s.barrierAll();
        const freed = await s.malloc(8);
        await s.free(freed);
        const shared = [0, 1].map((pe) => s.teamPtr(s.TEAM_SHARED, v, pe)?.[0] ?? null);
        const teamPtrs = { shared, far: s.teamPtr(s.TEAM_WORLD, v, (me + 2) % 4), invalid: s.teamPtr(null, v, 0), bad: await failure(() => s.teamPtr(s.TEAM_SHARED, v, 2)) };
        return {
          teamPtrs,
          seen,
          lengths: views.map((view) => view?.length ?? null),
          mine: [...v.int32()].slice(0, 2),
          addr: [s.addrAccessible(v, 3), s.addrAccessible(v.at(8), 0), s.addrAccessible(new Uint8Array(8) as never, 1), s.addrAccessible(freed, 1), s.addrAccessible(v, 4)],
          pes: [-1, 0, 3, 4, 1.5].map((pe) => s.peAccessible(pe)),
          version: s.infoGetVersion(),
          name: s.infoGetName(),
          badPe: await failure(() => s.ptr(v, 4)),
          badAddr: await failure(() => s.ptr(new Uint8Array(4) as never, 1)),
        };
      },
    });
    const res = r.rankResults;
    // PEs 0, 1 on node 0, PEs 2, 3 on node 1 (block placement)
    expect(res[0]!.seen).toEqual([1000, 1001, null, null]);
    expect(res[2]!.seen).toEqual([null, null, 1002, 1003]);
    expect(res[0]!.lengths).toEqual([12, 12, null, null]);
    expect(res[1]!.mine).toEqual([1001, 77]);
    expect(res[0]!.mine).toEqual([1000, 0]);
    // TEAM_SHARED of PE 2 is PEs 2, 3: the low bytes of their 1002, 1003
    expect(res[2]!.teamPtrs).toEqual({ shared: [1002 & 0xff, 1003 & 0xff], far: null, invalid: null, bad: 'ShmemError: teamPtr: pe=2 is not a PE of ' + 'TEAM_SHARED' + ' (0..1)' });
    for (const x of res) {
      expect(x.addr).toEqual([true, true, false, false, false]);
      expect(x.pes).toEqual([false, true, true, false, false]);
      expect(x.version).toEqual({ major: 1, minor: 5 });
      expect(x.name).toMatch(/OpenSHMEM/);
      expect(x.badPe).toBe('ShmemError: ptr: pe=4 is not a PE (0..3)');
      expect(x.badAddr).toBe('ShmemError: ptr: dest is a Uint8Array(4), not a symmetric address of PE ' + res.indexOf(x) + ' (allocate it with shmem.malloc; private memory cannot be named remotely)');
    }
  });

  it('a 0-byte malloc, calloc, mallocWithHints or align returns null without a barrier (OpenSHMEM 1.5 §9.3), free(null) does nothing; a negative size is refused', async () => {
    const r = await simulate({
      machine: 'xe6',
      nodes: 2,
      program: async (ctx) => {
        const s = ctx.shmem;
        s.init();
        // only PE 0 calls these: a barrier among them would never complete
        const zero = ctx.rank === 0 ? [await s.malloc(0), await s.calloc(0, 8), await s.calloc(4, 0), await s.mallocWithHints(0, s.MALLOC_SIGNAL_REMOTE), await s.align(64, 0), await s.realloc(null, 0)] : [];
        if (ctx.rank === 0) await s.free(null);
        const bad = await failure(s.malloc(-8));
        const a = await s.calloc(2, 8);
        await s.pInt64(a, 7n, 1 - ctx.rank);
        await s.barrierAll();
        return { zero, bad, value: a.int64()[0] };
      },
    });
    expect(r.rankResults[0]!.zero).toEqual([null, null, null, null, null, null]);
    for (const x of r.rankResults) {
      expect(x.bad).toBe('ShmemError: malloc: bytes=-8 must be a non-negative integer');
      expect(x.value).toBe(7n);
    }
  });

  it('startPes(0) starts SHMEM as init does; initThread gives the level asked for (a PE is one thread), queryThread reports it (THREAD_SINGLE after init); pcontrol takes integer levels', async () => {
    const r = await simulate({
      machine: 'xe6',
      nodes: 2,
      program: async (ctx) => {
        const s = ctx.shmem;
        const badStart = await failure(() => s.startPes(0.5));
        s.startPes(0);
        const before = s.queryThread();
        const provided = s.initThread(ctx.rank === 0 ? s.THREAD_MULTIPLE : s.THREAD_FUNNELED);
        const after = s.queryThread();
        const bad = await failure(() => s.initThread(4));
        s.pcontrol(1);
        s.pcontrol(2);
        const badLevel = await failure(() => s.pcontrol(0.5));
        await s.barrierAll();
        return { before, provided, after, bad, badLevel, badStart };
      },
    });
    expect(r.rankResults[0]).toEqual({ before: 0, provided: 3, after: 3, bad: 'ShmemError: initThread: requested=4; valid: THREAD_SINGLE (0), THREAD_FUNNELED (1), THREAD_SERIALIZED (2), THREAD_MULTIPLE (3)', badLevel: 'ShmemError: pcontrol: level=0.5 must be an integer', badStart: 'ShmemError: startPes: npes=0.5 must be an integer (it is unused; pass 0)' });
    expect(r.rankResults[1]).toMatchObject({ before: 0, provided: 1, after: 1 });
  });

  it('globalExit(3) on one PE ends the run while the others wait in a barrier, reported with its status, PE and time; a non-integer status is refused', async () => {
    const e = await rejection(
      simulate({
        machine: 'xe6',
        nodes: 2,
        ppn: 2,
        program: async (ctx) => {
          const s = ctx.shmem;
          s.init();
          if (s.myPe() === 2) {
            await ctx.compute({ us: 5 });
            expect(await failure(s.globalExit(1.5))).toBe('ShmemError: globalExit: status=1.5 must be an integer');
            await s.globalExit(3);
          }
          await s.barrierAll();
        },
      }),
    );
    expect(e).toBeInstanceOf(ShmemGlobalExit);
    const g = e as ShmemGlobalExit;
    expect([g.status, g.pe]).toEqual([3, 2]);
    expect(g.timePs).toBeGreaterThanOrEqual(5e6);
    expect(g.message).toMatch(/^shmem_global_exit\(3\) called by PE 2 at 5\.\d{3} us: the run ended with status 3$/);
  });
});

describe('deprecated cache management (§9.13)', () => {
  it('the cache calls change no data and cost no time, as on Cray SHMEM; the line forms check their address', async () => {
    const r = await simulate({
      machine: 'xe6',
      nodes: 2,
      program: async (ctx) => {
        const s = ctx.shmem;
        const me = s.myPe();
        const a = await s.malloc(8);
        a.int32()[0] = 7 + me;
        a.int32()[1] = -1;
        await s.barrierAll();
        if (me === 0) await s.putInt32(a.element('int32', 1), Int32Array.of(42), 1, 1);
        await s.quiet();
        await s.barrierAll();
        const t0 = ctx.now();
        s.clearCacheInv();
        s.setCacheInv();
        s.clearCacheLineInv(a);
        s.setCacheLineInv(a);
        s.udcflush();
        s.udcflushLine(a);
        const dt = ctx.now() - t0;
        const bad = await failure(() => s.udcflushLine(new Int32Array(1) as never));
        return { data: [...a.int32()], dt, bad };
      },
    });
    expect(r.rankResults.map((x) => x.data)).toEqual([
      [7, -1],
      [8, 42],
    ]);
    expect(r.rankResults.map((x) => x.dt)).toEqual([0, 0]);
    expect(r.result.bad).toMatch(/^ShmemError: udcflushLine: dest is a Int32Array\(1\), not a symmetric address of PE 0/);
  });
});
