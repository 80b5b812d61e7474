import { describe, expect, it } from 'vitest';
import { RankError } from '../fabric/engine/engine.ts';
import { MpiError, type NumericArray, type Op } from '../runtime/mpi/mpi.ts';
import { simulate } from '../runtime/simulate.ts';
import { rejection } from './helpers.ts';

/** Compute time (us) before a barrier: a spread-out permutation so the last one in varies. */
function delayUs(rank: number, size: number, round: number): number {
  // (rank + round) % size is a permutation: every rank waits a different time, the last one rotates
  return 1 + ((rank + round) % size) * 7 + ((rank * 3) % 5);
}

describe('barrier', () => {
  const layouts = [
    ...[1, 2, 3, 5, 8, 13].map((n) => ({ size: n, nodes: n, ppn: 1 })),
    { size: 6, nodes: 3, ppn: 2 },
    { size: 13, nodes: 1, ppn: 13 },
  ];
  it.each(layouts)('no rank leaves before the last one enters (size $size, nodes $nodes, ppn $ppn), three barriers in a row', async ({ nodes, ppn, size }) => {
    const r = await simulate({
      machine: 'xe6',
      nodes,
      ppn,
      program: async ({ mpi, compute, now }) => {
        const entry: number[] = [];
        const exit: number[] = [];
        for (let round = 0; round < 3; round++) {
          await compute({ us: delayUs(mpi.rank, mpi.size, round) });
          entry.push(now());
          await mpi.barrier();
          exit.push(now());
        }
        return { entry, exit };
      },
    });
    expect(r.ranks).toBe(size);
    for (let round = 0; round < 3; round++) {
      const lastIn = Math.max(...r.rankResults.map((x) => x.entry[round]!));
      const firstOut = Math.min(...r.rankResults.map((x) => x.exit[round]!));
      expect(firstOut, `round ${round}: first exit vs last entry`).toBeGreaterThanOrEqual(lastIn);
      if (size > 1) {
        // the entry times really differ, so a barrier that did not wait would be caught
        expect(Math.min(...r.rankResults.map((x) => x.entry[round]!))).toBeLessThan(lastIn);
        // and leaving takes at least one message after the last arrival
        expect(firstOut).toBeGreaterThan(lastIn);
      }
    }
  });
});

type Kind = 'f64' | 'i32';
const OPS = ['SUM', 'MIN', 'MAX'] as const;

/** Rank `r`'s element `i` of case (kind, len): distinct per rank, negative and positive, exact sums. */
function value(kind: Kind, r: number, i: number, size: number): number {
  const h = Math.imul(r * 977 + i * 131 + size * 7 + 1, 0x9e3779b1) >>> 0;
  // dyadic doubles of modest size: sums are exact in any order
  if (kind === 'f64') return ((h % 4001) - 2000) * 0.125 + r * 0.0625;
  return (h % 2_000_001) - 1_000_000;
}

function make(kind: Kind, n: number): NumericArray {
  return kind === 'f64' ? new Float64Array(n) : new Int32Array(n);
}

function reference(kind: Kind, op: (typeof OPS)[number], size: number, n: number): NumericArray {
  const out = make(kind, n);
  for (let i = 0; i < n; i++) {
    let acc = value(kind, 0, i, size);
    for (let r = 1; r < size; r++) {
      const v = value(kind, r, i, size);
      acc = op === 'SUM' ? acc + v : op === 'MIN' ? Math.min(acc, v) : Math.max(acc, v);
    }
    out[i] = acc;
  }
  return out;
}

describe('allreduce', () => {
  const layouts = [
    ...[1, 2, 3, 4, 5, 6, 7, 8, 9, 16].map((n) => ({ size: n, nodes: n, ppn: 1 })),
    { size: 9, nodes: 3, ppn: 3 },
    { size: 6, nodes: 1, ppn: 6 },
  ];
  it.each(layouts)('SUM/MIN/MAX on Float64Array and Int32Array of length 1 and 1000 match a local reference on every rank (size $size, ppn $ppn)', async ({ nodes, ppn, size }) => {
    const r = await simulate({
      machine: 'xe6',
      nodes,
      ppn,
      program: async ({ mpi }) => {
        const bad: string[] = [];
        let checked = 0;
        const ops: Record<(typeof OPS)[number], Op> = { SUM: mpi.SUM, MIN: mpi.MIN, MAX: mpi.MAX };
        for (const kind of ['f64', 'i32'] as const) {
          for (const n of [1, 1000]) {
            for (const op of OPS) {
              const send = make(kind, n);
              for (let i = 0; i < n; i++) send[i] = value(kind, mpi.rank, i, mpi.size);
              const before = send.slice();
              const recv = make(kind, n).fill(12345);
              await mpi.allreduce(send, recv, ops[op]);
              const want = reference(kind, op, mpi.size, n);
              for (let i = 0; i < n; i++) {
                if (!Object.is(recv[i], want[i])) {
                  bad.push(`${kind}[${n}] ${op} element ${i}: got ${recv[i]}, want ${want[i]}`);
                  break;
                }
              }
              for (let i = 0; i < n; i++) {
                if (send[i] !== before[i]) {
                  bad.push(`${kind}[${n}] ${op}: sendBuf changed at ${i}`);
                  break;
                }
              }
              checked++;
            }
          }
        }
        return { bad, checked };
      },
    });
    expect(r.rankResults).toHaveLength(size);
    r.rankResults.forEach((x, rank) => {
      expect(x.checked).toBe(12);
      expect(x.bad, `rank ${rank}`).toEqual([]);
    });
  });

  it('large buffers (5000 doubles, rendezvous-sized messages), PROD on Float32Array and back-to-back calls', async () => {
    const r = await simulate({
      machine: 'xe6',
      nodes: 6,
      ppn: 2,
      program: async ({ mpi }) => {
        const n = 5000;
        const s = Float64Array.from({ length: n }, (_, i) => mpi.rank * 2 + i);
        const o = new Float64Array(n);
        await mpi.allreduce(s, o, mpi.SUM);
        let bad = 0;
        for (let i = 0; i < n; i++) if (o[i] !== mpi.size * (mpi.size - 1) + mpi.size * i) bad++;
        const p = new Float32Array(3).fill(mpi.rank + 1);
        const po = new Float32Array(3);
        await mpi.allreduce(p, po, mpi.PROD);
        const mx = new Int32Array(1);
        await mpi.allreduce(Int32Array.of(-mpi.rank), mx, mpi.MIN);
        return { bad, prod: Array.from(po), min: mx[0] };
      },
    });
    for (const x of r.rankResults) expect(x).toEqual({ bad: 0, prod: [479001600, 479001600, 479001600], min: -11 });
  });

  it('reference check is not vacuous: MIN, MAX and SUM results differ from any single rank\'s data', () => {
    const size = 5;
    for (const kind of ['f64', 'i32'] as const) {
      const sum = reference(kind, 'SUM', size, 50);
      const min = reference(kind, 'MIN', size, 50);
      const max = reference(kind, 'MAX', size, 50);
      // the minimum and maximum come from different ranks for different elements
      const argmin = new Set<number>();
      for (let i = 0; i < 50; i++) {
        for (let r = 0; r < size; r++) if (value(kind, r, i, size) === min[i]) argmin.add(r);
        expect(max[i]!).toBeGreaterThan(min[i]!);
        expect(sum[i]).not.toBe(max[i]);
      }
      expect(argmin.size).toBeGreaterThan(2);
    }
  });

  it('results are ready on every rank and the ranks leave at about the same time (it synchronises)', async () => {
    const r = await simulate({
      machine: 'xe6',
      nodes: 5,
      program: async ({ mpi, compute, now }) => {
        await compute({ us: mpi.rank === 3 ? 200 : 1 });
        const out = new Float64Array(1);
        await mpi.allreduce(Float64Array.of(mpi.rank + 1), out, mpi.SUM);
        return { t: now(), v: out[0] };
      },
    });
    for (const x of r.rankResults) {
      expect(x.v).toBe(15);
      // nobody can finish before rank 3 contributed at 200 us
      expect(x.t).toBeGreaterThan(200);
    }
  });

  it.each([
    { what: 'different lengths', send: () => new Float64Array(3), recv: () => new Float64Array(4), cls: 'MPI_ERR_COUNT' },
    { what: 'different types', send: () => new Float64Array(4), recv: () => new Int32Array(4), cls: 'MPI_ERR_TYPE' },
  ])('mismatched buffers ($what) reject with $cls', async ({ send, recv, cls }) => {
    const e = await rejection(
      simulate({
        machine: 'xe6',
        nodes: 3,
        program: async ({ mpi }) => {
          await mpi.allreduce(send(), recv(), mpi.SUM);
        },
      }),
    );
    expect(e).toBeInstanceOf(RankError);
    expect(e.message).toContain(cls);
    expect(((e as RankError).error as MpiError).errorClass).toBe(cls);
  });

  it('a bad op rejects with MPI_ERR_OP', async () => {
    const e = await rejection(
      simulate({
        machine: 'xe6',
        nodes: 2,
        program: async ({ mpi }) => {
          await mpi.allreduce(new Int32Array(2), new Int32Array(2), 'sum' as never);
        },
      }),
    );
    expect(e).toBeInstanceOf(RankError);
    expect(e.message).toContain('MPI_ERR_OP');
  });

  // Regression: ArrayBuffer.isView accepts DataView; allreduce must reject it as MPI_ERR_BUFFER.
  it('DataView buffers reject with MPI_ERR_BUFFER', async () => {
    const e = await rejection(
      simulate({
        machine: 'xe6',
        nodes: 2,
        program: async ({ mpi }) => {
          await mpi.allreduce(new DataView(new ArrayBuffer(8)) as never, new DataView(new ArrayBuffer(8)) as never, mpi.SUM);
        },
      }),
    );
    expect(e).toBeInstanceOf(RankError);
    expect(e.message).toContain('MPI_ERR_BUFFER');
  });

  it('a plain array rejects with MPI_ERR_BUFFER', async () => {
    const e = await rejection(
      simulate({
        machine: 'xe6',
        nodes: 2,
        program: async ({ mpi }) => {
          await mpi.allreduce([1, 2] as never, new Float64Array(2), mpi.SUM);
        },
      }),
    );
    expect(e.message).toContain('MPI_ERR_BUFFER');
  });

  it('collective traffic does not match user receives (separate context)', async () => {
    const r = await simulate({
      machine: 'xe6',
      nodes: 3,
      program: async ({ mpi }) => {
        // rank 0 has a wildcard receive posted across a barrier and an allreduce
        const buf = new Int32Array(4).fill(-9);
        const req = mpi.rank === 0 ? mpi.irecv(buf, mpi.ANY_SOURCE, mpi.ANY_TAG) : null;
        await mpi.barrier();
        const out = new Int32Array(1);
        await mpi.allreduce(Int32Array.of(mpi.rank), out, mpi.MAX);
        const doneEarly = req?.done ?? false;
        // rank 2 sends only once rank 0 has looked (a collective may end on either side first)
        if (mpi.rank === 0) await mpi.send(new Int32Array(0), 2, 98);
        if (mpi.rank === 2) {
          await mpi.recv(new Int32Array(0), 0, 98);
          await mpi.send(Int32Array.of(7, 8), 0, 99);
        }
        const st = req ? await mpi.wait(req) : null;
        return { doneEarly, st, data: Array.from(buf), max: out[0] };
      },
    });
    expect(r.result).toEqual({ doneEarly: false, st: { source: 2, tag: 99, count: 2, bytes: 8 }, data: [7, 8, -9, -9], max: 2 });
  });
});
