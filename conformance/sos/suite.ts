import type { ShmemSuite } from '../shmem/suite.ts';
import { PROGRAMS } from './programs.ts';
import { SOS_TESTS } from './testlist.ts';

/** Sandia OpenSHMEM's unit tests (test/unit of tests-sos), ported to phit programs. */
export const SOS_SUITE: ShmemSuite = {
  name: 'sos',
  title: 'SOS unit tests',
  dirs: ['unit'],
  tests: SOS_TESTS,
  programs: PROGRAMS,
};
