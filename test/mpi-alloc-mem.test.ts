import { describe, expect, it } from 'vitest';
import { simulate } from '../runtime/simulate.ts';

describe('MPI_Alloc_mem and MPI_Free_mem', () => {
  it('allocMem gives library memory a window can use; freeMem gives it back once (MPI_ERR_BASE after)', async () => {
    const r = await simulate({
      machine: 'xe6',
      nodes: 2,
      program: async ({ mpi }) => {
        const mem = mpi.allocMem(4 * 8, mpi.INFO_NULL);
        const B = new Int32Array(mem.buffer, mem.byteOffset, 8).fill(mpi.rank);
        const win = await mpi.winCreate(B, 4);
        await win.fence();
        if (mpi.rank === 0) await win.put(Int32Array.of(40, 41), 1, 3);
        await win.fence();
        await win.free();
        mpi.freeMem(B);
        mpi.setErrhandler(mpi.ERRORS_RETURN);
        let again = '';
        try {
          mpi.freeMem(mem);
        } catch (e) {
          again = String(e);
        }
        return { got: [...B], again };
      },
    });
    expect(r.rankResults[1]!.got).toEqual([1, 1, 1, 40, 41, 1, 1, 1]);
    expect(r.rankResults[0]!.again).toMatch(/MPI_ERR_BASE: freeMem: .* is not memory of allocMem that is still allocated/);
  });
});
