/**
 * Every MPI routine's bad call (test/mpi-routine-bad-calls.ts), made on 2 ranks in one run under
 * MPI_ERRORS_RETURN: a bad rank, tag, root, count or op, a datatype not committed or freed, a
 * freed communicator, window, request or info object, an RMA call outside an epoch, a topology
 * call on a communicator without one. Each fails with an MpiError of one line that gives the MPI
 * error class, the call's name and the bad value; none is a JavaScript TypeError, none hangs (a
 * hang would be the run's deadlock report), and after each the run goes on.
 */
import { describe, expect, it } from 'vitest';
import { MpiError } from '../runtime/mpi/mpi.ts';
import { simulate } from '../runtime/simulate.ts';
import { BAD_CALLS, type Bad } from './mpi-routine-bad-calls.ts';

/** What one rank saw of one bad call: the error's class and message, or that it returned. */
interface Seen {
  readonly cls: string;
  readonly message: string;
}

async function attempt(run: () => unknown): Promise<Seen | null> {
  try {
    await run();
    return null;
  } catch (e) {
    const err = e as Error;
    return { cls: e instanceof MpiError ? e.errorClass : err.constructor.name, message: err.message };
  }
}

describe('every MPI routine rejects a bad call', () => {
  it('xe6, 2 ranks, ERRORS_RETURN: each bad call fails on both ranks with one line giving the error class, the call and the value', async () => {
    const cases = Object.entries(BAD_CALLS);
    const r = await simulate({
      machine: 'xe6',
      nodes: 2,
      program: async ({ mpi }) => {
        mpi.setErrhandler(mpi.ERRORS_RETURN);
        const me = mpi.rank;
        const dead = await mpi.dup();
        await dead.free();
        const cart = (await mpi.cartCreate([2], [true]))!;
        const self = (await mpi.split(me, 0))!;
        const ic = await self.intercommCreate(0, mpi, 1 - me, 5);
        const deadIc = await ic.dup();
        await deadIc.free();
        const { win } = await mpi.winAllocate(16, 8);
        win.setErrhandler(mpi.ERRORS_RETURN);
        const gone = await mpi.winAllocate(16, 8);
        gone.win.setErrhandler(mpi.ERRORS_RETURN);
        await gone.win.free();
        const info = mpi.infoCreate();
        info.set('a', '1');
        const deadInfo = mpi.infoCreate();
        deadInfo.free();
        const raw = mpi.typeContiguous(2, mpi.DOUBLE);
        const freedType = mpi.typeCommit(mpi.typeContiguous(2, mpi.DOUBLE));
        mpi.typeFree(freedType);
        const freedReq = mpi.recvInit(new Float64Array(1), 1 - me, 0);
        mpi.requestFree(freedReq);
        const h: Bad = { mpi, dead, cart, ic, deadIc, win, deadWin: gone.win, group: mpi.group, info, deadInfo, raw, freedType, freedReq, b: new Float64Array(4) };
        const seen: Record<string, Seen | null> = {};
        for (const [routine, c] of cases) {
          seen[routine] = await attempt(() => c.run(h));
          // the next case starts with every rank done with this one
          await mpi.barrier();
        }
        await win.free();
        return seen;
      },
    });
    const bad: string[] = [];
    for (const [routine, c] of cases) {
      const name = c.call ?? routine.slice(routine.indexOf('.') + 1);
      for (const [rank, seen] of (r.rankResults as Record<string, Seen | null>[]).entries()) {
        const x = seen[routine];
        if (x === undefined) continue;
        const why =
          x === null
            ? 'returned'
            : x.cls !== c.cls
              ? `a ${x.cls}, not ${c.cls}`
              : x.message.includes('\n')
                ? 'more than one line'
                : !x.message.startsWith(`${c.cls}: ${name}`)
                  ? `does not start with ${c.cls}: ${name}`
                  : c.value
                      .filter((v) => !x.message.includes(v))
                      .map((v) => `does not say ${v}`)
                      .join(', ');
        if (why) bad.push(`${routine} (rank ${rank}): ${why}: ${x?.message ?? ''}`);
      }
    }
    expect(bad).toEqual([]);
  });
});
