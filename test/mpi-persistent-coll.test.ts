import { describe, expect, it } from 'vitest';
import { mpiCalls } from '../runtime/calls.ts';
import type { Request } from '../runtime/mpi/mpi.ts';
import { simulate } from '../runtime/simulate.ts';
import { rejection } from './helpers.ts';

describe('persistent collectives (MPI 4)', () => {
  it('allreduceInit and bcastInit run once per start with the buffers\' data of then, over several iterations', async () => {
    const r = await simulate({
      machine: 'xe6',
      nodes: 5,
      program: async ({ mpi }) => {
        const p = mpi.size;
        const send = new Float64Array(3);
        const recv = new Float64Array(3);
        const b = new Int32Array(2);
        const ar = mpi.allreduceInit(send, recv, mpi.SUM);
        const bc = mpi.bcastInit(b, 2);
        const bad: string[] = [];
        for (let it = 0; it < 4; it++) {
          for (let i = 0; i < 3; i++) send[i] = mpi.rank * 10 + i + it * 100;
          if (mpi.rank === 2) b.set([it, -it]);
          mpi.startAll([ar, bc]);
          await mpi.waitAll([ar, bc]);
          for (let i = 0; i < 3; i++) {
            const want = (p * (p - 1) * 10) / 2 + p * (i + it * 100);
            if (recv[i] !== want) bad.push(`it ${it} allreduce[${i}] ${recv[i]} != ${want}`);
          }
          if (b[0] !== it || b[1] !== -it) bad.push(`it ${it} bcast ${b[0]},${b[1]}`);
        }
        mpi.requestFree(ar);
        mpi.requestFree(bc);
        return bad;
      },
    });
    for (const bad of r.rankResults) expect(bad).toEqual([]);
  });

  it('a persistent barrier and alltoall, started one after the other, complete in order', async () => {
    const r = await simulate({
      machine: 'xc30',
      nodes: 4,
      program: async ({ mpi }) => {
        const out = new Int32Array(4);
        const a2a = mpi.alltoallInit(Int32Array.from({ length: 4 }, (_, j) => mpi.rank * 4 + j), out);
        const bar: Request = mpi.barrierInit();
        mpi.start(a2a);
        mpi.start(bar);
        await mpi.wait(bar);
        await mpi.wait(a2a);
        return [...out];
      },
    });
    r.rankResults.forEach((got, me) => expect(got).toEqual([0, 1, 2, 3].map((i) => i * 4 + me)));
  });

  it('persistent collectives match in the order of their inits: ranks may start them in different orders', async () => {
    const r = await simulate({
      machine: 'xe6',
      nodes: 3,
      program: async ({ mpi }) => {
        const b = Int32Array.of(-1, -1);
        const sum = new Float64Array(1);
        const bc = mpi.bcastInit(b, 1);
        const ar = mpi.allreduceInit(Float64Array.of(mpi.rank + 1), sum, mpi.SUM);
        const got: number[] = [];
        for (let it = 0; it < 3; it++) {
          if (mpi.rank === 1) b.set([it, 7 * it]);
          // rank 0 starts the allreduce first, the others the bcast: the init order matches them
          if (mpi.rank === 0) mpi.startAll([ar, bc]);
          else mpi.startAll([bc, ar]);
          await mpi.waitAll(mpi.rank === 2 ? [ar, bc] : [bc, ar]);
          got.push(b[0]!, b[1]!, sum[0]!);
        }
        return got;
      },
    });
    for (const got of r.rankResults) expect(got).toEqual([0, 0, 6, 1, 7, 6, 2, 14, 6]);
  });

  it('inits made in different orders are MPI_ERR_OTHER, naming both calls', async () => {
    const err = await rejection(
      simulate({
        machine: 'xe6',
        nodes: 2,
        program: async ({ mpi }) => {
          if (mpi.rank === 0) mpi.bcastInit(new Int32Array(1), 0);
          mpi.barrierInit();
          if (mpi.rank === 1) mpi.bcastInit(new Int32Array(1), 0);
        },
      }),
    );
    expect(String(err)).toMatch(/MPI_ERR_OTHER: barrierInit .*calls barrierInit where rank 0 called bcastInit/);
  });

  it('a start whose arguments differ from another rank\'s start of the same request is an MPI error', async () => {
    const err = await rejection(
      simulate({
        machine: 'xe6',
        nodes: 2,
        program: async ({ mpi }) => {
          const req = mpi.bcastInit(new Int32Array(1), mpi.rank);
          mpi.start(req);
          await mpi.wait(req);
        },
      }),
    );
    expect(String(err)).toMatch(/MPI_ERR_ROOT: bcastInit \(at start\) .*bcastInit request/);
  });

  it('starting an active persistent collective is MPI_ERR_REQUEST', async () => {
    const err = await rejection(
      simulate({
        machine: 'xe6',
        nodes: 2,
        program: async ({ mpi }) => {
          const req = mpi.allreduceInit(new Float64Array(1), new Float64Array(1), mpi.SUM);
          mpi.start(req);
          mpi.start(req);
        },
      }),
    );
    expect(String(err)).toMatch(/MPI_ERR_REQUEST: start: allreduceInit\(\) is active/);
  });

  it('traces name them MPI_Allreduce_init', () => {
    expect(mpiCalls(4).allreduceInit!.name).toBe('MPI_Allreduce_init');
    expect(mpiCalls(4).reduceScatterBlockInit!.name).toBe('MPI_Reduce_scatter_block_init');
  });
});
