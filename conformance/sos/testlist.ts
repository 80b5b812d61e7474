import type { ShmemSuiteTest, TestStatus } from '../shmem/suite.ts';

/**
 * The unit tests of Sandia OpenSHMEM (`test/unit` of openshmem-org/tests-sos at commit
 * ef46e42a85dadaa643e8ba44a74e37f79bc1ec73, the `modules/tests-sos` submodule of
 * Sandia-OpenSHMEM/SOS main at 8649160d8ea5a8be3032d2720d554693756d0c7d; SOS's own `test/unit`
 * moved there), every program of test/unit/Makefile.am's `check_PROGRAMS` in its order, with those
 * it builds only with C++, Fortran, pthreads or the profiling interface, and the deprecated
 * build (`--enable-deprecated-tests`: the 1.4 active-set calls instead of teams) of the tests
 * that have one, as a variant with the argument `deprecated`.
 *
 * SOS runs them all on 2 PEs (`NPROCS ?= 2`); here every ported test runs on 2 PEs (one a node),
 * 4 (two a node), 5 (one a node) and 8 (four a node), unless its entry says otherwise (a test
 * written for one PE count).
 */

/** One PE count of a run, and PEs per node. */
export interface PeConfig {
  readonly np: number;
  readonly ppn?: number;
}

/** The PE counts of every ported test unless its entry says otherwise. */
export const STANDARD: readonly PeConfig[] = [{ np: 2 }, { np: 4, ppn: 2 }, { np: 5 }, { np: 8, ppn: 4 }];

/** The standard PE counts and two PEs on one node: for the tests written for exactly 2 PEs (they skip the others). */
export const PAIR: readonly PeConfig[] = [...STANDARD, { np: 2, ppn: 2 }];

/** Random OS noise on every core, for tests that need the timing of PEs to vary. */
export const NOISY: Readonly<Record<string, string>> = { 'noise.kind': 'random', 'noise.coreSpec': 'no', 'noise.period': '20us', 'noise.detour': '2us' };

interface Spec {
  readonly name: string;
  readonly status?: TestStatus;
  readonly configs?: readonly PeConfig[];
  readonly args?: readonly string[];
  readonly long?: boolean;
  readonly program?: string;
  readonly set?: Readonly<Record<string, string>>;
}

const run = (name: string, more: Omit<Spec, 'name'> = {}): Spec => ({ name, ...more });
const deprecated = (name: string, more: Omit<Spec, 'name'> = {}): Spec => ({ name, args: ['deprecated'], ...more });
const needs = (name: string, what: string): Spec => ({ name, status: `needs: ${what}` });
const omit = (name: string, why: string): Spec => ({ name, status: `omit: ${why}` });

const SPECS: readonly Spec[] = [
  // check_PROGRAMS, in Makefile.am's order
  run('hello'),
  run('pi'),
  run('micro_unit_shmem', { configs: PAIR }),
  run('circular_shift'),
  run('accessible_ping'),
  run('max_reduction'),
  run('big_reduction', { program: 'unit/max_reduction' }),
  run('to_all'),
  run('strided_put', { configs: PAIR }),
  run('barrier'),
  run('bcast'),
  run('put1'),
  run('get1'),
  run('swap1'),
  run('ping'),
  run('pingpong'),
  run('shmalloc'),
  run('shmem_calloc', { program: 'unit/shmalloc' }),
  run('shrealloc'),
  run('shmemalign'),
  run('get_g'),
  run('iput32', { program: 'unit/iput' }),
  run('iput64', { program: 'unit/iput' }),
  run('iput128', { program: 'unit/iput' }),
  run('iput_short', { program: 'unit/iput' }),
  run('iput_double', { program: 'unit/iput' }),
  run('iput_float', { program: 'unit/iput' }),
  run('iput_long', { program: 'unit/iput' }),
  run('iput_longdouble', { program: 'unit/iput' }),
  run('iput_longlong', { program: 'unit/iput' }),
  run('sping'),
  run('pingpong-short'),
  run('ipgm'),
  run('iput-iget'),
  run('swapm'),
  run('cswap'),
  run('waituntil'),
  run('atomic_inc'),
  run('set_lock'),
  run('test_lock'),
  run('test_lock_cswap'),
  run('fcollect64'),
  run('bigput', { long: true }),
  run('bigget', { program: 'unit/bigput', long: true }),
  run('ns'),
  run('bcast_flood'),
  run('lfinc'),
  run('shmem_info'),
  run('query_thread'),
  run('set_fetch'),
  run('alltoall'),
  run('alltoalls'),
  run('c11_test_shmem_g'),
  run('c11_test_shmem_get'),
  run('c11_test_shmem_p'),
  run('c11_test_shmem_put'),
  run('c11_test_shmem_put_signal'),
  run('c11_test_shmem_atomic_fetch'),
  deprecated('c11_test_shmem_atomic_fetch'),
  run('c11_test_shmem_atomic_set'),
  deprecated('c11_test_shmem_atomic_set'),
  run('c11_test_shmem_atomic_add'),
  deprecated('c11_test_shmem_atomic_add'),
  run('c11_test_shmem_atomic_inc'),
  deprecated('c11_test_shmem_atomic_inc'),
  run('c11_test_shmem_atomic_and', { program: 'unit/c11_bitwise' }),
  run('c11_test_shmem_atomic_or', { program: 'unit/c11_bitwise' }),
  run('c11_test_shmem_atomic_xor', { program: 'unit/c11_bitwise' }),
  run('c11_test_shmem_atomic_swap'),
  deprecated('c11_test_shmem_atomic_swap'),
  run('c11_test_shmem_atomic_cswap'),
  deprecated('c11_test_shmem_atomic_cswap'),
  run('c11_test_shmem_wait_until'),
  run('c11_test_shmem_wait_until_vector'),
  run('c11_shmem_wait_until_all_any_some'),
  run('c11_test_shmem_test'),
  run('c11_shmem_test_vector'),
  run('c11_shmem_test_all_any_some'),
  run('c11_shmem_team_collective_types'),
  run('c11_shmem_team_reduce', { program: 'unit/team_reduce' }),
  run('get_nbi'),
  run('put_nbi'),
  run('rma_coverage'),
  run('collect'),
  run('repeated_barriers'),
  deprecated('repeated_barriers'),
  run('repeated_syncs'),
  deprecated('repeated_syncs'),
  run('broadcast_active_set'),
  deprecated('broadcast_active_set'),
  run('reduce_active_set'),
  deprecated('reduce_active_set'),
  run('reduce_in_place'),
  run('bcast_in_place'),
  run('collect_active_set'),
  deprecated('collect_active_set'),
  run('atomic_bitwise'),
  run('nop_collectives'),
  deprecated('nop_collectives'),
  run('self_collectives'),
  deprecated('self_collectives'),
  run('zero_comm'),
  run('sync-size'),
  run('many-ctx'),
  run('shmem_test'),
  run('shmem_ptr'),
  run('shmem_team_ptr'),
  run('shmem_malloc_with_hints'),
  run('put_signal'),
  run('put_signal_nbi'),
  run('signal_fetch'),
  run('signal_wait_until'),
  run('shmem_team_b2b_collectives'),
  run('shmem_team_collect_active_set'),
  run('shmem_team_max'),
  run('shmem_team_reuse_teams'),
  run('shmem_team_shared'),
  run('shmem_team_split_2d'),
  run('shmem_team_translate'),
  run('shmem_team_reduce', { program: 'unit/team_reduce' }),
  run('shmem_team_get_config'),
  run('shmem_team_negative_stride'),
  run('shmem_ctx_get_team'),
  // its loops end only once the order of the PEs' swaps at a target changes between rounds:
  // OS noise varies it, as on a real machine (a quiet simulated machine repeats one order)
  run('atomic_nbi', { set: NOISY }),
  run('fadd_nbi'),
  // built unless the launcher is MPI's PMI
  run('global_exit'),
  // built with --enable-profiling: rma_coverage through the pshmem_ names (phit's calls are both)
  run('rma_coverage_pshmem', { program: 'unit/rma_coverage' }),
  run('pcontrol'),
  // built with C++: the C11 tests' checks with the typed C names (shmem_int_p, ...), and four more
  run('cxx_test_shmem_complex'),
  run('cxx_test_shmem_g', { program: 'unit/c11_test_shmem_g' }),
  run('cxx_test_shmem_get', { program: 'unit/c11_test_shmem_get' }),
  run('cxx_test_shmem_p', { program: 'unit/c11_test_shmem_p' }),
  run('cxx_test_shmem_put', { program: 'unit/c11_test_shmem_put' }),
  run('cxx_test_shmem_atomic_fetch', { program: 'unit/c11_test_shmem_atomic_fetch' }),
  deprecated('cxx_test_shmem_atomic_fetch', { program: 'unit/c11_test_shmem_atomic_fetch' }),
  run('cxx_test_shmem_atomic_set', { program: 'unit/c11_test_shmem_atomic_set' }),
  deprecated('cxx_test_shmem_atomic_set', { program: 'unit/c11_test_shmem_atomic_set' }),
  run('cxx_test_shmem_atomic_add', { program: 'unit/c11_test_shmem_atomic_add' }),
  deprecated('cxx_test_shmem_atomic_add', { program: 'unit/c11_test_shmem_atomic_add' }),
  run('cxx_test_shmem_atomic_inc', { program: 'unit/c11_test_shmem_atomic_inc' }),
  deprecated('cxx_test_shmem_atomic_inc', { program: 'unit/c11_test_shmem_atomic_inc' }),
  run('cxx_test_shmem_atomic_and', { program: 'unit/c11_bitwise' }),
  run('cxx_test_shmem_atomic_or', { program: 'unit/c11_bitwise' }),
  run('cxx_test_shmem_atomic_xor', { program: 'unit/c11_bitwise' }),
  run('cxx_test_shmem_atomic_swap', { program: 'unit/c11_test_shmem_atomic_swap' }),
  deprecated('cxx_test_shmem_atomic_swap', { program: 'unit/c11_test_shmem_atomic_swap' }),
  run('cxx_test_shmem_atomic_cswap', { program: 'unit/c11_test_shmem_atomic_cswap' }),
  deprecated('cxx_test_shmem_atomic_cswap', { program: 'unit/c11_test_shmem_atomic_cswap' }),
  run('cxx_test_shmem_wait_until', { program: 'unit/c11_test_shmem_wait_until' }),
  run('cxx_test_shmem_test', { program: 'unit/c11_test_shmem_test' }),
  run('cxx_test_shmem_bitwise_reduce'),
  run('cxx_test_shmem_max_min_reduce', { program: 'unit/team_reduce' }),
  run('cxx_test_shmem_sum_prod_reduce', { program: 'unit/team_reduce' }),
  run('cxx_shmem_test_all'),
  // built with Fortran
  run('hello_f'),
  run('complex_reductions_f'),
  run('set_fetch_f'),
  run('shmem_info_f'),
  // built with pthreads
  needs('mt_a2a', 'threads (pthreads of one PE calling SHMEM at once, shmem_init_thread(SHMEM_THREAD_MULTIPLE))'),
  needs('mt_contention', 'threads (pthreads of one PE calling SHMEM at once, shmem_init_thread(SHMEM_THREAD_MULTIPLE))'),
  needs('mt_membar', 'threads (pthreads of one PE calling SHMEM at once, shmem_init_thread(SHMEM_THREAD_MULTIPLE))'),
  needs('mt_lock_test', 'threads (pthreads of one PE calling SHMEM at once, shmem_init_thread(SHMEM_THREAD_MULTIPLE))'),
  needs('threading', 'threads (pthreads of one PE calling SHMEM at once, shmem_init_thread(SHMEM_THREAD_MULTIPLE))'),
  needs('web', 'threads (pthreads of one PE calling SHMEM at once, shmem_init_thread(SHMEM_THREAD_MULTIPLE))'),
  needs('thread_wait', 'threads (a pthread stores to a variable another pthread of the same PE waits on)'),
  run('query_thread_funneled'),
  // in test/unit but in no check_PROGRAMS
  omit('spam', 'not built by test/unit/Makefile.am (in none of its check_PROGRAMS lists)'),
];

function expand(specs: readonly Spec[]): ShmemSuiteTest[] {
  const out: ShmemSuiteTest[] = [];
  for (const s of specs) {
    const status = s.status ?? 'run';
    const base = { dir: 'unit', name: s.name, status, ...(s.args ? { args: s.args } : {}), ...(s.long ? { long: true } : {}), ...(s.program ? { program: s.program } : {}), ...(s.set ? { set: s.set } : {}) };
    // a test not run is one entry, at SOS's NPROCS
    const configs = status === 'run' || status.startsWith('known-failure') ? (s.configs ?? STANDARD) : [{ np: 2 }];
    for (const c of configs) out.push({ ...base, np: c.np, ...(c.ppn && c.ppn > 1 ? { ppn: c.ppn } : {}) });
  }
  return out;
}

/** Every entry: one per test, arguments and PE count. */
export const SOS_TESTS: readonly ShmemSuiteTest[] = expand(SPECS);

/** The programs of test/unit/Makefile.am (check_PROGRAMS in every configuration, spam.c too), one spec each, and the deprecated builds. */
export const SOS_PROGRAMS = SPECS.filter((s) => s.args === undefined).map((s) => s.name);
export const SOS_DEPRECATED = SPECS.filter((s) => s.args !== undefined).map((s) => s.name);
