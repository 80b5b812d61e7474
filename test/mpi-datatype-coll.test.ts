/**
 * The collectives' long forms (buffer, count, datatype) and MPI_Alltoallw
 * (runtime/mpi/datatype-coll.ts): real data in derived layouts on 4 ranks, over the network and
 * over shared memory, checked element by element against values each rank can work out alone;
 * reductions on predefined, contiguous and pair types; and the errors.
 */
import { describe, expect, it } from 'vitest';
import { MpiError, type Datatype, type Mpi } from '../runtime/mpi/mpi.ts';
import { simulate } from '../runtime/simulate.ts';
import { rejection } from './helpers.ts';

const placements = [
  { name: 'over the network (nodes=4, ppn=1)', nodes: 4, ppn: 1 },
  { name: 'over shared memory (nodes=1, ppn=4)', nodes: 1, ppn: 4 },
] as const;

/** Value k of rank r's data: exact in a double, different for every (r, k). */
const val = (r: number, k: number): number => 1000 * (r + 1) + k;

/** Runs `program` on 4 ranks and returns each rank's list of mismatches (empty when all is well). */
async function run4(nodes: number, ppn: number, program: (mpi: Mpi) => Promise<string[]>): Promise<string[][]> {
  const r = await simulate({ machine: 'xe6', nodes, ppn, program: async ({ mpi }) => (await program(mpi)).slice(0, 4) });
  return r.rankResults as string[][];
}

/** Where `got` differs from `want(i)` for i in [0, got.length), labelled. */
function diff(label: string, got: ArrayLike<number>, want: (i: number) => number): string[] {
  const out: string[] = [];
  for (let i = 0; i < got.length; i++) if (got[i] !== want(i)) out.push(`${label}[${i}] = ${got[i]}, want ${want(i)}`);
  return out;
}

const NONE = [[], [], [], []];

describe.each(placements)('data movement in derived layouts, $name', ({ nodes, ppn }) => {
  it('bcast: the root sends a strided vector, the others receive contiguous doubles', async () => {
    const n = 700; // 5.6 KB eager; the same again with 2100 (16.8 KB, rendezvous)
    for (const k of [n, 3 * n]) {
      const got = await run4(nodes, ppn, async (mpi) => {
        if (mpi.rank === 1) {
          const a = Float64Array.from({ length: 2 * k }, (_, i) => (i % 2 === 0 ? val(1, i / 2) : -1));
          await mpi.bcast(a, 1, mpi.typeCommit(mpi.typeVector(k, 1, 2, mpi.DOUBLE)), 1);
          return diff('root kept', a, (i) => (i % 2 === 0 ? val(1, i / 2) : -1));
        }
        const b = new Float64Array(k);
        await mpi.bcast(b, k, mpi.DOUBLE, 1);
        return diff('bcast', b, (i) => val(1, i));
      });
      expect(got, `${k} doubles`).toEqual(NONE);
    }
  });

  it('gather into the columns of a matrix with a resized column type, and scatter them back', async () => {
    const n = 50;
    const got = await run4(nodes, ppn, async (mpi) => {
      const P = mpi.size;
      // one column of an n x P row-major matrix, its extent one double: column r starts r doubles in
      const column = mpi.typeCommit(mpi.typeCreateResized(mpi.typeVector(n, 1, P, mpi.DOUBLE), 0, 8));
      const mine = Float64Array.from({ length: n }, (_, i) => val(mpi.rank, i));
      const matrix = mpi.rank === 2 ? new Float64Array(n * P) : null;
      await mpi.gather(mine, n, mpi.DOUBLE, matrix, 1, column, 2);
      const bad = matrix ? diff('matrix', matrix, (i) => val(i % P, Math.floor(i / P))) : [];
      // back: the root scatters column r to rank r, which receives it doubled up in a stride-2 vector
      if (matrix) for (let i = 0; i < matrix.length; i++) matrix[i] = -matrix[i]!;
      const back = new Float64Array(2 * n);
      await mpi.scatter(matrix, 1, column, back, 1, mpi.typeCommit(mpi.typeVector(n, 1, 2, mpi.DOUBLE)), 2);
      return [...bad, ...diff('scattered', back, (i) => (i % 2 === 0 ? -val(mpi.rank, i / 2) : 0))];
    });
    expect(got).toEqual(NONE);
  });

  it('allgather in place and alltoall of strided blocks (a distributed transpose)', async () => {
    const k = 6;
    const got = await run4(nodes, ppn, async (mpi) => {
      const P = mpi.size;
      // allgather in place: each rank's k doubles already sit in its block of recvBuf
      const all = new Float64Array(P * k).fill(-1);
      for (let i = 0; i < k; i++) all[mpi.rank * k + i] = val(mpi.rank, i);
      await mpi.allgather(mpi.IN_PLACE, 0, null, all, k, mpi.DOUBLE);
      const bad = diff('allgather', all, (i) => val(Math.floor(i / k), i % k));
      // transpose: rank r holds rows r*k..r*k+k-1 of a (P*k) x (P*k) matrix; block j of
      // columns goes to rank j, sent as a k x k sub-block (vector of k rows of k doubles)
      const N = P * k;
      const rows = Float64Array.from({ length: k * N }, (_, x) => (mpi.rank * k + Math.floor(x / N)) * 1000 + (x % N));
      const block = mpi.typeCommit(mpi.typeCreateResized(mpi.typeVector(k, k, N, mpi.DOUBLE), 0, k * 8));
      const recv = new Float64Array(k * N);
      await mpi.alltoall(rows, 1, block, recv, k * k, mpi.DOUBLE);
      // block i of recv is rows i*k.. of columns mpi.rank*k.., row-major
      const want = (x: number): number => {
        const i = Math.floor(x / (k * k));
        const y = x % (k * k);
        return (i * k + Math.floor(y / k)) * 1000 + mpi.rank * k + (y % k);
      };
      return [...bad, ...diff('alltoall', recv, want)];
    });
    expect(got).toEqual(NONE);
  });

  it('gatherv, scatterv, allgatherv and alltoallv with displacements in extents of the datatype', async () => {
    const got = await run4(nodes, ppn, async (mpi) => {
      const P = mpi.size;
      const me = mpi.rank;
      // a pair of doubles with a hole after it: extent 3 doubles
      const pair = mpi.typeCommit(mpi.typeCreateResized(mpi.typeContiguous(2, mpi.DOUBLE), 0, 24));
      // rank r contributes r+1 pairs; at the root, rank r's pairs start at pair 3r (displs in extents)
      const counts = Array.from({ length: P }, (_, r) => r + 1);
      const displs = Array.from({ length: P }, (_, r) => 3 * r);
      const mine = Float64Array.from({ length: 2 * (me + 1) }, (_, i) => val(me, i));
      // rank P-1's last pair is pair 3(P-1) + P-1, its last double 3 x that + 1
      const whole = new Float64Array(12 * P).fill(-1);
      // where element i of rank r's data lies in the gathered buffer: pair 3r + i/2, slot i%2
      const placed = new Map<number, number>();
      for (let r = 0; r < P; r++) for (let i = 0; i < 2 * (r + 1); i++) placed.set(3 * (3 * r + Math.floor(i / 2)) + (i % 2), val(r, i));
      const bad: string[] = [];
      await mpi.gatherv(mine, 2 * (me + 1), mpi.DOUBLE, me === 0 ? whole : null, counts, displs, pair, 0);
      if (me === 0) bad.push(...diff('gatherv', whole, (i) => placed.get(i) ?? -1));
      const back = new Float64Array(2 * (me + 1));
      await mpi.scatterv(me === 0 ? whole : null, counts, displs, pair, back, 2 * (me + 1), mpi.DOUBLE, 0);
      bad.push(...diff('scatterv', back, (i) => val(me, i)));
      const everywhere = new Float64Array(12 * P).fill(-1);
      // sent as me+1 pairs of contiguous doubles
      await mpi.allgatherv(mine, me + 1, mpi.typeCommit(mpi.typeContiguous(2, mpi.DOUBLE)), everywhere, counts, displs, pair);
      bad.push(...diff('allgatherv', everywhere, (i) => placed.get(i) ?? -1));
      // alltoallv: rank me sends j+1 doubles to rank j, from double 10j; receives me+1 doubles from each rank i at double 10i
      const send = Float64Array.from({ length: 10 * P }, (_, x) => val(me, x));
      const recv = new Float64Array(10 * P).fill(-1);
      const tens = Array.from({ length: P }, (_, r) => 10 * r);
      await mpi.alltoallv(send, counts, tens, mpi.DOUBLE, recv, new Array<number>(P).fill(me + 1), tens, mpi.DOUBLE);
      bad.push(...diff('alltoallv', recv, (x) => (x % 10 < me + 1 ? val(Math.floor(x / 10), 10 * me + (x % 10)) : -1)));
      return bad;
    });
    expect(got).toEqual(NONE);
  });

  it('alltoallw: per-rank counts, byte displacements and mixed datatypes on both sides', async () => {
    const got = await run4(nodes, ppn, async (mpi) => {
      const P = mpi.size;
      const me = mpi.rank;
      // rank i sends k(i, j) = i + j + 1 doubles to rank j, none to itself
      const k = (i: number, j: number): number => (i === j ? 0 : i + j + 1);
      const strided = (n: number): Datatype => mpi.typeCommit(mpi.typeVector(n, 1, 2, mpi.DOUBLE));
      // struct { int tag; double v } must land as the same struct
      const rec = mpi.typeCommit(mpi.typeCreateStruct(2, [1, 1], [0, 8], [mpi.INT, mpi.DOUBLE]));
      // send side: block j at byte 1024 j; to even ranks strided doubles (count 1), to odd ranks plain doubles (count k)
      const send = new Float64Array(128 * P);
      for (let j = 0; j < P; j++) for (let x = 0; x < 2 * k(me, j); x++) send[128 * j + x] = val(me, 100 * j + x);
      const sendTypes = Array.from({ length: P }, (_, j) => (j % 2 === 0 ? strided(k(me, j)) : mpi.DOUBLE));
      const sendCounts = Array.from({ length: P }, (_, j) => (j % 2 === 0 ? 1 : k(me, j)));
      // receive side: from even ranks contiguous(k) x 1, from odd ranks doubles every third slot (k x 1 of a resized double)
      const every3 = mpi.typeCommit(mpi.typeCreateResized(mpi.DOUBLE, 0, 24));
      const recvTypes = Array.from({ length: P }, (_, i) => (i % 2 === 0 ? mpi.typeCommit(mpi.typeContiguous(Math.max(1, k(i, me)), mpi.DOUBLE)) : every3));
      const recvCounts = Array.from({ length: P }, (_, i) => (i % 2 === 0 ? (k(i, me) > 0 ? 1 : 0) : k(i, me)));
      const recv = new Float64Array(128 * P).fill(-1);
      const bytesAt = Array.from({ length: P }, (_, j) => 1024 * j);
      // and a struct exchange between ranks 0 and 1 in a second call, with every other count zero
      await mpi.alltoallw(send, sendCounts, bytesAt, sendTypes, recv, recvCounts, bytesAt, recvTypes);
      const bad: string[] = [];
      for (let i = 0; i < P; i++) {
        const blk = recv.subarray(128 * i, 128 * i + 128);
        // what rank i sent me: if I am even, strided (every other of its values), else plain
        const sent = (x: number): number => val(i, 100 * me + (me % 2 === 0 ? 2 * x : x));
        const want = (y: number): number => {
          if (i % 2 === 0) return y < k(i, me) ? sent(y) : -1;
          return y % 3 === 0 && y / 3 < k(i, me) ? sent(y / 3) : -1;
        };
        bad.push(...diff(`from ${i}`, blk, want));
      }
      const recBuf = new DataView(new ArrayBuffer(16 * P));
      const recOut = new DataView(new ArrayBuffer(16 * P));
      for (let j = 0; j < P; j++) {
        recOut.setInt32(16 * j, 10 * me + j, true);
        recOut.setFloat64(16 * j + 8, val(me, j) + 0.5, true);
      }
      const one = Array.from({ length: P }, (_, j) => (me < 2 && j < 2 && j !== me ? 1 : 0));
      const at16 = Array.from({ length: P }, (_, j) => 16 * j);
      const recs = new Array<Datatype>(P).fill(rec);
      await mpi.alltoallw(recOut, one, at16, recs, recBuf, one, at16, recs);
      if (me < 2) {
        const o = 1 - me;
        if (recBuf.getInt32(16 * o, true) !== 10 * o + me || recBuf.getFloat64(16 * o + 8, true) !== val(o, me) + 0.5) bad.push(`struct from ${o}`);
      }
      return bad;
    });
    expect(got).toEqual(NONE);
  });
});

describe('reductions on datatypes', () => {
  it('allreduce, reduce in place, scan and the reduce-scatters on predefined and contiguous types', async () => {
    const got = await run4(4, 1, async (mpi) => {
      const P = mpi.size;
      const me = mpi.rank;
      const bad: string[] = [];
      const sumOver = (f: (r: number) => number, upTo = P - 1): number => Array.from({ length: upTo + 1 }, (_, r) => f(r)).reduce((a, b) => a + b, 0);
      // 2 x contiguous(3, DOUBLE) = 6 doubles, from a buffer 8 bytes into an ArrayBuffer
      const t3 = mpi.typeCommit(mpi.typeContiguous(3, mpi.DOUBLE));
      const raw = new ArrayBuffer(8 + 48);
      const send = new Float64Array(raw, 8, 6);
      for (let i = 0; i < 6; i++) send[i] = val(me, i);
      const recv = new Float64Array(6);
      await mpi.allreduce(send, recv, 2, t3, mpi.SUM);
      bad.push(...diff('allreduce', recv, (i) => sumOver((r) => val(r, i))));
      // ints at an odd byte offset (not aligned for an Int32Array over the buffer)
      const odd = new Uint8Array(1 + 4 * 3);
      const dv = new DataView(odd.buffer, 1);
      for (let i = 0; i < 3; i++) dv.setInt32(4 * i, me * 10 + i, true);
      await mpi.reduce(me === 0 ? mpi.IN_PLACE : new Uint8Array(odd.buffer, 1), me === 0 ? new Uint8Array(odd.buffer, 1) : null, 3, mpi.INT, mpi.MAX, 0);
      if (me === 0) for (let i = 0; i < 3; i++) if (dv.getInt32(4 * i, true) !== (P - 1) * 10 + i) bad.push(`reduce[${i}] = ${dv.getInt32(4 * i, true)}`);
      const pre = new Int32Array(2);
      await mpi.scan(Int32Array.of(me + 1, 2 * me), pre, 2, mpi.INT, mpi.SUM);
      bad.push(...diff('scan', pre, (i) => sumOver((r) => (i === 0 ? r + 1 : 2 * r), me)));
      const block = new Float64Array(2);
      await mpi.reduceScatterBlock(Float64Array.from({ length: 2 * P }, (_, i) => val(me, i)), block, 2, mpi.DOUBLE, mpi.SUM);
      bad.push(...diff('reduceScatterBlock', block, (i) => sumOver((r) => val(r, 2 * me + i))));
      // rank r gets r+1 doubles
      const counts = Array.from({ length: P }, (_, r) => r + 1);
      const total = counts.reduce((a, b) => a + b, 0);
      const part = new Float64Array(me + 1);
      await mpi.reduceScatter(Float64Array.from({ length: total }, (_, i) => val(me, i)), part, counts, mpi.DOUBLE, mpi.SUM);
      const first = counts.slice(0, me).reduce((a, b) => a + b, 0);
      bad.push(...diff('reduceScatter', part, (i) => sumOver((r) => val(r, first + i))));
      return bad;
    });
    expect(got).toEqual(NONE);
  });

  it('MINLOC and MAXLOC on DOUBLE_INT and TWO_INT structs; ties take the lower index', async () => {
    const got = await run4(4, 1, async (mpi) => {
      const me = mpi.rank;
      // two struct { double; int } per rank (extent 16): value, index = rank
      const mk = (vals: number[]): DataView => {
        const d = new DataView(new ArrayBuffer(16 * vals.length));
        vals.forEach((v, i) => {
          d.setFloat64(16 * i, v, true);
          d.setInt32(16 * i + 8, me, true);
          d.setInt32(16 * i + 12, 0x7777, true); // padding, left alone
        });
        return d;
      };
      // item 0: least at rank 2; item 1: all tie at 5
      const send = mk([me === 2 ? -3.25 : me, 5]);
      const out = mk([0, 0]);
      await mpi.allreduce(send, out, 2, mpi.DOUBLE_INT, mpi.MINLOC);
      const bad: string[] = [];
      const seen = [0, 1].map((i) => [out.getFloat64(16 * i, true), out.getInt32(16 * i + 8, true), out.getInt32(16 * i + 12, true)]);
      if (JSON.stringify(seen) !== JSON.stringify([[-3.25, 2, 0x7777], [5, 0, 0x7777]])) bad.push(`minloc ${JSON.stringify(seen)}`);
      const pairs = new Int32Array(2);
      await mpi.allreduce(Int32Array.of(me * 7 % 4, me), pairs, 1, mpi.TWO_INT, mpi.MAXLOC);
      // 0, 7%4=3, 14%4=2, 21%4=1: the largest is 3, at rank 1
      if (pairs[0] !== 3 || pairs[1] !== 1) bad.push(`maxloc ${pairs.join(',')}`);
      return bad;
    });
    expect(got).toEqual(NONE);
  });
});

describe('reductions on non-contiguous datatypes', () => {
  it('reduce, iallreduce and reduceScatterBlock on a resized vector (every other int) with a user op; the gaps stay', async () => {
    const got = await run4(4, 1, async (mpi) => {
      const me = mpi.rank;
      const P = mpi.size;
      const n = 5;
      // one int, extent two ints: element i at int 2i (MPICH's nonblocking2 noncontiguous type)
      const every2 = mpi.typeCommit(mpi.typeCreateResized(mpi.typeVector(1, 1, 2, mpi.INT), 0, 8));
      const sum = mpi.opCreate((inout, input) => {
        for (let i = 0; i < inout.length; i++) (inout as Int32Array)[i] = (inout as Int32Array)[i]! + (input as Int32Array)[i]!;
      }, true);
      const send = Int32Array.from({ length: 2 * n * P }, (_, k) => (k % 2 === 0 ? me + k / 2 : -7));
      const recv = new Int32Array(2 * n * P).fill(-9);
      const bad: string[] = [];
      // the sum over ranks of (rank + i): P(P-1)/2 + P i
      const want = (i: number): number => (P * (P - 1)) / 2 + P * i;
      await mpi.reduce(send, recv, n, every2, sum, 0);
      if (me === 0) bad.push(...diff('reduce', recv.filter((_, k) => k % 2 === 0).slice(0, n), want));
      bad.push(...diff('gaps', recv.filter((_, k) => k % 2 === 1), () => -9));
      recv.fill(-9);
      await mpi.wait(mpi.iallreduce(send, recv, n, every2, mpi.SUM));
      bad.push(...diff('iallreduce', recv.filter((_, k) => k % 2 === 0).slice(0, n), want));
      recv.fill(-9);
      await mpi.reduceScatterBlock(send, recv, n, every2, sum);
      bad.push(...diff('reduceScatterBlock', recv.filter((_, k) => k % 2 === 0).slice(0, n), (i) => want(me * n + i)));
      bad.push(...diff('gaps after', recv.filter((_, k) => k % 2 === 1), () => -9));
      return bad;
    });
    expect(got).toEqual(NONE);
  });
});

describe('errors of the collectives\' long forms', () => {
  async function failure(program: (mpi: Mpi) => Promise<unknown>): Promise<string> {
    const e = await rejection(simulate({ machine: 'xe6', nodes: 2, program: async ({ mpi }) => program(mpi) }));
    return e.message;
  }

  it('each fails with its MPI error class, naming the call and the argument', async () => {
    expect(await failure((mpi) => mpi.bcast(new Float64Array(4), 2, mpi.typeVector(2, 1, 2, mpi.DOUBLE), 0))).toMatch(/MPI_ERR_TYPE: bcast: datatype \(vector\(2, 1, 2, MPI_DOUBLE\)\) is not committed/);
    expect(await failure((mpi) => mpi.allreduce(new Float64Array(4), new Float64Array(4), 1, mpi.typeCommit(mpi.typeCreateStruct(2, [1, 1], [0, 8], [mpi.DOUBLE, mpi.FLOAT])), mpi.SUM))).toMatch(
      /MPI_ERR_TYPE: allreduce: struct.* is not made of one basic type/,
    );
    expect(await failure((mpi) => mpi.allreduce(new Uint8Array(16), new Uint8Array(16), 1, mpi.DOUBLE_INT, mpi.SUM))).toMatch(/MPI_ERR_OP: allreduce: MPI_SUM is not defined on MPI_DOUBLE_INT/);
    expect(await failure((mpi) => mpi.allreduce(new Float64Array(2), new Float64Array(2), 2, mpi.DOUBLE, mpi.MINLOC))).toMatch(/MPI_ERR_OP: allreduce: MPI_MINLOC works on the pair types/);
    expect(await failure((mpi) => mpi.gather(new Float64Array(4), 4, mpi.DOUBLE, mpi.rank === 0 ? new Float64Array(4) : null, 4, mpi.DOUBLE, 0))).toMatch(/MPI_ERR_BUFFER: gather: 8 x MPI_DOUBLE touch bytes 0..64 of recvBuf, which has 32/);
    expect(await failure((mpi) => mpi.alltoallv(new Float64Array(4), [1, -1], [0, 1], mpi.DOUBLE, new Float64Array(4), [1, 1], [0, 1], mpi.DOUBLE))).toMatch(/MPI_ERR_COUNT: alltoallv: sendCounts\[1\]=-1 must be a non-negative integer/);
    expect(await failure((mpi) => mpi.alltoallw(new Float64Array(4), [1, 1], [0, 8], [mpi.DOUBLE, 'x' as unknown as Datatype], new Float64Array(4), [1, 1], [0, 8], [mpi.DOUBLE, mpi.DOUBLE]))).toMatch(/MPI_ERR_TYPE: alltoallw: sendTypes\[1\] must be an MPI datatype/);
    // a pair whose bytes disagree: rank 0 sends 2 doubles to rank 1, which expects 1
    expect(await failure((mpi) => mpi.alltoall(new Float64Array(4), 2, mpi.DOUBLE, new Float64Array(4), mpi.rank === 1 ? 1 : 2, mpi.DOUBLE))).toMatch(/MPI_ERR_COUNT: alltoall: sendBuf and recvBuf must have the same length \(got 32 and 16\)/);
    // alltoallw: rank 1 sends its vector (48 bytes) to rank 0, which expects 2 ints from it
    const v = (mpi: Mpi): Datatype => mpi.typeCommit(mpi.typeVector(3, 2, 4, mpi.DOUBLE));
    expect(await failure((mpi) => mpi.alltoallw(new Float64Array(100), [1, 2], [0, 400], [v(mpi), mpi.INT], new Float64Array(100), [1, 2], [0, 400], [v(mpi), mpi.INT]))).toMatch(
      /MPI_ERR_COUNT: alltoallw \(collective call 1 on MPI_COMM_WORLD\): rank 1 sends 48 bytes to rank 0, which expects 8/,
    );
  });

  it('an MpiError, not a JavaScript error, when the long form gets a non-datatype', async () => {
    const msg = await failure((mpi) => mpi.scatter(new Float64Array(4), 2, 'double' as unknown as Datatype, new Float64Array(2), 2, mpi.DOUBLE, 0));
    expect(msg).toMatch(/MPI_ERR_TYPE: scatter: sendType must be an MPI datatype/);
    expect(MpiError).toBeDefined();
  });
});

describe('instrumentation of the collectives\' long forms', () => {
  it('--metrics counts count x datatype bytes for bcast, allreduce and alltoallw', async () => {
    const r = await simulate({
      machine: 'xe6',
      nodes: 2,
      metrics: true,
      program: async ({ mpi }) => {
        const v = mpi.typeCommit(mpi.typeVector(3, 2, 4, mpi.DOUBLE));
        await mpi.bcast(new Float64Array(100), 1, v, 0);
        await mpi.allreduce(new Float64Array(8), new Float64Array(8), 5, mpi.DOUBLE, mpi.SUM);
        // to and from rank 0 a vector, to and from rank 1 six doubles: 48 bytes each way
        await mpi.alltoallw(new Float64Array(100), [1, 6], [0, 400], [v, mpi.DOUBLE], new Float64Array(100), [1, 6], [0, 400], [v, mpi.DOUBLE]);
      },
    });
    const calls = r.metrics!.calls;
    // two ranks each: 48 bytes of the vector; 5 doubles; 48 + 48
    expect(calls.find((c) => c.name === 'MPI_Bcast')).toMatchObject({ calls: 2, bytes: 2 * 48 });
    expect(calls.find((c) => c.name === 'MPI_Allreduce')).toMatchObject({ calls: 2, bytes: 2 * 40 });
    expect(calls.find((c) => c.name === 'MPI_Alltoallw')).toMatchObject({ calls: 2, bytes: 2 * 96 });
  });
});

describe('skeleton runs', () => {
  it('long forms on skeleton buffers run and take the same time as with real data', async () => {
    const program = async (ctx: import('../runtime/rank.ts').RankContext): Promise<number> => {
      const { mpi } = ctx;
      const P = mpi.size;
      const v = mpi.typeCommit(mpi.typeVector(2000, 1, 2, mpi.DOUBLE));
      const a = ctx.alloc(Float64Array, 4000 * P);
      const b = ctx.alloc(Float64Array, 4000 * P);
      await mpi.sendrecv(a, 1, v, (mpi.rank + 1) % P, 0, b, 1, v, (mpi.rank + P - 1) % P, 0);
      await mpi.allreduce(a, b, 100, mpi.DOUBLE, mpi.SUM);
      const types = new Array<Datatype>(P).fill(v);
      const at = Array.from({ length: P }, (_, j) => 32000 * j);
      await mpi.alltoallw(a, new Array<number>(P).fill(1), at, types, b, new Array<number>(P).fill(1), at, types);
      return ctx.now();
    };
    const real = await simulate({ machine: 'xe6', nodes: 4, program });
    const skel = await simulate({ machine: 'xe6', nodes: 4, skeleton: true, program });
    expect(skel.rankResults).toEqual(real.rankResults);
  });
});
