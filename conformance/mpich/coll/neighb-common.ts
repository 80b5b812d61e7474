// The check() macro of MPICH's neighb_*.c tests: a failed condition bumps the error count and is
// reported (the first ten).
import type { MTest } from '../mtest.ts';

/** C's 0xdeadbeef stored in an int. */
export const DEADBEEF = 0xdeadbeef | 0;

/** check(x) of the tests, counting into the returned counter. */
export function checker(mt: MTest): { check: (cond: boolean, what: string) => void; errs: () => number } {
  let errs = 0;
  return {
    check: (cond, what) => {
      if (!cond) {
        ++errs;
        if (errs < 10) mt.printf(`check failed: (${what})`);
      }
    },
    errs: () => errs,
  };
}
