import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { resolveParams } from '../apps/app.ts';
import { findApp } from '../apps/index.ts';
import { chooseMerit } from '../cli/compare.ts';
import type { LineChart } from '../cli/report.ts';
import { parseSweep, planSweep, sweepReport, type SweepRow } from '../cli/sweep.ts';
import { simulate } from '../runtime/simulate.ts';
import { phit } from './helpers.ts';

const tmp = mkdtempSync(join(tmpdir(), 'phit-sweep-test-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

function file(name: string, text: string): string {
  const path = join(tmp, name);
  writeFileSync(path, text);
  return path;
}

/** RFC 4180 CSV: quoted fields may hold commas, doubled quotes and line breaks. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      row.push(field);
      field = '';
    } else if (c === '\r' && text[i + 1] === '\n') {
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
      i++;
    } else field += c;
  }
  if (field !== '' || row.length > 0) throw new Error('CSV does not end with CRLF');
  return rows;
}

type SweepDoc = { file: string; points: number; failed: number; rows: SweepRow[] };

describe('phit sweep', () => {
  it('2 machines x 2 sizes: 4 rows in matrix order, times of direct simulate() runs, CSV and JSON that parse back', async () => {
    const sweep = file('small.yaml', ['app: halo3d', 'machines: [xe6, xc30]', 'nodes: [2, 4]', 'params: { nx: 8, ny: 8, nz: 8, iterations: 1 }', 'seed: 3', ''].join('\n'));
    const csv = join(tmp, 'small.csv');
    const html = join(tmp, 'small.html');
    const r = await phit('sweep', sweep, '--out', csv, '--json', '--workers', '2', '--report', html);
    expect(r.code).toBe(0);
    // piped stderr: the one final line
    expect(r.err).toHaveLength(1);
    expect(r.err[0]).toMatch(/^sweep: 4 points, 0 failed, [\d.]+ s; wrote .*small\.csv, .*small\.html$/);
    const doc = JSON.parse(r.out[0]!) as SweepDoc;
    expect(doc).toMatchObject({ points: 4, failed: 0 });
    expect(doc.rows.map((x) => [x.index, x.machine, x.nodes, x.label])).toEqual([
      [0, 'xe6', 2, 'halo3d xe6 nodes=2'],
      [1, 'xe6', 4, 'halo3d xe6 nodes=4'],
      [2, 'xc30', 2, 'halo3d xc30 nodes=2'],
      [3, 'xc30', 4, 'halo3d xc30 nodes=4'],
    ]);
    const app = findApp('halo3d');
    const params = resolveParams(app, { nx: '8', ny: '8', nz: '8', iterations: '1' });
    for (const row of doc.rows) {
      const direct = await simulate({ machine: row.machine, nodes: row.nodes, seed: 3, program: (ctx) => app.main(ctx, params) });
      expect(row.status).toBe('ok');
      expect(row.simulatedTimeUs).toBe(direct.simulatedTimeUs);
      const merit = chooseMerit(app.merit, direct.result)!;
      expect([row.meritKey, row.merit, row.higherIsBetter]).toEqual([merit.key, merit.value, merit.higherIsBetter]);
      const last = (direct.result as { rows: Record<string, unknown>[] }).rows.at(-1)!;
      expect(row.result.timeUs).toBe(last.timeUs);
      expect(row.result).not.toHaveProperty('check'); // a string: only numbers are kept
    }
    expect(new Set(doc.rows.map((x) => x.simulatedTimeUs)).size).toBe(4);
    const [header, ...lines] = parseCsv(readFileSync(csv, 'utf8'));
    expect(header!.slice(0, 12)).toEqual(['index', 'label', 'app', 'machine', 'nodes', 'ppn', 'seed', 'skeleton', 'params.nx', 'params.ny', 'params.nz', 'params.iterations']);
    expect(lines).toHaveLength(4);
    const col = (name: string): string[] => lines.map((l) => l[header!.indexOf(name)]!);
    expect(col('machine')).toEqual(['xe6', 'xe6', 'xc30', 'xc30']);
    expect(col('status')).toEqual(['ok', 'ok', 'ok', 'ok']);
    expect(col('simulatedTimeUs').map(Number)).toEqual(doc.rows.map((x) => x.simulatedTimeUs));
    expect(col('result.timeUs').map(Number)).toEqual(doc.rows.map((x) => x.result.timeUs));
    // the summary: merit and time against nodes, one line per machine, then every row
    const report = sweepReport('small.yaml', doc.rows);
    const [merit, time] = report.sections[0]!.items;
    expect(merit).toMatchObject({ kind: 'line', xLabel: 'nodes', title: `halo3d: ${doc.rows[0]!.meritKey} (lower is better)` });
    expect(time).toMatchObject({ kind: 'line', xLabel: 'nodes', title: 'halo3d: simulated time (us)' });
    const series = (time as LineChart).series;
    expect(series).toEqual([
      { name: 'xe6', points: [[2, doc.rows[0]!.simulatedTimeUs], [4, doc.rows[1]!.simulatedTimeUs]] },
      { name: 'xc30', points: [[2, doc.rows[2]!.simulatedTimeUs], [4, doc.rows[3]!.simulatedTimeUs]] },
    ]);
    expect(report.sections[1]!.items[0]).toMatchObject({ kind: 'table', rows: [{ index: 0, label: 'halo3d xe6 nodes=2' }, {}, {}, {}] });
    const page = readFileSync(html, 'utf8');
    expect(page.startsWith('<!DOCTYPE html>')).toBe(true);
    expect(page).toContain('halo3d: simulated time (us)');
    expect(page).toContain('halo3d xc30 nodes=4');
  });

  it('failing points show their error, the others finish, exit 1; the JSON file parses back', async () => {
    file(
      'picky.ts',
      [
        "export const params = { maxBytes: { type: 'bytes', default: 8, help: 'unused' } };",
        'export default async (ctx: { machine: { name: string }; compute: (w: { us: number }) => Promise<void> }) => {',
        "  if (ctx.machine.name === 'xc30') throw new Error('not on xc30, \"sorry\"');",
        '  await ctx.compute({ us: 5 });',
        '  return { rows: [{ answer: 42 }] };',
        '};',
        '',
      ].join('\n'),
    );
    // the program is named relative to the sweep file
    const sweep = file('mixed.json', JSON.stringify({ apps: ['pingpong', './picky.ts'], machines: ['xe6', 'xc30'], nodes: [1, 2], params: { maxBytes: 64 } }));
    const out = join(tmp, 'mixed.json.out.json');
    const r = await phit('sweep', sweep, '--out', out);
    expect(r.code).toBe(1);
    expect(r.err).toHaveLength(1);
    expect(r.err[0]).toMatch(/^sweep: 8 points, 4 failed/);
    const doc = JSON.parse(readFileSync(out, 'utf8')) as SweepDoc;
    expect(doc).toMatchObject({ points: 8, failed: 4 });
    const status = doc.rows.map((x) => `${x.index} ${x.status} ${x.error ?? ''}`.trim());
    expect(status[0]).toMatch(/^0 error pingpong needs at least 2 ranks/);
    expect(status[1]).toBe('1 ok');
    expect(status[2]).toMatch(/^2 error pingpong needs at least 2 ranks/);
    expect(status[3]).toBe('3 ok');
    expect(status.slice(4, 6)).toEqual(['4 ok', '5 ok']);
    expect(status[6]).toMatch(/^6 error rank 0 failed at .*: not on xc30, "sorry"$/);
    expect(status[7]).toMatch(/^7 error rank \d failed at .*: not on xc30, "sorry"$/);
    expect(doc.rows[4]).toMatchObject({ simulatedTimeUs: 5, merit: null, result: { answer: 42 } });
    expect(doc.rows[6]).toMatchObject({ simulatedTimeUs: null, merit: null, result: {} });
    // the table names every point; the error cell is there
    const table = r.out.join('\n');
    expect(table).toMatch(/^ {4}6 +\.\/picky\.ts xc30 nodes=1 +error +.*not on xc30/m);
    // the same rows as CSV: the quoted message survives
    const csv = join(tmp, 'mixed.csv');
    expect((await phit('sweep', sweep, '--out', csv)).code).toBe(1);
    const [header, ...lines] = parseCsv(readFileSync(csv, 'utf8'));
    expect(lines[6]![header!.indexOf('error')]).toBe(doc.rows[6]!.error);
    expect(lines[6]![header!.indexOf('label')]).toBe('./picky.ts xc30 nodes=1');
  });

  it('a machine its parameters cannot build is an error row before any worker starts', async () => {
    const spec = parseSweep('{app: pingpong, machine: xe6, nodes: 2, set: {router.inputBuffer: [256, 4]}}', 'buffers.yaml');
    const plan = await planSweep(spec, tmp);
    expect(plan.points.map((p) => p.label)).toEqual(['pingpong xe6 router.inputBuffer=256', 'pingpong xe6 router.inputBuffer=4']);
    expect([...plan.tasks.keys()]).toEqual([0]);
    expect(plan.early.get(1)?.error).toMatch(/router\.inputBuffer=4.*must hold a full/);
  });

  it('machine files are named relative to the sweep file; a row shows the machine by its name', async () => {
    file('fast.yaml', 'base: xe6\nname: fast-xe6\nparams:\n  router.latency: 60ns\n');
    const plan = await planSweep(parseSweep('{app: pingpong, machines: [xe6, ./fast.yaml], nodes: 2}', 'files.yaml'), tmp);
    expect(plan.points.map((p) => p.label)).toEqual(['pingpong xe6', 'pingpong fast-xe6']);
    expect(plan.tasks.get(1)!.spec.params['router.latency']!.value).toBe('60ns');
    file('other.yaml', 'base: xe6\nname: fast-xe6\nparams:\n  router.latency: 70ns\n');
    await expect(planSweep(parseSweep('{app: pingpong, machines: [./fast.yaml, ./other.yaml], nodes: 2}', 'twice.yaml'), tmp)).rejects.toThrow(
      /^twice\.yaml: machines: two machines are named fast-xe6$/,
    );
  });

  const bad = async (name: string, text: string, ...args: string[]): Promise<string> => {
    const r = await phit('sweep', file(name, text), ...args);
    expect(r.code).toBe(2);
    expect(r.out).toEqual([]);
    expect(r.err).toHaveLength(1);
    return r.err[0]!;
  };

  it('bad sweep files exit 2 with the key and the bad value named', async () => {
    expect(await bad('k.yaml', 'app: pingpong\nmachines: [xe6]\nnodes: 2\nseeds: [1, 2]\n')).toMatch(/^phit: .*k\.yaml: unknown key "seeds"; valid: app, apps, machine, machines, nodes, ppn, params, set, seed, skeleton$/);
    expect(await bad('a.yaml', 'apps: [pingpong, halo4d]\nmachines: [xe6]\nnodes: 2\n')).toMatch(/a\.yaml: apps: unknown app "halo4d"; valid: pingpong/);
    expect(await bad('m.yaml', 'app: pingpong\nmachines: [xe6, cm5]\nnodes: 2\n')).toMatch(/m\.yaml: machines: unknown machine "cm5"; valid: /);
    expect(await bad('n.yaml', 'app: pingpong\nmachine: xe6\nnodes: [2, -4]\n')).toMatch(/n\.yaml: nodes: -4 is not a positive integer/);
    expect(await bad('v.yaml', 'app: halo3d\nmachine: xe6\nnodes: 2\nparams: { nx: [8, abc] }\n')).toMatch(/v\.yaml: params\.nx: parameter nx=abc of app halo3d: expected an integer/);
    expect(await bad('p.yaml', 'app: halo3d\nmachine: xe6\nnodes: 2\nparams: { n: 8 }\n')).toMatch(/p\.yaml: params\.n: unknown parameter "n" for app halo3d; valid: nx, /);
    expect(await bad('s.yaml', 'app: halo3d\nmachine: xe6\nnodes: 2\nset: { mpi.eagerMaxByte: 4KiB }\n')).toMatch(/s\.yaml: set\.mpi\.eagerMaxByte: unknown machine parameter; did you mean mpi\.eagerMaxBytes\?/);
    expect(await bad('t.yaml', 'app: halo3d\nmachines: [xc30, bw]\nnodes: 2\nset: { torus.dims: 2x1x1 }\n')).toMatch(/t\.yaml: set\.torus\.dims: no machine of the sweep \(xc30, bw\) has this parameter/);
    expect(await bad('u.yaml', 'app: halo3d\nmachine: xe6\nnodes: 2\nset: { mpi.eagerMaxBytes: [4KiB, 4Kx] }\n')).toMatch(/u\.yaml: set\.mpi\.eagerMaxBytes: "4Kx" is not a size; expected/);
    expect(await bad('d.yaml', 'app: halo3d\nmachine: xe6\nnodes: [2, 2]\n')).toMatch(/d\.yaml: nodes: 2 is listed twice/);
    expect(await bad('y.yaml', 'app: [halo3d\n')).toMatch(/y\.yaml: not valid YAML or JSON/);
    expect(await bad('r.yaml', 'app: pingpong\nmachine: xe6\nnodes: 1\n')).toMatch(/r\.yaml: no point of the sweep can run: pingpong needs at least 2 ranks/);
    expect(await bad('o.yaml', 'app: pingpong\nmachine: xe6\nnodes: 2\n', '--out', 'results.txt')).toBe('phit: --out results.txt: expected a file ending in .csv or .json');
    expect(await bad('h.yaml', 'app: pingpong\nmachine: xe6\nnodes: 2\n', '--report', 'summary.htm')).toBe('phit: --report summary.htm: expected a file ending in .html');
    expect(await bad('w.yaml', 'app: pingpong\nmachine: xe6\nnodes: 2\n', '--workers', '0')).toBe('phit: --workers 0: expected a positive integer');
    // an output that cannot be written is refused before any point runs
    expect(await bad('x.yaml', 'app: pingpong\nmachine: xe6\nnodes: 2\n', '--out', join(tmp, 'no-dir', 'r.csv'))).toMatch(/^phit: --out .*r\.csv: cannot write it/);
    const missing = await phit('sweep', join(tmp, 'none.yaml'));
    expect([missing.code, missing.err[0]]).toEqual([2, `phit: sweep file "${join(tmp, 'none.yaml')}": no such file`]);
  });

  it('the matrix: every list is an axis, the last turns fastest, labels name the swept values', async () => {
    const spec = parseSweep(
      'apps: [halo3d]\nmachines: [xe6, bw]\nnodes: 8\nppn: [1, 2]\nparams: { iterations: 2, nx: [8, 16] }\nset: { mpi.eagerMaxBytes: [4KiB] }\nseed: [1, 2]\n',
      'matrix.yaml',
    );
    const plan = await planSweep(spec, tmp);
    expect(plan.points).toHaveLength(2 * 2 * 2 * 2);
    expect(plan.points.map((p) => p.index)).toEqual([...Array(16).keys()]);
    expect(plan.points[0]!.label).toBe('halo3d xe6 ppn=1 nx=8 seed=1');
    expect(plan.points[1]!.label).toBe('halo3d xe6 ppn=1 nx=8 seed=2');
    expect(plan.points[2]!.label).toBe('halo3d xe6 ppn=1 nx=16 seed=1');
    expect(plan.points[15]).toMatchObject({ machine: 'bw', nodes: 8, ppn: 2, seed: 2, params: { iterations: 2, nx: 16 }, set: { 'mpi.eagerMaxBytes': '4KiB' } });
    expect(plan.tasks.get(15)).toMatchObject({ app: 'halo3d', params: { iterations: '2', nx: '16' }, set: { 'mpi.eagerMaxBytes': '4KiB' } });
  });
});
