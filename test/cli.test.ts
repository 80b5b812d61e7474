import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { phit } from './helpers.ts';
import { afterAll, describe, expect, it } from 'vitest';


/** All printed text as lines (an io call may carry several lines, e.g. a table). */
function lines(chunks: readonly string[]): string[] {
  return chunks.flatMap((c) => c.split('\n'));
}

const tmp = mkdtempSync(join(tmpdir(), 'phit-cli-test-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('phit run (built-in apps)', () => {
  it('run pingpong --nodes 2 --param maxBytes=64 --json prints one JSON object with the documented keys', async () => {
    const r = await phit('run', 'pingpong', '--nodes', '2', '--param', 'maxBytes=64', '--json');
    expect(r.err).toEqual([]);
    expect(r.code).toBe(0);
    expect(lines(r.out)).toHaveLength(1);
    const j = JSON.parse(r.out[0]!) as Record<string, unknown>;
    expect(Object.keys(j).sort()).toEqual(['app', 'machine', 'nodes', 'ranks', 'results', 'simulatedTimeUs']);
    expect(j).toMatchObject({ app: 'pingpong', machine: 'xe6', nodes: 2, ranks: 2 });
    expect(j.simulatedTimeUs).toBeTypeOf('number');
    expect(j.simulatedTimeUs as number).toBeGreaterThan(0);
    const rows = (j.results as { rows: Record<string, unknown>[] }).rows;
    expect(rows.map((x) => x.bytes)).toEqual([8, 16, 32, 64]);
    for (const row of rows) {
      expect(Object.keys(row).sort()).toEqual(['bandwidthGBs', 'bytes', 'latencyUs']);
      expect(row.latencyUs as number).toBeGreaterThan(0);
      expect(row.bandwidthGBs as number).toBeGreaterThan(0);
    }
  });

  it('the table output has a header line and the column names, one line per row', async () => {
    const r = await phit('run', 'pingpong', '--nodes', '2', '--param', 'maxBytes=32');
    expect(r.code).toBe(0);
    expect(r.err).toEqual([]);
    const text = lines(r.out);
    expect(text[0]).toMatch(/^pingpong on xe6 \(Cray XE6 \(Gemini 3-D torus\)\): 2 nodes, 2 ranks, simulated time \d+\.\d{3} us$/);
    const header = text.findIndex((l) => /\bbytes\b/.test(l));
    expect(header).toBeGreaterThan(0);
    expect(text[header]!.trim().split(/\s+/)).toEqual(['bytes', 'latencyUs', 'bandwidthGBs']);
    expect(text[header + 1]).toMatch(/^[- ]+$/);
    const body = text.slice(header + 2);
    expect(body).toHaveLength(3);
    expect(body.map((l) => l.trim().split(/\s+/)[0])).toEqual(['8', '16', '32']);
  });

  it('--ppn and --seed are honoured (same seed, same JSON)', async () => {
    const a = await phit('run', 'halo3d', '--nodes', '2', '--ppn', '2', '--seed', '5', '--param', 'nx=4', '--param', 'ny=4', '--param', 'nz=4', '--param', 'iterations=2', '--json');
    const b = await phit('run', 'halo3d', '-n', '2', '--ppn', '2', '--seed', '5', '-p', 'nx=4', '-p', 'ny=4', '-p', 'nz=4', '-p', 'iterations=2', '--json');
    expect(a.code).toBe(0);
    expect(b.out).toEqual(a.out);
    const j = JSON.parse(a.out[0]!) as { ranks: number; nodes: number; results: { rows: { check: string }[] } };
    expect(j.nodes).toBe(2);
    expect(j.ranks).toBe(4);
    expect(j.results.rows[0]!.check).toBe('passed');
  });

  it('machines lists xe6 (table and --json)', async () => {
    const t = await phit('machines');
    expect(t.code).toBe(0);
    const text = lines(t.out);
    expect(text[0]).toMatch(/^machine\s+title/);
    expect(text.some((l) => /^xe6\s/.test(l))).toBe(true);
    const j = await phit('machines', '--json');
    expect(j.code).toBe(0);
    const rows = JSON.parse(j.out.join('\n')) as { machine: string; eagerMaxBytes: number }[];
    expect(rows.map((x) => x.machine)).toContain('xe6');
    expect(rows.find((x) => x.machine === 'xe6')!.eagerMaxBytes).toBe(8192);
  });

  it('apps lists the built-in apps and their parameters', async () => {
    const r = await phit('apps');
    expect(r.code).toBe(0);
    const text = lines(r.out);
    for (const name of ['pingpong', 'putget', 'halo3d']) expect(text.some((l) => l.startsWith(`${name}: `))).toBe(true);
    expect(text).toContain('  --param maxBytes=<bytes>  largest message (sizes double from minBytes) (default 4194304)');
    expect(text.some((l) => l.startsWith('summa: SUMMA matrix multiply C = A B on a 2-D grid of SHMEM teams'))).toBe(true);
    expect(text.some((l) => l.startsWith('  --param mode=<choice>  amo: one SHMEM atomic xor per update; bucket: ') && l.includes("locks: amo's updates, then HPCC SHMEM RandomAccess's verification"))).toBe(true);
  });
});

describe('phit run: bad input exits 2 with one line naming the bad value', () => {
  it.each([
    { what: 'unknown app', argv: ['run', 'nosuchapp'], names: 'nosuchapp' },
    { what: 'unknown machine', argv: ['run', 'pingpong', '--machine', 'xt9'], names: 'xt9' },
    { what: 'unknown --param key', argv: ['run', 'pingpong', '--param', 'maxbytes=64'], names: 'maxbytes' },
    { what: '--param without =', argv: ['run', 'pingpong', '--param', 'maxBytes'], names: 'maxBytes' },
    { what: '--nodes 0', argv: ['run', 'pingpong', '--nodes', '0'], names: '--nodes 0' },
    { what: '--nodes abc', argv: ['run', 'pingpong', '--nodes', 'abc'], names: '--nodes abc' },
    { what: '--ppn 0', argv: ['run', 'pingpong', '--ppn', '0'], names: '--ppn 0' },
    { what: '--seed -1', argv: ['run', 'pingpong', '--seed', '-1'], names: '--seed -1' },
    { what: 'pingpong on one rank', argv: ['run', 'pingpong', '--nodes', '1'], names: '--nodes 1' },
    { what: 'bad param value', argv: ['run', 'pingpong', '--nodes', '2', '--param', 'maxBytes=abc'], names: 'maxBytes=abc' },
    { what: 'bad int value', argv: ['run', 'halo3d', '--param', 'iterations=1.5'], names: 'iterations=1.5' },
    { what: '--ppn abc', argv: ['run', 'halo3d', '--ppn', 'abc'], names: '--ppn abc' },
    { what: 'missing user file', argv: ['run', './no/such/prog.ts'], names: './no/such/prog.ts' },
  ])('$what', async ({ argv, names }) => {
    const r = await phit(...argv);
    expect(r.code).toBe(2);
    expect(r.out).toEqual([]);
    expect(lines(r.err)).toHaveLength(1);
    expect(r.err[0]).toMatch(/^phit: /);
    expect(r.err[0]).toContain(names);
  });

  // Regression: a blank int value used to read as 0 and fail later with exit 1.
  it('an empty int value (--param target=) exits 2 naming it', async () => {
    const r = await phit('run', 'putget', '--nodes', '2', '--param', 'maxBytes=8', '--param', 'target=');
    expect(r.code).toBe(2);
    expect(r.err[0]).toContain('target=');
  });

  // Regression: `phit` alone shows usage on stderr and is a usage error, not a success.
  it('no command prints usage to stderr and exits non-zero', async () => {
    const r = await phit();
    expect(r.err.join('\n')).toContain('Usage: phit');
    expect(r.code).not.toBe(0);
  });

  it('--help and help print usage to stdout and exit 0', async () => {
    for (const argv of [['--help'], ['help'], ['run', '--help']]) {
      const r = await phit(...argv);
      expect(r.code).toBe(0);
      expect(r.out.join('\n')).toMatch(/^Usage: phit /);
    }
  });

  it('an unknown option is a usage error (exit 2)', async () => {
    const r = await phit('run', 'pingpong', '--frobnicate');
    expect(r.code).toBe(2);
    expect(r.err.join('\n')).toContain('--frobnicate');
  });

  it('a program that fails at run time exits 1 with the rank error', async () => {
    const r = await phit('run', 'pingpong', '--nodes', '2', '--param', 'peer=3', '--param', 'maxBytes=8');
    expect(r.code).toBe(1);
    expect(lines(r.err)).toHaveLength(1);
    expect(r.err[0]).toMatch(/^phit: rank 0 failed at .* us: pingpong: peer=3 is not a rank/);
  });
});

describe('phit run <user program file>', () => {
  it('runs a .ts file whose default export sends a message, and prints what it returned', async () => {
    const file = join(tmp, 'prog.ts');
    writeFileSync(
      file,
      `interface Ctx { rank: number; mpi: { send(b: Uint8Array, d: number, t: number): Promise<void>; recv(b: Uint8Array, s: number, t: number): Promise<{ source: number; bytes: number }> } }
export default async (ctx: Ctx) => {
  const buf = new Uint8Array(100);
  if (ctx.rank === 1) {
    buf.fill(42);
    await ctx.mpi.send(buf, 0, 3);
    return undefined;
  }
  const s = await ctx.mpi.recv(buf, 1, 3);
  return { rows: [{ ok: buf.every((v) => v === 42) && s.source === 1 && s.bytes === 100 }], note: 'from rank 0' };
};
`,
    );
    const r = await phit('run', file, '--nodes', '2', '--json');
    expect(r.err).toEqual([]);
    expect(r.code).toBe(0);
    const j = JSON.parse(r.out[0]!) as Record<string, unknown>;
    expect(j).toMatchObject({ app: file, machine: 'xe6', nodes: 2, ranks: 2 });
    expect(j.results).toEqual({ rows: [{ ok: true }], note: 'from rank 0' });
    expect(j.simulatedTimeUs as number).toBeGreaterThan(0);

    const t = await phit('run', file, '--nodes', '2');
    expect(t.code).toBe(0);
    expect(lines(t.out).some((l) => l.trim() === 'ok')).toBe(true);
    expect(lines(t.out).some((l) => l.trim() === 'true')).toBe(true);
  });

  it('a file without a default export function is a usage error', async () => {
    const file = join(tmp, 'nodefault.ts');
    writeFileSync(file, 'export const x = 1;\n');
    const r = await phit('run', file, '--nodes', '2');
    expect(r.code).toBe(2);
    expect(lines(r.err)).toHaveLength(1);
    expect(r.err[0]).toContain('must have a default export');
  });

  it('a program that does not compile, or a file that is no program, is a one-line usage error', async () => {
    const ts = join(tmp, 'broken.ts');
    writeFileSync(ts, 'export default async () => { const x = ; };\n');
    const a = await phit('run', ts, '--nodes', '2');
    expect(a.code).toBe(2);
    expect(lines(a.err)).toHaveLength(1);
    expect(a.err[0]).toMatch(/broken\.ts does not compile: .*broken\.ts:1:\d+: Unexpected ";"/);
    const mjs = join(tmp, 'broken.mjs');
    writeFileSync(mjs, 'export default async () => { const x = ; };\n');
    const b = await phit('run', mjs, '--nodes', '2');
    expect(b.code).toBe(2);
    expect(lines(b.err)).toHaveLength(1);
    expect(b.err[0]).toContain('broken.mjs does not compile: Unexpected token');
    const trace = join(tmp, 'ring.trace');
    writeFileSync(trace, 'rank-0.txt\n');
    const c = await phit('run', trace, '--nodes', '2');
    expect(c.code).toBe(2);
    expect(lines(c.err)).toEqual([`phit: ${trace}: a program is a .ts, .mts, .js or .mjs file (phit replay takes a trace)`]);
    // the same for a collective algorithm's file
    const d = await phit('run', 'allreduce', '--nodes', '2', '--coll', `allreduce=${ts}`);
    expect(d.code).toBe(2);
    expect(lines(d.err)).toHaveLength(1);
    expect(d.err[0]).toMatch(/cannot load it: .*broken\.ts:1:\d+: Unexpected ";"/);
  });
});

describe('the phit binary', () => {
  it('node cli/phit.mjs run halo3d --nodes 8 ... --json exits 0 with check passed', async () => {
    const cwd = fileURLToPath(new URL('..', import.meta.url));
    const { stdout, stderr } = await promisify(execFile)(
      process.execPath,
      ['cli/phit.mjs', 'run', 'halo3d', '--nodes', '8', '--param', 'nx=8', '--param', 'ny=8', '--param', 'nz=8', '--param', 'iterations=2', '--json'],
      { cwd },
    );
    // execFile rejects on a non-zero exit code, so reaching here means exit 0
    expect(stderr).toBe('');
    const j = JSON.parse(stdout) as { app: string; nodes: number; ranks: number; results: { rows: { check: string; procGrid: string }[] } };
    expect(j.app).toBe('halo3d');
    expect(j.nodes).toBe(8);
    expect(j.ranks).toBe(8);
    expect(j.results.rows[0]!.check).toBe('passed');
    expect(j.results.rows[0]!.procGrid).toBe('2x2x2');
  });

  it('a rank awaiting a promise that never settles ends the run with exit 1 and a deadlock report naming it, not a silent exit', async () => {
    const cwd = fileURLToPath(new URL('..', import.meta.url));
    const err = await promisify(execFile)(process.execPath, ['cli/phit.mjs', 'run', 'test/fixtures/never-settles.ts', '--machine', 'xe6', '--nodes', '2'], { cwd }).then(
      () => null,
      (e: { code?: number; stderr?: string }) => e,
    );
    expect(err).not.toBeNull();
    expect(err!.code).toBe(1);
    expect(err!.stderr).toMatch(/rank 1: awaits something outside the simulation that never settles/);
  });

  it('the binary exits 2 on bad input', async () => {
    const cwd = fileURLToPath(new URL('..', import.meta.url));
    const err = await promisify(execFile)(process.execPath, ['cli/phit.mjs', 'run', 'pingpong', '--nodes', '0'], { cwd }).then(
      () => null,
      (e: { code?: number; stderr?: string }) => e,
    );
    expect(err).not.toBeNull();
    expect(err!.code).toBe(2);
    expect(err!.stderr).toBe('phit: --nodes 0: expected a positive integer\n');
  });
});

describe('bad input names the flag and the value, exit code 2 (issue 24)', () => {
  const cases: [string[], RegExp][] = [
    [['run', 'pingpong', '--machine', 'toString'], /unknown machine "toString"; valid: xt4/],
    [['run', 'pingpong', '--machine', '__proto__'], /unknown machine "__proto__"/],
    [['machines', 'show', 'constructor'], /unknown machine "constructor"/],
    [['run', 'toString'], /unknown app "toString"/],
    [['run', 'pingpong', '--coll', '__proto__=ring'], /--coll __proto__=ring: "__proto__" is not a valid key/],
    [['run', 'pingpong', '--param', '__proto__=1'], /--param __proto__=1: "__proto__" is not a valid key/],
    [['run', 'pingpong', '--param', 'maxBytes=1e400'], /parameter maxBytes=1e400 of app pingpong: expected a size/],
    [['run', 'pingpong', '--param', 'iterations=99999999999999999999'], /parameter iterations=99999999999999999999 of app pingpong: expected an integer/],
    [['run', 'pingpong', '--param', 'iterations=1000000000'], /parameter iterations=1000000000 of app pingpong: must be at most 100000000/],
    [['run', 'pingpong', '--param', 'maxBytes=4GiB'], /parameter maxBytes=4GiB of app pingpong: must be at most 1073741824 bytes/],
    [['traffic', '--seed', 'abc'], /--seed abc: expected a non-negative integer/],
    [['traffic', '--seed', '-1'], /--seed -1: expected a non-negative integer/],
    [['traffic', '--warmup', '-1'], /--warmup -1: expected a non-negative number/],
    [['run', 'pingpong', '--seed', 'NaN'], /--seed NaN: expected a non-negative integer/],
    [['run', 'pingpong', '--machine', tmpdir()], /--machine .*: not a file/],
  ];
  it.each(cases)('%j', async (argv, message) => {
    const r = await phit(...argv);
    expect(r.code).toBe(2);
    expect(r.err.join('\n')).toMatch(message);
  });
});
