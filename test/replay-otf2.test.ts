/**
 * Replay of OTF2 traces written through the OTF2 library by an MPI profiling library that records
 * Score-P's MPI events (test/fixtures/traces/src/otf2-tracer.c; the C programs in
 * test/fixtures/traces/src on 16 ranks under MPICH; scripts/make-traces.sh). The calls expected
 * come from each trace's `.enters` file, the regions entered as the OTF2 library's own otf2-print
 * read them, not from the reader under test; the bytes from the programs' own sizes.
 */
import { copyFileSync, cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openTrace } from '../replay/open.ts';
import { matrixWithSums } from '../replay/otf2-peers.ts';
import { replayProgram, type RankReplay } from '../replay/replay.ts';
import { simulate } from '../runtime/simulate.ts';
import { phit } from './helpers.ts';
import { expectTracedCalls, FLOW, otf2Enters, traceDirs, writtenRing } from './replay-checks.ts';

const DIR = 'test/fixtures/traces/otf2';
const tmp = mkdtempSync(join(tmpdir(), 'phit-replay-otf2-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** Calls with no message: entered in the trace, issued as nothing. */
const LOCAL = new Set(['MPI_Init', 'MPI_Finalize', 'MPI_Comm_rank', 'MPI_Comm_size']);

async function replay(anchor: string, computeScale = 1) {
  const source = openTrace(anchor);
  return simulate({ machine: 'xe6', nodes: source.ranks, skeleton: true, metrics: true, set: FLOW, program: replayProgram(source, { computeScale }) });
}

for (const { label, dir } of traceDirs('otf2')) {
  describe(`OTF2 traces written through the OTF2 library (${label})`, () => {
    const bytes: Record<string, Record<string, number>> = {
      // ring.c: 10 iterations of 8 B, 4 KiB and 1 MiB on 16 ranks
      ring: { MPI_Isend: 16 * 10 * (8 + 4096 + (1 << 20)), MPI_Irecv: 16 * 10 * (8 + 4096 + (1 << 20)) },
      // halo.c: 5 iterations, 4 faces of 1024 doubles
      halo: { MPI_Isend: 16 * 5 * 4 * 1024 * 8, MPI_Allreduce: 16 * 5 * 8 },
      // colls.c: 100 doubles, 7 floats, 30 ints, 64 doubles per rank; allreduces of 1000 and 10 doubles;
      // alltoallv: rank i sends (i + j) % 3 + 1 doubles to rank j
      colls: {
        MPI_Send: 16 * 800, MPI_Ssend: 16 * 28, MPI_Sendrecv: 16 * 120, MPI_Isend: 16 * 512, MPI_Allreduce: 16 * 8 * 1010,
        MPI_Alltoallv: 8 * Array.from({ length: 16 }, (_, i) => Array.from({ length: 16 }, (_, j) => ((i + j) % 3) + 1).reduce((a, b) => a + b, 0)).reduce((a, b) => a + b, 0),
      },
    };
    for (const prog of ['ring', 'halo', 'colls']) {
      it(`${prog}: the replay issues every MPI call otf2-print finds in the trace, with the program's bytes`, async () => {
        const want = otf2Enters(dir, prog);
        for (const l of LOCAL) delete want[l];
        const r = await replay(`${dir}/${prog}/${prog}.otf2`);
        expectTracedCalls(r, want, bytes[prog]!);
      });
    }

    it('the traced ring without its host gaps predicts within 10 % of the ring written as a phit program; with them, later', async () => {
      const bare = await replay(`${dir}/ring/ring.otf2`, 0);
      const timed = await replay(`${dir}/ring/ring.otf2`, 1);
      const written = await writtenRing();
      expect(Math.abs(bare.simulatedTimeUs - written.simulatedTimeUs) / written.simulatedTimeUs).toBeLessThan(0.1);
      const compute = (timed.rankResults as RankReplay[]).map((x) => x.computePs);
      expect(Math.min(...compute)).toBeGreaterThan(0);
      expect(timed.simulatedTimeUs).toBeGreaterThan(bare.simulatedTimeUs);
    });
  });
}

describe('OTF2 traces: matching and bad files', () => {
  it('an alltoallv known only by its totals gets an exchange with the same totals', () => {
    const rows = [5, 0, 7, 3];
    const cols = [4, 6, 2, 3];
    const m = matrixWithSums(rows, cols);
    expect(m.map((r) => r.reduce((a, b) => a + b, 0))).toEqual(rows);
    expect(cols.map((_, j) => m.reduce((a, r) => a + r[j]!, 0))).toEqual(cols);
    expect(m.flat().every((x) => x >= 0 && Number.isInteger(x))).toBe(true);
  });

  it('bad or truncated files fail with the file, the byte offset and what was expected, exit code 2', async () => {
    const copy = (name: string): string => {
      const dir = join(tmp, name);
      rmSync(dir, { recursive: true, force: true });
      cpSync(`${DIR}/halo`, dir, { recursive: true });
      return dir;
    };
    // rank 3's event file cut in the middle of its records
    let dir = copy('cut');
    const f3 = join(dir, 'halo', '3.evt');
    writeFileSync(f3, readFileSync(f3).subarray(0, 700));
    let r = await phit('replay', join(dir, 'halo.otf2'));
    expect(r.code).toBe(2);
    expect(r.err).toHaveLength(1);
    expect(r.err[0]).toMatch(/halo\/3\.evt: (truncated at byte \d+: expected|ends inside MPI_\w+ \(entered at byte \d+\); expected its Leave)/);
    // an anchor file that is not one
    dir = copy('magic');
    const anchor = join(dir, 'halo.otf2');
    const b = readFileSync(anchor);
    b.write('OTF3', 2, 'latin1');
    writeFileSync(anchor, b);
    r = await phit('replay', anchor);
    expect(r.code).toBe(2);
    expect(r.err[0]).toMatch(/halo\.otf2: byte 2: expected the magic string "OTF2" of an anchor file/);
    // a missing rank file
    dir = copy('missing');
    rmSync(join(dir, 'halo', '15.evt'));
    r = await phit('replay', join(dir, 'halo.otf2'));
    expect(r.code).toBe(2);
    expect(r.err[0]).toMatch(/halo\.otf2: expected the event file of every rank in halo\/ \(16 ranks\); 15\.evt is missing/);
    // a file of the archive named instead of its anchor
    copyFileSync(`${DIR}/halo/halo/0.evt`, join(tmp, '0.evt'));
    r = await phit('replay', join(tmp, '0.evt'));
    expect(r.code).toBe(2);
    expect(r.err[0]).toMatch(/a file inside an OTF2 archive; give the archive's \.otf2 anchor file/);
  });
});
