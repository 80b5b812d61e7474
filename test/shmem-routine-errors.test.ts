/**
 * Every routine's bad call of the manifest (test/shmem-routine-manifest.ts), made on 2 PEs in one
 * run: a bad PE, an address outside the symmetric heap, a misaligned atomic, PEs that pass a
 * collective different arguments, a pSync not reset, a destroyed team or context, a bad count or
 * comparison. Each fails with a ShmemError of one line that starts with the routine's name and
 * names the bad value; none is a JavaScript TypeError, none hangs (a hang would be the run's
 * deadlock report), and after each the run goes on.
 */
import { describe, expect, it } from 'vitest';
import { ShmemError, type Shmem, type ShmemCtx } from '../runtime/shmem/shmem.ts';
import { simulate } from '../runtime/simulate.ts';
import { MANIFEST, type Bad, type ErrorCase } from './shmem-routine-manifest.ts';

/** What one PE saw of one bad call: the error's class and message, or that it returned. */
interface Seen {
  readonly cls: string;
  readonly message: string;
}

async function attempt(run: () => unknown): Promise<Seen | null> {
  try {
    await run();
    return null;
  } catch (e) {
    const err = e as Error;
    return { cls: e instanceof ShmemError ? 'ShmemError' : err.constructor.name, message: err.message };
  }
}

describe('every SHMEM routine rejects a bad call', () => {
  it('xe6, 2 PEs: each bad call fails with one line naming the routine and the value; a disagreeing collective fails on one PE, which then completes it', async () => {
    const cases = Object.entries(MANIFEST).flatMap(([routine, e]): [string, ErrorCase][] => ('kind' in e.error ? [[routine, e.error]] : []));
    const checks = Object.entries(MANIFEST).filter(([, e]) => 'check' in e.error);
    const r = await simulate({
      machine: 'xe6',
      nodes: 2,
      program: async (ctx) => {
        const s = ctx.shmem as Shmem;
        const me = s.myPe();
        const sym = await s.malloc(256);
        const pSync = await s.malloc(8 * s.COLLECT_SYNC_SIZE);
        pSync.int64().fill(s.SYNC_VALUE);
        const dirty = await s.malloc(8 * s.COLLECT_SYNC_SIZE);
        dirty.int64().fill(s.SYNC_VALUE);
        dirty.int64()[0] = 5n;
        const pWrk = await s.malloc(512);
        const gone = (await s.teamSplitStrided(s.TEAM_WORLD, 0, 1, 2))!;
        s.teamDestroy(gone);
        const deadCtx = s.ctxCreate();
        await s.ctxDestroy(deadCtx);
        const live: ShmemCtx = s.ctxCreate();
        await s.barrierAll();
        const base = { s, sym, pSync, dirty, pWrk, deadTeam: gone, deadCtx, npes: s.nPes() };
        const seen: Record<string, { first: Seen | null; retry: Seen | null }> = {};
        for (const [routine, error] of cases) {
          const h: Bad = { ...base, f: routine.startsWith('ctx.') ? live : s };
          const first = await attempt(() => error.run(h, me));
          // the PE that entered a disagreeing collective second completes it with the other PE's arguments
          const retry = error.kind === 'mismatch' && first !== null ? await attempt(() => error.run(h, 1 - me)) : null;
          seen[routine] = { first, retry };
          // the next case starts with every PE done with this one
          await s.barrierAll();
        }
        const answers = Object.fromEntries(checks.map(([routine, e]) => [routine, (e.error as { check: (h: Bad) => boolean }).check({ ...base, f: s })]));
        await s.quiet();
        return { seen, answers };
      },
    });
    const [a, b] = [r.rankResults[0]!, r.rankResults[1]!];
    const bad: string[] = [];
    for (const [routine, error] of cases) {
      const name = routine.slice(routine.indexOf('.') + 1);
      const both = [a.seen[routine]!, b.seen[routine]!];
      const failed = both.map((x) => x.first).filter((x): x is Seen => x !== null);
      // a disagreeing collective fails on exactly one PE, any other bad call on both
      const want = error.kind === 'mismatch' ? 1 : 2;
      if (failed.length !== want) bad.push(`${routine}: failed on ${failed.length} PEs, not ${want}`);
      for (const x of both) if (x.retry !== null) bad.push(`${routine}: the call with matching arguments failed too: ${x.retry.message}`);
      for (const f of failed) {
        const why = f.cls !== 'ShmemError' ? `a ${f.cls}` : f.message.includes('\n') ? 'more than one line' : !f.message.startsWith(`${name}: `) ? 'does not start with the routine' : error.value.filter((v) => !f.message.includes(v)).map((v) => `does not say ${v}`).join(', ');
        if (why) bad.push(`${routine}: ${why}: ${f.message}`);
      }
    }
    expect(bad).toEqual([]);
    for (const [routine] of checks) expect([a.answers[routine], b.answers[routine]], routine).toEqual([true, true]);
    // every kind of bad call of the specification's error classes is among them
    expect(new Set(cases.map(([, e]) => e.kind))).toEqual(new Set(['pe', 'heap', 'align', 'mismatch', 'pSync', 'team', 'ctx', 'count', 'cmp', 'arg']));
  });

  it('xc30, 3 PEs: the world forms without a team (broadcastmem, fcollectmem, collectmem, sumToAll, minToAll, maxToAll) name PEs that disagree as the team forms do, instead of moving wrong data', async () => {
    const r = await simulate({
      machine: 'xc30',
      nodes: 3,
      program: async (ctx) => {
        const s = ctx.shmem;
        const me = s.myPe();
        const a = await s.malloc(256);
        const b = await s.malloc(256);
        // PE 2 passes other arguments than PEs 0 and 1; after its failure it passes theirs
        const calls: [string, (odd: boolean) => Promise<void>][] = [
          ['broadcastmem', (odd) => s.broadcastmem(a, b, 8, odd ? 2 : 0)],
          ['fcollectmem', (odd) => s.fcollectmem(a, b, odd ? 16 : 8)],
          ['sumToAll', (odd) => s.sumToAll(a, b, 2, odd ? 'int32' : 'int64')],
          ['minToAll', (odd) => s.minToAll(a, b, odd ? 3 : 2, 'float64')],
          ['maxToAll', (odd) => s.maxToAll(a, b, odd ? 1 : 2, 'int32')],
          // collectmem's sizes may differ: only a different call disagrees
          ['collectmem', (odd) => (odd ? s.fcollectmem(a, b, 8) : s.collectmem(a, b, 8 + me))],
        ];
        const out: string[] = [];
        for (const [, c] of calls) {
          if (me === 2) await ctx.compute({ us: 1 });
          const e = await attempt(() => c(me === 2));
          out.push(e === null ? 'ok' : `${e.cls}: ${e.message}`);
          if (e !== null) await c(false);
          await s.barrierAll();
        }
        return out;
      },
    });
    expect(r.rankResults[0]).toEqual(['ok', 'ok', 'ok', 'ok', 'ok', 'ok']);
    expect(r.rankResults[1]).toEqual(r.rankResults[0]);
    // the PE named second is whichever of PEs 0 and 1 entered first
    const want = [
      'ShmemError: broadcastmem: PE 2 passes root=2 but PE # passed root=0 (collective call 1 on TEAM_WORLD)',
      'ShmemError: fcollectmem: PE 2 passes nbytes=16 but PE # passed nbytes=8 (collective call 2 on TEAM_WORLD)',
      'ShmemError: sumToAll: PE 2 passes type=int32 but PE # passed type=int64 (collective call 3 on TEAM_WORLD)',
      'ShmemError: minToAll: PE 2 passes nreduce=3 but PE # passed nreduce=2 (collective call 4 on TEAM_WORLD)',
      'ShmemError: maxToAll: PE 2 passes nreduce=1 but PE # passed nreduce=2 (collective call 5 on TEAM_WORLD)',
      'ShmemError: fcollectmem: PE 2 passes a call of fcollectmem but PE # passed a call of collectmem (every PE must call the same collectives in the same order) (collective call 6 on TEAM_WORLD)',
    ];
    expect(r.rankResults[2]!.map((m) => m.replace(/PE [01] passed/, 'PE # passed'))).toEqual(want);
  });
});
