import type { ShmemSuite } from '../shmem/suite.ts';
import { PROGRAMS } from './programs.ts';
import { UH_DIRS, UH_TESTS } from './testlist.ts';

/** The OpenSHMEM verification suite's feature tests (openshmem-org/tests-uh, C and Fortran), ported to phit programs. */
export const TESTS_UH_SUITE: ShmemSuite = {
  name: 'tests-uh',
  title: 'tests-uh feature tests',
  dirs: UH_DIRS,
  tests: UH_TESTS,
  programs: PROGRAMS,
};
