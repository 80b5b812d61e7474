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
});
