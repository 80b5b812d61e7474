import { describe, expect, it } from 'vitest';
import { simulate } from '../runtime/simulate.ts';

describe('MPI_Aint_add and MPI_Aint_diff', () => {
  it('address arithmetic on a dynamic window reaches the element it names; a non-integer argument is MPI_ERR_ARG naming it', async () => {
    const r = await simulate({
      machine: 'xe6',
      nodes: 2,
      program: async ({ mpi }) => {
        const a = Int32Array.from({ length: 16 }, (_, i) => 100 * mpi.rank + i);
        const win = await mpi.winCreateDynamic();
        const addrs = new Float64Array(2);
        addrs[mpi.rank] = win.attach(a);
        await mpi.allgather(mpi.IN_PLACE, addrs);
        const other = 1 - mpi.rank;
        const mid = mpi.aintAdd(addrs[other]!, 4 * 8); // element 8 of the other's array
        const got = new Int32Array(2);
        await win.fence();
        await win.get(got.subarray(0, 1), 1, mpi.INT, other, mpi.aintAdd(mid, 4 * 3), 1, mpi.INT);
        await win.get(got.subarray(1, 2), 1, mpi.INT, other, mpi.aintDiff(mid, 4 * 5), 1, mpi.INT);
        await win.fence();
        win.detach(a);
        await win.free();
        mpi.setErrhandler(mpi.ERRORS_RETURN);
        let bad = '';
        try {
          mpi.aintAdd(addrs[0]!, 1.5);
        } catch (e) {
          bad = String(e);
        }
        return { got: [...got], diff: mpi.aintDiff(mid, addrs[other]!), bad };
      },
    });
    // element 11 and element 3 of the other rank's array, 32 bytes between its base and element 8
    expect(r.rankResults[0]).toMatchObject({ got: [111, 103], diff: 32 });
    expect(r.rankResults[1]).toMatchObject({ got: [11, 3], diff: 32 });
    expect(r.rankResults[0]!.bad).toMatch(/MPI_ERR_ARG: aintAdd: disp=1\.5 must be a safe integer/);
  });
});
