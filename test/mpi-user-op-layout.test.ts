/**
 * User-defined ops on derived datatypes (runtime/mpi/user-op-layout.ts): as MPI-4.0 §6.9.5 has
 * it, the user function gets (operands, len, datatype) with the operands laid out as the datatype
 * describes, so a function written as C writes it (walking a non-contiguous type by its extent)
 * reduces the right values; the short forms pass the typed array's predefined type.
 */
import { describe, expect, it } from 'vitest';
import type { Datatype, Mpi, ReduceArray } from '../runtime/mpi/mpi.ts';
import { simulate } from '../runtime/simulate.ts';
import { rejection } from './helpers.ts';

/** Runs `program` on `n` ranks of xe6 (one per node) and returns each rank's result. */
async function run(n: number, program: (mpi: Mpi) => Promise<unknown>): Promise<readonly unknown[]> {
  const r = await simulate({ machine: 'xe6', nodes: n, program: async ({ mpi }) => program(mpi) });
  return r.rankResults;
}

/**
 * A sum as MPICH's nonblocking2 writes it: on MPI_INT it adds element by element; on any other
 * type it adds one int per element, `extent / 4` ints apart. Records what it was called with.
 */
function cSum(mpi: Mpi, calls: string[]): (inout: ReduceArray, input: ReduceArray, len: number, datatype: Datatype) => void {
  return (inout, input, len, datatype) => {
    calls.push(`${datatype.name} len=${len} ints=${inout.length}`);
    const a = inout as Int32Array;
    const b = input as Int32Array;
    const stride = datatype === mpi.INT ? 1 : datatype.extent / 4;
    for (let i = 0; i < len; i++) a[i * stride] = a[i * stride]! + b[i * stride]!;
  };
}

describe('a user op sees the datatype it reduces, laid out as the datatype says', () => {
  it('allreduce and reduce on every other int (resized vector): the op strides by the extent, the gaps stay', async () => {
    const P = 4;
    const n = 10;
    const got = await run(P, async (mpi) => {
      const calls: string[] = [];
      const every2 = mpi.typeCommit(mpi.typeCreateResized(mpi.typeVector(1, 1, 2, mpi.INT), 0, 8));
      const op = mpi.opCreate(cSum(mpi, calls), true);
      const send = Int32Array.from({ length: 2 * n }, (_, k) => (k % 2 === 0 ? mpi.rank + k / 2 : -7));
      const recv = new Int32Array(2 * n).fill(-9);
      await mpi.allreduce(send, recv, n, every2, op);
      const all = Array.from(recv);
      recv.fill(-9);
      await mpi.reduce(send, recv, n, every2, op, P - 1);
      return { all, root: Array.from(recv), calls: calls.filter((c) => !c.includes('len=0')) };
    });
    // sum over ranks of (rank + i) = P(P-1)/2 + P i at the even ints; the odd ones untouched
    const want = Array.from({ length: 2 * n }, (_, k) => (k % 2 === 0 ? (P * (P - 1)) / 2 + P * (k / 2) : -9));
    for (let r = 0; r < P; r++) {
      const g = got[r] as { all: number[]; root: number[]; calls: string[] };
      expect(g.all).toEqual(want);
      expect(g.root).toEqual(r === P - 1 ? want : new Array<number>(2 * n).fill(-9));
      // every call names the resized type, and spans len elements of 2 ints (the last one's gap cut off)
      for (const c of g.calls) {
        const m = /^(.*) len=(\d+) ints=(\d+)$/.exec(c)!;
        expect(m[1]).toMatch(/resized/);
        expect(Number(m[3])).toBe(2 * Number(m[2]) - 1);
      }
    }
    expect((got as { calls: string[] }[]).some((g) => g.calls.length > 0)).toBe(true);
  });

  it('reduceLocal on two ints of a three-int stride: the values at 0 and 12 bytes of each 24-byte element', async () => {
    const [g] = await run(1, async (mpi) => {
      const calls: string[] = [];
      // vector(2, 1, 3, INT): ints 0 and 3 of each element, resized to 6 ints
      const t = mpi.typeCommit(mpi.typeCreateResized(mpi.typeVector(2, 1, 3, mpi.INT), 0, 24));
      const op = mpi.opCreate((inout, input, len, datatype) => {
        calls.push(`${len}`);
        const a = inout as Int32Array;
        const b = input as Int32Array;
        const step = datatype.extent / 4;
        for (let i = 0; i < len; i++) {
          a[i * step] = a[i * step]! * 10 + b[i * step]!;
          a[i * step + 3] = a[i * step + 3]! * 10 + b[i * step + 3]!;
        }
      }, false);
      const inbuf = Int32Array.from({ length: 12 }, (_, k) => k + 1);
      const inout = Int32Array.from({ length: 12 }, (_, k) => 100 + k);
      mpi.reduceLocal(inbuf, inout, 2, t, op);
      return { inout: Array.from(inout), calls };
    });
    // inoutbuf = inbuf op inoutbuf: inbuf is the left operand, so each value becomes in * 10 + inout
    const want = Array.from({ length: 12 }, (_, k) => (k % 3 === 0 ? (k + 1) * 10 + 100 + k : 100 + k));
    expect((g as { inout: number[] }).inout).toEqual(want);
    expect((g as { calls: string[] }).calls).toEqual(['2']);
  });

  it('the short form passes the predefined type of the typed array and its length', async () => {
    const got = await run(2, async (mpi) => {
      const seen: string[] = [];
      const op = mpi.opCreate((inout, input, len, datatype) => {
        if (len > 0) seen.push(`${datatype.name} ${len}`);
        for (let i = 0; i < len; i++) (inout as Float64Array)[i] = (inout as Float64Array)[i]! + (input as Float64Array)[i]!;
      }, true);
      const recv = new Float64Array(3);
      await mpi.allreduce(Float64Array.of(1, 2, mpi.rank), recv, op);
      return { recv: Array.from(recv), seen };
    });
    for (const g of got as { recv: number[]; seen: string[] }[]) {
      expect(g.recv).toEqual([2, 4, 1]);
      for (const s of g.seen) expect(s).toBe('MPI_DOUBLE 3');
    }
  });

  it('a layout a typed array cannot index (an int every 6 bytes) fails naming the op and the type', async () => {
    const e = await rejection(
      simulate({
        machine: 'xe6',
        nodes: 1,
        program: async ({ mpi }) => {
          const t = mpi.typeCommit(mpi.typeCreateResized(mpi.INT, 0, 6));
          const op = mpi.opCreate(() => {}, true, { name: 'odd op' });
          mpi.reduceLocal(new Int32Array(3), new Int32Array(3), 2, t, op);
        },
      }),
    );
    expect(e.message).toMatch(/MPI_ERR_TYPE: odd op: resized.* places its values off 4-byte boundaries \(extent 6\)/);
    expect(e.message.split('\n')).toHaveLength(1);
  });
});
