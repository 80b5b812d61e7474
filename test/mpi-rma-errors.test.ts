import { describe, expect, it } from 'vitest';
import { DeadlockError } from '../fabric/engine/engine.ts';
import { MpiError } from '../runtime/mpi/mpi.ts';
import type { RankContext } from '../runtime/rank.ts';
import { simulate } from '../runtime/simulate.ts';
import { rejection } from './helpers.ts';

/** The message of the MpiError `p` rejects with ('resolved' if it did not; the error's name and message for any other error). */
async function mpiError(p: Promise<unknown>): Promise<string> {
  try {
    await p;
    return 'resolved';
  } catch (e) {
    return e instanceof MpiError ? e.message : `${(e as Error).name}: ${(e as Error).message}`;
  }
}

/** Rank 0's result of `program` on two nodes of xe6 (one rank each). */
async function onRank0<R>(program: (ctx: RankContext) => Promise<R>, nodes = 2): Promise<R> {
  return (await simulate({ machine: 'xe6', nodes, program })).result;
}

describe('one-sided MPI: bad use fails with the MPI error class and the call named', () => {
  it('operations outside an epoch, a bad target, range, type, op and synchronisation errors', async () => {
    const errs = await onRank0(async ({ mpi }) => {
      // rank 1's window is smaller: 4 doubles against rank 0's 16
      // the errors are caught and checked: the window's calls return them (a window is fatal by default)
      const { win } = await mpi.winAllocate(mpi.rank === 0 ? 128 : 32, 8);
      win.setErrhandler(mpi.ERRORS_RETURN);
      const out: Record<string, string> = {};
      const d = Float64Array.of(1);
      if (mpi.rank === 0) {
        out.noEpoch = await mpiError(win.put(d, 1, 0));
        out.getNoEpoch = await mpiError(win.get(d, 1, 0));
        out.unlockNoLock = await mpiError(win.unlock(1));
        out.completeNoStart = await mpiError(win.complete());
        out.waitNoPost = await mpiError(win.wait());
        out.flushNoLock = await mpiError(win.flush(1));
        out.lockType = await mpiError(win.lock(7, 1));
        out.lockAssert = await mpiError(win.lock(mpi.LOCK_SHARED, 1, mpi.MODE_NOSUCCEED));
      }
      await win.fence();
      if (mpi.rank === 0) {
        out.rank = await mpiError(win.put(d, 2, 0));
        out.negRank = await mpiError(win.get(d, -3, 0));
        out.range = await mpiError(win.put(new Float64Array(2), 1, 3));
        out.rangeOwn = await mpiError(win.get(new Float64Array(17), 0, 0));
        out.disp = await mpiError(win.put(d, 1, -1));
        out.type = await mpiError(win.getAccumulate(Float64Array.of(1), new Int32Array(1), 1, 0, mpi.SUM));
        out.casType = await mpiError(win.compareAndSwap(BigInt64Array.of(1n), Int32Array.of(0), new BigInt64Array(1), 1, 0));
        out.casFloat = await mpiError(win.compareAndSwap(Float64Array.of(1), Float64Array.of(0), new Float64Array(1), 1, 0));
        out.opOnType = await mpiError(win.accumulate(Float64Array.of(1), 1, 0, mpi.BAND));
        out.userOp = await mpiError(win.accumulate(Float64Array.of(1), 1, 0, mpi.opCreate(() => {}, true)));
        out.noOpAcc = await mpiError(win.accumulate(Float64Array.of(1), 1, 0, mpi.NO_OP));
        out.rputInFence = await mpiError(win.rput(d, 1, 0));
        out.lockInFence = await mpiError(win.lock(mpi.LOCK_SHARED, 1));
        out.freeInFence = await mpiError(win.free());
        out.attach = await mpiError(Promise.resolve().then(() => win.attach(new Uint8Array(8))));
        out.sharedQuery = await mpiError(Promise.resolve().then(() => win.sharedQuery(2)));
        out.fenceAssert = await mpiError(win.fence(mpi.MODE_NOCHECK));
      }
      await win.fence(mpi.MODE_NOSUCCEED);
      if (mpi.rank === 0) out.afterNoSucceed = await mpiError(win.accumulate(d, 1, 0, mpi.SUM));
      await win.lock(mpi.LOCK_SHARED, 1 - mpi.rank);
      if (mpi.rank === 0) {
        out.twice = await mpiError(win.lock(mpi.LOCK_EXCLUSIVE, 1));
        out.fenceInLock = await mpiError(win.fence());
        out.freeInLock = await mpiError(win.free());
        out.notLockedTarget = await mpiError(win.put(d, 0, 0));
      }
      await win.unlock(1 - mpi.rank);
      await win.free();
      if (mpi.rank === 0) {
        out.afterFree = await mpiError(win.put(d, 1, 0));
        out.fenceAfterFree = await mpiError(win.fence());
        out.freeTwice = await mpiError(win.free());
      }
      return out;
    });
    const expected: Record<string, RegExp> = {
      noEpoch: /^MPI_ERR_RMA_SYNC: put: no access epoch to rank 1 is open on this window/,
      getNoEpoch: /^MPI_ERR_RMA_SYNC: get: no access epoch/,
      unlockNoLock: /^MPI_ERR_RMA_SYNC: unlock: this rank holds no lock on rank 1/,
      completeNoStart: /^MPI_ERR_RMA_SYNC: complete: no access epoch of start is open/,
      waitNoPost: /^MPI_ERR_RMA_SYNC: wait: no exposure epoch of post is open/,
      flushNoLock: /^MPI_ERR_RMA_SYNC: flush: needs a passive-target epoch to rank 1/,
      lockType: /^MPI_ERR_LOCKTYPE: lock: lockType=7/,
      lockAssert: /^MPI_ERR_ASSERT: lock: assert=16384/,
      rank: /^MPI_ERR_RANK: put: target=2 is not a rank of the window \(0\.\.1 or mpi\.PROC_NULL\)/,
      negRank: /^MPI_ERR_RANK: get: target=-3/,
      range: /^MPI_ERR_RMA_RANGE: put: 16 bytes at displacement 3 \(byte 24\) run past the end of rank 1's 32-byte window/,
      rangeOwn: /^MPI_ERR_RMA_RANGE: get: 136 bytes at displacement 0 \(byte 0\) run past the end of rank 0's 128-byte window/,
      disp: /^MPI_ERR_DISP: put: disp=-1/,
      type: /^MPI_ERR_TYPE: getAccumulate: the result buffer is Int32Array, the origin buffer Float64Array/,
      casType: /^MPI_ERR_TYPE: compareAndSwap: compare is Int32Array, origin is BigInt64Array/,
      casFloat: /^MPI_ERR_TYPE: compareAndSwap: Float64Array is not an integer type/,
      opOnType: /^MPI_ERR_OP: MPI_BAND is not defined on Float64Array/,
      userOp: /^MPI_ERR_OP: accumulate: op user op cannot be used/,
      noOpAcc: /^MPI_ERR_OP: accumulate: NO_OP is for getAccumulate and fetchAndOp only/,
      rputInFence: /^MPI_ERR_RMA_SYNC: rput: needs a passive-target epoch to rank 1/,
      lockInFence: /^MPI_ERR_RMA_SYNC: lock: a fence epoch with \d+ operation\(s\) is open/,
      freeInFence: /^MPI_ERR_RMA_SYNC: free: a fence epoch with \d+ operation\(s\) is open/,
      attach: /^MPI_ERR_RMA_FLAVOR: attach: only a window of winCreateDynamic/,
      sharedQuery: /^MPI_ERR_RANK: sharedQuery: rank=2 is not a rank of the window/,
      fenceAssert: /^MPI_ERR_ASSERT: fence: assert=1024/,
      afterNoSucceed: /^MPI_ERR_RMA_SYNC: accumulate: no access epoch to rank 1/,
      twice: /^MPI_ERR_RMA_SYNC: lock: this rank already holds a shared lock on rank 1/,
      fenceInLock: /^MPI_ERR_RMA_SYNC: fence: lock\(s\) on rank\(s\) 1 is open on this window/,
      freeInLock: /^MPI_ERR_RMA_SYNC: free: lock\(s\) on rank\(s\) 1 is open/,
      notLockedTarget: /^MPI_ERR_RMA_SYNC: put: no access epoch to rank 0/,
      afterFree: /^MPI_ERR_WIN: put: the window was freed$/,
      fenceAfterFree: /^MPI_ERR_WIN: fence: the window was freed$/,
      freeTwice: /^MPI_ERR_WIN: free: the window was freed$/,
    };
    for (const [k, re] of Object.entries(expected)) expect(errs[k], k).toMatch(re);
    expect(Object.keys(errs).sort()).toEqual(Object.keys(expected).sort());
  });

  it('dynamic windows: an address nothing is attached at, detaching what is not attached; shared windows across nodes', async () => {
    const errs = await onRank0(async ({ mpi }) => {
      const out: Record<string, string> = {};
      mpi.setErrhandler(mpi.ERRORS_RETURN);
      const win = await mpi.winCreateDynamic();
      win.setErrhandler(mpi.ERRORS_RETURN);
      const mem = new Float64Array(4);
      const addr = new Float64Array(1);
      if (mpi.rank === 1) addr[0] = win.attach(mem);
      await mpi.bcast(addr, 1);
      await win.lockAll();
      if (mpi.rank === 0) {
        out.past = await mpiError(win.put(new Float64Array(2), 1, addr[0]! + 24));
        out.nowhere = await mpiError(win.get(new Float64Array(1), 1, 8));
        out.detach = await mpiError(Promise.resolve().then(() => win.detach(new Uint8Array(8))));
      }
      await win.unlockAll();
      await win.free();
      out.shared = await mpiError(mpi.winAllocateShared(64));
      out.size = await mpiError(mpi.winAllocate(-1));
      out.dispUnit = await mpiError(mpi.winCreate(new Float64Array(2), 0));
      return out;
    });
    expect(errs.past).toMatch(/^MPI_ERR_RMA_RANGE: put: no region attached at rank 1 holds 16 bytes at address \d+/);
    expect(errs.nowhere).toMatch(/^MPI_ERR_RMA_RANGE: get: no region attached at rank 1 holds 8 bytes at address 8$/);
    expect(errs.detach).toMatch(/^MPI_ERR_RMA_ATTACH: detach: this memory \(8 bytes\) is not attached/);
    expect(errs.shared).toMatch(/^MPI_ERR_RMA_SHARED: winAllocateShared: the communicator's 2 ranks are not all on one node/);
    expect(errs.size).toMatch(/^MPI_ERR_SIZE: winAllocate: bytes=-1/);
    expect(errs.dispUnit).toMatch(/^MPI_ERR_DISP: winCreate: dispUnit=0/);
  });

  it('a start whose target never posts, and an exclusive lock never released, end the run with a deadlock report naming the call, never a hang', async () => {
    const start = await rejection(
      simulate({
        machine: 'xe6',
        nodes: 2,
        program: async ({ mpi }) => {
          const { win } = await mpi.winAllocate(8);
          if (mpi.rank === 0) await win.start(mpi.group.incl([1]));
        },
      }),
    );
    expect(start).toBeInstanceOf(DeadlockError);
    expect(start.message).toMatch(/rank 0.*start: waiting for the post of rank\(s\) 1/);
    const lock = await rejection(
      simulate({
        machine: 'xc30',
        nodes: 2,
        program: async ({ mpi }) => {
          const { win } = await mpi.winAllocate(8);
          if (mpi.rank === 1) await win.lock(mpi.LOCK_EXCLUSIVE, 0);
          await mpi.barrier();
          if (mpi.rank === 0) await win.lock(mpi.LOCK_EXCLUSIVE, 0);
          await mpi.barrier();
        },
      }),
    );
    // rank 0 waits for a release that never comes while rank 1 waits in the barrier: the run names both
    expect(lock.message).toMatch(/rank 0: lock\(EXCLUSIVE, 0\): waiting for rank 0's lock to be released/);
    expect(lock.message).toMatch(/rank 1: barrier/);
    // a shared lock backs out of the word and waits too, rather than trying again for ever
    const shared = await rejection(
      simulate({
        machine: 'xe6',
        nodes: 3,
        program: async ({ mpi }) => {
          const { win } = await mpi.winAllocate(8);
          if (mpi.rank === 1) await win.lock(mpi.LOCK_EXCLUSIVE, 0);
          await mpi.barrier();
          if (mpi.rank === 0) await win.lock(mpi.LOCK_SHARED, 0);
          if (mpi.rank === 2) await win.lockAll();
          await mpi.barrier();
        },
      }),
    );
    expect(shared.message).toMatch(/rank 0: lock\(SHARED, 0\): waiting for rank 0's lock to be released/);
    expect(shared.message).toMatch(/rank 2: lockAll: waiting for rank 0's lock to be released/);
  });
});
