import { describe, expect, it } from 'vitest';
import { resolveParams } from '../apps/app.ts';
import { findApp } from '../apps/index.ts';
import { main } from '../cli/main.ts';
import { formatProgress, progressLine } from '../cli/progress.ts';
import { Engine, type EventHandler } from '../fabric/engine/engine.ts';
import { simulate, type SimulateProgress } from '../runtime/simulate.ts';
import { phit } from './helpers.ts';

const halo = findApp('halo3d');

describe('progress of a run', () => {
  it('simulate({ onProgress }) fires every progressEvery events with rising simulated time, and changes nothing', async () => {
    const params = resolveParams(halo, { iterations: '2' });
    const seen: SimulateProgress[] = [];
    const r = await simulate({ machine: 'xe6', nodes: 4, program: (ctx) => halo.main(ctx, params), onProgress: (p) => seen.push(p), progressEvery: 5000 });
    const plain = await simulate({ machine: 'xe6', nodes: 4, program: (ctx) => halo.main(ctx, params) });
    expect(r.simulatedTimeUs).toBe(plain.simulatedTimeUs);
    expect(r.events).toBe(plain.events);
    expect(seen.length).toBe(Math.floor(r.events / 5000));
    seen.forEach((p, i) => expect(p.events).toBe((i + 1) * 5000));
    for (let i = 1; i < seen.length; i++) expect(seen[i]!.simulatedTimeUs).toBeGreaterThanOrEqual(seen[i - 1]!.simulatedTimeUs);
    expect(seen[seen.length - 1]!.simulatedTimeUs).toBeGreaterThan(seen[0]!.simulatedTimeUs);
    expect(seen[seen.length - 1]!.simulatedTimeUs).toBeLessThanOrEqual(r.simulatedTimeUs);
  });

  it('the engine calls back from drain() too, and stops when the listener is removed', () => {
    const e = new Engine(1);
    const h: EventHandler & { id: number } = { id: -1, onEvent: (_k, n) => (n > 0 ? e.at(e.now + 10, h.id, 0, n - 1) : undefined) };
    h.id = e.register(h);
    e.at(0, h.id, 0, 99);
    const calls: [number, number][] = [];
    e.onProgress((now, events) => calls.push([now, events]), 30);
    e.drain(500);
    // events 30, 60 and 90 run at 290, 590 and 890 ps: only the first falls before the limit
    expect(calls).toEqual([[290, 30]]);
    e.onProgress(null);
    e.drain();
    expect(calls).toHaveLength(1);
    expect(e.events).toBe(100);
    expect(() => e.onProgress(() => {}, 0)).toThrow(/positive integer/);
  });

  it('the progress line: its text, at most one redraw per interval, erased at the end', () => {
    expect(formatProgress({ simulatedTimeUs: 123.44, events: 5_120_000 }, 2)).toBe('simulated 123.4 us, 5.1 M events, 2.6 M events/s');
    const writes: string[] = [];
    let clock = 0;
    const line = progressLine({ write: (s) => writes.push(s) }, { minIntervalMs: 250, now: () => clock });
    line.clear(); // nothing drawn yet: nothing to erase
    clock = 1000;
    line.onProgress({ simulatedTimeUs: 1, events: 1e6 });
    clock = 1100;
    line.onProgress({ simulatedTimeUs: 2, events: 2e6 });
    clock = 1300;
    line.onProgress({ simulatedTimeUs: 3, events: 3e6 });
    line.clear();
    expect(writes).toEqual(['\rsimulated 1.0 us, 1.0 M events, 1.0 M events/s\x1b[K', '\rsimulated 3.0 us, 3.0 M events, 2.3 M events/s\x1b[K', '\r\x1b[K']);
  });

  it('phit run draws progress on a terminal and erases it; piped (in-process) stderr stays empty', async () => {
    const args = ['run', 'halo3d', '--nodes', '8', '--param', 'iterations=5'];
    const quiet = await phit(...args);
    expect(quiet.code).toBe(0);
    expect(quiet.err).toEqual([]);
    const drawn: string[] = [];
    const out: string[] = [];
    const tty = { isTTY: true, write: (s: string) => drawn.push(s) } as unknown as NodeJS.WriteStream;
    const code = await main(args, { out: (s) => out.push(s), err: (s) => drawn.push(`err: ${s}`), tty });
    expect(code).toBe(0);
    expect(out).toEqual(quiet.out);
    // over 2^18 events: at least one line, then the erase
    expect(drawn.length).toBeGreaterThanOrEqual(2);
    const ESC = String.fromCharCode(27);
    expect(drawn[0]!.startsWith('\r') && drawn[0]!.endsWith(`${ESC}[K`)).toBe(true);
    expect(drawn[0]!.slice(1, -3)).toMatch(/^simulated \d+\.\d us, \d+\.\d M events, \d+\.\d M events\/s$/);
    expect(drawn[drawn.length - 1]).toBe('\r\x1b[K');
  });
});
