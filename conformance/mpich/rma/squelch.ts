// MPICH test/mpi/rma/squelch.h: SQUELCH prints a test's first ten error lines and drops the rest.
import type { MTest } from '../mtest.ts';

/** SQUELCH(printf(...)) of one rank: the first SQ_LIMIT lines are printed. */
export class Squelch {
  private count = 0;
  constructor(private readonly mt: MTest) {}

  printf(line: string): void {
    if (this.count < 10) {
      this.count++;
      this.mt.printf(line);
    }
  }
}
