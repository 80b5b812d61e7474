/**
 * Intercommunicator calls added beside the others of the test/mpi-intercomm-*.test.ts files: idup (the copy
 * usable once its request completes, over both groups) and alltoallw / ialltoallw (blocks of their
 * own datatypes, byte displacements, one per remote rank), with real data and their errors.
 */
import { describe, expect, it } from 'vitest';
import type { Mpi } from '../runtime/mpi/mpi.ts';
import { simulate } from '../runtime/simulate.ts';

/** World split 3 | 5 into an intercommunicator (leaders: world ranks 0 and 3). */
async function halves(mpi: Mpi) {
  const left = mpi.rank < 3;
  const half = (await mpi.split(left ? 0 : 1, mpi.rank))!;
  const ic = await half.intercommCreate(0, mpi, left ? 3 : 0, 7);
  return { left, ic };
}

describe('intercommunicator idup and alltoallw', () => {
  it('alltoallw moves a strided column to each remote rank and lands it in place; idup gives a working copy', async () => {
    const r = await simulate({
      machine: 'xe6',
      nodes: 4,
      ppn: 2,
      program: async ({ mpi }) => {
        const { left, ic } = await halves(mpi);
        const m = ic.remoteSize;
        // send: to remote rank j, 2 ints from a 2-row matrix's column j (stride m); receive: 2 contiguous ints per remote rank
        const col = mpi.typeCommit(mpi.typeCreateResized(mpi.typeVector(2, 1, m, mpi.INT), 0, 4));
        const send = Int32Array.from({ length: 2 * m }, (_, k) => 1000 * mpi.rank + k);
        const recv = new Int32Array(2 * m).fill(-1);
        const types = new Array(m).fill(col);
        const ints = new Array(m).fill(mpi.INT);
        const { comm: copy, request } = ic.idup();
        await mpi.wait(request);
        const req = copy.ialltoallw(send, new Array(m).fill(1), Array.from({ length: m }, (_, j) => 4 * j), types, recv, new Array(m).fill(2), Array.from({ length: m }, (_, j) => 8 * j), ints);
        await mpi.wait(req);
        await ic.alltoallw(send, new Array(m).fill(1), Array.from({ length: m }, (_, j) => 4 * j), types, recv.subarray(0, 2 * m), new Array(m).fill(2), Array.from({ length: m }, (_, j) => 8 * j), ints);
        return { left, rank: ic.rank, recv: [...recv] };
      },
    });
    const worldOf = (left: boolean, r: number) => (left ? r : 3 + r);
    for (const x of r.rankResults) {
      const m = x.left ? 5 : 3;
      const remoteM = x.left ? 3 : 5; // the sender's remote size: its matrix stride
      const want: number[] = [];
      for (let j = 0; j < m; j++) {
        const w = worldOf(!x.left, j);
        want.push(1000 * w + x.rank, 1000 * w + remoteM + x.rank);
      }
      expect(x.recv).toEqual(want);
    }
  });

  it('alltoallw refuses IN_PLACE and a short type list on an intercommunicator, naming the call', async () => {
    const r = await simulate({
      machine: 'xe6',
      nodes: 4,
      ppn: 2,
      program: async ({ mpi }) => {
        mpi.setErrhandler(mpi.ERRORS_RETURN);
        const { ic } = await halves(mpi);
        ic.setErrhandler(mpi.ERRORS_RETURN);
        const out: string[] = [];
        const m = ic.remoteSize;
        const buf = new Int32Array(m);
        const ones = new Array(m).fill(1);
        const d = Array.from({ length: m }, (_, j) => 4 * j);
        for (const f of [
          () => ic.alltoallw(mpi.IN_PLACE as never, ones, d, new Array(m).fill(mpi.INT), buf, ones, d, new Array(m).fill(mpi.INT)),
          () => ic.alltoallw(buf, ones, d, [mpi.INT], buf, ones, d, new Array(m).fill(mpi.INT)),
        ]) {
          try {
            await f();
          } catch (e) {
            out.push((e as Error).message);
          }
        }
        await mpi.barrier();
        return out;
      },
    });
    expect(r.result[0]).toBe('MPI_ERR_ARG: alltoallw: IN_PLACE is not allowed on an intercommunicator');
    expect(r.result[1]).toMatch(/^MPI_ERR_ARG: alltoallw: sendTypes must have one datatype per rank \(5\), got 1/);
  });
});

describe('intercommunicator compare and names', () => {
  it('compare tells identical, congruent, similar and unequal intercommunicators; setName and getName', async () => {
    const r = await simulate({
      machine: 'xe6',
      nodes: 4,
      ppn: 2,
      program: async ({ mpi }) => {
        const { left, ic } = await halves(mpi);
        const copy = await ic.dup();
        // the same two groups with the local group in reverse order
        const half = (await mpi.split(left ? 0 : 1, -mpi.rank))!;
        const reversed = await half.intercommCreate(0, mpi, left ? 7 : 2, 8);
        // other groups: world ranks 0-1 against 2-7
        const low = mpi.rank < 2;
        const other = await (await mpi.split(low ? 0 : 1, mpi.rank))!.intercommCreate(0, mpi, low ? 2 : 0, 9);
        const before = ic.getName();
        ic.setName('halves');
        return {
          cmp: [ic.compare(ic), ic.compare(copy), ic.compare(reversed), ic.compare(other), ic.compare(mpi), mpi.compare(ic)],
          names: [before, ic.getName(), copy.getName()],
        };
      },
    });
    for (const x of r.rankResults) {
      expect(x.cmp).toEqual(['ident', 'congruent', 'similar', 'unequal', 'unequal', 'unequal']);
      expect(x.names).toEqual(['', 'halves', '']);
    }
  });
});
