/**
 * Replay of SimGrid time-independent traces made by SimGrid itself (smpirun -trace-ti on the C
 * programs in test/fixtures/traces/src, 16 ranks; scripts/make-traces.sh): the replay issues
 * exactly the traced calls and bytes, and a traced ring predicts what the same ring written as
 * a phit program does.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openTrace } from '../replay/open.ts';
import { replayProgram, type RankReplay } from '../replay/replay.ts';
import { simulate } from '../runtime/simulate.ts';
import { phit } from './helpers.ts';
import { FLOW, tallySimgrid, traceDirs, writtenRing } from './replay-checks.ts';

const DIR = 'test/fixtures/traces/simgrid';
const tmp = mkdtempSync(join(tmpdir(), 'phit-replay-simgrid-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

async function replay(list: string, set: Record<string, string> = {}) {
  const source = openTrace(list);
  return simulate({ machine: 'xe6', nodes: source.ranks, skeleton: true, metrics: true, set: { ...FLOW, ...set }, program: replayProgram(source) });
}

for (const { label, dir } of traceDirs('simgrid')) {
  describe(`SimGrid traces made by smpirun -trace-ti (${label})`, () => {
    for (const prog of ['ring', 'halo', 'colls']) {
      it(`${prog}: the replay issues exactly the traced MPI calls and bytes`, async () => {
        const list = `${dir}/${prog}/${prog}.trace`;
        const want = tallySimgrid(list);
        const r = await replay(list);
        expect(r.ranks).toBe(16);
        const got: Record<string, number> = {};
        const gotBytes: Record<string, number> = {};
        for (const c of r.metrics!.calls) {
          got[c.name] = c.calls;
          gotBytes[c.name] = c.bytes;
        }
        // a request the trace left pending (a test that succeeded when traced) is waited for at the end
        const leftover = (r.rankResults as RankReplay[]).filter((x) => x.leftPending > 0).length;
        if (leftover > 0) want.calls.MPI_Waitall = (want.calls.MPI_Waitall ?? 0) + leftover;
        expect(got).toEqual(want.calls);
        for (const [name, b] of Object.entries(want.bytes)) expect(gotBytes[name], name).toBe(b);
        expect(Object.keys(want.calls).length).toBeGreaterThan(prog === 'colls' ? 20 : 3);
      });
    }

    it('a traced ring replayed on xe6 predicts within 10 % of the same ring written as a phit program', async () => {
      const traced = await replay(`${dir}/ring/ring.trace`);
      const written = await writtenRing();
      expect(written.simulatedTimeUs).toBeGreaterThan(1000);
      expect(Math.abs(traced.simulatedTimeUs - written.simulatedTimeUs) / written.simulatedTimeUs).toBeLessThan(0.1);
      // and the replay follows the machine: a slower link makes both slower
      const slow = await replay(`${dir}/ring/ring.trace`, { 'link.laneRate': '1.5Gb/s' });
      expect(slow.simulatedTimeUs).toBeGreaterThan(traced.simulatedTimeUs * 1.2);
    });
  });
}

describe('SimGrid trace grammar and bad files', () => {
  /** A one-file trace of every rank's actions. */
  const write = (name: string, text: string): string => {
    const p = join(tmp, name);
    writeFileSync(p, text);
    return p;
  };

  it('one file of every rank, older spellings (Isend, wait without arguments, no tags), compute in flops and sleep in seconds', async () => {
    const p = write('old.txt', ['0 init', '1 init', '0 compute 1e6', '0 Isend 1 1000', '1 Irecv 0 1000', '1 sleep 0.0001', '0 wait', '1 wait', '0 barrier', '1 barrier', '0 finalize', '1 finalize'].join('\n'));
    const source = openTrace(p);
    expect(source.ranks).toBe(2);
    const r = await simulate({ machine: 'xe6', nodes: 2, skeleton: true, metrics: true, program: replayProgram(source) });
    const calls = Object.fromEntries(r.metrics!.calls.map((c) => [c.name, c.calls]));
    expect(calls).toEqual({ MPI_Isend: 1, MPI_Irecv: 1, MPI_Wait: 2, MPI_Barrier: 2 });
    expect(r.metrics!.calls.find((c) => c.name === 'MPI_Isend')!.bytes).toBe(1000);
    // rank 1 slept 100 us before waiting
    expect(r.simulatedTimeUs).toBeGreaterThan(100);
    const [a, b] = r.rankResults as RankReplay[];
    expect(b!.computePs).toBe(100e6);
    expect(a!.computePs).toBeGreaterThan(0);
  });

  it('--compute-scale scales the traced computation', async () => {
    const p = write('scale.txt', ['0 sleep 0.001', '1 sleep 0.001', '0 barrier', '1 barrier'].join('\n'));
    const one = await simulate({ machine: 'xe6', nodes: 2, skeleton: true, program: replayProgram(openTrace(p)) });
    const two = await simulate({ machine: 'xe6', nodes: 2, skeleton: true, program: replayProgram(openTrace(p), { computeScale: 2 }) });
    expect(one.simulatedTimeUs).toBeGreaterThan(1000);
    expect(two.simulatedTimeUs - one.simulatedTimeUs).toBeCloseTo(1000, 0);
  });

  it('an unknown action is listed with its count and skipped', async () => {
    const p = write('unknown.txt', ['0 frobnicate 1', '1 frobnicate 2', '0 frobnicate', '0 barrier', '1 barrier'].join('\n'));
    const r = await simulate({ machine: 'xe6', nodes: 2, skeleton: true, program: replayProgram(openTrace(p)) });
    const [a, b] = r.rankResults as RankReplay[];
    expect(a!.unsupported).toEqual({ frobnicate: { count: 2, mappedTo: null } });
    expect(b!.unsupported).toEqual({ frobnicate: { count: 1, mappedTo: null } });
    const cli = await phit('replay', p, '--nodes', '2');
    expect(cli.code).toBe(0);
    expect(cli.out.join('\n')).toContain('frobnicate: 3 calls, skipped');
  });

  it('bad files fail with the file, the line and what was expected, exit code 2', async () => {
    const cases: [string, string, RegExp][] = [
      ['0 send 1 x 8 0\n1 recv 0 1 8 0\n', 'badcount.txt', /badcount\.txt:1: expected the tag \(an integer\), got "x"/],
      ['0 send 1 1 8 99\n1 recv 0 1 8 0\n', 'badtype.txt', /badtype\.txt:1: expected an SMPI datatype number \(0\.\.59\) as argument 4, got "99"/],
      ['0 send 5 1 8 0\n1 recv 0 1 8 0\n', 'badpeer.txt', /badpeer\.txt:1: rank 5 is not in the trace's 2 ranks/],
      ['0 bcast\n1 bcast 8\n', 'short.txt', /short\.txt:1: expected the count as argument 1/],
    ];
    for (const [text, name, re] of cases) {
      const r = await phit('replay', write(name, text), '--nodes', '2');
      expect(r.code, name).toBe(2);
      expect(r.err).toHaveLength(1);
      expect(r.err[0]).toMatch(re);
    }
    const list = write('list.trace', 'list_files/rank-1.txt\nlist_files/missing.txt\n');
    const r = await phit('replay', list);
    expect(r.code).toBe(2);
    expect(r.err[0]).toMatch(/list\.trace:1: expected the trace file of rank 0, but list_files\/rank-1\.txt is not a file/);
  });

  it('phit replay --help names the formats, the flags and an example', async () => {
    const r = await phit('replay', '--help');
    expect(r.code).toBe(0);
    const text = r.out.join('\n');
    for (const w of ['--compute-scale', '--unsupported <map|skip>', '--nodes', '--ppn', '--placement', 'simgrid  SimGrid time-independent', 'dumpi    DUMPI', 'otf2     OTF2 (Score-P)', 'phit replay test/fixtures/traces/simgrid/halo/halo.trace']) expect(text).toContain(w);
  });

  it('the run must have the trace\'s ranks: a mismatch is bad input', async () => {
    const r = await phit('replay', `${DIR}/ring/ring.trace`, '--nodes', '4', '--ppn', '2');
    expect(r.code).toBe(2);
    expect(r.err[0]).toMatch(/--nodes 4 --ppn 2 gives 8 ranks; the trace .*ring\.trace has 16/);
    const p = await phit('replay', `${DIR}/ring/ring.trace`, '--ppn', '3');
    expect(p.code).toBe(2);
    expect(p.err[0]).toMatch(/16 ranks do not fill whole nodes of 3/);
  });

  it('phit replay prints the run, the calls by name and the totals; --ppn packs ranks on nodes', async () => {
    const r = await phit('replay', `${DIR}/halo/halo.trace`, '--ppn', '2', '--json');
    expect(r.code).toBe(0);
    const j = JSON.parse(r.out[0]!) as { format: string; nodes: number; ranks: number; traced: Record<string, number>; sentBytes: number; simulatedTimeUs: number };
    expect(j).toMatchObject({ format: 'simgrid', nodes: 8, ranks: 16 });
    // halo.c: 5 iterations, 4 faces of 1024 doubles, 16 ranks
    expect(j.traced).toMatchObject({ isend: 320, irecv: 320, waitall: 80, allreduce: 80 });
    expect(j.sentBytes).toBe(16 * 5 * 4 * 1024 * 8);
    expect(j.simulatedTimeUs).toBeGreaterThan(0);
  });
});
