/**
 * MPI_Request_free on a nonblocking collective's request (MPI-4.0 §3.7.3: the operation still
 * completes): its data lands in the user's buffer even when the buffer's datatype is
 * non-contiguous (phit unpacks such data when the request is completed, so freeing must too).
 */
import { describe, expect, it } from 'vitest';
import { simulate } from '../runtime/simulate.ts';

describe('a freed nonblocking collective still delivers into a non-contiguous buffer', () => {
  for (const when of ['after it completed', 'before it completed'] as const) {
    it(`ibcast into every other int, request freed ${when}`, async () => {
      const r = await simulate({
        machine: 'xe6',
        nodes: 2,
        program: async ({ mpi }) => {
          const every2 = mpi.typeCommit(mpi.typeCreateResized(mpi.typeVector(1, 1, 2, mpi.INT), 0, 8));
          const buf = Int32Array.from({ length: 8 }, (_, k) => (mpi.rank === 0 ? 10 * k : -1));
          const req = mpi.ibcast(buf, 4, every2, 0);
          if (when === 'after it completed') {
            while (!(await mpi.requestGetStatus(req)).flag);
            mpi.requestFree(req);
          } else {
            mpi.requestFree(req);
          }
          // a barrier after the root's send, and time enough for the data to arrive
          await mpi.barrier();
          await mpi.barrier();
          return Array.from(buf);
        },
      });
      expect(r.rankResults[1]).toEqual([0, -1, 20, -1, 40, -1, 60, -1]);
    });
  }
});
