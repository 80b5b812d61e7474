import { describe, expect, it } from 'vitest';
import { phit } from './helpers.ts';
import { programKey, runTest, statusKind, testLabel, pesLabel, type Outcome, type ShmemSuite, type ShmemSuiteTest } from '../conformance/shmem/suite.ts';
import { SOS_SUITE } from '../conformance/sos/suite.ts';
import { SOS_DEPRECATED, SOS_PROGRAMS } from '../conformance/sos/testlist.ts';
import { TESTS_UH_SUITE } from '../conformance/tests-uh/suite.ts';
import { UH_SPECS } from '../conformance/tests-uh/testlist.ts';

// Counted from the sources: test/unit/Makefile.am of tests-sos at ef46e42a (check_PROGRAMS in
// every configuration: C, C++, Fortran, pthreads, profiling; and spam.c, built by none), the
// tests it builds a deprecated variant of (--enable-deprecated-tests), and the lines of
// tests-uh's feature_tests/*/test_parameters.conf at 15d685dd (atomic's lists finc_02 twice).
const SOS_MAKEFILE_PROGRAMS = 148;
const SOS_DEPRECATED_VARIANTS = 19;
const UH_CONF: Readonly<Record<string, number>> = {
  C: 19,
  'Fortran/accessibility': 30,
  'Fortran/alloc': 21,
  'Fortran/atomic': 32,
  'Fortran/broadcast': 35,
  'Fortran/collect': 16,
  'Fortran/reductions': 22,
  'Fortran/transfer': 54,
  Fortran: 2,
};

const label = (t: ShmemSuiteTest): string => `${t.dir}/${testLabel(t)} (${pesLabel(t)})`;

/** A failure's reason and the first lines the PEs printed, for the assertion message. */
const why = (o: Outcome): string => [o.detail, ...o.output.slice(0, 8)].join('\n');

const runnable = (t: ShmemSuiteTest): boolean => !t.long && (t.status === 'run' || statusKind(t.status) === 'known-failure');

function manifestChecks(suite: ShmemSuite): void {
  it('has a port of every test it runs, every port is used, every other status has a reason', () => {
    const used = new Set<string>();
    for (const t of suite.tests) {
      const kind = statusKind(t.status);
      if (kind === 'run' || kind === 'known-failure') {
        expect(suite.programs[programKey(t)], label(t)).toBeDefined();
        used.add(programKey(t));
      } else expect(t.status.slice(t.status.indexOf(':') + 1).trim().length, label(t)).toBeGreaterThan(10);
    }
    for (const key of Object.keys(suite.programs)) expect(used.has(key), key).toBe(true);
  });

  it('names each run once, in a directory of the suite', () => {
    const keys = suite.tests.map(label);
    expect(new Set(keys).size).toBe(keys.length);
    for (const t of suite.tests) expect(suite.dirs, label(t)).toContain(t.dir);
  });
}

describe('SOS unit tests manifest', () => {
  it('lists every program of test/unit/Makefile.am and the deprecated variants', () => {
    expect(SOS_PROGRAMS.length).toBe(SOS_MAKEFILE_PROGRAMS);
    expect(new Set(SOS_PROGRAMS).size).toBe(SOS_MAKEFILE_PROGRAMS);
    expect(SOS_DEPRECATED.length).toBe(SOS_DEPRECATED_VARIANTS);
    for (const name of SOS_DEPRECATED) expect(SOS_PROGRAMS, name).toContain(name);
  });

  it('runs every test on 2, 4 (two a node), 5 and 8 PEs (four a node)', () => {
    const configs = new Set(SOS_SUITE.tests.filter((t) => t.status === 'run').map(pesLabel));
    for (const c of ['2 PEs', '4 PEs, 2 per node', '5 PEs', '8 PEs, 4 per node']) expect(configs).toContain(c);
  });

  manifestChecks(SOS_SUITE);
});

describe('tests-uh feature tests manifest', () => {
  it('lists every test of each test_parameters.conf once', () => {
    const count: Record<string, number> = {};
    for (const s of UH_SPECS) count[s.dir] = (count[s.dir] ?? 0) + 1;
    expect(count).toEqual(UH_CONF);
    const names = UH_SPECS.map((s) => `${s.dir}/${s.name}`);
    expect(new Set(names).size).toBe(names.length);
  });

  it('keeps the expectations of the conf files: Fail for broadcast_04 and shpalloc_03, Timeout for broadcast_05 and (f)collect_04, exit code 99 for global_exit', () => {
    const spec = (dir: string, name: string) => UH_SPECS.find((s) => s.dir === dir && s.name === name);
    expect(spec('Fortran/broadcast', 'test_shmem_broadcast_04_int4')?.result).toBe('Fail');
    expect(spec('Fortran/broadcast', 'test_shmem_broadcast_05_char')?.result).toBe('Timeout');
    expect(spec('Fortran/collect', 'test_shmem_fcollect_04_int8')?.result).toBe('Timeout');
    expect(spec('C', 'test_shmem_global_exit')?.exitCode).toBe(99);
    // shpalloc_03 allocates past the symmetric heap's bound: errcode -2, printed as Failed (Fail), run
    for (const ty of ['int4', 'int8', 'real4', 'real8', 'double', 'char', 'logical']) {
      expect(spec('Fortran/alloc', `test_shmem_shpalloc_03_${ty}`)?.result).toBe('Fail');
      expect(spec('Fortran/alloc', `test_shmem_shpalloc_03_${ty}`)?.status).toBeUndefined();
    }
    // a test that fails on any correct SHMEM: expected to, with the reason
    const add02 = spec('Fortran/atomic', 'test_shmem_add_02_int4');
    expect(add02?.result).toBe('Fail');
    expect(add02?.note).toMatch(/no correct SHMEM/);
  });

  manifestChecks(TESTS_UH_SUITE);
});

describe('phit conformance --suite', () => {
  it('runs one SOS test on every PE count and prints its lines and the counts', async () => {
    const r = await phit('conformance', '--suite', 'sos', '--only', 'put1');
    expect(r.code).toBe(0);
    const out = r.out.join('\n');
    expect(out).toMatch(/^pass {2}unit\/put1 \(2 PEs, /m);
    expect(out).toMatch(/^pass {2}unit\/put1 \(8 PEs, 4 per node, /m);
    expect(out).toMatch(/^total +1 +4 +4 +0 /m);
  });

  it('keeps the runs of one PE count with --np, and shows a tests-uh expectation other than Pass', async () => {
    const r = await phit('conformance', '--suite', 'tests-uh', '--only', 'test_shmem_broadcast_05_int4', '--np', '3');
    expect(r.code).toBe(0);
    expect(r.out.join('\n')).toMatch(/^pass {2}Fortran\/broadcast\/test_shmem_broadcast_05_int4 \(3 PEs, .*expected: Timeout/m);
    expect(r.out.join('\n')).toMatch(/^total +1 +1 +1 +0 /m);
  });

  it('lists the needs entries with -v, and reports them in --json', async () => {
    const r = await phit('conformance', '--suite', 'sos', '--only', 'mt_a2a', '-v');
    expect(r.code).toBe(0);
    expect(r.out.join('\n')).toMatch(/^needs unit\/mt_a2a: threads/m);
    const j = await phit('conformance', '--suite', 'sos', '--only', 'thread_wait', '--json');
    const parsed = JSON.parse(j.out.join('\n')) as { suite: string; tests: { verdict: string; status: string }[] };
    expect(parsed.suite).toBe('sos');
    expect(parsed.tests.map((t) => t.verdict)).toEqual(['needs']);
    expect(parsed.tests[0]!.status).toMatch(/^needs: threads/);
  });

  it('refuses an unknown suite, directory or test, and --np for mpich, with exit code 2', async () => {
    for (const argv of [
      ['--suite', 'gasnet'],
      ['--suite', 'sos', '--dir', 'perf'],
      ['--suite', 'tests-uh', '--only', 'nosuchtest'],
      ['--suite', 'sos', '--only', 'put1', '--np', 'two'],
      ['--np', '4', '--only', 'anyall'],
    ]) {
      const r = await phit('conformance', ...argv);
      expect(r.code, argv.join(' ')).toBe(2);
      expect(r.err.join('\n')).toMatch(/valid|no test|PE count|only for the SHMEM suites/);
    }
  });
});

// On xe6: every SOS test on 2 PEs and on 4 PEs two a node; every tests-uh test on its conf
// count and on 4 PEs two a node (where it takes 4) — the 5- and 8-PE runs of the full suites
// are `phit conformance --suite sos|tests-uh` (about 45 and 10 s of CPU).
const XE6_CONFIGS = new Set(['2 PEs', '4 PEs, 2 per node']);
const sosXe6 = SOS_SUITE.tests.filter((t) => runnable(t) && XE6_CONFIGS.has(pesLabel(t)));
const uhXe6 = TESTS_UH_SUITE.tests.filter((t) => runnable(t) && (XE6_CONFIGS.has(pesLabel(t)) || t.np === UH_SPECS.find((s) => s.dir === t.dir && s.name === t.name)?.np));

// On the other machines: a few tests of each kind (RMA, atomics, locks, waits, signals,
// collectives, teams, contexts, exit), on 5 PEs and 8 PEs four a node.
const QUICK_SOS = new Set([
  'hello',
  'circular_shift',
  'put1',
  'get_nbi',
  'iput32',
  'swap1',
  'atomic_inc',
  'fadd_nbi',
  'set_lock',
  'waituntil',
  'c11_shmem_test_all_any_some',
  'put_signal',
  'signal_wait_until',
  'barrier',
  'collect',
  'alltoall',
  'max_reduction',
  'reduce_in_place',
  'shmem_team_split_2d',
  'shmem_ctx_get_team',
  'many-ctx',
  'global_exit',
]);
const QUICK_CONFIGS = new Set(['5 PEs', '8 PEs, 4 per node']);
const sosQuick = SOS_SUITE.tests.filter((t) => runnable(t) && QUICK_SOS.has(t.name) && !t.args && QUICK_CONFIGS.has(pesLabel(t)));
// tests-uh: the C tests on 8 PEs four a node, one type of each Fortran family on its conf count
const uhQuick = TESTS_UH_SUITE.tests.filter(
  (t) => runnable(t) && ((t.dir === 'C' && pesLabel(t) === '8 PEs, 4 per node') || (t.dir !== 'C' && /_int8$/.test(t.name) && t.np === UH_SPECS.find((s) => s.dir === t.dir && s.name === t.name)?.np)),
);

function cases(suite: ShmemSuite, tests: readonly ShmemSuiteTest[], machine: string): void {
  for (const t of tests) {
    it(`${label(t)} passes`, async () => {
      const o = await runTest(suite, t, { machine });
      expect(o.verdict, why(o)).toBe('pass');
    });
  }
}

describe('SOS unit tests on xe6', () => {
  it('has the runs it means to', () => expect(sosXe6.length).toBeGreaterThan(250));
  cases(SOS_SUITE, sosXe6, 'xe6');
});

describe('tests-uh feature tests on xe6', () => {
  it('has the runs it means to', () => expect(uhXe6.length).toBeGreaterThan(380));
  cases(TESTS_UH_SUITE, uhXe6, 'xe6');
});

for (const machine of ['xc30', 'xt4', 'sc5832', 'bw']) {
  describe(`SHMEM conformance, quick subset on ${machine}`, () => {
    it('has the runs it means to', () => {
      expect(sosQuick.length).toBe(2 * QUICK_SOS.size);
      expect(uhQuick.length).toBeGreaterThanOrEqual(60);
    });
    cases(SOS_SUITE, sosQuick, machine);
    cases(TESTS_UH_SUITE, uhQuick, machine);
  });
}
