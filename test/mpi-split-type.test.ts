/**
 * MPI_Comm_split_type with info (MPI 4.0, 4.1): the guided split types by the hardware resource
 * `mpi_hw_resource_type` names, the unguided one by the widest level that splits, on the
 * placement phit gives the ranks (contiguous: a node's ranks in order, its sockets filled in
 * order), and their errors.
 */
import { describe, expect, it } from 'vitest';
import { simulate } from '../runtime/simulate.ts';

describe('splitType, guided', () => {
  it('xc30, 8 nodes x 4 ranks: router (4 nodes on an Aries), node, socket (2 per node), core; unknown values and no key give null', async () => {
    const r = await simulate({
      machine: 'xc30',
      nodes: 8,
      ppn: 4,
      program: async ({ mpi }) => {
        const out: Record<string, number[] | null> = {};
        for (const v of ['router', 'machine', 'mpi_shared_memory', 'package', 'l3cache', 'core', 'pu', 'gpu', '__garbage_value__', null]) {
          const info = mpi.infoCreate();
          if (v !== null) info.set('mpi_hw_resource_type', v);
          for (const type of [mpi.COMM_TYPE_HW_GUIDED, mpi.COMM_TYPE_RESOURCE_GUIDED]) {
            const c = await mpi.splitType(type, -mpi.rank, info);
            out[`${type}:${v}`] = c === null ? null : c.group.ranks.slice();
          }
          info.free();
        }
        const none = await mpi.splitType(mpi.COMM_TYPE_HW_GUIDED, 0, mpi.INFO_NULL);
        out.infoNull = none === null ? null : [];
        return out;
      },
    });
    // independent of the implementation: Aries routers carry 4 nodes, 4 ranks a node fill 2 sockets 2 by 2; key -rank reverses the order
    const range = (lo: number, n: number) => Array.from({ length: n }, (_, i) => lo + n - 1 - i);
    for (const [w, x] of r.rankResults.entries()) {
      for (const type of [2, 4]) {
        expect(x[`${type}:router`], `${w}`).toEqual(range(16 * Math.floor(w / 16), 16));
        expect(x[`${type}:machine`]).toEqual(range(4 * Math.floor(w / 4), 4));
        expect(x[`${type}:mpi_shared_memory`]).toEqual(range(4 * Math.floor(w / 4), 4));
        expect(x[`${type}:package`]).toEqual(range(2 * Math.floor(w / 2), 2));
        expect(x[`${type}:l3cache`]).toEqual(range(2 * Math.floor(w / 2), 2));
        expect(x[`${type}:core`]).toEqual([w]);
        expect(x[`${type}:pu`]).toEqual([w]);
        expect(x[`${type}:gpu`]).toBeNull();
        expect(x[`${type}:__garbage_value__`]).toBeNull();
        expect(x[`${type}:null`]).toBeNull();
      }
      expect(x.infoNull).toBeNull();
    }
  });

  it('values that differ between ranks are MPI_ERR_INFO naming them; an unknown type is MPI_ERR_ARG', async () => {
    const r = await simulate({
      machine: 'xe6',
      nodes: 2,
      ppn: 2,
      program: async ({ mpi }) => {
        mpi.setErrhandler(mpi.ERRORS_RETURN);
        try {
          await mpi.splitType(9, 0);
        } catch (e) {
          return (e as Error).message;
        }
        return 'no error';
      },
    });
    expect(r.rankResults[0]).toBe('MPI_ERR_ARG: splitType: type=9 must be mpi.COMM_TYPE_SHARED, mpi.COMM_TYPE_HW_GUIDED, mpi.COMM_TYPE_HW_UNGUIDED, mpi.COMM_TYPE_RESOURCE_GUIDED or mpi.UNDEFINED');
    const msg = String(
      await simulate({
        machine: 'xe6',
        nodes: 2,
        ppn: 2,
        program: async ({ mpi }) => {
          const info = mpi.infoCreate();
          info.set('mpi_hw_resource_type', mpi.rank === 3 ? 'socket' : 'machine');
          await mpi.splitType(mpi.COMM_TYPE_HW_GUIDED, 0, info);
        },
      }).then(
        () => 'no error',
        (e: unknown) => e,
      ),
    );
    expect(msg).toMatch(/MPI_ERR_INFO: splitType .*: rank 3 passes mpi_hw_resource_type='socket' but rank [0-2] passes 'machine'/);
  });
});

describe('splitType, unguided', () => {
  it('takes the widest level that splits the ranks, and sets its name in the info', async () => {
    const layouts = [
      { nodes: 4, ppn: 1, want: 'router', size: 2 }, // 2 nodes per Gemini: 2 routers
      { nodes: 2, ppn: 2, want: 'node', size: 2 }, // one router: the nodes split
      { nodes: 1, ppn: 2, want: 'package', size: 1 }, // one node: its 2 sockets split
    ];
    for (const l of layouts) {
      const r = await simulate({
        machine: 'xe6',
        nodes: l.nodes,
        ppn: l.ppn,
        program: async ({ mpi }) => {
          const info = mpi.infoCreate();
          const c = await mpi.splitType(mpi.COMM_TYPE_HW_UNGUIDED, 0, info);
          return { size: c?.size ?? 0, type: info.get('mpi_hw_resource_type') ?? '' };
        },
      });
      for (const x of r.rankResults) expect(x, JSON.stringify(l)).toEqual({ size: l.size, type: l.want });
    }
    // a single rank cannot be split: null, and the info is left alone
    const one = await simulate({
      machine: 'xe6',
      nodes: 1,
      program: async ({ mpi }) => {
        const info = mpi.infoCreate();
        const c = await mpi.splitType(mpi.COMM_TYPE_HW_UNGUIDED, 0, info);
        return { none: c === null, keys: info.nkeys };
      },
    });
    expect(one.rankResults[0]).toEqual({ none: true, keys: 0 });
  });
});
