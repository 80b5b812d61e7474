/**
 * The committed traces are what the real tools make: CI builds the SimGrid and OTF2 traces again
 * (scripts/make-traces.sh into PHIT_FRESH_TRACES) and this checks that the new build carries the
 * committed traces' calls and bytes. The replay tests run on the new build too (traceDirs). What a
 * run's own timing sets is left out: SimGrid's compute actions are the host's measured times, and
 * the number of MPI_Wait and MPI_Test calls of a loop that polls (colls.c) follows the timing.
 */
import { describe, expect, it } from 'vitest';
import { freshTraceDir, otf2Enters, tallySimgrid } from './replay-checks.ts';

const PROGS = ['ring', 'halo', 'colls'];
/** Calls whose count a run's timing sets. */
const TIMED = new Set(['MPI_Wait', 'MPI_Test']);

const untimed = (calls: Record<string, number>): Record<string, number> => Object.fromEntries(Object.entries(calls).filter(([name]) => !TIMED.has(name)));

const simgrid = freshTraceDir('simgrid');
describe.skipIf(simgrid === null)('SimGrid traces built in this run by smpirun -trace-ti', () => {
  for (const prog of PROGS) {
    it(`${prog}: the calls and bytes of the committed trace`, () => {
      const fresh = tallySimgrid(`${simgrid}/${prog}/${prog}.trace`);
      const committed = tallySimgrid(`test/fixtures/traces/simgrid/${prog}/${prog}.trace`);
      expect(Object.keys(fresh.calls).length).toBeGreaterThan(3);
      expect(untimed(fresh.calls)).toEqual(untimed(committed.calls));
      expect(fresh.bytes).toEqual(committed.bytes);
    });
  }
});

const otf2 = freshTraceDir('otf2');
describe.skipIf(otf2 === null)('OTF2 traces built in this run through the OTF2 library', () => {
  for (const prog of PROGS) {
    it(`${prog}: the regions otf2-print counts in the committed trace`, () => {
      const fresh = otf2Enters(otf2!, prog);
      expect(Object.keys(fresh).length).toBeGreaterThan(3);
      expect(untimed(fresh)).toEqual(untimed(otf2Enters('test/fixtures/traces/otf2', prog)));
    });
  }
});
