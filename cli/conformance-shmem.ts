import { DEFAULT_FIDELITY, pesLabel, runSuite, summarize, testLabel, type Outcome, type ShmemSuite } from '../conformance/shmem/suite.ts';
import { loadMachine, withFidelity } from './machine-arg.ts';
import { formatTable } from './table.ts';

/** The SHMEM suites of `phit conformance --suite`, loaded when asked for. */
export const SHMEM_SUITES: Readonly<Record<string, () => Promise<ShmemSuite>>> = {
  sos: async () => (await import('../conformance/sos/suite.ts')).SOS_SUITE,
  'tests-uh': async () => (await import('../conformance/tests-uh/suite.ts')).TESTS_UH_SUITE,
};

/** Options of `phit conformance --suite sos|tests-uh`. */
export interface ShmemConformanceOptions {
  machine: string;
  dir?: string;
  only?: string;
  np?: string;
  long?: boolean;
  fidelity?: string;
  tryNeeds?: boolean;
  verbose?: boolean;
  json?: boolean;
}

export const SHMEM_CONFORMANCE_HELP = [
  '',
  '--suite sos: the unit tests of Sandia OpenSHMEM (test/unit of tests-sos), every program of its',
  'Makefile (the C++, Fortran, pthread and profiling ones too, and the deprecated builds of the tests',
  'that have one, as `deprecated`); --suite tests-uh: the feature tests of the OpenSHMEM verification',
  'suite (openshmem-org/tests-uh, C and Fortran). Each test is a phit program keeping its original\'s',
  'sizes, loops and checks, run on 2 PEs (one a node), 4 (two a node), 5 (one a node) and 8 (four a',
  'node) for SOS, and for tests-uh on its test_parameters.conf PE count and on 4, 5 and 8 where they are more. A run passes',
  'when no PE fails (no error, deadlock or abort), its exit status is the expected one (0; the status',
  'of shmem_global_exit), and, for tests-uh, it ends as the conf expects: its last line of output says',
  'Passed and no line Failed (Pass), not so (Fail), or it hangs (Timeout: here, a deadlock report).',
  'Each line: pass or FAIL, the test, PEs, wall time. --np keeps the runs of one PE count.',
].join('\n');

/** `phit conformance --suite sos|tests-uh`: runs the suite and prints a line per run and the counts per directory. */
export async function shmemConformanceCommand(suiteName: string, opts: ShmemConformanceOptions, io: { out: (s: string) => void }): Promise<number> {
  const load = SHMEM_SUITES[suiteName];
  if (!load) throw new RangeError(`--suite ${suiteName}: valid: mpich, ${Object.keys(SHMEM_SUITES).join(', ')}`);
  const suite = await load();
  const spec = loadMachine(opts.machine);
  const fidelity = opts.fidelity ?? DEFAULT_FIDELITY;
  withFidelity([], fidelity); // an unknown level fails here, naming the valid ones
  let np: number | undefined;
  if (opts.np !== undefined) {
    np = Number(opts.np);
    if (!Number.isInteger(np) || np < 1) throw new RangeError(`--np ${opts.np}: a PE count (a positive integer)`);
  }
  const show = (o: Outcome): void => {
    if (opts.json) return;
    if ((o.verdict === 'needs' || o.verdict === 'todo' || o.verdict === 'omit' || o.verdict === 'skipped') && !opts.verbose) return;
    io.out(formatShmemOutcome(o));
  };
  const outcomes = await runSuite(
    suite,
    {
      machine: spec,
      fidelity,
      long: opts.long === true,
      tryNeeds: opts.tryNeeds === true,
      ...(opts.dir !== undefined ? { dir: opts.dir } : {}),
      ...(opts.only !== undefined ? { only: opts.only } : {}),
      ...(np !== undefined ? { np } : {}),
    },
    show,
  );
  const rows = summarize(suite, outcomes);
  if (opts.json) {
    io.out(
      JSON.stringify({
        suite: suite.name,
        machine: spec.name,
        fidelity,
        long: opts.long === true,
        tests: outcomes.map((o) => ({ dir: o.test.dir, name: o.test.name, np: o.test.np, ppn: o.test.ppn ?? 1, args: o.test.args ?? [], status: o.test.status, ...(o.test.expect?.result ? { expected: o.test.expect.result } : {}), ...(o.test.note ? { note: o.test.note } : {}), verdict: o.verdict, detail: o.detail, wallMs: Math.round(o.wallMs), events: o.events })),
        summary: rows,
      }),
    );
  } else {
    io.out('');
    io.out(`${suite.title} on ${spec.name} (fidelity ${fidelity}${opts.long ? ', long tier included' : ''}):`);
    io.out(formatTable(rows.map((r) => ({ dir: r.dir, programs: r.programs, runs: r.runs, pass: r.pass, fail: r.fail, needs: r.needs, todo: r.todo, omit: r.omit, skipped: r.skipped }))));
  }
  return outcomes.some((o) => o.verdict === 'fail') ? 1 : 0;
}

/** One line per run (more for a failure: its reason and the first lines the PEs printed). */
export function formatShmemOutcome(o: Outcome): string {
  const t = o.test;
  const name = testLabel(t);
  const expected = t.expect?.result && t.expect.result !== 'Pass' ? ` (expected: ${t.expect.result}${t.note ? `; ${t.note}` : ''})` : '';
  const known = (t.status === 'run' ? '' : ` (${t.status})`) + expected;
  switch (o.verdict) {
    case 'pass':
      return `pass  ${name} (${pesLabel(t)}, ${(o.wallMs / 1000).toFixed(2)} s)${known}`;
    case 'fail': {
      const lines = [`FAIL  ${name} (${pesLabel(t)}, ${(o.wallMs / 1000).toFixed(2)} s)${known}`, ...o.detail.split('\n').map((l) => `      ${l}`)];
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
      return `skip  ${name} (${pesLabel(t)}): ${o.detail}`;
  }
}
