/**
 * Large counts: MPI 4.0 gives C a second, `_c` name of each call that takes MPI_Count (its
 * mpi_f08 Fortran binding keeps one name for both kinds of count); phit's counts, sizes and
 * displacements are numbers exact to 2^53, so its one form of each call is the `_c` form. A count
 * past 2^31 - 1 works like any other, and getCount/getElements return it (the `_c` answers, where
 * C's int forms answer MPI_UNDEFINED); past 2^53 - 1 it is MPI_ERR_COUNT.
 */
import { describe, expect, it } from 'vitest';
import { simulate } from '../runtime/simulate.ts';
import { rejection } from './helpers.ts';

const INT_MAX = 2147483647;

describe('counts past 2^31 - 1', () => {
  it('a send and receive of INT_MAX + 100 chars (a skeleton run: sizes, no bytes): the status counts them all', async () => {
    const n = INT_MAX + 100;
    const r = await simulate({
      machine: 'xe6',
      nodes: 2,
      skeleton: true,
      // the flow level carries the 2 GB as a flow, not 33 million packets
      set: { 'fabric.fidelity': 'flow' },
      program: async (ctx) => {
        const { mpi } = ctx;
        const buf = ctx.alloc(Int8Array, n);
        if (mpi.rank === 0) {
          await mpi.send(buf, n, mpi.CHAR, 1, 0);
          return null;
        }
        const s = await mpi.recv(buf, n, mpi.CHAR, 0, 0);
        const pairs = mpi.typeCommit(mpi.typeContiguous(2, mpi.CHAR));
        return { bytes: s.bytes, count: mpi.getCount(s, mpi.CHAR), elements: mpi.getElements(s, mpi.CHAR), pairs: mpi.getCount(s, pairs), time: mpi.wtime() };
      },
    });
    const got = r.rankResults[1] as { bytes: number; count: number; elements: number; pairs: number; time: number };
    expect(got.bytes).toBe(n);
    expect(got.count).toBe(n);
    expect(got.elements).toBe(n);
    // an odd number of chars is not a whole number of pairs
    expect(got.pairs).toBe(-32766);
    // 2.1 GB over one Gemini link (a few GB/s) takes a good part of a second, not microseconds
    expect(got.time).toBeGreaterThan(0.1);
  });

  it('types of more than 2^31 bytes: size, extent and true extent exact', async () => {
    const r = await simulate({
      machine: 'xe6',
      nodes: 1,
      program: async ({ mpi }) => {
        // 6 Gi ints in one block, and three of them 8 GiB apart
        const big = mpi.typeCommit(mpi.typeContiguous(3 * 2 ** 31, mpi.INT));
        const hvec = mpi.typeCommit(mpi.typeCreateHvector(3, 1, 2 ** 33, big));
        return { size: mpi.typeSize(big), extent: mpi.typeGetExtent(hvec).extent, trueExtent: mpi.typeGetTrueExtent(hvec).extent, hsize: mpi.typeSize(hvec) };
      },
    });
    expect(r.rankResults[0]).toEqual({ size: 12 * 2 ** 31, extent: 2 * 2 ** 33 + 12 * 2 ** 31, trueExtent: 2 * 2 ** 33 + 12 * 2 ** 31, hsize: 36 * 2 ** 31 });
  });

  it('a count of 2^53 or more fails naming the count', async () => {
    const e = await rejection(
      simulate({
        machine: 'xe6',
        nodes: 1,
        program: async ({ mpi }) => {
          mpi.typeContiguous(2 ** 53, mpi.CHAR);
        },
      }),
    );
    expect(e.message).toMatch(/MPI_ERR_COUNT: typeContiguous: count=9007199254740992 must be a safe integer \(at most 2\^53 - 1\)/);
  });
});
