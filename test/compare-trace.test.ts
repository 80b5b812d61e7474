/**
 * `phit compare --trace`: one MPI trace replayed on several machines in worker threads, each row
 * the time `phit replay` gives on that machine.
 */
import { describe, expect, it } from 'vitest';
import { openTrace } from '../replay/open.ts';
import { replayProgram } from '../replay/replay.ts';
import { simulate } from '../runtime/simulate.ts';
import { phit } from './helpers.ts';

const HALO = 'test/fixtures/traces/otf2/halo/halo.otf2';

describe('phit compare --trace', () => {
  it('the OTF2 halo on xe6,xc30,bw: one row per machine in order, each the time of the replay run directly', async () => {
    const r = await phit('compare', '--trace', HALO, '--machines', 'xe6,xc30,bw', '--fidelity', 'flow', '--compute-scale', '0', '--json');
    expect(r.err).toEqual([]);
    expect(r.code).toBe(0);
    const j = JSON.parse(r.out[0]!) as { app: string; nodes: number; skeleton: boolean; rows: { machine: string; simulatedTimeUs: number }[] };
    expect(j).toMatchObject({ app: `replay of ${HALO} (otf2)`, nodes: 16, skeleton: true });
    expect(j.rows.map((x) => x.machine)).toEqual(['xe6', 'xc30', 'bw']);
    const times = new Set<number>();
    for (const row of j.rows) {
      const source = openTrace(HALO);
      const direct = await simulate({ machine: row.machine, nodes: 16, skeleton: true, set: { 'fabric.fidelity': 'flow' }, program: replayProgram(source, { computeScale: 0 }) });
      expect(row.simulatedTimeUs).toBe(direct.simulatedTimeUs);
      times.add(row.simulatedTimeUs);
    }
    // the machines differ: the trace is replayed on each one's network and MPI
    expect(times.size).toBe(3);
  });

  it('bad input: both or neither of --app and --trace, a rank count unlike the trace, a bad trace file; exit code 2', async () => {
    let r = await phit('compare', '--trace', HALO, '--app', 'pingpong');
    expect(r.code).toBe(2);
    expect(r.err[0]).toMatch(/give one of --app <app> and --trace <file>/);
    r = await phit('compare', '--trace', HALO, '--nodes', '3', '--machines', 'xe6');
    expect(r.code).toBe(2);
    expect(r.err[0]).toMatch(/--nodes 3 --ppn 1 gives 3 ranks; the trace .*halo\.otf2 has 16/);
    r = await phit('compare', '--trace', 'test/fixtures/traces/otf2/halo/halo/0.evt', '--machines', 'xe6');
    expect(r.code).toBe(2);
    expect(r.err[0]).toMatch(/a file inside an OTF2 archive/);
  });
});
