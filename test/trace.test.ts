import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { resolveParams } from '../apps/app.ts';
import { apps } from '../apps/index.ts';
import { simulate } from '../runtime/simulate.ts';
import { traceChunks, type Trace, type TraceEvent } from '../runtime/trace.ts';
import { phit } from './helpers.ts';

const dir = mkdtempSync(join(tmpdir(), 'phit-trace-'));

function program(app: string, params: Record<string, string> = {}): Parameters<typeof simulate>[0]['program'] {
  const a = apps[app]!;
  const p = resolveParams(a, params);
  return (ctx) => a.main(ctx, p);
}

/** The trace as its file would hold it, parsed back. */
function parsed(t: Trace): Trace {
  return JSON.parse([...traceChunks(t)].join('')) as Trace;
}

/** Checks the trace-event schema; returns the events by phase. */
function checkSchema(t: Trace): Record<string, TraceEvent[]> {
  expect(t.displayTimeUnit).toBe('ns');
  const by: Record<string, TraceEvent[]> = {};
  for (const e of t.traceEvents) {
    expect(typeof e.name).toBe('string');
    expect(['X', 'M', 's', 'f']).toContain(e.ph);
    for (const k of ['ts', 'pid', 'tid'] as const) expect(Number.isFinite(e[k]), `${k} of ${JSON.stringify(e)}`).toBe(true);
    expect(e.ts).toBeGreaterThanOrEqual(0);
    if (e.ph === 'X') expect(e.dur).toBeGreaterThanOrEqual(0);
    (by[e.ph] ??= []).push(e);
  }
  // flows pair up: one start and one finish per id, the finish not before the start
  const starts = new Map((by.s ?? []).map((e) => [e.id, e]));
  const finishes = new Map((by.f ?? []).map((e) => [e.id, e]));
  expect(starts.size).toBe((by.s ?? []).length);
  expect([...finishes.keys()].sort()).toEqual([...starts.keys()].sort());
  for (const [id, f] of finishes) expect(f.ts).toBeGreaterThanOrEqual(starts.get(id)!.ts);
  return by;
}

describe('Chrome trace of rank timelines', () => {
  it('halo3d: one track per rank, compute, calls with arguments, waits inside calls, flows from sends to receives', async () => {
    const r = await simulate({ machine: 'xe6', nodes: 8, program: program('halo3d', { iterations: '3' }), trace: { flows: true } });
    const t = parsed(r.trace!);
    const by = checkSchema(t);
    const threads = by.M!.filter((e) => e.name === 'thread_name');
    expect(threads.map((e) => e.tid)).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    expect(threads.every((e) => e.pid === e.tid)).toBe(true); // one rank per node
    const x = by.X!;
    expect(x.filter((e) => e.name === 'compute' && e.tid === 5)).toHaveLength(3);
    // the halo's nonblocking sends carry peer, tag, bytes and the communicator
    const isend = x.find((e) => e.name === 'MPI_Isend' && e.tid === 0)!;
    expect(isend.args).toMatchObject({ bytes: 8192, comm: 'comm 1 (8 ranks)' });
    expect(typeof isend.args!.peer).toBe('number');
    expect(typeof isend.args!.tag).toBe('number');
    const allreduce = x.find((e) => e.name === 'MPI_Allreduce')!;
    expect(allreduce.args).toMatchObject({ op: 'MPI_SUM', algorithm: 'recursiveDoubling', comm: 'comm 1 (8 ranks)', bytes: 8 });
    expect(x.find((e) => e.name === 'MPI_Cart_create')!.args).toMatchObject({ comm: 'MPI_COMM_WORLD', dims: '2x2x2' });
    // every wait lies inside a call of its rank
    const calls = x.filter((e) => e.cat === 'mpi');
    for (const w of x.filter((e) => e.name === 'wait')) {
      const inside = calls.some((c) => c.tid === w.tid && c.ts <= w.ts + 1e-9 && w.ts + w.dur! <= c.ts + c.dur! + 1e-6);
      expect(inside, `wait ${JSON.stringify(w)} outside every call`).toBe(true);
    }
    // a flow per halo message: 6 faces x 3 iterations x 8 ranks; the allreduces' own messages in their own category
    expect(by.s!.filter((e) => e.cat === 'flow').length).toBe(6 * 3 * 8);
    const allreduces = x.filter((e) => e.name === 'MPI_Allreduce');
    // recursive doubling on 8 ranks: 3 messages per rank and call (the program's other collectives add theirs)
    expect(by.s!.filter((e) => e.cat === 'coll-flow').length).toBeGreaterThanOrEqual(allreduces.length * 3);
    // each allreduce's rounds lie inside it, in order, each waiting for its exchange's partner
    for (const c of allreduces) {
      const rounds = x.filter((e) => e.cat === 'round' && e.tid === c.tid && e.ts >= c.ts - 1e-9 && e.ts + e.dur! <= c.ts + c.dur! + 1e-6);
      expect(rounds.length, `rounds of ${JSON.stringify(c)}`).toBeGreaterThanOrEqual(1);
      expect(rounds.length).toBeLessThanOrEqual(3);
      const inOrder = [...rounds].sort((a, b) => a.ts - b.ts);
      expect(inOrder.map((e) => e.name)).toEqual(inOrder.map((_, i) => `round ${i}`));
      for (const e of rounds) expect(String(e.args!.waitsFor)).toMatch(/^allreduce\(recursive doubling, MPI_SUM\) (to|from) [0-7]\b/);
    }
    // every round lies inside a call of its rank
    for (const e of x.filter((e) => e.cat === 'round')) {
      expect(calls.some((c) => c.tid === e.tid && c.ts <= e.ts + 1e-9 && e.ts + e.dur! <= c.ts + c.dur! + 1e-6), `round ${JSON.stringify(e)} outside every call`).toBe(true);
    }
    expect(r.trace!.metadata).toMatchObject({ ranks: 8, truncated: false, flows: true });
    // a rank's calls and computations tile its time: none overlaps the next
    for (let rank = 0; rank < 8; rank++) {
      const top = x.filter((e) => e.tid === rank && e.name !== 'wait' && e.cat !== 'round').sort((a, b) => a.ts - b.ts);
      for (let i = 1; i < top.length; i++) expect(top[i]!.ts).toBeGreaterThanOrEqual(top[i - 1]!.ts + top[i - 1]!.dur! - 1e-6);
    }
  });

  it('pingpong flows go from each send to its receive on the other rank; tracing leaves simulated time alone', async () => {
    const opts = { machine: 'xe6', nodes: 2, program: program('pingpong', { minBytes: '64', maxBytes: '64', iterations: '4' }) };
    const plain = await simulate(opts);
    const r = await simulate({ ...opts, trace: { flows: true } });
    expect(r.simulatedTimeUs).toBe(plain.simulatedTimeUs);
    expect(r.events).toBe(plain.events);
    const by = checkSchema(parsed(r.trace!));
    const flows = by.s!.filter((e) => e.cat === 'flow');
    expect(flows).toHaveLength(8);
    for (const s of flows) {
      const f = by.f!.find((e) => e.id === s.id)!;
      expect(f.tid).toBe(1 - s.tid);
    }
  });

  it('phit run --trace writes the same bytes for the same seed; --trace-ranks keeps only those tracks', async () => {
    const run = (file: string, ...extra: string[]): ReturnType<typeof phit> =>
      phit('run', 'halo3d', '--machine', 'xe6', '--nodes', '8', '--param', 'iterations=2', '--trace', join(dir, file), '--trace-flows', ...extra);
    const a = await run('a.json');
    const b = await run('b.json');
    expect(a.code).toBe(0);
    expect(a.out.at(-1)).toMatch(/^trace: .*a\.json, \d+ events, [\d.]+ MB; open it in https:\/\/ui\.perfetto\.dev$/);
    const bytesA = readFileSync(join(dir, 'a.json'));
    expect(bytesA.equals(readFileSync(join(dir, 'b.json')))).toBe(true);
    expect(b.code).toBe(0);
    // another run, another file: rendezvous instead of eager moves the timeline
    const c = await run('c.json', '--set', 'mpi.eagerMaxBytes=1KiB');
    expect(c.code).toBe(0);
    expect(readFileSync(join(dir, 'c.json')).equals(bytesA)).toBe(false);

    const sub = await run('sub.json', '--trace-ranks', '1-2,6');
    expect(sub.code).toBe(0);
    const t = JSON.parse(readFileSync(join(dir, 'sub.json'), 'utf8')) as Trace;
    checkSchema(t);
    expect(new Set(t.traceEvents.map((e) => e.tid))).toEqual(new Set([0, 1, 2, 6])); // 0: process metadata
    expect(new Set(t.traceEvents.filter((e) => e.ph !== 'M').map((e) => e.tid))).toEqual(new Set([1, 2, 6]));
    expect(t.metadata.tracedRanks).toEqual([1, 2, 6]);
  });

  it('stops at --trace-max-events with a note in the metadata and one warning', async () => {
    const r = await phit('run', 'halo3d', '--machine', 'xe6', '--nodes', '8', '--param', 'iterations=2', '--trace', join(dir, 'cap.json'), '--trace-max-events', '100');
    expect(r.code).toBe(0);
    expect(r.err).toHaveLength(1);
    expect(r.err[0]).toMatch(/warning: trace recording stopped after 100 events at [\d.]+ us.*--trace-ranks.*--trace-max-events/);
    const t = JSON.parse(readFileSync(join(dir, 'cap.json'), 'utf8')) as Trace;
    checkSchema(t);
    expect(t.traceEvents.length).toBeLessThanOrEqual(100);
    expect(t.traceEvents.length).toBeGreaterThan(90);
    expect(t.metadata).toMatchObject({ truncated: true, maxEvents: 100 });
    expect(t.metadata.note).toMatch(/--trace-ranks/);
    expect(r.out.at(-1)).toMatch(/\(truncated\)/);
  });

  it('bad trace options: one line naming the value, exit 2', async () => {
    const base = ['run', 'halo3d', '--machine', 'xe6', '--nodes', '8', '--param', 'iterations=1'];
    const cases: [string[], RegExp][] = [
      [['--trace', join(dir, 'x.json'), '--trace-ranks', '0-8'], /--trace-ranks 0-8: '0-8' is not a rank or range of ranks 0\.\.7/],
      [['--trace', join(dir, 'x.json'), '--trace-ranks', 'a'], /--trace-ranks a:/],
      [['--trace', join(dir, 'x.json'), '--trace-max-events', '0'], /--trace-max-events 0: expected a positive integer/],
      [['--trace-flows'], /--trace-flows needs --trace <file>/],
      [['--trace', join(dir, 'no-such-dir', 'x.json')], /--trace .*x\.json: cannot write it/],
    ];
    for (const [extra, msg] of cases) {
      const r = await phit(...base, ...extra);
      expect(r.code, extra.join(' ')).toBe(2);
      expect(r.err).toHaveLength(1);
      expect(r.err[0]).toMatch(msg);
    }
    await expect(simulate({ machine: 'xe6', nodes: 2, program: async () => 0, trace: { ranks: [2] } })).rejects.toThrow(/trace\.ranks: 2 is not a rank \(0\.\.1\)/);
  });
});
