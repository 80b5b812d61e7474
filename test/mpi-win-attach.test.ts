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

describe('dynamic windows take mpi.maxAttach regions a rank', () => {
  it('xe6: 200 regions attached on rank 1 (past the 64 its control segment lists), rank 0 puts into each and reads back; one more than mpi.maxAttach fails', async () => {
    const N = 200;
    const { rankResults: results } = await simulate({
      machine: 'xe6',
      nodes: 2,
      set: { 'mpi.maxAttach': String(N) },
      program: async ({ mpi }) => {
        const win = await mpi.winCreateDynamic();
        win.setErrhandler(mpi.ERRORS_RETURN);
        const regions = Array.from({ length: N }, () => new Int32Array(2));
        const addrs = new Float64Array(N);
        if (mpi.rank === 1) for (let i = 0; i < N; i++) addrs[i] = win.attach(regions[i]!);
        const over = mpi.rank === 1 ? mpiError(() => win.attach(new Int32Array(2))) : '';
        await mpi.bcast(addrs, 1);
        const got = new Int32Array(2 * N);
        if (mpi.rank === 0) {
          await win.lock(mpi.LOCK_EXCLUSIVE, 1);
          // the last regions first: the origin's copy of the table must be read past its 64th entry
          for (let i = N - 1; i >= 0; i--) await win.put(Int32Array.of(1000 + i, -1 - i), 1, addrs[i]!);
          await win.flush(1);
          for (let i = 0; i < N; i++) await win.get(got.subarray(2 * i, 2 * i + 2), 1, addrs[i]!);
          await win.unlock(1);
        }
        await mpi.barrier();
        if (mpi.rank === 1) for (let i = N - 1; i >= 0; i -= 3) win.detach(regions[i]!);
        await win.free();
        return { over, got: Array.from(got), mine: regions.map((r) => Array.from(r)) };
      },
    });
    const want = Array.from({ length: N }, (_, i) => [1000 + i, -1 - i]);
    expect(results[1]!.mine).toEqual(want);
    expect(results[0]!.got).toEqual(want.flat());
    expect(results[1]!.over).toBe(`MPI_ERR_RMA_ATTACH: attach: ${N} regions are attached to this window already, the most it takes (mpi.maxAttach=${N})`);
  });

  it('every preset takes the 1000 regions MPICH\'s window_attach attaches', async () => {
    for (const machine of ['xt4', 'xe6', 'xc30', 'sc5832', 'bw'] as const) {
      const { result } = await simulate({
        machine,
        nodes: 1,
        program: async ({ mpi }) => {
          const win = await mpi.winCreateDynamic();
          const mem = new Uint8Array(1000);
          for (let i = 0; i < 1000; i++) win.attach(mem.subarray(i, i + 1));
          await win.free();
          return 'ok';
        },
      });
      expect(result, machine).toBe('ok');
    }
  });
});
