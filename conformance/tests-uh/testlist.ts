import type { ShmemSuiteTest, TestStatus } from '../shmem/suite.ts';
import { FORTRAN_TESTS } from './fortran-list.ts';

/**
 * The feature tests of the OpenSHMEM verification suite (openshmem-org/tests-uh at commit
 * 15d685dd811eba1a05cfd3c683d30dd449fd3344, `feature_tests/C` and `feature_tests/Fortran`), every
 * test of each directory's test_parameters.conf, with its PE count there. As tests-uh's runner
 * judges them, a run passes when its last line of output says Passed (and, here, no line says
 * Failed), or when it ends with the exit code the conf expects (test_shmem_global_exit: 99).
 *
 * Every ported test runs on the conf's PE count (one a node), and on 4 (two a node), 5 (one a
 * node) and 8 PEs (four a node) where the test supports that many (the conf count is the least
 * some tests accept; a test that needs exactly its count runs on it alone).
 */

/** One PE count of a run, and PEs per node. */
export interface PeConfig {
  readonly np: number;
  readonly ppn?: number;
}

/** The PE counts of a test whose conf count is `np`: that, and 4, 5 and 8 PEs where they are at least `np`. */
export function configsFor(np: number): PeConfig[] {
  const out: PeConfig[] = [{ np }];
  for (const c of [{ np: 4, ppn: 2 }, { np: 5 }, { np: 8, ppn: 4 }] as const) if (c.np >= np && c.np !== np) out.push(c);
  return out;
}

/** One test of the suite before it is expanded into its runs. */
export interface UhSpec {
  /** `C` or `Fortran/<dir>` (the top-level Fortran tests: `Fortran`). */
  readonly dir: string;
  readonly name: string;
  /** PEs, from test_parameters.conf. */
  readonly np: number;
  readonly status?: TestStatus;
  /** The port of a family of tests (by its key in PROGRAMS). */
  readonly program?: string;
  readonly exitCode?: number;
  /** What the conf expects, when not Pass: Fail (the test reports a failure) or Timeout (it hangs). */
  readonly result?: 'Pass' | 'Fail' | 'Timeout';
  /** Why the expectation here differs from the conf's. */
  readonly note?: string;
  /** Run on the conf's PE count only. */
  readonly only?: boolean;
}

/** feature_tests/C/test_parameters.conf: every test on 2 PEs. */
const C_TESTS: readonly UhSpec[] = [
  { dir: 'C', name: 'test_shmem_accessible', np: 2 },
  { dir: 'C', name: 'test_shmem_atomics', np: 2 },
  { dir: 'C', name: 'test_shmem_barrier', np: 2 },
  { dir: 'C', name: 'test_shmem_broadcast', np: 2 },
  { dir: 'C', name: 'test_shmem_collects', np: 2 },
  { dir: 'C', name: 'test_shmem_finalize', np: 2 },
  { dir: 'C', name: 'test_shmem_get', np: 2, program: 'C/rma' },
  { dir: 'C', name: 'test_shmem_get_globals', np: 2, program: 'C/rma' },
  { dir: 'C', name: 'test_shmem_get_shmem_malloc', np: 2, program: 'C/rma' },
  { dir: 'C', name: 'test_shmem_global_exit', np: 2, exitCode: 99 },
  { dir: 'C', name: 'test_shmem_lock', np: 2 },
  { dir: 'C', name: 'test_shmem_put', np: 2, program: 'C/rma' },
  { dir: 'C', name: 'test_shmem_put_globals', np: 2, program: 'C/rma' },
  { dir: 'C', name: 'test_shmem_put_shmem_malloc', np: 2, program: 'C/rma' },
  { dir: 'C', name: 'test_shmem_query', np: 2 },
  { dir: 'C', name: 'test_shmem_reduction', np: 2 },
  { dir: 'C', name: 'test_shmem_synchronization', np: 2 },
  { dir: 'C', name: 'test_shmem_zero_get', np: 2, program: 'C/zero' },
  { dir: 'C', name: 'test_shmem_zero_put', np: 2, program: 'C/zero' },
];

/** Every test, C then Fortran. */
export const UH_SPECS: readonly UhSpec[] = [...C_TESTS, ...FORTRAN_TESTS];

/** The directories, in the suite's order. */
export const UH_DIRS: readonly string[] = [...new Set(UH_SPECS.map((s) => s.dir))];

function expand(specs: readonly UhSpec[]): ShmemSuiteTest[] {
  const out: ShmemSuiteTest[] = [];
  for (const s of specs) {
    const status = s.status ?? 'run';
    const base = {
      dir: s.dir,
      name: s.name,
      status,
      ...(s.program ? { program: s.program } : {}),
      expect: s.exitCode !== undefined ? { exitCode: s.exitCode } : { passedLine: true, ...(s.result && s.result !== 'Pass' ? { result: s.result } : {}) },
      ...(s.note ? { note: s.note } : {}),
    };
    const configs = status === 'run' || status.startsWith('known-failure') ? (s.only ? [{ np: s.np }] : configsFor(s.np)) : [{ np: s.np }];
    for (const c of configs) out.push({ ...base, np: c.np, ...('ppn' in c && c.ppn && c.ppn > 1 ? { ppn: c.ppn } : {}) });
  }
  return out;
}

/** Every entry: one per test and PE count. */
export const UH_TESTS: readonly ShmemSuiteTest[] = expand(UH_SPECS);
