import { DEFAULT_FIDELITY, runConformance, summarize, type Outcome } from '../conformance/mpich/run.ts';
import { DIRS, neededFeatures, type Dir, type MpichTest } from '../conformance/mpich/testlist.ts';
import { loadMachine, withFidelity } from './machine-arg.ts';
import { formatTable } from './table.ts';

/** Options of `phit conformance`. */
export interface ConformanceCliOptions {
  machine: string;
  dir?: string;
  only?: string;
  long?: boolean;
  fidelity?: string;
  tryNeeds?: boolean;
  verbose?: boolean;
  json?: boolean;
}

export const CONFORMANCE_HELP = [
  '',
  'The MPICH test suite (test/mpi in pmodels/mpich) ported to phit programs, directory by directory',
  '(pt2pt, coll, comm, group, topo, datatype, rma): each test as MPICH wrote it, with the rank count',
  "of MPICH's testlist, one rank per node (the shared-memory tests' ranks on one node, as MPICH runs",
  'them), at the flow fidelity level unless --fidelity says otherwise (MPI\'s semantics do not depend',
  'on the level; packet is the reference, and far slower for large messages). A C source that MPICH',
  'builds into several tests is one port with a program per build. A test passes when every rank',
  'ends without an error and rank 0 reports No Errors (the',
  "sum of every rank's error count is 0, as MTest_Finalize reports it). A run that deadlocks, raises",
  'an MPI error or exceeds its budget (20 million engine events in the quick tier, 400 million in the',
  'long one; 128 ranks) is a failure, never a hang.',
  "Each line: pass or FAIL, the test (dir/name and the testlist's arguments), ranks, wall time; a",
  "failure's reason and the first lines the ranks printed follow. Tests phit cannot run yet are counted",
  'with what they need (needs: ...), as not ported yet although phit has what they use (todo: ...),',
  'or with why they are left out (omit: ...); -v lists each. The long tier (--long) adds the tests CI',
  'cannot afford. The summary counts, per directory, the testlist entries, those run, passed and',
  'failed, those needing a feature, not ported yet, left out, and skipped (long tier).',
  'Exit code 1 when a test fails, 2 on bad input.',
].join('\n');

/** `phit conformance`: runs the suite and prints a line per test and the counts per directory. */
export async function conformanceCommand(opts: ConformanceCliOptions, io: { out: (s: string) => void }): Promise<number> {
  const spec = loadMachine(opts.machine);
  if (opts.dir !== undefined && !(DIRS as readonly string[]).includes(opts.dir)) throw new RangeError(`--dir ${opts.dir}: valid: ${DIRS.join(', ')}`);
  const show = (o: Outcome): void => {
    if (opts.json) return;
    if ((o.verdict === 'needs' || o.verdict === 'todo' || o.verdict === 'omit' || o.verdict === 'skipped') && !opts.verbose) return;
    io.out(formatOutcome(o));
  };
  const fidelity = opts.fidelity ?? DEFAULT_FIDELITY;
  withFidelity([], fidelity); // an unknown level fails here, naming the valid ones
  const outcomes = await runConformance({ machine: spec, fidelity, ...(opts.dir !== undefined ? { dir: opts.dir as Dir } : {}), ...(opts.only !== undefined ? { only: opts.only } : {}), long: opts.long === true, tryNeeds: opts.tryNeeds === true }, show);
  const rows = summarize(outcomes);
  if (opts.json) {
    io.out(
      JSON.stringify({
        machine: spec.name,
        fidelity,
        long: opts.long === true,
        tests: outcomes.map((o) => ({ dir: o.test.dir, name: o.test.name, np: o.test.np, args: o.test.args ?? [], status: o.test.status, verdict: o.verdict, detail: o.detail, wallMs: Math.round(o.wallMs), events: o.events })),
        summary: rows,
      }),
    );
  } else {
    if (!opts.verbose) {
      const lines = needsTable(outcomes.filter((o) => o.verdict === 'needs').map((o) => o.test));
      if (lines.length > 0) io.out(['', 'not run, by the feature they need (tests; of them, tests that need nothing else):', ...lines].join('\n'));
    }
    io.out('');
    io.out(`MPICH conformance on ${spec.name} (fidelity ${fidelity}${opts.long ? ', long tier included' : ''}):`);
    io.out(formatTable(rows.map((r) => ({ dir: r.dir, tests: r.tests, run: r.run, pass: r.pass, fail: r.fail, needs: r.needs, todo: r.todo, omit: r.omit, skipped: r.skipped }))));
  }
  return outcomes.some((o) => o.verdict === 'fail') ? 1 : 0;
}

/** One line per test (more for a failure: its reason and the first lines the ranks printed). */
export function formatOutcome(o: Outcome): string {
  const t = o.test;
  const name = `${t.dir}/${t.name}${t.args?.length ? ' ' + t.args.join(' ') : ''}`;
  const known = t.status === 'run' ? '' : ` (${t.status})`;
  const ranks = `${t.np} rank${t.np === 1 ? '' : 's'}`;
  switch (o.verdict) {
    case 'pass':
      return `pass  ${name} (${ranks}, ${(o.wallMs / 1000).toFixed(2)} s)${known}`;
    case 'fail': {
      const lines = [`FAIL  ${name} (${ranks}, ${(o.wallMs / 1000).toFixed(2)} s)${known}`, ...o.detail.split('\n').map((l) => `      ${l}`)];
      for (const l of o.output.slice(0, 10)) lines.push(`      | ${l}`);
      if (o.output.length > 10) lines.push(`      | ... ${o.output.length - 10} more lines`);
      return lines.join('\n');
    }
    case 'needs':
      return `needs ${name}: ${o.detail}`;
    case 'todo':
      return `todo  ${name}: ${o.detail}`;
    case 'omit':
      return `omit  ${name}: ${o.detail}`;
    case 'skipped':
      return `skip  ${name}: ${o.detail}`;
  }
}

/** One line per feature the tests need: how many need it, and how many need only it. */
export function needsTable(tests: readonly MpichTest[]): string[] {
  const all = new Map<string, number>();
  const only = new Map<string, number>();
  for (const t of tests) {
    const fs = neededFeatures(t.status);
    for (const f of fs) all.set(f, (all.get(f) ?? 0) + 1);
    if (fs.length === 1) only.set(fs[0]!, (only.get(fs[0]!) ?? 0) + 1);
  }
  return [...all].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).map(([f, n]) => `  ${String(n).padStart(3)} ${String(only.get(f) ?? 0).padStart(3)}  ${f}`);
}
