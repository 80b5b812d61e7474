import { describe, expect, it } from 'vitest';
import { simulate } from '../runtime/simulate.ts';

// MPI-3.1 section 11.7.2: once an RMA operation is enabled at the origin and at the target it must
// complete. An accumulate that the NIC's AMOs do not cover runs under the target's accumulate
// mutex; an origin that gives the mutex back and at once wants it again (a rank polling its own
// window with MPI_Get_accumulate, as MPICH's linked-list and MCS-mutex tests do) used to take it
// before any other origin's try arrived, so the others' accumulates never completed. The origins
// now take their turns first come, first served. So do exclusive lockers (MPICH's target grants
// the requests of its lock queue in order): a rank that unlocked its own window and at once locked
// it again took the lock before another's try arrived, every time (MPICH's linked_list on sc5832).

const POLLS = 1000;

describe('one-sided MPI: origins take turns at the accumulate mutex and at exclusive locks', () => {
  it.each(['xe6', 'xc30', 'sc5832'])('%s: a target polling its own int with getAccumulate NO_OP sees two other ranks\' accumulates within a few polls', async (machine) => {
    const res = await simulate({
      machine,
      nodes: 3,
      ppn: 1,
      program: async ({ mpi }) => {
        const { win, buf } = await mpi.winAllocate(4, 4);
        const mine = new Int32Array(buf.buffer, buf.byteOffset, 1);
        mine[0] = 0;
        await mpi.barrier();
        await win.lockAll(0);
        let polls = 0;
        const seen = new Int32Array(1);
        if (mpi.rank === 0) {
          // int32 NO_OP and SUM take the software path (no 4-byte AMO): a read-modify-write under the mutex
          while (polls < POLLS) {
            await win.getAccumulate(null, seen, 0, 0, mpi.NO_OP);
            await win.flush(0);
            polls++;
            if (seen[0] === 3) break;
          }
        } else {
          await win.accumulate(Int32Array.of(mpi.rank), 0, 0, mpi.SUM);
          await win.flush(0);
        }
        await win.unlockAll();
        await mpi.barrier();
        const final = mine[0]!;
        await win.free();
        return { polls, seen: seen[0]!, final };
      },
    });
    const r0 = res.rankResults[0]!;
    // both accumulates (1 + 2) landed, and rank 0 saw them long before it gave up polling
    expect(r0.final).toBe(3);
    expect(r0.seen).toBe(3);
    expect(r0.polls).toBeLessThan(20);
  });

  it.each(['xe6', 'xc30', 'sc5832'])('%s: a rank locking its own window exclusively again and again lets another rank\'s exclusive lock and put in within a few tries', async (machine) => {
    const res = await simulate({
      machine,
      nodes: 2,
      ppn: 1,
      program: async ({ mpi }) => {
        const mine = new Int32Array(1);
        const win = await mpi.winCreate(mine, 4);
        await mpi.barrier();
        let polls = 0;
        const seen = new Int32Array(1);
        if (mpi.rank === 0) {
          while (polls < POLLS) {
            await win.lock(mpi.LOCK_EXCLUSIVE, 0, 0);
            await win.get(seen, 0, 0);
            await win.unlock(0);
            polls++;
            if (seen[0] === 7) break;
          }
        } else {
          await win.lock(mpi.LOCK_EXCLUSIVE, 0, 0);
          await win.put(Int32Array.of(7), 0, 0);
          await win.unlock(0);
        }
        await mpi.barrier();
        await win.free();
        return { polls, seen: seen[0]! };
      },
    });
    const r0 = res.rankResults[0]!;
    expect(r0.seen).toBe(7);
    expect(r0.polls).toBeLessThan(20);
  });
});
