/**
 * The traces the real tools made (sst-dumpi's library, the OTF2 library with Score-P's MPI
 * records, SimGrid's smpirun -trace-ti; the C halo exchange of test/fixtures/traces/src on 16
 * ranks, scripts/make-traces.sh) replay on every machine preset: the same MPI calls and bytes on
 * each, and a simulated time of each machine's own.
 */
import { describe, expect, it } from 'vitest';
import { openTrace } from '../replay/open.ts';
import { replayProgram, type RankReplay } from '../replay/replay.ts';
import { simulate } from '../runtime/simulate.ts';
import { FLOW } from './replay-checks.ts';

const TRACES = {
  dumpi: 'test/fixtures/traces/dumpi/halo/halo.meta',
  otf2: 'test/fixtures/traces/otf2/halo/halo.otf2',
  simgrid: 'test/fixtures/traces/simgrid/halo/halo.trace',
} as const;
const MACHINES = ['xt4', 'xe6', 'xc30', 'sc5832', 'bw'] as const;

/** halo.c: 5 iterations of 4 faces of 1024 doubles per rank, and an allreduce of one double. */
const FACE_BYTES = 16 * 5 * 4 * 1024 * 8;

describe('real tools\' traces on every machine', () => {
  for (const [format, path] of Object.entries(TRACES)) {
    it(`${format}: the 16-rank halo replays on ${MACHINES.join(', ')} with the trace's calls and bytes`, async () => {
      const times: number[] = [];
      let calls: Record<string, number> | null = null;
      for (const machine of MACHINES) {
        const source = openTrace(path);
        expect(source.ranks).toBe(16);
        const r = await simulate({ machine, nodes: source.ranks, skeleton: true, metrics: true, set: FLOW, program: replayProgram(source, { computeScale: 0 }) });
        const ranks = r.rankResults as RankReplay[];
        expect(ranks.every((x) => Object.keys(x.unsupported).length === 0), machine).toBe(true);
        const got = Object.fromEntries(r.metrics!.calls.map((c) => [c.name, c.calls]));
        // every machine replays the very same calls
        if (calls === null) calls = got;
        else expect(got, machine).toEqual(calls);
        expect(r.metrics!.calls.find((c) => c.name === 'MPI_Isend')!.bytes, machine).toBe(FACE_BYTES);
        expect(r.metrics!.calls.find((c) => c.name === 'MPI_Allreduce')!.bytes, machine).toBe(16 * 5 * 8);
        times.push(r.simulatedTimeUs);
      }
      expect(calls!.MPI_Isend).toBe(16 * 5 * 4);
      // each machine's own network and MPI: no two presets give the same time
      expect(new Set(times.map((t) => t.toFixed(3))).size).toBe(MACHINES.length);
    });
  }
});
