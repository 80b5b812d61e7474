import type { UhSpec } from './testlist.ts';

/**
 * feature_tests/Fortran: every test of each directory's test_parameters.conf, in its order, with
 * the PE count and the result the conf expects (Pass, Fail or Timeout). The typed tests are
 * written out as family × variant × type; test_shmem_finc_02_int4/int8, listed twice in
 * atomic's conf, once. The Fortran programs are ported as C-level phit programs: the typed
 * calls of the Fortran binding (shmem_int4_add, shmem_broadcast4, shmem_real8_sum_to_all, ...)
 * are the C calls of the same element size and kind.
 */

type T = 'int4' | 'int8' | 'real4' | 'real8' | 'double' | 'char' | 'logical';
const ALL: readonly T[] = ['int4', 'int8', 'real4', 'real8', 'double', 'char', 'logical'];
const INTS: readonly T[] = ['int4', 'int8'];
const NUMS: readonly T[] = ['int4', 'int8', 'real4', 'real8'];
const XFER: readonly T[] = ['int4', 'real4', 'double', 'char', 'logical'];
const STRIDED: readonly T[] = ['int4', 'real4', 'double', 'logical'];

type Extra = Pick<UhSpec, 'status' | 'result' | 'note'>;

/** `dir`'s tests `test_shmem_<family>_<variant>_<type>` for every variant and type, all on `np` PEs, ported by `program`. */
function typed(dir: string, np: number, program: string, family: string, variants: readonly string[], types: readonly T[], extra: (variant: string, type: T) => Extra = () => ({})): UhSpec[] {
  const out: UhSpec[] = [];
  for (const v of variants) for (const t of types) out.push({ dir: `Fortran/${dir}`, name: `test_shmem_${family}_${v}_${t}`, np, program: `Fortran/${dir}/${program}`, ...extra(v, t) });
  return out;
}

const V3 = ['01', '02', '03'];

const ADD_02_NOTE =
  'the test sets dest to 5678 on both PEs, has each add 5678 to the other, and has PE 0 expect 51234 (and PE npes-1 5678 + 51234): no correct SHMEM gives that (both hold 11356), so it prints Failed; tests-uh\'s conf says Pass';

/** Every Fortran feature test, by directory as in the conf files. */
export const FORTRAN_TESTS: readonly UhSpec[] = [
  // accessibility (2 PEs)
  { dir: 'Fortran/accessibility', name: 'test_shmem_acc_01', np: 2, program: 'Fortran/accessibility/acc' },
  { dir: 'Fortran/accessibility', name: 'test_shmem_acc_02', np: 2, program: 'Fortran/accessibility/acc' },
  ...typed('accessibility', 2, 'acc_mem', 'acc_mem', ['01', '02', '03', '05'], ALL),
  // alloc (3 PEs)
  // _03 allocates more than the symmetric heap holds: errcode -2, and the test prints Failed (the conf's Fail)
  ...typed('alloc', 3, 'shpalloc', 'shpalloc', V3, ALL, (v) => (v === '03' ? { result: 'Fail' } : {})),
  // atomic (2 PEs)
  ...typed('atomic', 2, 'atomic', 'swap', V3, INTS),
  ...typed('atomic', 2, 'atomic', 'cswap', V3, INTS),
  ...typed('atomic', 2, 'atomic', 'add', V3, INTS, (v) => (v === '02' ? { result: 'Fail', note: ADD_02_NOTE } : {})),
  ...typed('atomic', 2, 'atomic', 'fadd', ['01'], INTS),
  ...typed('atomic', 2, 'atomic', 'inc', V3, INTS),
  ...typed('atomic', 2, 'atomic', 'finc', V3, INTS),
  // broadcast (3 PEs): _04 broadcasts nothing (Fail), in _05 PE 0 skips the broadcast (Timeout)
  ...typed('broadcast', 3, 'broadcast', 'broadcast', ['01', '02', '03', '04', '05'], ALL, (v) => (v === '04' ? { result: 'Fail' } : v === '05' ? { result: 'Timeout' } : {})),
  // collect (3 PEs): in _04 PE 0 skips the collect (Timeout)
  ...typed('collect', 3, 'collect', 'collect', ['01', '02', '03', '04'], INTS, (v) => (v === '04' ? { result: 'Timeout' } : {})),
  ...typed('collect', 3, 'collect', 'fcollect', ['01', '02', '03', '04'], INTS, (v) => (v === '04' ? { result: 'Timeout' } : {})),
  // reductions (5 PEs)
  ...typed('reductions', 5, 'reductions', 'and', ['01'], INTS),
  ...typed('reductions', 5, 'reductions', 'or', ['01'], INTS),
  ...typed('reductions', 5, 'reductions', 'xor', ['01'], INTS),
  ...(['max', 'min', 'sum', 'prod'] as const).flatMap((op) => typed('reductions', 5, 'reductions', op, ['01'], NUMS)),
  // transfer (2 PEs)
  ...typed('transfer', 2, 'transfer', 'get', V3, XFER),
  ...typed('transfer', 2, 'transfer', 'put', V3, XFER),
  ...typed('transfer', 2, 'transfer', 'iput', V3, STRIDED),
  ...typed('transfer', 2, 'transfer', 'iget', V3, STRIDED),
  // the two top-level programs
  {
    dir: 'Fortran',
    name: 'test_shmem_lock',
    np: 2,
    status: 'omit: feature_tests/Fortran/test_shmem_lock.f90 is not built or run by tests-uh (no Makefile rule, no test_parameters.conf entry)',
  },
  {
    dir: 'Fortran',
    name: 'test_shmem_synchronization',
    np: 2,
    status: 'omit: feature_tests/Fortran/test_shmem_synchronization.f90 is not built or run by tests-uh (no Makefile rule, no test_parameters.conf entry)',
  },
];
