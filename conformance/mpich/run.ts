import { performance } from 'node:perf_hooks';
import type { MachineSpec } from '../../fabric/machines/spec.ts';
import { simulate } from '../../runtime/simulate.ts';
import { MTest, type MTestResult } from './mtest.ts';
import { PROGRAMS } from './programs.ts';
import { DIRS, MPICH_TESTS, statusKind, testId, type Dir, type MpichTest } from './testlist.ts';

/** Limits of one test run: beyond them the run stops and the test fails. */
export interface Budget {
  /** Most engine events of one run. */
  readonly maxEvents: number;
  /** Most ranks a test may ask for. */
  readonly maxRanks: number;
}

/** Default limits: a quick test stays far below; a test that runs away stops in seconds. */
export const DEFAULT_BUDGET: Budget = { maxEvents: 20_000_000, maxRanks: 128 };
/** The long tier's event limit (sendflood's 1.4 million messages need most of it). */
export const LONG_MAX_EVENTS = 400_000_000;

/** Which tests to run. */
export interface ConformanceOptions {
  /** Machine preset or spec (default xe6). */
  readonly machine?: string | MachineSpec;
  /** Only the tests of this directory. */
  readonly dir?: Dir;
  /** Only the tests of this name (every variant of it); `dir/name` also works. */
  readonly only?: string;
  /** Run the long tier too. */
  readonly long?: boolean;
  /**
   * The fabric's fidelity level (default flow): MPI's semantics do not depend on it (the runtime
   * never knows which level carries its data), and flow carries large messages fastest.
   */
  readonly fidelity?: string;
  /** Also run the ported tests whose status is `needs: ...` (to see whether a feature has landed). */
  readonly tryNeeds?: boolean;
  readonly budget?: Partial<Budget>;
}

/** The fidelity level of a conformance run unless told otherwise. */
export const DEFAULT_FIDELITY = 'flow';

/** Verdict of one manifest entry. */
export type Verdict = 'pass' | 'fail' | 'needs' | 'todo' | 'omit' | 'skipped';

/** What became of one manifest entry. */
export interface Outcome {
  readonly test: MpichTest;
  readonly verdict: Verdict;
  /** Why it failed, what it needs or why it is left out; empty on a pass. */
  readonly detail: string;
  /** Wall-clock milliseconds of the run (0 when not run). */
  readonly wallMs: number;
  /** Engine events of the run (0 when not run or when it failed before the end). */
  readonly events: number;
  /** What the ranks printed, in simulated-time order (on a failure). */
  readonly output: readonly string[];
}

/** The manifest entries an option set selects, in manifest order; throws naming a bad --dir or --only. */
export function selectTests(opts: Pick<ConformanceOptions, 'dir' | 'only'>): MpichTest[] {
  if (opts.dir !== undefined && !DIRS.includes(opts.dir)) throw new RangeError(`--dir ${opts.dir}: valid: ${DIRS.join(', ')}`);
  let tests = MPICH_TESTS.filter((t) => opts.dir === undefined || t.dir === opts.dir);
  if (opts.only !== undefined) {
    const only = opts.only;
    tests = tests.filter((t) => t.name === only || `${t.dir}/${t.name}` === only);
    if (tests.length === 0) throw new RangeError(`--only ${only}: no test of that name${opts.dir ? ` in ${opts.dir}` : ''} (names as in MPICH's testlist, e.g. sendrecv3 or coll/allred)`);
  }
  return tests;
}

/**
 * Runs one manifest entry: a test with status run or known-failure is simulated on the machine
 * (at the flow fidelity level unless told otherwise) with the testlist's rank count, one rank per
 * node unless the entry asks for more; it passes when every rank ends without an error and rank 0
 * reports no errors. Entries that need a feature or are left out are reported as such without
 * running (with `tryNeeds`, a ported test that needs a feature runs too).
 */
export async function runTest(test: MpichTest, opts: Pick<ConformanceOptions, 'machine' | 'budget' | 'long' | 'fidelity' | 'tryNeeds'> = {}): Promise<Outcome> {
  const kind = statusKind(test.status);
  const none = { wallMs: 0, events: 0, output: [] };
  const tried = kind === 'needs' && opts.tryNeeds === true && PROGRAMS[testId(test)] !== undefined;
  if ((kind === 'needs' && !tried) || kind === 'todo' || kind === 'omit') return { test, verdict: kind, detail: test.status.slice(test.status.indexOf(':') + 1).trim(), ...none };
  if (test.long && !opts.long) return { test, verdict: 'skipped', detail: 'long tier (--long)', ...none };
  const budget = { ...DEFAULT_BUDGET, ...(opts.long && test.long ? { maxEvents: LONG_MAX_EVENTS } : {}), ...opts.budget };
  const load = PROGRAMS[testId(test)];
  if (!load) return { test, verdict: 'fail', detail: 'no port of this test', ...none };
  if (test.np > budget.maxRanks) return { test, verdict: 'fail', detail: `needs ${test.np} ranks, more than the budget of ${budget.maxRanks}`, ...none };
  const program = (await load()).default;
  const ppn = test.ppn ?? 1;
  const t0 = performance.now();
  let events = 0;
  const output: string[] = [];
  let result: { rankResults: readonly MTestResult[]; events: number };
  try {
    result = await simulate({
      machine: opts.machine ?? 'xe6',
      nodes: Math.ceil(test.np / ppn),
      ppn,
      ...(test.placement ? { placement: test.placement } : {}),
      set: { 'fabric.fidelity': opts.fidelity ?? DEFAULT_FIDELITY },
      program: (ctx) => program(new MTest(ctx, test.args ?? [], (line) => output.push(`[${ctx.rank}] ${line}`))),
      progressEvery: 1 << 16,
      onProgress: (p) => {
        events = p.events;
        if (p.events > budget.maxEvents) throw new BudgetError(`stopped after ${p.events} events (budget ${budget.maxEvents}) at ${p.simulatedTimeUs.toFixed(1)} us simulated`);
      },
    });
  } catch (e) {
    const wallMs = performance.now() - t0;
    const msg = e instanceof Error ? e.message : String(e);
    return { test, verdict: 'fail', detail: firstLines(msg, 6), wallMs, events, output };
  }
  const wallMs = performance.now() - t0;
  const r0 = result.rankResults[0];
  if (!r0 || typeof r0.errors !== 'number') return { test, verdict: 'fail', detail: 'rank 0 did not finalize (no MTest result)', wallMs, events: result.events, output };
  if (r0.errors !== 0) return { test, verdict: 'fail', detail: `Found ${r0.errors} errors`, wallMs, events: result.events, output };
  return { test, verdict: 'pass', detail: '', wallMs, events: result.events, output: [] };
}

/** Runs the selected tests one after another, handing each outcome to `onOutcome` as it comes. */
export async function runConformance(opts: ConformanceOptions = {}, onOutcome?: (o: Outcome) => void): Promise<Outcome[]> {
  const out: Outcome[] = [];
  for (const t of selectTests(opts)) {
    const o = await runTest(t, opts);
    onOutcome?.(o);
    out.push(o);
  }
  return out;
}

/** Counts per directory: manifest entries, and of them run (passed + failed), needs, todo, omit, skipped. */
export interface DirSummary {
  readonly dir: Dir;
  readonly tests: number;
  readonly run: number;
  readonly pass: number;
  readonly fail: number;
  readonly needs: number;
  readonly todo: number;
  readonly omit: number;
  readonly skipped: number;
}

/** Counts of outcomes per directory, in DIRS order, plus a total row (dir 'total'). */
export function summarize(outcomes: readonly Outcome[]): (Omit<DirSummary, 'dir'> & { dir: Dir | 'total' })[] {
  const rows: (Omit<DirSummary, 'dir'> & { dir: Dir | 'total' })[] = [];
  const count = (os: readonly Outcome[], dir: Dir | 'total') => {
    const n = (v: Verdict) => os.filter((o) => o.verdict === v).length;
    return { dir, tests: os.length, run: n('pass') + n('fail'), pass: n('pass'), fail: n('fail'), needs: n('needs'), todo: n('todo'), omit: n('omit'), skipped: n('skipped') };
  };
  for (const d of DIRS) {
    const os = outcomes.filter((o) => o.test.dir === d);
    if (os.length > 0) rows.push(count(os, d));
  }
  rows.push(count(outcomes, 'total'));
  return rows;
}

/** A run stopped by its event budget. */
class BudgetError extends Error {}

function firstLines(s: string, n: number): string {
  const lines = s.split('\n');
  return lines.length <= n ? s : [...lines.slice(0, n), `... (${lines.length - n} more lines)`].join('\n');
}
