/**
 * Replay of DUMPI traces made by sst-dumpi's libdumpi under MPICH (the C programs in
 * test/fixtures/traces/src on 16 ranks; scripts/make-traces.sh). The calls expected come from
 * each file's footer, where the tool counted every call it recorded, not from the call stream
 * the reader parses; the bytes from the programs' own sizes.
 */
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DUMPI_FUNCTIONS } from '../replay/dumpi-layouts.ts';
import { openTrace } from '../replay/open.ts';
import { replayProgram, type RankReplay } from '../replay/replay.ts';
import { simulate } from '../runtime/simulate.ts';
import { phit } from './helpers.ts';
import { expectTracedCalls, FLOW, writtenRing } from './replay-checks.ts';

const DIR = 'test/fixtures/traces/dumpi';
const tmp = mkdtempSync(join(tmpdir(), 'phit-replay-dumpi-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** Calls with no message: counted in the footer, issued as nothing. */
const LOCAL = new Set(['MPI_Init', 'MPI_Finalize', 'MPI_Comm_rank', 'MPI_Comm_size']);

/** The footer's call counts of every .bin file of a trace, summed, by MPI name. */
function footerCounts(dir: string): Record<string, number> {
  const out: Record<string, number> = {};
  for (const f of readdirSync(dir).filter((n) => n.endsWith('.bin'))) {
    const b = readFileSync(join(dir, f));
    const v = new DataView(b.buffer, b.byteOffset, b.byteLength);
    // the index: the last 8 64-bit words (magic, sizes, addresses, counters, header, body, footer, keyvals)
    const footer = Number(v.getBigUint64(b.length - 16));
    expect(v.getUint32(b.length - 64)).toBe(0xffaadd44);
    expect(Number(v.getBigUint64(footer))).toBe(0xf007fee7);
    for (let i = 0; i < DUMPI_FUNCTIONS.length; i++) {
      const n = v.getUint32(footer + 8 + 4 * i);
      if (n > 0) out[DUMPI_FUNCTIONS[i]!] = (out[DUMPI_FUNCTIONS[i]!] ?? 0) + n;
    }
  }
  return out;
}

async function replay(meta: string, computeScale = 1) {
  const source = openTrace(meta);
  return simulate({ machine: 'xe6', nodes: source.ranks, skeleton: true, metrics: true, set: FLOW, program: replayProgram(source, { computeScale }) });
}

describe('DUMPI traces made by libdumpi under MPICH', () => {
  const bytes: Record<string, Record<string, number>> = {
    // ring.c: 10 iterations of 8 B, 4 KiB and 1 MiB on 16 ranks
    ring: { MPI_Isend: 16 * 10 * (8 + 4096 + (1 << 20)) },
    // halo.c: 5 iterations, 4 faces of 1024 doubles
    halo: { MPI_Isend: 16 * 5 * 4 * 1024 * 8, MPI_Allreduce: 16 * 5 * 8 },
    // colls.c: 100 doubles, 7 floats, 30 ints, 64 doubles per rank
    colls: { MPI_Send: 16 * 800, MPI_Ssend: 16 * 28, MPI_Sendrecv: 16 * 120, MPI_Isend: 16 * 512, MPI_Allreduce: 16 * 8 * 1010 },
  };
  for (const prog of ['ring', 'halo', 'colls']) {
    it(`${prog}: the replay issues every call the trace's footer counts, with the program's bytes`, async () => {
      const want = footerCounts(`${DIR}/${prog}`);
      for (const l of LOCAL) delete want[l];
      const r = await replay(`${DIR}/${prog}/${prog}.meta`);
      expectTracedCalls(r, want, bytes[prog]!);
    });
  }

  it('the traced ring without its host gaps predicts within 10 % of the ring written as a phit program; with them, later', async () => {
    const bare = await replay(`${DIR}/ring/ring.meta`, 0);
    const timed = await replay(`${DIR}/ring/ring.meta`, 1);
    const written = await writtenRing();
    expect(Math.abs(bare.simulatedTimeUs - written.simulatedTimeUs) / written.simulatedTimeUs).toBeLessThan(0.1);
    // the gaps the tool measured between calls on the tracing host are computation here
    const compute = (timed.rankResults as RankReplay[]).map((x) => x.computePs);
    expect(Math.min(...compute)).toBeGreaterThan(0);
    expect(timed.simulatedTimeUs).toBeGreaterThan(bare.simulatedTimeUs);
  });

  it('bad or truncated files fail with the file, the byte offset and what was expected, exit code 2', async () => {
    const copy = (name: string): string => {
      const dir = join(tmp, name);
      rmSync(dir, { recursive: true, force: true });
      mkdirSync(dir, { recursive: true });
      for (const f of readdirSync(`${DIR}/halo`)) copyFileSync(join(`${DIR}/halo`, f), join(dir, f));
      return dir;
    };
    // the end of rank 3's file (its index) cut off
    let dir = copy('cut');
    const f3 = join(dir, 'halo-0003.bin');
    writeFileSync(f3, readFileSync(f3).subarray(0, 3000));
    let r = await phit('replay', join(dir, 'halo.meta'));
    expect(r.code).toBe(2);
    expect(r.err).toHaveLength(1);
    expect(r.err[0]).toMatch(/halo-0003\.bin: byte 2936: expected the index record \(DUMPI's magic, then offsets\); the file may be truncated/);
    // a record label no DUMPI function has, just after the two clock offsets
    dir = copy('label');
    const f5 = join(dir, 'halo-0005.bin');
    const b = readFileSync(f5);
    b.writeUInt16BE(0xfff0, 16);
    writeFileSync(f5, b);
    r = await phit('replay', join(dir, 'halo.meta'));
    expect(r.code).toBe(2);
    expect(r.err[0]).toMatch(/halo-0005\.bin: byte 16: expected a function label \(0\.\.293\), got 65520/);
    // a missing rank file
    dir = copy('missing');
    rmSync(join(dir, 'halo-0015.bin'));
    r = await phit('replay', join(dir, 'halo.meta'));
    expect(r.code).toBe(2);
    expect(r.err[0]).toMatch(/halo\.meta: expected 16 files halo-0000\.bin \.\.\./);
    // one rank's .bin named instead of the .meta
    r = await phit('replay', `${DIR}/halo/halo-0000.bin`);
    expect(r.code).toBe(2);
    expect(r.err[0]).toMatch(/one rank's DUMPI \.bin file; give the trace's \.meta file/);
  });
});
