import { describe, expect, it } from 'vitest';
import { MpiError } from '../runtime/mpi/mpi.ts';
import { simulate } from '../runtime/simulate.ts';
import { rejection } from './helpers.ts';

describe('error handlers', () => {
  it('ERRORS_ARE_FATAL (the default) fails the run even when the program catches the error', async () => {
    const err = await rejection(
      simulate({
        machine: 'xe6',
        nodes: 2,
        program: async ({ mpi }) => {
          try {
            await mpi.send(new Int32Array(1), 9, 0);
          } catch {
            // the program goes on as if nothing happened; MPI aborts regardless
          }
          return 'went on';
        },
      }),
    );
    expect(String(err)).toMatch(/MPI_ERR_RANK: send: dest=9 is not a rank/);
  });

  it('ERRORS_RETURN: the call raises an MpiError with its class and code, and the run goes on', async () => {
    const r = await simulate({
      machine: 'xe6',
      nodes: 2,
      program: async ({ mpi }) => {
        mpi.setErrhandler(mpi.ERRORS_RETURN);
        const seen: [string, number, string][] = [];
        for (const bad of [() => mpi.send(new Int32Array(1), 9, 0), () => mpi.bcast(new Float64Array(1), -1), () => Promise.resolve(mpi.isend(new Int32Array(1), 0, -5))]) {
          try {
            await bad();
            seen.push(['none', 0, '']);
          } catch (e) {
            const m = e as MpiError;
            seen.push([m.errorClass, m.code, mpi.errorString(m.code)]);
          }
        }
        // an error found when the message arrives: 8 doubles into room for 2
        const peer = mpi.rank ^ 1;
        const big = mpi.isend(new Float64Array(8), peer, 3);
        let truncated = '';
        try {
          await mpi.recv(new Float64Array(2), peer, 3);
        } catch (e) {
          truncated = (e as MpiError).errorClass;
        }
        await big.wait();
        // and the communicator still works
        const sum = new Int32Array(1);
        await mpi.allreduce(Int32Array.of(1), sum, mpi.SUM);
        return { seen, truncated, sum: sum[0], handler: mpi.getErrhandler() === mpi.ERRORS_RETURN };
      },
    });
    for (const res of r.rankResults) {
      expect(res).toEqual({
        seen: [
          ['MPI_ERR_RANK', 6, 'MPI_ERR_RANK: invalid rank'],
          ['MPI_ERR_ROOT', 7, 'MPI_ERR_ROOT: invalid root'],
          ['MPI_ERR_TAG', 4, 'MPI_ERR_TAG: invalid tag'],
        ],
        truncated: 'MPI_ERR_TRUNCATE',
        sum: 2,
        handler: true,
      });
    }
  });

  it('communicators inherit their parent\'s handler; one set to fatal on a copy is fatal there only', async () => {
    const ok = await simulate({
      machine: 'xe6',
      nodes: 2,
      program: async ({ mpi }) => {
        mpi.setErrhandler(mpi.ERRORS_RETURN);
        const dup = await mpi.dup();
        try {
          await dup.send(new Int32Array(1), 5, 0);
        } catch (e) {
          return (e as MpiError).errorClass;
        }
        return 'none';
      },
    });
    expect(ok.rankResults).toEqual(['MPI_ERR_RANK', 'MPI_ERR_RANK']);
    const err = await rejection(
      simulate({
        machine: 'xe6',
        nodes: 2,
        program: async ({ mpi }) => {
          mpi.setErrhandler(mpi.ERRORS_RETURN);
          const dup = await mpi.dup();
          dup.setErrhandler(mpi.ERRORS_ARE_FATAL);
          try {
            await dup.send(new Int32Array(1), 5, 0);
          } catch {
            // caught, but fatal on this communicator
          }
          await mpi.barrier();
        },
      }),
    );
    expect(String(err)).toMatch(/MPI_ERR_RANK: send: dest=5/);
  });

  it('a handler of commCreateErrhandler is called with the communicator and the code, then the call raises', async () => {
    const r = await simulate({
      machine: 'xe6',
      nodes: 2,
      program: async ({ mpi }) => {
        const calls: number[] = [];
        mpi.setErrhandler(mpi.commCreateErrhandler((comm, code) => calls.push(code + (comm === mpi ? 1000 : 0))));
        let raised = '';
        try {
          mpi.irecv(new Int32Array(1), 0, -3);
        } catch (e) {
          raised = (e as MpiError).errorClass;
        }
        return { calls, raised };
      },
    });
    expect(r.rankResults[0]).toEqual({ calls: [1004], raised: 'MPI_ERR_TAG' });
  });

  it('errorString and errorClass name MPICH\'s codes; an unknown code is MPI_ERR_ARG', async () => {
    const r = await simulate({
      machine: 'xe6',
      nodes: 1,
      program: async ({ mpi }) => {
        mpi.setErrhandler(mpi.ERRORS_RETURN);
        const out = [mpi.errorString(mpi.errorCodes.ERR_TRUNCATE!), mpi.errorClass(mpi.errorCodes.ERR_COMM!), mpi.errorString(0)];
        try {
          mpi.errorString(999);
        } catch (e) {
          out.push((e as MpiError).message);
        }
        return out;
      },
    });
    expect(r.rankResults[0]).toEqual(['MPI_ERR_TRUNCATE: message truncated', 5, 'MPI_SUCCESS: no MPI error', 'MPI_ERR_ARG: errorString: 999 is not an MPI error code']);
  });

  it('setErrhandler refuses anything but a handler', async () => {
    const err = await rejection(
      simulate({
        machine: 'xe6',
        nodes: 1,
        program: async ({ mpi }) => {
          mpi.setErrhandler('return' as never);
        },
      }),
    );
    expect(String(err)).toMatch(/MPI_ERR_ARG: setErrhandler: expected mpi.ERRORS_ARE_FATAL/);
    expect(err).not.toBeInstanceOf(MpiError);
  });
});

describe('error handlers of windows', () => {
  const program =
    (handler: 'fatal' | 'return') =>
    async ({ mpi }: import('../runtime/rank.ts').RankContext) => {
      const { win } = await mpi.winAllocate(64, 8);
      if (handler === 'return') win.setErrhandler(mpi.ERRORS_RETURN);
      let got = 'none';
      try {
        // outside any epoch
        await win.put(Float64Array.of(1), mpi.rank ^ 1, 0);
      } catch (e) {
        got = (e as MpiError).errorClass;
      }
      await win.fence();
      await win.free();
      return got;
    };

  it('a window is ERRORS_ARE_FATAL by default: a caught RMA error still fails the run', async () => {
    expect(String(await rejection(simulate({ machine: 'xe6', nodes: 2, program: program('fatal') })))).toMatch(/MPI_ERR_RMA_SYNC: put/);
  });

  it('with ERRORS_RETURN the program catches it and goes on', async () => {
    const r = await simulate({ machine: 'xe6', nodes: 2, program: program('return') });
    expect(r.rankResults).toEqual(['MPI_ERR_RMA_SYNC', 'MPI_ERR_RMA_SYNC']);
  });
});
