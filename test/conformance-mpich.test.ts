import { describe, expect, it } from 'vitest';
import { phit } from './helpers.ts';
import { PROGRAMS } from '../conformance/mpich/programs.ts';
import { runTest, type Outcome } from '../conformance/mpich/run.ts';
import { DIRS, MPICH_TESTS, neededFeatures, statusKind, testId, TESTLIST_LINES, type Dir, type MpichTest } from '../conformance/mpich/testlist.ts';

// Counted from MPICH's testlist files (test/mpi/<dir>/testlist.in; testlist for group and topo) at
// pmodels/mpich commit 6a79bf6575c3b5b41cabbd3d59340634d6f9412d: the lines that are not blank or
// comments, and the distinct (program, rank count, arguments) among them.
const RECORDED: Readonly<Record<Dir, { lines: number; entries: number }>> = {
  pt2pt: { lines: 90, entries: 67 },
  coll: { lines: 213, entries: 203 },
  comm: { lines: 46, entries: 46 },
  group: { lines: 5, entries: 5 },
  topo: { lines: 18, entries: 18 },
  datatype: { lines: 77, entries: 77 },
  rma: { lines: 200, entries: 200 },
};

const label = (t: MpichTest): string => `${testId(t)}${t.args?.length ? ' ' + t.args.join(' ') : ''} (${t.np} ranks)`;

/** A failure's reason and the first lines the ranks printed, for the assertion message. */
const why = (o: Outcome): string => [o.detail, ...o.output.slice(0, 8)].join('\n');

describe('MPICH test suite manifest', () => {
  it('lists every test of the seven testlists', () => {
    for (const dir of DIRS) {
      const tests = MPICH_TESTS.filter((t) => t.dir === dir);
      const lines = tests.reduce((n, t) => n + 1 + (t.envVariants ?? 0), 0);
      expect({ dir, lines, entries: tests.length }).toEqual({ dir, ...RECORDED[dir] });
      expect(TESTLIST_LINES[dir]).toBe(RECORDED[dir].lines);
    }
  });

  it('has a port of every test it runs, and every port is listed', () => {
    for (const t of MPICH_TESTS) {
      const kind = statusKind(t.status);
      if (kind === 'run' || kind === 'known-failure') expect(PROGRAMS[testId(t)], testId(t)).toBeDefined();
      if (kind !== 'run') expect(t.status.slice(t.status.indexOf(':') + 1).trim().length, testId(t)).toBeGreaterThan(0);
    }
    const listed = new Set(MPICH_TESTS.map(testId));
    for (const id of Object.keys(PROGRAMS)) expect(listed.has(id), id).toBe(true);
  });

  it('splits a needs status into its features, details dropped', () => {
    expect(neededFeatures('needs: RMA shared-memory windows (MPI_Win_allocate_shared, MPI_Comm_split_type), derived datatypes')).toEqual(['RMA shared-memory windows', 'derived datatypes']);
    expect(neededFeatures('run')).toEqual([]);
    expect(neededFeatures('needs: int forms (detail, more), a vector of 1,073,741,823 blocks (16 GB)')).toEqual(['int forms', 'a vector of 1,073,741,823 blocks']);
    expect(neededFeatures('omit: Fortran types')).toEqual([]);
  });

  it('names each entry once', () => {
    const keys = MPICH_TESTS.map((t) => `${label(t)}`);
    expect(new Set(keys).size).toBe(keys.length);
  });
});

describe('phit conformance', () => {
  it('runs one test by name and prints its line and the counts', async () => {
    const r = await phit('conformance', '--only', 'pt2pt/anyall');
    expect(r.code).toBe(0);
    expect(r.out.join('\n')).toMatch(/^pass {2}pt2pt\/anyall \(2 ranks, /m);
    expect(r.out.join('\n')).toMatch(/^total +1 +1 +1 +0 /m);
  });

  it('passes a test that was a known failure until its defect was fixed (zero-dimensional dimsCreate), exit code 0', async () => {
    const r = await phit('conformance', '--only', 'topo/dims0');
    expect(r.code).toBe(0);
    expect(r.out.join('\n')).toMatch(/^pass {2}topo\/dims0 /m);
  });

  it('refuses an unknown directory, test or fidelity level with exit code 2', async () => {
    for (const argv of [['--dir', 'io'], ['--only', 'nosuchtest'], ['--only', 'anyall', '--fidelity', 'exact']]) {
      const r = await phit('conformance', ...argv);
      expect(r.code, argv.join(' ')).toBe(2);
      expect(r.err.join('\n')).toMatch(/valid|no test/);
    }
  });
});

// the quick tier on xe6: each test as its own case, so that a failure names it
const quick = MPICH_TESTS.filter((t) => !t.long && (t.status === 'run' || statusKind(t.status) === 'known-failure'));

describe('MPICH test suite, quick tier on xe6', () => {
  for (const t of quick) {
    if (t.status === 'run') {
      it(`${label(t)} passes`, async () => {
        const o = await runTest(t, { machine: 'xe6' });
        expect(o.verdict, why(o)).toBe('pass');
      });
    } else {
      // a defect of phit's MPI: the case notices when a fix makes the test pass
      it(`${label(t)} still fails (${t.status})`, async () => {
        const o = await runTest(t, { machine: 'xe6' });
        expect(o.verdict).toBe('fail');
      });
    }
  }
});

// nonblocking3's 100,000 operations a run are in the long tier; here its port runs 500 of them
// (its -iterations argument), on the testlist's rank counts: the same cases, completion calls and checks
describe('MPICH coll/nonblocking3 with 500 operations (quick tier; the full count in the long tier)', () => {
  for (const np of [1, 4, 5, 10]) {
    it(`${np} ranks pass`, async () => {
      const o = await runTest({ dir: 'coll', name: 'nonblocking3', np, args: ['-iterations=500'], status: 'run' }, { machine: 'xe6' });
      expect(o.verdict, why(o)).toBe('pass');
    });
  }
});
