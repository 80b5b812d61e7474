/**
 * Generalized requests (runtime/mpi/grequest.ts, MPI-3.1 §12.2-12.3): active until
 * grequestComplete, then a wait or test takes the status the query function fills (with
 * statusSetElements and statusSetCancelled), the free function runs after the query, once; cancel
 * calls the cancel function with whether the request was completed; the functions' error codes
 * and misuse are errors naming the call.
 */
import { describe, expect, it } from 'vitest';
import { MpiError, type Mpi } from '../runtime/mpi/mpi.ts';
import { simulate } from '../runtime/simulate.ts';

/** Runs `program` on one xe6 rank and returns what it returned. */
async function one<R>(program: (mpi: Mpi) => Promise<R>): Promise<R> {
  const r = await simulate({ machine: 'xe6', nodes: 1, program: async ({ mpi }) => program(mpi) });
  return r.rankResults[0] as R;
}

describe('generalized requests', () => {
  it('complete when the program says so; wait returns the query function’s status, then the free function runs once', async () => {
    const out = await one(async (mpi) => {
      const calls: string[] = [];
      const state = { id: 7 };
      const req = mpi.grequestStart(
        (s: typeof state, status) => {
          calls.push(`query ${s.id}`);
          status.source = 3;
          status.tag = 42;
          mpi.statusSetElements(status, mpi.INT, 5);
          return 0;
        },
        (s) => {
          calls.push(`free ${s.id}`);
          return 0;
        },
        () => 0,
        state,
      );
      const before = await req.test();
      mpi.grequestComplete(req);
      const status = await req.wait();
      const again = await req.wait();
      return { before, calls, status: { source: status.source, tag: status.tag, bytes: status.bytes, count: mpi.getCount(status, mpi.INT) }, again: again.source === mpi.ANY_SOURCE && again.bytes === 0 };
    });
    expect(out.before).toBe(false);
    expect(out.calls).toEqual(['query 7', 'free 7']);
    expect(out.status).toEqual({ source: 3, tag: 42, bytes: 20, count: 5 });
    expect(out.again).toBe(true);
  });

  it('cancel calls the cancel function with whether the request has completed; the query function marks the status cancelled', async () => {
    const out = await one(async (mpi) => {
      const seen: boolean[] = [];
      const req = mpi.grequestStart(
        (_s: null, status) => {
          mpi.statusSetCancelled(status, true);
          return 0;
        },
        () => 0,
        (_s, complete) => {
          seen.push(complete);
          return 0;
        },
        null,
      );
      req.cancel();
      mpi.grequestComplete(req);
      req.cancel();
      const status = await req.wait();
      return { seen, cancelled: status.cancelled === true };
    });
    expect(out.seen).toEqual([false, true]);
    expect(out.cancelled).toBe(true);
  });

  it('a function’s error code is the wait’s error; misuse names the call', async () => {
    const out = await one(async (mpi) => {
      mpi.setErrhandler(mpi.ERRORS_RETURN);
      const msg = async (f: () => unknown): Promise<string> => {
        try {
          await f();
        } catch (e) {
          if (e instanceof MpiError) return e.message;
          throw e;
        }
        return 'no error';
      };
      let freed = 0;
      const bad = mpi.grequestStart(
        () => mpi.errorCodes['ERR_ARG']!,
        () => {
          freed++;
          return 0;
        },
        () => 0,
        0,
      );
      mpi.grequestComplete(bad);
      return {
        query: await msg(() => bad.wait()),
        freed,
        twice: await msg(() => mpi.grequestComplete(bad)),
        notGeneralized: await msg(() => mpi.grequestComplete(mpi.irecv(new Uint8Array(1), 0, 0))),
        notAFunction: await msg(() => mpi.grequestStart(() => 0, 5 as never, () => 0, 0)),
        frozen: await msg(() => mpi.statusSetElements(Object.freeze({ source: 0, tag: 0, count: 0, bytes: 0 }) as never, mpi.INT, 1)),
      };
    });
    expect(out.query).toBe('MPI_ERR_ARG: grequestStart: query_fn returned the error code 12 (invalid argument of some other kind)');
    // the free function runs after a failed query too
    expect(out.freed).toBe(1);
    expect(out.twice).toBe('MPI_ERR_REQUEST: grequestComplete: the generalized request was completed already');
    expect(out.notGeneralized).toMatch(/^MPI_ERR_REQUEST: grequestComplete: request must be a request of grequestStart, got irecv/);
    expect(out.notAFunction).toBe('MPI_ERR_ARG: grequestStart: freeFn must be a function, got 5');
    expect(out.frozen).toMatch(/^MPI_ERR_ARG: statusSetElements: status must be a status object the program may fill/);
  });

  it('a wait on one the program never completes is a deadlock, named in the diagnosis', async () => {
    const run = simulate({
      machine: 'xe6',
      nodes: 1,
      program: async ({ mpi }) => {
        await mpi.grequestStart(() => 0, () => 0, () => 0, null).wait();
      },
    });
    await expect(run).rejects.toThrow(/generalized request/);
  });
});
