/**
 * `phit sweep --slurm`: the points as a Slurm job array give the same bytes as a local sweep.
 *
 * Always run against test/slurm/fake-sbatch (a stand-in sbatch that runs the array's tasks one
 * after another on this host); against a real Slurm too when one is up (`sinfo` shows a usable
 * node; as root on Debian, test/slurm/start-slurm.sh starts a single-node one). With
 * PHIT_REQUIRE_SLURM=1 a missing Slurm fails instead of skipping.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { splitShellWords } from '../cli/shell-words.ts';
import { arraySpec, findSbatch, slurmOptions } from '../cli/sweep-slurm.ts';
import type { SweepRow } from '../cli/sweep.ts';
import { phit } from './helpers.ts';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const fakeDir = join(root, 'test', 'slurm', 'fake-sbatch');
const example = join(root, 'examples', 'sweep-slurm.yaml');
const tmp = mkdtempSync(join(tmpdir(), 'phit-sweep-slurm-test-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

function file(name: string, text: string): string {
  const path = join(tmp, name);
  writeFileSync(path, text);
  return path;
}

/** Runs `f` with `env` set on top of this process's environment (the stand-in sbatch reads its hooks there), then restores it. */
async function withEnv<T>(env: Record<string, string>, f: () => Promise<T>): Promise<T> {
  const before = Object.fromEntries(Object.keys(env).map((k) => [k, process.env[k]]));
  Object.assign(process.env, env);
  try {
    return await f();
  } finally {
    for (const [k, v] of Object.entries(before)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  }
}
const fakePath = (): string => `${fakeDir}${delimiter}${process.env.PATH ?? ''}`;

/** The outputs of one sweep: exit code, stdout (the JSON document), the CSV and the HTML report. */
interface Outputs {
  code: number;
  json: string;
  csv: string;
  html: string;
  err: string[];
}

async function sweep(name: string, sweepFile: string, ...args: string[]): Promise<Outputs> {
  const csv = join(tmp, `${name}.csv`);
  const html = join(tmp, `${name}.html`);
  const r = await phit('sweep', sweepFile, '--json', '--out', csv, '--report', html, ...args);
  return { code: r.code, json: r.out.join('\n'), csv: readFileSync(csv, 'utf8'), html: readFileSync(html, 'utf8'), err: r.err };
}

const rowsOf = (o: Outputs): SweepRow[] => (JSON.parse(o.json) as { rows: SweepRow[] }).rows;

/** Whether a real Slurm takes jobs here: sbatch on PATH and a node that is up. */
function realSlurm(): { up: boolean; why: string } {
  try {
    findSbatch();
  } catch {
    return { up: false, why: 'no sbatch on PATH' };
  }
  const r = spawnSync('sinfo', ['-h', '-N', '-o', '%t'], { encoding: 'utf8' });
  if (r.status !== 0) return { up: false, why: `sinfo failed: ${(r.stderr ?? r.error?.message ?? '').trim().split('\n')[0]}` };
  const states = r.stdout.split('\n').filter((s) => s !== '');
  return states.some((s) => /^(idle|mix|alloc)/.test(s)) ? { up: true, why: '' } : { up: false, why: `no node up (sinfo: ${states.join(', ') || 'none'})` };
}
const slurm = realSlurm();
if (!slurm.up) {
  if (process.env.PHIT_REQUIRE_SLURM === '1') throw new Error(`PHIT_REQUIRE_SLURM=1 but Slurm is not up here: ${slurm.why}`);
  console.warn(`real-Slurm sweep test skipped: ${slurm.why} (as root on Debian: sh test/slurm/start-slurm.sh)`);
}

describe('phit sweep --slurm with a stand-in sbatch (array tasks one after another on this host)', () => {
  it('gives the bytes of the local sweep: CSV, JSON and report, error rows included; sbatch gets one task per runnable point', async () => {
    file(
      'picky.ts',
      [
        "export const params = { maxBytes: { type: 'bytes', default: 8, help: 'unused' } };",
        'export default async (ctx: { machine: { name: string }; compute: (w: { us: number }) => Promise<void> }) => {',
        "  if (ctx.machine.name === 'xc30') throw new Error('not on xc30');",
        '  await ctx.compute({ us: 5 });',
        '  return { rows: [{ answer: 42 }] };',
        '};',
        '',
      ].join('\n'),
    );
    // pingpong on one node cannot run (an early error row), picky fails on xc30 (a failed run)
    const mixed = file('mixed.yaml', 'apps: [pingpong, ./picky.ts]\nmachines: [xe6, xc30]\nnodes: [1, 2]\nparams: { maxBytes: 1KiB }\nseed: 7\n');
    const local = await sweep('mixed-local', mixed, '--workers', '1');
    expect(local.code).toBe(1);
    const args = join(tmp, 'mixed-args.txt');
    const remote = await withEnv({ PATH: fakePath(), FAKE_SBATCH_ARGS: args }, () => sweep('mixed-slurm', mixed, '--slurm', '--slurm-opts', `--partition debug --comment='two words' -J "my sweep"`));
    expect(remote.code).toBe(1);
    const dir = join(tmp, 'phit-sweep-mixed-1');
    expect(remote.err[0]).toBe(`sweep: Slurm job 4242, 6 array tasks; job directory ${dir}`);
    expect(remote.err[1]).toMatch(/^sweep: 8 points, 4 failed, [\d.]+ s; wrote /);
    expect(remote.json).toBe(local.json);
    expect(remote.csv).toBe(local.csv);
    expect(remote.html).toBe(local.html);
    // the rows are what they should be, not merely equal
    expect(rowsOf(remote).map((r) => `${r.index} ${r.status}`)).toEqual(['0 error', '1 ok', '2 error', '3 ok', '4 ok', '5 ok', '6 error', '7 error']);
    expect(rowsOf(remote)[7]!.error).toMatch(/not on xc30$/);
    // sbatch: our job name, the user's options word by word, then the array of the points that run
    const argv = readFileSync(args, 'utf8').trimEnd().split('\n');
    expect(argv).toEqual([
      '--job-name=phit-sweep-mixed',
      '--partition',
      'debug',
      '--comment=two words',
      '-J',
      'my sweep',
      '--array=1,3-7',
      '--wait',
      '--parsable',
      '--output=point-%a.log',
      `--chdir=${dir}`,
      join(dir, 'sweep.sh'),
    ]);
    expect(readdirSync(dir).filter((f) => /^point-\d+\.json$/.test(f)).sort()).toEqual(['point-1.json', 'point-3.json', 'point-4.json', 'point-5.json', 'point-6.json', 'point-7.json']);
    expect(readFileSync(join(dir, 'point-3.log'), 'utf8')).toMatch(/^point 3 \(pingpong xc30 nodes=2\) of .*mixed\.yaml: ok, [\d.]+ us simulated$/m);
  });

  it('a task that leaves no result is an error row naming the task and its log; the others are the local rows; exit 1', async () => {
    const local = await sweep('small-local', example, '--workers', '1');
    expect(local.code).toBe(0);
    const jobDir = join(tmp, 'job-skip');
    const remote = await withEnv({ PATH: fakePath(), FAKE_SBATCH_SKIP: '2' }, () => sweep('small-slurm', example, '--slurm', '--slurm-dir', jobDir));
    expect(remote.code).toBe(1);
    const got = rowsOf(remote);
    const want = rowsOf(local);
    expect(got[2]).toMatchObject({ index: 2, status: 'error', simulatedTimeUs: null, merit: null, result: {} });
    expect(got[2]!.error).toBe(`Slurm array task 4242_2 wrote no result; its log: ${join(jobDir, 'point-2.log')} (last line: slurmstepd: error: *** JOB 4242_2 CANCELLED ***)`);
    expect(got.filter((r) => r.index !== 2)).toEqual(want.filter((r) => r.index !== 2));
    expect(want[2]!.status).toBe('ok');
  });

  const bad = async (args: string[], env: Record<string, string> = {}): Promise<string> => {
    const r = await withEnv(env, () => phit('sweep', example, ...args));
    expect(r.code).toBe(2);
    expect(r.out).toEqual([]);
    expect(r.err).toHaveLength(1);
    return r.err[0]!;
  };

  it('bad input: one line, exit 2, before anything is submitted', async () => {
    const empty = join(tmp, 'no-sbatch-here');
    mkdirSync(empty, { recursive: true });
    expect(await bad(['--slurm'], { PATH: empty })).toBe('phit: --slurm: no sbatch on PATH (run on a Slurm login node, or add the folder of sbatch to PATH)');
    const fake = { PATH: fakePath() };
    expect(await bad(['--slurm', '--slurm-opts', '--comment "unclosed'], fake)).toBe('phit: --slurm-opts --comment "unclosed: a double quote is not closed');
    expect(await bad(['--slurm', '--slurm-opts', '--time=5; rm -rf ~'], fake)).toMatch(/^phit: --slurm-opts .*: ";" would mean something to a shell; options are passed to sbatch without one/);
    expect(await bad(['--slurm', '--slurm-opts', '--comment "$(id)"'], fake)).toMatch(/^phit: --slurm-opts .*: "\$" inside double quotes would be expanded by a shell/);
    expect(await bad(['--slurm', '--slurm-opts', '-p debug --array=0-99'], fake)).toBe('phit: --slurm-opts: --array=0-99: phit sets --array itself (one array task per point); leave it out');
    expect(await bad(['--slurm', '--slurm-opts', '-o out.txt'], fake)).toBe('phit: --slurm-opts: -o: phit sets --output itself (one array task per point); leave it out');
    expect(await bad(['--slurm', '--workers', '2'], fake)).toBe('phit: --workers does not apply with --slurm (one array task per point)');
    expect(await bad(['--slurm-opts', '-p debug'])).toBe('phit: --slurm-opts needs --slurm');
    expect(await bad(['--slurm-dir', tmp])).toBe('phit: --slurm-dir needs --slurm');
    // a folder with files in it: its old point files would be read back
    expect(await bad(['--slurm', '--slurm-dir', tmp], fake)).toBe(`phit: --slurm-dir ${tmp}: not empty; give a new or empty folder`);
    // sbatch refusing the job (a bad partition, no controller) prints its first error line
    expect(await bad(['--slurm', '--slurm-dir', join(tmp, 'job-refused')], { ...fake, FAKE_SBATCH_REFUSE: 'invalid partition specified: nope' })).toBe(
      'phit: --slurm: sbatch refused the job: sbatch: error: invalid partition specified: nope',
    );
    // and takes back what it wrote: the given folder is empty again, a folder of its own is gone
    expect(readdirSync(join(tmp, 'job-refused'))).toEqual([]);
    const outDir = join(tmp, 'refused');
    mkdirSync(outDir);
    await bad(['--slurm', '--out', join(outDir, 'r.csv')], { ...fake, FAKE_SBATCH_REFUSE: 'Unable to contact slurm controller' });
    expect(readdirSync(outDir)).toEqual(['r.csv']);
  });

  it('options are split as a shell splits them; the array lists runs of points as ranges', () => {
    expect(splitShellWords(`  -p debug\t--comment='a "b" c' --x="d \\" \\$e" f\\ g h'i'j  `, '--o')).toEqual(['-p', 'debug', '--comment=a "b" c', '--x=d " $e', 'f g', 'hij']);
    expect(splitShellWords('', '--o')).toEqual([]);
    expect(splitShellWords(`'' --x`, '--o')).toEqual(['', '--x']);
    expect(() => splitShellWords("--c 'x", '--o')).toThrow('--o --c \'x: a single quote is not closed');
    expect(() => splitShellWords('a b\\', '--o')).toThrow('--o a b\\: ends with a backslash');
    for (const op of ['|', '&', '>', '<', '`', '(', '*', '[']) expect(() => splitShellWords(`-p a${op}b`, '--o')).toThrow(`"${op}" would mean something to a shell`);
    expect(splitShellWords(`'-p a|b' "*"`, '--o')).toEqual(['-p a|b', '*']);
    // sbatch takes an unambiguous prefix of a long option
    expect(() => slurmOptions('--arr=1')).toThrow('phit sets --array itself');
    expect(() => slurmOptions('-W')).toThrow('phit sets --wait itself');
    expect(slurmOptions('--account=a --ar')).toEqual(['--account=a', '--ar']);
    expect(arraySpec([0, 1, 2, 3])).toBe('0-3');
    expect(arraySpec([1, 3, 4, 5, 9])).toBe('1,3-5,9');
    expect(arraySpec([7])).toBe('7');
  });
});

describe.skipIf(!slurm.up)('phit sweep --slurm on a real Slurm', () => {
  it('the example sweep as a job array gives the bytes of the local sweep', async () => {
    const local = await sweep('real-local', example, '--workers', '1');
    expect(local.code).toBe(0);
    const jobDir = join(tmp, 'job-real');
    const remote = await sweep('real-slurm', example, '--slurm', '--slurm-dir', jobDir);
    expect(remote.err[0]).toMatch(new RegExp(`^sweep: Slurm job \\d+, 4 array tasks; job directory ${jobDir}$`));
    expect(remote.code).toBe(0);
    expect(rowsOf(remote).map((r) => r.status)).toEqual(['ok', 'ok', 'ok', 'ok']);
    expect(remote.json).toBe(local.json);
    expect(remote.csv).toBe(local.csv);
    expect(remote.html).toBe(local.html);
    for (let i = 0; i < 4; i++) expect(existsSync(join(jobDir, `point-${i}.log`))).toBe(true);
  });
});
