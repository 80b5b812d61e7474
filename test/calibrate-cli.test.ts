import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { osuLatency } from '../apps/osu-latency.ts';
import { resolveParams } from '../apps/app.ts';
import { parseMachineFile } from '../fabric/machines/file.ts';
import { simulate } from '../runtime/simulate.ts';
import { phit } from './helpers.ts';

const here = dirname(fileURLToPath(import.meta.url));
/** Illustrative osu_latency and osu_bw output of a Gemini pair (made-up values in OSU 5.x's format). */
const FIXTURE = join(here, 'fixtures', 'osu-xe6-pair.txt');
const tmp = mkdtempSync(join(tmpdir(), 'phit-calibrate-cli-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('phit calibrate on a user OSU file', () => {
  it('prints a machine file that phit run and simulate accept, and that reproduces the reported values; the report goes to stderr', async () => {
    const r = await phit('calibrate', '-m', 'xe6', '--data', FIXTURE, '--fit', 'mpi.sendOverhead,mpi.recvOverhead');
    expect(r.code).toBe(0);
    const yaml = r.out.join('\n');
    const report = r.err.join('\n');
    expect(yaml).toMatch(/^base: xe6$/m);
    expect(report).toMatch(/fitted to 21 of 27 points/);
    expect(report).toMatch(/^held-out points: 6, median \|error\| [0-9.]+ %, max [0-9.]+ %$/m);
    // the 0-byte point has no counterpart in phit's apps
    expect(report).toMatch(/^skipped .*osu-xe6-pair\.txt:4 \(osu_latency\): 0 bytes/m);
    const file = join(tmp, 'fitted.yaml');
    writeFileSync(file, yaml);
    const spec = parseMachineFile(readFileSync(file, 'utf8'), file);
    expect(spec.params['mpi.sendOverhead']!.source).toBe('fitted: osu-xe6-pair.txt');
    expect(spec.params['mpi.recvOverhead']!.source).toBe('fitted: osu-xe6-pair.txt');
    expect(spec.params['mpi.sendOverhead']!.value).not.toBe('400ns');

    const run = await phit('run', 'osu-latency', '--machine', file, '--param', 'maxBytes=1', '--json');
    expect(run.err).toEqual([]);
    expect(run.code).toBe(0);
    const ran = JSON.parse(run.out[0]!) as { machine: string; results: { rows: { bytes: number; latencyUs: number }[] } };
    expect(ran.machine).toBe('xe6-fitted');
    // the 1-byte latency the report gives (fixture line 5) is what the machine file runs
    const row = /^\S*osu-xe6-pair\.txt:5 +osu_latency +2 +1 +1 +us +([0-9.]+) +([0-9.]+) /m.exec(report);
    expect(row).not.toBeNull();
    expect(ran.results.rows[0]!.latencyUs).toBeCloseTo(Number(row![2]), 3);
    const sim = await simulate({ machine: spec, nodes: 2, program: (ctx) => osuLatency.main(ctx, resolveParams(osuLatency, { maxBytes: '1' })) });
    expect((sim.result as { rows: { latencyUs: number }[] }).rows[0]!.latencyUs).toBe(ran.results.rows[0]!.latencyUs);
  });

  it('--out file.json writes JSON that --machine loads, the report on stdout; the evaluation cap is reported', async () => {
    const out = join(tmp, 'capped.json');
    const r = await phit('calibrate', '-m', 'xe6', '--data', FIXTURE, '--fit', 'mpi.sendOverhead', '--hold-out', '0', '--max-evals', '4', '--out', out);
    expect(r.err).toEqual([]);
    expect(r.code).toBe(0);
    const report = r.out.join('\n');
    expect(report).toMatch(/\(none held out\)/);
    expect(report).toMatch(/stopped at the cap of 4 evaluations, .*; raise --max-evals to go on/);
    expect(report).not.toMatch(/held-out points/);
    expect(report).toMatch(/^machine file: .*capped\.json$/m);
    const j = JSON.parse(readFileSync(out, 'utf8')) as { base: string; params: Record<string, { value: string; source: string }> };
    expect(j.base).toBe('xe6');
    expect(Object.keys(j.params)).toEqual(['mpi.sendOverhead']);
    const run = await phit('run', 'pingpong', '--machine', out, '--param', 'maxBytes=8');
    expect(run.code).toBe(0);
  });

  it('--help describes the data, the fit and the output', async () => {
    const r = await phit('calibrate', '--help');
    expect(r.code).toBe(0);
    const text = r.out.join('\n');
    for (const s of ['--fit <keys>', '--hold-out <fraction>', 'osu_latency, osu_bw, osu_bibw, osu_allreduce, osu_alltoall', 'fitted: <data files>', 'phit run osu-latency --machine fitted.yaml']) expect(text).toContain(s);
  });
});

describe('phit calibrate on bad input: one line naming the problem, exit code 2', () => {
  const csv = (name: string, text: string): string => {
    const f = join(tmp, name);
    writeFileSync(f, text);
    return f;
  };
  const cases: [string, () => string[], RegExp][] = [
    ['an unknown parameter', () => ['--fit', 'mpi.sendOverheat'], /^phit: --fit: unknown parameter "mpi.sendOverheat" for machine xe6; did you mean mpi.sendOverhead\?$/],
    ['a parameter that is not a number', () => ['--fit', 'routing.algorithm'], /^phit: --fit routing.algorithm: its value is a torus routing, not a number/],
    ['an empty fit list', () => ['--fit', ','], /^phit: --fit ",": expected parameter keys joined by commas/],
    ['a missing data file', () => ['--fit', 'mpi.sendOverhead', '--data', join(tmp, 'none.txt')], /^phit: --data .*none\.txt: no such file$/],
    ['a data file without points', () => ['--fit', 'mpi.sendOverhead', '--data', csv('empty.csv', 'benchmark,bytes,value\n')], /^phit: .*empty\.csv:1: a header and no data lines/],
    ['only points phit cannot run', () => ['--fit', 'mpi.sendOverhead', '--data', csv('zero.csv', 'benchmark,bytes,value\nosu_latency,0,1.5\n')], /^phit: no data points to fit \(0 held out, 1 skipped\)$/],
    ['a bad line', () => ['--fit', 'mpi.sendOverhead', '--data', csv('bad.csv', 'benchmark,bytes,value\nosu_latency,8,1.5\nosu_latency,16,fast\n')], /^phit: .*bad\.csv:3: value "fast": expected a positive number$/],
    ['benchmarks without an app', () => ['--fit', 'mpi.sendOverhead', '--data', csv('coll.csv', 'benchmark,bytes,value\nosu_bcast,8,3\nosu_barrier,,5\nosu_latency,8,1.5\n')], /^phit: no phit app for osu_bcast \(.*coll\.csv:2\), osu_barrier \(.*coll\.csv:3\); calibrate reproduces osu_latency, osu_bw, osu_bibw, osu_allreduce, osu_alltoall$/],
    ['a point-to-point row on more than two ranks', () => ['--fit', 'mpi.sendOverhead', '--data', csv('p2p.csv', 'benchmark,bytes,value,nodes\nosu_latency,8,1.5,4\n')], /^phit: .*p2p\.csv:2: osu_latency runs on OSU's 2 ranks, but nodes 4 x ppn 1 gives 4$/],
    ['a bandwidth given for a latency', () => ['--fit', 'mpi.sendOverhead', '--data', csv('unit.csv', 'benchmark,bytes,value,unit\nosu_latency,8,1.5,GB/s\n')], /^phit: .*unit\.csv:2: osu_latency measures a latency \(us\), but the value is a bandwidth$/],
    ['a hold-out fraction above 0.5', () => ['--fit', 'mpi.sendOverhead', '--hold-out', '0.7'], /^phit: --hold-out 0\.7: expected a fraction from 0 to 0\.5$/],
    ['an output that is not a machine file name', () => ['--fit', 'mpi.sendOverhead', '--out', join(tmp, 'fit.txt')], /^phit: --out .*fit\.txt: expected a machine file name ending in \.yaml, \.yml or \.json$/],
    ['an unknown machine', () => ['--fit', 'mpi.sendOverhead', '--machine', 'xe7'], /^phit: unknown machine "xe7"/],
    ['a bad --set', () => ['--fit', 'mpi.sendOverhead', '--set', 'mpi.recvOverhead=fast'], /^phit: --set: mpi.recvOverhead: "fast" is not a time/],
  ];
  for (const [what, args, want] of cases) {
    it(what, async () => {
      const a = args();
      const data = a.includes('--data') ? [] : ['--data', FIXTURE];
      const machine = a.includes('--machine') ? [] : ['--machine', 'xe6'];
      const r = await phit('calibrate', ...machine, ...data, ...a);
      expect(r.code).toBe(2);
      expect(r.out).toEqual([]);
      expect(r.err).toHaveLength(1);
      expect(r.err[0]).not.toContain('\n');
      expect(r.err[0]).toMatch(want);
    });
  }

  it('without --fit: commander names the missing option', async () => {
    const r = await phit('calibrate', '--machine', 'xe6', '--data', FIXTURE);
    expect(r.code).toBe(2);
    expect(r.err.join('\n')).toMatch(/required option '-f, --fit <keys>' not specified/);
  });
});

describe('phit calibrate with a parameter the data do not determine', () => {
  it('warns, keeps its start and leaves it out of the machine file', async () => {
    const data = join(tmp, 'lat.csv');
    writeFileSync(data, 'benchmark,bytes,value\nosu_latency,1,1.5\nosu_latency,64,1.55\nosu_latency,1024,2.0\n');
    const out = join(tmp, 'idle.yaml');
    const r = await phit('calibrate', '-m', 'xe6', '--data', data, '--fit', 'mpi.sendOverhead,amo.op', '--hold-out', '0', '--out', out);
    expect(r.code).toBe(0);
    const report = r.out.join('\n');
    expect(report).toMatch(/^amo\.op +10ns +10ns +\+0\.00 %$/m);
    expect(report).toMatch(/^warning: amo\.op: 10 % more of it moves no fitted point; the data do not determine it/m);
    expect(report).not.toMatch(/warning: mpi\.sendOverhead/);
    const spec = parseMachineFile(readFileSync(out, 'utf8'), out);
    expect(spec.params['amo.op']!.source).not.toMatch(/fitted/);
    expect(spec.params['mpi.sendOverhead']!.source).toBe('fitted: lat.csv');
    expect(readFileSync(out, 'utf8')).toMatch(/not determined by the data, left out: amo\.op/);
  });
});
