import { performance } from 'node:perf_hooks';
import type { MachineSpec } from '../../fabric/machines/spec.ts';
import { DeadlockError } from '../../fabric/engine/engine.ts';
import { ShmemGlobalExit } from '../../runtime/shmem/shmem.ts';
import { simulate } from '../../runtime/simulate.ts';
import { ShmemTest, TestExit, type PrintedLine, type ShmemProgramModule } from './harness.ts';

/**
 * The OpenSHMEM test suites ported to phit programs (SOS's unit tests, the tests-uh feature
 * tests): their manifests, and how one entry runs and is judged.
 *
 * Status of a manifest entry: `run` (ported; it must pass), `known-failure: <defect>` (ported;
 * fails because phit is wrong, as described), `todo: <call>` (uses a call phit's SHMEM lacks
 * today, named), `needs: <feature>` (uses what phit cannot offer: threads, several programs,
 * a compiler's or launcher's feature), `omit: <reason>` (left out: not part of the suite as
 * built by default, or nothing to run).
 */
export type TestStatus = 'run' | `known-failure: ${string}` | `needs: ${string}` | `todo: ${string}` | `omit: ${string}`;

/** The kind of a status. */
export function statusKind(s: TestStatus): 'run' | 'known-failure' | 'needs' | 'todo' | 'omit' {
  return s === 'run' ? 'run' : (s.slice(0, s.indexOf(':')) as 'known-failure' | 'needs' | 'todo' | 'omit');
}

/** One run of a ported test: the program, its arguments, PE count and PEs per node. */
export interface ShmemSuiteTest {
  /** The suite's directory of the test (`unit`; `C`, `Fortran/transfer`). */
  readonly dir: string;
  /** The test's name, as its source file is named without the extension. */
  readonly name: string;
  /** PEs of the run. */
  readonly np: number;
  /** PEs per node (default 1). */
  readonly ppn?: number;
  /** The program's arguments (`deprecated`: the build with ENABLE_DEPRECATED_TESTS; a Fortran family's type). */
  readonly args?: readonly string[];
  readonly status: TestStatus;
  /** In the long tier (`--long`): more than CI can afford. */
  readonly long?: boolean;
  /** The key of its program in the suite's PROGRAMS, when not `dir/name` (one port for a family of tests). */
  readonly program?: string;
  /** Machine parameters of this run (`noise.kind`: a test that needs the timing to vary). */
  readonly set?: Readonly<Record<string, string>>;
  /**
   * What the run must end with: an exit status (default 0); for tests-uh (`passedLine`), what
   * its runner expects: `Pass` (the default: the last line says Passed, and here no line says
   * Failed), `Fail` (the run ends without that) or `Timeout` (the run never ends: here, a
   * deadlock report).
   */
  readonly expect?: { readonly exitCode?: number; readonly passedLine?: boolean; readonly result?: 'Pass' | 'Fail' | 'Timeout' };
  /** Why the expectation differs from the suite's own (a test that fails on any correct SHMEM). */
  readonly note?: string;
}

/** A suite: its name, directories and manifest, and its ported programs by key. */
export interface ShmemSuite {
  readonly name: string;
  readonly title: string;
  readonly dirs: readonly string[];
  readonly tests: readonly ShmemSuiteTest[];
  readonly programs: Readonly<Record<string, () => Promise<ShmemProgramModule>>>;
}

/** `dir/name`, and the arguments. */
export function testLabel(t: ShmemSuiteTest): string {
  return `${t.dir}/${t.name}${t.args?.length ? ' ' + t.args.join(' ') : ''}`;
}

/** The key of a test's program. */
export function programKey(t: ShmemSuiteTest): string {
  return t.program ?? `${t.dir}/${t.name}`;
}

/** `4 PEs, 2 per node`. */
export function pesLabel(t: Pick<ShmemSuiteTest, 'np' | 'ppn'>): string {
  const ppn = t.ppn ?? 1;
  return `${t.np} PE${t.np === 1 ? '' : 's'}${ppn > 1 ? `, ${ppn} per node` : ''}`;
}

/** Limits of one run: beyond them the run stops and the test fails. */
export interface Budget {
  readonly maxEvents: number;
}

export const DEFAULT_BUDGET: Budget = { maxEvents: 20_000_000 };
export const LONG_MAX_EVENTS = 400_000_000;

/** The fidelity level of a conformance run unless told otherwise (SHMEM's semantics do not depend on it). */
export const DEFAULT_FIDELITY = 'flow';

export type Verdict = 'pass' | 'fail' | 'needs' | 'todo' | 'omit' | 'skipped';

/** What became of one manifest entry. */
export interface Outcome {
  readonly test: ShmemSuiteTest;
  readonly verdict: Verdict;
  /** Why it failed, what it needs or why it is left out; empty on a pass. */
  readonly detail: string;
  readonly wallMs: number;
  readonly events: number;
  /** What the PEs printed, in simulated-time order (on a failure). */
  readonly output: readonly string[];
}

export interface RunOptions {
  readonly machine?: string | MachineSpec;
  readonly fidelity?: string;
  readonly long?: boolean;
  /** Also run the ported entries whose status is needs or todo. */
  readonly tryNeeds?: boolean;
  readonly budget?: Partial<Budget>;
}

/**
 * Runs one entry: a ported test (status run or known-failure) is simulated on the machine with
 * its PE count and PEs per node; it passes when no PE fails (no error, no deadlock, no
 * abort), the run's exit status is the expected one (0 unless told: a PE's nonzero return or
 * `exit`, or the status of `shmem_global_exit`), and, for tests-uh, the last line printed says
 * Passed and none says Failed.
 */
export async function runTest(suite: ShmemSuite, test: ShmemSuiteTest, opts: RunOptions = {}): Promise<Outcome> {
  const kind = statusKind(test.status);
  const none = { wallMs: 0, events: 0, output: [] };
  const load = suite.programs[programKey(test)];
  const tried = (kind === 'needs' || kind === 'todo') && opts.tryNeeds === true && load !== undefined;
  if ((kind === 'needs' || kind === 'todo' || kind === 'omit') && !tried) return { test, verdict: kind, detail: test.status.slice(test.status.indexOf(':') + 1).trim(), ...none };
  if (test.long && !opts.long) return { test, verdict: 'skipped', detail: 'long tier (--long)', ...none };
  if (!load) return { test, verdict: 'fail', detail: 'no port of this test', ...none };
  const budget = { ...DEFAULT_BUDGET, ...(opts.long && test.long ? { maxEvents: LONG_MAX_EVENTS } : {}), ...opts.budget };
  const program = (await load()).default;
  const ppn = test.ppn ?? 1;
  const lines: PrintedLine[] = [];
  const output = (): string[] => lines.map((l) => `[${l.pe}] ${l.line}`);
  const t0 = performance.now();
  let events = 0;
  let status = 0;
  try {
    const r = await simulate({
      machine: opts.machine ?? 'xe6',
      nodes: Math.ceil(test.np / ppn),
      ppn,
      set: { 'fabric.fidelity': opts.fidelity ?? DEFAULT_FIDELITY, ...test.set },
      program: async (ctx) => {
        try {
          const rc = await program(new ShmemTest(ctx, test.name, test.args ?? [], (l) => lines.push(l)));
          return typeof rc === 'number' ? rc : 0;
        } catch (e) {
          if (e instanceof TestExit) return e.status;
          throw e;
        }
      },
      progressEvery: 1 << 16,
      onProgress: (p) => {
        events = p.events;
        if (p.events > budget.maxEvents) throw new Error(`stopped after ${p.events} events (budget ${budget.maxEvents}) at ${p.simulatedTimeUs.toFixed(1)} us simulated`);
      },
    });
    events = r.events;
    // oshrun's exit status: the first PE's nonzero status (C's exit status is 8 bits)
    for (const rc of r.rankResults) if ((rc & 0xff) !== 0 && status === 0) status = rc & 0xff;
  } catch (e) {
    const wallMs = performance.now() - t0;
    if (e instanceof DeadlockError && test.expect?.result === 'Timeout') return { test, verdict: 'pass', detail: '', wallMs, events, output: [] };
    if (e instanceof ShmemGlobalExit) {
      status = e.status & 0xff;
      return judge(test, status, lines, wallMs, events, output, `shmem_global_exit(${e.status}) by PE ${e.pe}`);
    }
    const msg = e instanceof Error ? e.message : String(e);
    return { test, verdict: 'fail', detail: firstLines(msg, 6), wallMs, events, output: output() };
  }
  return judge(test, status, lines, performance.now() - t0, events, output, '');
}

function judge(test: ShmemSuiteTest, status: number, lines: readonly PrintedLine[], wallMs: number, events: number, output: () => string[], how: string): Outcome {
  const want = test.expect?.exitCode ?? 0;
  const fail = (detail: string): Outcome => ({ test, verdict: 'fail', detail, wallMs, events, output: output() });
  if (status !== want) return fail(`exit status ${status}${how ? ` (${how})` : ''}, expected ${want}`);
  if (test.expect?.passedLine && test.expect.exitCode === undefined) {
    const result = test.expect.result ?? 'Pass';
    if (result === 'Timeout') return fail('the run ended; tests-uh expects it to hang (Timeout): here, a deadlock report');
    const failed = lines.find((l) => /Failed/.test(l.line));
    const last = lines[lines.length - 1];
    const why = failed ? `PE ${failed.pe} printed: ${failed.line.trim()}` : !last || !/Passed/.test(last.line) ? `the last line of output ${last ? `(PE ${last.pe}: ${last.line.trim()})` : '(none)'} does not say Passed` : null;
    if (result === 'Pass' && why) return fail(why);
    if (result === 'Fail' && !why) return fail('the test printed Passed; tests-uh expects it to fail');
  }
  return { test, verdict: 'pass', detail: '', wallMs, events, output: [] };
}

/** The entries an option set selects, in manifest order; throws naming a bad --dir or --only. */
export function selectTests(suite: ShmemSuite, opts: { dir?: string; only?: string; np?: number }): ShmemSuiteTest[] {
  if (opts.dir !== undefined && !suite.dirs.includes(opts.dir)) throw new RangeError(`--dir ${opts.dir}: valid for ${suite.name}: ${suite.dirs.join(', ')}`);
  let tests = suite.tests.filter((t) => opts.dir === undefined || t.dir === opts.dir);
  if (opts.only !== undefined) {
    const only = opts.only;
    tests = tests.filter((t) => t.name === only || `${t.dir}/${t.name}` === only);
    if (tests.length === 0) throw new RangeError(`--only ${only}: no test of that name in ${suite.name}${opts.dir ? `/${opts.dir}` : ''} (names as the suite's source files, e.g. ${suite.tests[0]?.name ?? ''})`);
  }
  if (opts.np !== undefined) tests = tests.filter((t) => t.np === opts.np);
  return tests;
}

/** Runs the selected entries one after another, handing each outcome to `onOutcome` as it comes. */
export async function runSuite(suite: ShmemSuite, opts: RunOptions & { dir?: string; only?: string; np?: number } = {}, onOutcome?: (o: Outcome) => void): Promise<Outcome[]> {
  const out: Outcome[] = [];
  for (const t of selectTests(suite, opts)) {
    const o = await runTest(suite, t, opts);
    onOutcome?.(o);
    out.push(o);
  }
  return out;
}

/** Counts of one directory: programs (distinct name and arguments), runs (entries), and verdicts. */
export interface DirSummary {
  readonly dir: string;
  readonly programs: number;
  readonly runs: number;
  readonly pass: number;
  readonly fail: number;
  readonly needs: number;
  readonly todo: number;
  readonly omit: number;
  readonly skipped: number;
}

/** Counts of outcomes per directory, in the suite's order, plus a total row. */
export function summarize(suite: Pick<ShmemSuite, 'dirs'>, outcomes: readonly Outcome[]): DirSummary[] {
  const count = (os: readonly Outcome[], dir: string): DirSummary => {
    const n = (v: string) => os.filter((o) => o.verdict === v).length;
    return { dir, programs: new Set(os.map((o) => testLabel(o.test))).size, runs: n('pass') + n('fail'), pass: n('pass'), fail: n('fail'), needs: n('needs'), todo: n('todo'), omit: n('omit'), skipped: n('skipped') };
  };
  const rows: DirSummary[] = [];
  for (const d of suite.dirs) {
    const os = outcomes.filter((o) => o.test.dir === d);
    if (os.length > 0) rows.push(count(os, d));
  }
  rows.push(count(outcomes, 'total'));
  return rows;
}

function firstLines(s: string, n: number): string {
  const lines = s.split('\n');
  return lines.length <= n ? s : [...lines.slice(0, n), `... (${lines.length - n} more lines)`].join('\n');
}
