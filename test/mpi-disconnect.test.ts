/**
 * MPI_Comm_disconnect (MPI 4.0 §11.10.4): it frees the communicator after the communication
 * started on it is over, waiting for receives and sends the program freed with requestFree, and
 * not for inactive persistent requests; MPI_COMM_WORLD and MPI_COMM_SELF cannot be disconnected.
 */
import { describe, expect, it } from 'vitest';
import type { InterComm } from '../runtime/mpi/mpi.ts';
import { simulate } from '../runtime/simulate.ts';

/** 1 MiB: a rendezvous transfer on every machine, hundreds of microseconds long. */
const N = 1 << 17;

describe('disconnect', () => {
  it('waits for a freed receive of 1 MiB to land before it returns; the communicator is freed after', async () => {
    const r = await simulate({
      machine: 'xe6',
      nodes: 2,
      program: async (ctx) => {
        const { mpi } = ctx;
        const comm = await mpi.dup();
        const buf = new Float64Array(N);
        if (mpi.rank === 1) {
          mpi.requestFree(comm.irecv(buf, 0, 4));
        } else {
          await ctx.compute(50e6);
          buf.forEach((_, i) => (buf[i] = i + 0.5));
          mpi.requestFree(comm.isend(buf, 1, 4));
        }
        await comm.disconnect();
        // every element is there the moment disconnect returns
        let bad = 0;
        for (let i = 0; i < N; i++) if (buf[i] !== i + 0.5) bad++;
        comm.setErrhandler(mpi.ERRORS_RETURN);
        let after = '';
        try {
          await comm.barrier();
        } catch (e) {
          after = (e as Error).message;
        }
        return { bad, after, t: mpi.wtime() };
      },
    });
    expect(r.rankResults[1]!.bad).toBe(0);
    expect(r.rankResults[0]!.after).toBe('MPI_ERR_COMM: barrier: the communicator was freed');
    // the transfer starts after rank 0's 50 us of computation
    expect(r.rankResults[1]!.t).toBeGreaterThan(50e-6);
  });

  it('does not wait for inactive persistent requests (MPICH inactive_reqs); an intercommunicator disconnects over both groups', async () => {
    const r = await simulate({
      machine: 'xc30',
      nodes: 4,
      program: async ({ mpi }) => {
        const comm = await mpi.dup();
        const next = (mpi.rank + 1) % mpi.size;
        const prev = (mpi.rank + mpi.size - 1) % mpi.size;
        const got = new Int32Array(1);
        const done = comm.recvInit(got, prev, 0);
        mpi.start(done);
        await comm.send(Int32Array.of(mpi.rank), next, 0);
        await mpi.wait(done);
        // never started
        comm.recvInit(new Int32Array(1), prev, 1);
        comm.barrierInit();
        await comm.disconnect();
        const left = mpi.rank < 2;
        const half = (await mpi.split(left ? 0 : 1, mpi.rank))!;
        const ic: InterComm = await half.intercommCreate(0, mpi, left ? 2 : 0, 3);
        const x = new Int32Array(1);
        const req = ic.isend(Int32Array.of(10 + mpi.rank), ic.rank, 6);
        await ic.recv(x, ic.rank, 6);
        mpi.requestFree(req);
        await ic.disconnect();
        ic.setErrhandler(mpi.ERRORS_RETURN);
        return { got: got[0], x: x[0], freed: (() => {
          try {
            ic.testInter();
            return false;
          } catch {
            return true;
          }
        })() };
      },
    });
    expect(r.rankResults.map((x) => x.got)).toEqual([3, 0, 1, 2]);
    expect(r.rankResults.map((x) => x.x)).toEqual([12, 13, 10, 11]);
    expect(r.rankResults.every((x) => x.freed)).toBe(true);
  });

  it('MPI_COMM_WORLD, MPI_COMM_SELF and a freed communicator are MPI_ERR_COMM', async () => {
    const r = await simulate({
      machine: 'xe6',
      nodes: 2,
      program: async ({ mpi }) => {
        mpi.setErrhandler(mpi.ERRORS_RETURN);
        mpi.COMM_SELF.setErrhandler(mpi.ERRORS_RETURN);
        const dup = await mpi.dup();
        await dup.free();
        const out: string[] = [];
        for (const f of [() => mpi.disconnect(), () => mpi.COMM_SELF.disconnect(), () => dup.disconnect()]) {
          try {
            await f();
            out.push('no error');
          } catch (e) {
            out.push((e as Error).message);
          }
        }
        return out;
      },
    });
    expect(r.rankResults[0]).toEqual(['MPI_ERR_COMM: disconnect: MPI_COMM_WORLD cannot be disconnected', 'MPI_ERR_COMM: disconnect: MPI_COMM_SELF cannot be disconnected', 'MPI_ERR_COMM: disconnect: the communicator was freed']);
  });
});
