import { describe, expect, it } from 'vitest';
import { simulate } from '../runtime/simulate.ts';
import { rejection } from './helpers.ts';

describe('info objects (MPI_Info)', () => {
  it('keep keys in the order first set, take new values, dup and delete; a window made with hints behaves as one without', async () => {
    const r = await simulate({
      machine: 'xe6',
      nodes: 2,
      program: async ({ mpi }) => {
        const info = mpi.infoCreate();
        info.set('which_accumulate_ops', 'sum,no_op');
        info.set('disable_shm_accumulate', 'true');
        info.set('which_accumulate_ops', 'same_op');
        const copy = info.dup();
        info.delete('disable_shm_accumulate');
        const keys = [info.nkeys, copy.nkeys, copy.nthkey(0), copy.nthkey(1), copy.get('which_accumulate_ops'), info.get('disable_shm_accumulate')];
        const mem = new Int16Array(2);
        const win = await mpi.winCreate(mem, 2, info);
        info.free();
        copy.free();
        await win.lockAll();
        const old = new Int16Array(1);
        await win.fetchAndOp(Int16Array.of(mpi.rank + 5), old, 0, 1, mpi.SUM);
        await win.unlockAll();
        await mpi.barrier();
        await win.free();
        return { keys, mem: [...mem] };
      },
    });
    expect(r.rankResults[0]!.keys).toEqual([1, 2, 'which_accumulate_ops', 'disable_shm_accumulate', 'same_op', undefined]);
    expect(r.rankResults[0]!.mem).toEqual([0, 5 + 6]);
  });

  it('a freed info object, a missing key or an empty value is an MPI error naming the call', async () => {
    const errs = await simulate({
      machine: 'xe6',
      nodes: 1,
      program: async ({ mpi }) => {
        mpi.setErrhandler(mpi.ERRORS_RETURN);
        const out: string[] = [];
        const info = mpi.infoCreate();
        for (const f of [() => info.delete('nosuchkey'), () => info.set('k', ''), () => info.nthkey(0)]) {
          try {
            f();
          } catch (e) {
            out.push(String(e));
          }
        }
        info.free();
        out.push(String(await rejection(mpi.winCreate(new Int32Array(1), 4, info))));
        return out;
      },
    });
    expect(errs.rankResults[0]).toEqual([
      expect.stringMatching(/MPI_ERR_INFO_NOKEY: infoDelete: key 'nosuchkey' is not set/),
      expect.stringMatching(/MPI_ERR_INFO_VALUE: infoSet: value of 0 characters for key 'k'/),
      expect.stringMatching(/MPI_ERR_ARG: infoGetNthkey: n=0/),
      expect.stringMatching(/MPI_ERR_INFO: winCreate: the info object was freed/),
    ]);
  });
});
