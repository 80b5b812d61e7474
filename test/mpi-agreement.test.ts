import { describe, expect, it } from 'vitest';
import { DeadlockError, RankError } from '../fabric/engine/engine.ts';
import { IncompleteCollectiveError, ranges } from '../runtime/mpi/agreement.ts';
import { MpiError } from '../runtime/mpi/mpi.ts';
import type { RankContext } from '../runtime/rank.ts';
import { simulate } from '../runtime/simulate.ts';
import { rejection } from './helpers.ts';

/** Runs `program` on `ranks` ranks of xe6 (2 per node) and returns the error the run fails with. */
function failing(ranks: number, program: (ctx: RankContext) => Promise<unknown>): Promise<Error> {
  return rejection(simulate({ machine: 'xe6', nodes: ranks / 2, ppn: 2, program }));
}

/** The MPI error a rank failed with: its class and message. */
function mpiError(e: Error): MpiError {
  expect(e).toBeInstanceOf(RankError);
  const inner = (e as RankError).error;
  expect(inner).toBeInstanceOf(MpiError);
  return inner as MpiError;
}

describe('collective arguments that differ between ranks are an MPI error naming the ranks', () => {
  it('bcast with different roots: MPI_ERR_ROOT', async () => {
    const e = mpiError(await failing(4, async ({ mpi }) => mpi.bcast(new Float64Array(4), mpi.rank === 3 ? 1 : 0)));
    expect(e.errorClass).toBe('MPI_ERR_ROOT');
    expect(e.message).toMatch(/bcast \(collective call 1 on MPI_COMM_WORLD\): rank 3 passes root=1 but rank \d passed root=0/);
  });

  it('allreduce with different counts: MPI_ERR_COUNT, before any data moves', async () => {
    const e = mpiError(await failing(4, async ({ mpi }) => {
      const n = mpi.rank === 2 ? 6 : 4;
      await mpi.allreduce(new Float64Array(n), new Float64Array(n), mpi.SUM);
    }));
    expect(e.errorClass).toBe('MPI_ERR_COUNT');
    expect(e.message).toMatch(/allreduce .*rank 2 passes 6 elements in sendBuf but rank \d passed 4/);
  });

  it('allreduce with different ops: MPI_ERR_OP; with different element types: MPI_ERR_TYPE', async () => {
    const op = mpiError(await failing(2, async ({ mpi }) => mpi.allreduce(new Int32Array(2), new Int32Array(2), mpi.rank === 0 ? mpi.MIN : mpi.MAX)));
    expect(op.errorClass).toBe('MPI_ERR_OP');
    expect(op.message).toMatch(/rank 1 passes op MPI_MAX but rank 0 passed op MPI_MIN|rank 0 passes op MPI_MIN but rank 1 passed op MPI_MAX/);
    const type = mpiError(await failing(2, async ({ mpi }) => {
      const b = mpi.rank === 0 ? new Int32Array(2) : new Float32Array(2);
      await mpi.allreduce(b, b.slice(), mpi.MAX);
    }));
    expect(type.errorClass).toBe('MPI_ERR_TYPE');
    expect(type.message).toContain('Float32Array data');
  });

  it('one rank calls a different collective: MPI_ERR_OTHER naming both calls', async () => {
    const e = mpiError(await failing(4, async ({ mpi }) => {
      await mpi.barrier();
      const b = new Float64Array(2);
      if (mpi.rank === 1) await mpi.reduce(b, null, mpi.SUM, 0);
      else await mpi.bcast(b, 0);
    }));
    expect(e.errorClass).toBe('MPI_ERR_OTHER');
    expect(e.message).toMatch(/collective call 2 on MPI_COMM_WORLD/);
    expect(e.message).toMatch(/rank \d calls (reduce|bcast) where rank \d called (bcast|reduce)/);
  });

  it('ranks that name different algorithms: MPI_ERR_ARG', async () => {
    const e = mpiError(await failing(4, async ({ mpi }) => mpi.allreduce(new Float64Array(8), new Float64Array(8), mpi.SUM, { algorithm: mpi.rank === 0 ? 'ring' : 'recursiveDoubling' })));
    expect(e.errorClass).toBe('MPI_ERR_ARG');
    expect(e.message).toContain('algorithm');
  });

  it('alltoallv whose counts do not pair up: rank i sends what rank j does not expect', async () => {
    const e = mpiError(await failing(4, async ({ mpi }) => {
      const n = mpi.size;
      const send = new Int32Array(n).fill(1);
      const recv = new Int32Array(n).fill(1);
      // rank 2 expects two elements from rank 0, which sends one
      if (mpi.rank === 2) recv[0] = 2;
      const displs = Int32Array.from({ length: n }, (_, i) => i * 2);
      await mpi.alltoallv(new Int32Array(2 * n), send, displs, new Int32Array(2 * n), recv, displs);
    }));
    expect(e.errorClass).toBe('MPI_ERR_COUNT');
    expect(e.message).toMatch(/rank 0 sends 1 elements to rank 2, which expects 2/);
  });

  it("gatherv: a rank's send count differs from the root's counts for it", async () => {
    const e = mpiError(await failing(4, async ({ mpi }) => {
      const counts = [1, 1, 1, 1];
      const send = new Float64Array(mpi.rank === 3 ? 2 : 1);
      await mpi.gatherv(send, mpi.rank === 0 ? new Float64Array(4) : null, counts, [0, 1, 2, 3], 0);
    }));
    expect(e.errorClass).toBe('MPI_ERR_COUNT');
    expect(e.message).toContain("rank 3's sendBuf has 2 elements but the root's counts[3] is 1");
  });

  it('on a sub-communicator the ranks are named with their world ranks, and cartCreate dims must agree', async () => {
    const e = mpiError(await failing(8, async ({ mpi }) => {
      const odd = await mpi.split(mpi.rank % 2, 0);
      await odd!.bcast(new Float64Array(1), mpi.rank === 7 ? 2 : 0);
    }));
    expect(e.message).toMatch(/the communicator of context \d+ \(4 ranks\)/);
    expect(e.message).toMatch(/rank 3 \(world rank 7\) pass(es|ed) root=2/);
    const cart = mpiError(await failing(4, async ({ mpi }) => mpi.cartCreate(mpi.rank === 0 ? [2, 2] : [4, 1], [false, false])));
    expect(cart.errorClass).toBe('MPI_ERR_COUNT');
    expect(cart.message).toMatch(/cartCreate .*dims\[0\]=/);
  });

  it('matching calls on every rank pass, collective after collective', async () => {
    const r = await simulate({
      machine: 'xe6',
      nodes: 3,
      ppn: 2,
      program: async ({ mpi }) => {
        const v = Float64Array.of(mpi.rank);
        const s = new Float64Array(1);
        for (let i = 0; i < 5; i++) await mpi.allreduce(v, s, mpi.SUM);
        const sub = await mpi.split(mpi.rank % 2);
        await sub!.bcast(s, 1);
        return s[0];
      },
    });
    expect(r.result).toBe(15);
  });
});

describe('a collective that only some ranks call is reported, never a hang', () => {
  it('barrier entered by some ranks: the ranks in it and what the others do are named', async () => {
    const e = await failing(4, async ({ mpi }) => {
      if (mpi.rank === 2) await mpi.recv(new Uint8Array(1), 3, 9);
      else if (mpi.rank !== 3) await mpi.barrier();
    });
    expect(e).toBeInstanceOf(IncompleteCollectiveError);
    expect(e).toBeInstanceOf(DeadlockError);
    expect((e as IncompleteCollectiveError).errorClass).toBe('MPI_ERR_OTHER');
    expect(e.message).toMatch(/^MPI_ERR_OTHER: barrier \(collective call 1 on MPI_COMM_WORLD\) was called by ranks 0-1 but not by ranks 2-3/);
    expect(e.message).toContain('rank 2 is blocked in recv(source=3, tag=9)');
    expect(e.message).toContain('rank 3 finished its program');
    // the deadlock diagnosis follows
    expect(e.message).toContain('rank(s) are blocked');
  });

  it('a bcast only the root calls completes there, and the run still ends with the error', async () => {
    const e = await failing(4, async ({ mpi }) => {
      if (mpi.rank === 0) await mpi.bcast(new Float64Array(1), 0, { algorithm: 'binomial' });
    });
    expect(e).toBeInstanceOf(IncompleteCollectiveError);
    expect(e.message).toMatch(/^MPI_ERR_OTHER: bcast .* called by rank 0 but not by ranks 1-3: rank 1 finished its program/);
  });
});

describe('ranges', () => {
  it('folds runs of consecutive ranks', () => {
    expect(ranges([0, 1, 2, 5, 7, 8])).toBe('0-2, 5, 7-8');
    expect(ranges([4])).toBe('4');
    expect(ranges([])).toBe('');
  });
});
