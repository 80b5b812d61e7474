import { describe, expect, it } from 'vitest';
import { simulate } from '../runtime/simulate.ts';
import { rejection } from './helpers.ts';

describe('simulate() and ctx calls refuse bad values with a line naming them (issue 24)', () => {
  const ok = async (): Promise<void> => {};
  it.each([
    [{ machine: 'xe6', nodes: '4', program: ok }, /nodes must be a positive integer, got "4"/],
    [{ machine: null, nodes: 2, program: ok }, /machine must be a preset name or a machine spec \(\{name, title, seed, params\}\), got null/],
    [{ machine: 'xe6', nodes: 2, ppn: 1e7, program: ok }, /ppn=10000000: at most 256 ranks per node/],
    [{ machine: 'xe6', nodes: 2e6, program: ok }, /nodes=2000000: at most 1000000/],
    [{ machine: 'xe6', nodes: 2, program: 'main' }, /program must be a function/],
    [{ machine: 'xc30', nodes: 92545, program: ok }, /nodes=92545 needs 242 dragonfly groups of 384 nodes, but their global ports connect at most 241 groups: at most 92544 nodes/],
  ])('%j', async (opts, message) => {
    const err = await rejection(simulate(opts as never));
    expect(String(err)).toMatch(message);
  });

  it('a compute of more than an hour of simulated time in one call is refused', async () => {
    const err = await rejection(simulate({ machine: 'xe6', nodes: 1, program: async ({ compute }) => compute({ us: 1e30 }) }));
    expect(String(err)).toMatch(/compute: \{"us":1e\+30\} is more than 3600 s of simulated time in one call/);
  });
});

describe('a rank that returns with MPI requests pending', () => {
  it('is named in a warning of the run, with the calls left pending; a clean run has none', async () => {
    const r = await simulate({
      machine: 'xe6',
      nodes: 2,
      program: async ({ mpi }) => {
        if (mpi.rank === 1) {
          mpi.irecv(new Int32Array(1), 0, 7);
          mpi.irecv(new Int32Array(1), 0, 8);
        }
      },
    });
    expect(r.warnings).toEqual(['rank 1 returned with 2 MPI request(s) still pending: irecv(source=0, tag=7), irecv(source=0, tag=8)']);
    const clean = await simulate({ machine: 'xe6', nodes: 2, program: async ({ mpi }) => mpi.barrier() });
    expect(clean.warnings).toBeUndefined();
  });
});
