import { describe, expect, it } from 'vitest';
import { MpiError } from '../runtime/mpi/mpi.ts';
import { simulate } from '../runtime/simulate.ts';

/** The message of the MpiError `f` throws ('returned' if it does not). */
function mpiError(f: () => unknown): string {
  try {
    f();
    return 'returned';
  } catch (e) {
    return e instanceof MpiError ? e.message : `${(e as Error).name}: ${(e as Error).message}`;
  }
}

describe('MPI_Win_shared_query takes every flavor (MPI-4.1 §12.2.3)', () => {
  it('xe6: sharedQuery answers size 0 for winCreate, winAllocate and winCreateDynamic windows, the segments of a shared one; a bad rank fails', async () => {
    const { rankResults: results } = await simulate({
      machine: 'xe6',
      nodes: 1,
      ppn: 2,
      program: async ({ mpi }) => {
        const created = await mpi.winCreate(new Float64Array(4), 8);
        created.setErrhandler(mpi.ERRORS_RETURN);
        const { win: allocated } = await mpi.winAllocate(mpi.rank === 0 ? 12 : 40, 4);
        const dynamic = await mpi.winCreateDynamic();
        const shared = await mpi.winAllocateShared(mpi.rank === 0 ? 16 : 24, 8);
        shared.buf[0] = 7 + mpi.rank;
        await mpi.barrier();
        const q = (w: typeof created, r: number): [number, number, number] => {
          const s = w.sharedQuery(r);
          return [s.size, s.buf.byteLength, s.dispUnit];
        };
        const out = {
          created: [q(created, 0), q(created, 1), q(created, mpi.PROC_NULL)],
          allocated: [q(allocated, 0), q(allocated, 1)],
          dynamic: [q(dynamic, 1)],
          shared: [q(shared.win, 0), q(shared.win, 1)],
          peerByte: shared.win.sharedQuery(1 - mpi.rank).buf[0],
          badRank: mpiError(() => created.sharedQuery(2)),
        };
        for (const w of [created, allocated, dynamic, shared.win]) await w.free();
        return out;
      },
    });
    for (const [r, o] of results.entries()) {
      expect(o.created).toEqual([[0, 0, 8], [0, 0, 8], [0, 0, 8]]);
      expect(o.allocated).toEqual([[0, 0, 4], [0, 0, 4]]);
      expect(o.dynamic).toEqual([[0, 0, 1]]);
      expect(o.shared).toEqual([[16, 16, 8], [24, 24, 8]]);
      expect(o.peerByte).toBe(7 + (1 - r));
      expect(o.badRank).toMatch(/^MPI_ERR_RANK: sharedQuery: rank=2 is not a rank of the window \(0\.\.1 or mpi\.PROC_NULL\)$/);
    }
  });
});
