import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { SKELETON_CHECK } from '../apps/app.ts';
import { parseSweep } from '../cli/sweep.ts';
import { phit } from './helpers.ts';

const tmp = mkdtempSync(join(tmpdir(), 'phit-skeleton-cli-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

function file(name: string, text: string): string {
  const path = join(tmp, name);
  writeFileSync(path, text);
  return path;
}

describe('--skeleton on the command line', () => {
  it('phit run --skeleton --json: the same time and rows, skeleton: true, the check skipped', async () => {
    const args = ['run', 'halo3d', '--nodes', '4', '--ppn', '2', '--param', 'iterations=2', '--param', 'nx=8', '--param', 'ny=8', '--param', 'nz=8', '--json'];
    const normal = await phit(...args);
    const skeleton = await phit(...args, '--skeleton');
    expect(skeleton.code).toBe(0);
    const a = JSON.parse(normal.out[0]!) as { simulatedTimeUs: number; skeleton?: boolean; results: { rows: Record<string, unknown>[] } };
    const b = JSON.parse(skeleton.out[0]!) as typeof a;
    expect(a.skeleton).toBeUndefined();
    expect(b.skeleton).toBe(true);
    expect(b.simulatedTimeUs).toBe(a.simulatedTimeUs);
    expect(a.results.rows[0]!.check).toBe('passed');
    expect(b.results.rows[0]!.check).toBe(SKELETON_CHECK);
    expect({ ...b.results.rows[0], check: 'passed' }).toEqual(a.results.rows[0]);
  });

  it('phit run --skeleton says so under the title; --help describes it', async () => {
    const r = await phit('run', 'pingpong', '--nodes', '2', '--param', 'maxBytes=64', '--skeleton');
    expect(r.code).toBe(0);
    expect(r.out.join('\n')).toMatch(/\nskeleton run: sizes moved, bytes not \(buffers from ctx\.alloc read as zeros\); data checks skipped\n/);
    for (const cmd of ['run', 'compare']) {
      const help = await phit(cmd, '--help');
      expect(help.out.join('\n')).toMatch(/--skeleton\s+skeleton run/);
    }
    expect((await phit('sweep', '--help')).out.join('\n')).toMatch(/skeleton: false .*\[false, true\]: both/);
  });

  it('phit compare --skeleton runs every machine as a skeleton and matches the normal times', async () => {
    const args = ['compare', '--app', 'halo3d', '--machines', 'xe6,xc30', '--nodes', '2', '--param', 'iterations=1', '--param', 'nx=8', '--param', 'ny=8', '--param', 'nz=8'];
    const normal = JSON.parse((await phit(...args, '--json')).out[0]!) as { skeleton?: boolean; rows: { simulatedTimeUs: number }[] };
    const skeleton = JSON.parse((await phit(...args, '--json', '--skeleton')).out[0]!) as typeof normal;
    expect(normal.skeleton).toBeUndefined();
    expect(skeleton.skeleton).toBe(true);
    expect(skeleton.rows).toEqual(normal.rows);
    const table = await phit(...args, '--skeleton');
    expect(table.out[0]).toMatch(/, skeleton runs \(sizes only, data not moved\)\n/);
  });
});

describe('skeleton in a sweep file', () => {
  it('is an axis of booleans, false by default, shown in every row', async () => {
    expect(parseSweep('app: halo3d\nmachine: xe6\nnodes: 2\n', 'a.yaml').skeleton).toEqual([false]);
    expect(parseSweep('app: halo3d\nmachine: xe6\nnodes: 2\nskeleton: true\n', 'b.yaml').skeleton).toEqual([true]);
    const sweep = file('both.yaml', 'app: halo3d\nmachine: xe6\nnodes: 2\nparams: { iterations: 1, nx: 8, ny: 8, nz: 8 }\nskeleton: [false, true]\n');
    const r = await phit('sweep', sweep, '--json', '--workers', '1');
    expect(r.code).toBe(0);
    const rows = (JSON.parse(r.out[0]!) as { rows: { label: string; skeleton: boolean; simulatedTimeUs: number }[] }).rows;
    expect(rows.map((x) => [x.label, x.skeleton])).toEqual([
      ['halo3d xe6 skeleton=false', false],
      ['halo3d xe6 skeleton=true', true],
    ]);
    expect(rows[1]!.simulatedTimeUs).toBe(rows[0]!.simulatedTimeUs);
  });

  it('anything but true or false, or a value listed twice, is bad input (exit 2)', async () => {
    for (const [value, why] of [
      ['yes', /skeleton: "yes" is not true or false$/],
      ['1', /skeleton: 1 is not true or false$/],
      ['[true, true]', /skeleton: true is listed twice$/],
      ['[]', /skeleton: an empty list; give at least one value$/],
    ] as const) {
      const r = await phit('sweep', file('bad.yaml', `app: halo3d\nmachine: xe6\nnodes: 2\nskeleton: ${value}\n`));
      expect(r.code).toBe(2);
      expect(r.err).toHaveLength(1);
      expect(r.err[0]).toMatch(why);
    }
  });
});
