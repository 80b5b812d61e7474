/** Collective algorithms written by users on the schedule API: plugged in by file, checked with real data, bad ones reported with round and ranks. */
import { describe, expect, it } from 'vitest';
import { checkCollective } from '../runtime/coll-check.ts';
import { ALGORITHMS } from '../runtime/mpi/coll/index.ts';
import { userAlgorithm } from '../runtime/mpi/coll/schedule.ts';
import { MpiError } from '../runtime/mpi/request.ts';
import { simulate } from '../runtime/simulate.ts';
import { loadAlgorithms } from '../cli/coll-file.ts';
import ring from '../examples/collectives/ring-allreduce.ts';
import { phit } from './helpers.ts';

const RING = 'examples/collectives/ring-allreduce.ts';

describe('user collective algorithms', () => {
  it('a ring allreduce on the schedule API passes the check on 1 to 9 ranks', async () => {
    const r = await checkCollective('allreduce', userAlgorithm('allreduce', RING, ring), [1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(r.map((x) => x.error)).toEqual(r.map(() => null));
  });

  it('runs the same messages as the library ring: the same simulated time, the same result', async () => {
    const run = async (alg: string | ReturnType<typeof userAlgorithm>): Promise<[number, number[]]> => {
      let out: number[] = [];
      const r = await simulate({
        machine: 'xe6',
        nodes: 8,
        algorithms: { allreduce: alg },
        program: async ({ mpi }) => {
          const send = Float64Array.from({ length: 4096 }, (_, i) => mpi.rank * 3 + i);
          const recv = new Float64Array(send.length);
          await mpi.allreduce(send, recv, mpi.SUM);
          if (mpi.rank === 5) out = Array.from(recv.subarray(0, 4));
        },
      });
      return [r.simulatedTimeUs, out];
    };
    const [mine, a] = await run((await loadAlgorithms({ allreduce: RING })).allreduce as ReturnType<typeof userAlgorithm>);
    const [lib, b] = await run('ring');
    expect(a).toEqual([84, 92, 100, 108]);
    expect(a).toEqual(b);
    expect(mine).toBe(lib);
  });

  it('a wrong result is named with the rank and element', async () => {
    const algs = await loadAlgorithms({ allreduce: 'test/fixtures/coll/wrong.ts' });
    const r = await checkCollective('allreduce', algs.allreduce!, [4]);
    expect(r[0]!.error).toMatch(/^allreduce with MPI_SUM: rank \d: recvBuf\[0\] is \d+, expected \d+$/);
  });

  it('a deadlock names the blocked ranks, the round and what each waits for', async () => {
    const algs = await loadAlgorithms({ allgather: 'test/fixtures/coll/deadlock.ts' });
    const r = await checkCollective('allgather', algs.allgather!, [3]);
    expect(r[0]!.error).toMatch(/deadlock/);
    expect(r[0]!.error).toContain('allgather(test/fixtures/coll/deadlock.ts) round 1: receive from 2');
  });

  it('mismatched sizes fail with MPI_ERR_TRUNCATE naming the algorithm, round and rank', async () => {
    const algs = await loadAlgorithms({ bcast: 'test/fixtures/coll/sizes.ts' });
    const r = await checkCollective('bcast', algs.bcast!, [2]);
    expect(r[0]!.error).toMatch(/MPI_ERR_TRUNCATE: bcast\(test\/fixtures\/coll\/sizes.ts\) round 0, rank 1: message of 40 bytes from rank 0/);
  });

  it('bad files and exports are refused with one line', async () => {
    await expect(loadAlgorithms({ allreduce: 'test/fixtures/coll/none.ts' })).rejects.toThrow('allreduce=test/fixtures/coll/none.ts: no such file');
    await expect(loadAlgorithms({ nosuch: RING })).rejects.toThrow(/unknown collective 'nosuch'/);
    await expect(loadAlgorithms({ bcast: RING })).rejects.toThrow('the file is for allreduce, not bcast');
    expect(() => userAlgorithm('allreduce', 'x', 42)).toThrow(MpiError);
    expect(() => userAlgorithm('allreduce', 'x', () => 1)).toThrow(/run must be a generator function/);
  });

  it('every library algorithm passes the same check (sum and, where allowed, a non-commutative op)', async () => {
    const failures: string[] = [];
    for (const [coll, algs] of Object.entries(ALGORITHMS)) {
      for (const name of Object.keys(algs)) {
        for (const r of await checkCollective(coll as keyof typeof ALGORITHMS, name, [1, 3, 4])) if (r.error) failures.push(`${coll} ${name} ${r.ranks}: ${r.error}`);
      }
    }
    expect(failures).toEqual([]);
  });

  it('phit collectives --check prints a row per size and exits 1 on a wrong algorithm', async () => {
    const ok = await phit('collectives', '--check', `allreduce=${RING}`, '--ranks', '1-3');
    expect(ok.code).toBe(0);
    expect(ok.out.join('\n')).toContain('3 of 3 sizes pass on xe6');
    const bad = await phit('collectives', '--check', 'allreduce=test/fixtures/coll/wrong.ts', '--ranks', '2,4');
    expect(bad.code).toBe(1);
    expect(bad.out.join('\n')).toMatch(/4 ranks: allreduce with MPI_SUM: rank \d: recvBuf/);
    const usage = await phit('collectives', '--check', 'allreduce=ring', '--ranks', '0');
    expect(usage.code).toBe(2);
    const run = await phit('run', 'allreduce', '--nodes', '4', '--coll', `allreduce=${RING}`, '--param', 'maxBytes=64');
    expect(run.code).toBe(0);
  });
});
