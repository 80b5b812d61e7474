/**
 * MPI_Neighbor_alltoallw, its nonblocking form and MPI_Ialltoallw: real data in derived layouts
 * (the faces of a 3-D array with a halo on a periodic grid of 8 ranks, mixed types on a
 * distributed graph), the library's packing cost, and the errors.
 */
import { describe, expect, it } from 'vitest';
import type { Datatype, Mpi } from '../runtime/mpi/mpi.ts';
import type { RankContext } from '../runtime/rank.ts';
import { simulate, type SimulateOptions } from '../runtime/simulate.ts';
import { rejection } from './helpers.ts';

type Program = (ctx: RankContext) => Promise<unknown>;

async function run(program: Program, opts: Partial<SimulateOptions> = {}): Promise<{ results: readonly unknown[]; timeUs: number }> {
  const r = await simulate({ machine: 'xe6', nodes: 8, ...opts, program });
  return { results: r.rankResults, timeUs: r.simulatedTimeUs };
}

async function failure(program: Program, opts: Partial<SimulateOptions> = {}): Promise<string> {
  return String(await rejection(simulate({ machine: 'xe6', nodes: 4, ...opts, program })));
}

/** Interior cells per rank along x, y, z (all different, so a swapped axis shows). */
const N = [3, 4, 5] as const;
/** The array with a halo of one: z varies fastest. */
const [X, Y, Z] = [N[0] + 2, N[1] + 2, N[2] + 2];
const at = (x: number, y: number, z: number): number => (x * Y + y) * Z + z;
/** The value of global cell g (exact in a double, different for every cell). */
const cell = (g: readonly number[]): number => g[0]! * 10000 + g[1]! * 100 + g[2]!;

/**
 * The six faces of the local block as datatypes over the whole array (count 1 each), and each
 * face's first cell: the face normal to x is ny rows of nz doubles, the one normal to y nx such
 * rows a plane apart, the one normal to z single doubles, a row apart, in planes a plane apart.
 */
function faceTypes(mpi: Mpi): Datatype[] {
  const xFace = mpi.typeVector(N[1], N[2], Z, mpi.DOUBLE);
  const yFace = mpi.typeVector(N[0], N[2], Y * Z, mpi.DOUBLE);
  const zFace = mpi.typeCreateHvector(N[0], 1, Y * Z * 8, mpi.typeVector(N[1], 1, Z, mpi.DOUBLE));
  return [xFace, yFace, zFace].map((t) => mpi.typeCommit(t));
}

/** Byte displacement of the face normal to dimension d at coordinate c along d. */
function faceAt(d: number, c: number): number {
  const p = [1, 1, 1];
  p[d] = c;
  return 8 * at(p[0]!, p[1]!, p[2]!);
}

/** Face-halo cells that differ from the neighbour's cell across the (periodic) grid; edges and corners must stay -1. */
function checkHalo(a: Float64Array, coords: readonly number[], dims: readonly number[]): string[] {
  const bad: string[] = [];
  const G = N.map((n, d) => n * dims[d]!);
  for (let x = 0; x < X; x++) {
    for (let y = 0; y < Y; y++) {
      for (let z = 0; z < Z; z++) {
        const l = [x, y, z];
        const out = l.filter((v, d) => v === 0 || v === N[d]! + 1).length;
        if (out === 0) continue;
        const want = out > 1 ? -1 : cell(l.map((v, d) => (coords[d]! * N[d]! + v - 1 + G[d]!) % G[d]!));
        if (a[at(x, y, z)] !== want) bad.push(`(${l.join(',')}) = ${a[at(x, y, z)]}, want ${want}`);
      }
    }
  }
  return bad.slice(0, 4);
}

/** The halo exchange of one rank of a 2x2x2 periodic grid by (i)neighborAlltoallw: the mismatches. */
async function haloExchange(mpi: Mpi, nonblocking: boolean): Promise<string[]> {
  const c = (await mpi.cartCreate([2, 2, 2], [true, true, true]))!;
  const a = new Float64Array(X * Y * Z).fill(-1);
  for (let x = 1; x <= N[0]; x++) for (let y = 1; y <= N[1]; y++) for (let z = 1; z <= N[2]; z++) a[at(x, y, z)] = cell([c.coords[0]! * N[0] + x - 1, c.coords[1]! * N[1] + y - 1, c.coords[2]! * N[2] + z - 1]);
  const faces = faceTypes(mpi);
  // neighbours: dim 0 below, above, dim 1 below, above, dim 2 below, above
  const types = [0, 1, 2].flatMap((d) => [faces[d]!, faces[d]!]);
  const ones = types.map(() => 1);
  // down goes my first interior layer, up my last; from below lands in the low halo, from above in the high one
  const sendAt = [0, 1, 2].flatMap((d) => [faceAt(d, 1), faceAt(d, N[d]!)]);
  const recvAt = [0, 1, 2].flatMap((d) => [faceAt(d, 0), faceAt(d, N[d]! + 1)]);
  if (nonblocking) await c.ineighborAlltoallw(a, ones, sendAt, types, a, ones, recvAt, types).wait();
  else await c.neighborAlltoallw(a, ones, sendAt, types, a, ones, recvAt, types);
  return checkHalo(a, c.coords, c.dims);
}

describe('neighborAlltoallw on a 3-D periodic grid of 8 ranks', () => {
  it.each([
    { form: 'neighborAlltoallw', nonblocking: false },
    { form: 'ineighborAlltoallw', nonblocking: true },
  ])('$form: vector and hvector faces of one array, sent and received in place, fill every face halo with the neighbour\'s cells', async ({ nonblocking }) => {
    const { results } = await run(async ({ mpi }) => haloExchange(mpi, nonblocking));
    expect(results).toEqual(new Array(8).fill([]));
  });

  it('the same on 4 nodes x 2 ranks (half the neighbours over shared memory)', async () => {
    const { results } = await run(async ({ mpi }) => haloExchange(mpi, false), { nodes: 4, ppn: 2 });
    expect(results).toEqual(new Array(8).fill([]));
  });

  it('non-contiguous faces cost the library\'s packing: a dearer mpi.packBlock makes the exchange slower by at least the blocks one rank packs and unpacks', async () => {
    const program: Program = async ({ mpi }) => {
      const t = mpi.wtime();
      const bad = await haloExchange(mpi, false);
      if (bad.length > 0) throw new Error(bad.join('; '));
      return mpi.wtime() - t;
    };
    const cheap = await run(program, { set: { 'mpi.packBlock': '0ns' } });
    const dear = await run(program, { set: { 'mpi.packBlock': '100ns' } });
    // per rank: x faces 4 rows of 5, y faces 3 rows of 5, z faces 12 single doubles; two of each packed and two unpacked
    const blocks = 4 * (N[1] + N[0] + N[0] * N[1]);
    // wtime is in seconds
    const t0 = Math.max(...(cheap.results as number[])) * 1e6;
    const t1 = Math.max(...(dear.results as number[])) * 1e6;
    expect(t1 - t0).toBeGreaterThanOrEqual(blocks * 0.1 - 1e-6);
  });
});

describe('neighborAlltoallw on a distributed graph', () => {
  it('per-neighbour counts, byte displacements and types: a strided vector lands as plain doubles, plain doubles land every third slot', async () => {
    const { results } = await run(
      async ({ mpi }) => {
        const p = mpi.size;
        const r = mpi.rank;
        const g = await mpi.distGraphCreateAdjacent([(r + p - 1) % p, (r + p - 2) % p], null, [(r + 1) % p, (r + 2) % p], null);
        const send = new Float64Array(64);
        for (let k = 0; k < 64; k++) send[k] = 1000 * r + k;
        // to r+1: 3 doubles every other one from byte 0; to r+2: 2 plain doubles from byte 256 (element 32)
        const strided = mpi.typeCommit(mpi.typeVector(3, 1, 2, mpi.DOUBLE));
        const every3 = mpi.typeCommit(mpi.typeCreateResized(mpi.DOUBLE, 0, 24));
        const recv = new Float64Array(32).fill(-1);
        // from r-1: 3 doubles at element 0; from r-2: 2 doubles every third slot from element 8
        await g.neighborAlltoallw(send, [1, 2], [0, 256], [strided, mpi.DOUBLE], recv, [3, 2], [0, 64], [mpi.DOUBLE, every3]);
        return [...recv.subarray(0, 14)];
      },
      { nodes: 5 },
    );
    results.forEach((got, r) => {
      const s1 = (r + 4) % 5;
      const s2 = (r + 3) % 5;
      const want = new Array<number>(14).fill(-1);
      want[0] = 1000 * s1;
      want[1] = 1000 * s1 + 2;
      want[2] = 1000 * s1 + 4;
      want[8] = 1000 * s2 + 32;
      want[11] = 1000 * s2 + 33;
      expect(got).toEqual(want);
    });
  });
});

describe('ialltoallw', () => {
  it('moves every pair\'s block in its derived layout, overlapping the program\'s own work, and unpacks when the request completes', async () => {
    const { results } = await run(
      async ({ mpi, compute }) => {
        const P = mpi.size;
        const me = mpi.rank;
        // to rank j: j + 2 doubles every other slot from byte 256 j; from rank i: my rank + 2 doubles every other slot from element 16 i
        const every2 = mpi.typeCommit(mpi.typeCreateResized(mpi.DOUBLE, 0, 16));
        const send = new Float64Array(32 * P);
        for (let k = 0; k < send.length; k++) send[k] = 1000 * me + k;
        const sendTypes = Array.from({ length: P }, (_, j) => mpi.typeCommit(mpi.typeVector(j + 2, 1, 2, mpi.DOUBLE)));
        const recv = new Float64Array(16 * P).fill(-1);
        const req = mpi.ialltoallw(
          send,
          sendTypes.map(() => 1),
          sendTypes.map((_, j) => 256 * j),
          sendTypes,
          recv,
          sendTypes.map(() => me + 2),
          sendTypes.map((_, i) => 128 * i),
          sendTypes.map(() => every2),
        );
        // nothing has landed before the schedule ends
        const early = recv.every((v) => v === -1);
        while (!(await req.test())) await compute({ us: 1 });
        const bad: string[] = [];
        for (let i = 0; i < P; i++) {
          for (let k = 0; k < 16; k++) {
            const want = k % 2 === 0 && k / 2 <= me + 1 ? 1000 * i + 32 * me + k : -1;
            if (recv[16 * i + k] !== want) bad.push(`from ${i} [${k}] = ${recv[16 * i + k]}, want ${want}`);
          }
        }
        return { early, bad: bad.slice(0, 4) };
      },
      { nodes: 4 },
    );
    for (const r of results) expect(r).toEqual({ early: true, bad: [] });
  });

  it('counts as MPI_Ialltoallw in --metrics, with its datatypes\' bytes', async () => {
    const r = await simulate({
      machine: 'xe6',
      nodes: 2,
      metrics: true,
      program: async ({ mpi }) => {
        const v = mpi.typeCommit(mpi.typeVector(3, 2, 4, mpi.DOUBLE));
        await mpi.ialltoallw(new Float64Array(100), [1, 6], [0, 400], [v, mpi.DOUBLE], new Float64Array(100), [1, 6], [0, 400], [v, mpi.DOUBLE]).wait();
        const c = (await mpi.cartCreate([2], [true]))!;
        await c.neighborAlltoallw(new Float64Array(100), [1, 6], [0, 400], [v, mpi.DOUBLE], new Float64Array(100), [6, 1], [0, 400], [mpi.DOUBLE, v]);
      },
    });
    const calls = r.metrics!.calls;
    expect(calls.find((c) => c.name === 'MPI_Ialltoallw')).toMatchObject({ calls: 2, bytes: 2 * 96 });
    expect(calls.find((c) => c.name === 'MPI_Neighbor_alltoallw')).toMatchObject({ calls: 2, bytes: 2 * 96 });
  });
});

describe('errors', () => {
  const f = (_mpi: Mpi): Float64Array => new Float64Array(64);
  it('no topology, counts or types shorter than the neighbours, an uncommitted type, a block whose bytes the sender does not match', async () => {
    expect(await failure(async ({ mpi }) => mpi.neighborAlltoallw(f(mpi), [1], [0], [mpi.DOUBLE], f(mpi), [1], [0], [mpi.DOUBLE]))).toMatch(/MPI_ERR_TOPOLOGY: neighborAlltoallw: the communicator has no topology/);
    const ring = async (mpi: Mpi): Promise<Mpi> => (await mpi.cartCreate([4], [true])) as unknown as Mpi;
    expect(
      await failure(async ({ mpi }) => {
        const c = await ring(mpi);
        await c.neighborAlltoallw(f(mpi), [1], [0, 8], [mpi.DOUBLE, mpi.DOUBLE], f(mpi), [1, 1], [0, 8], [mpi.DOUBLE, mpi.DOUBLE]);
      }),
    ).toMatch(/MPI_ERR_COUNT: neighborAlltoallw: sendCounts must have one entry per destination \(2\)/);
    expect(
      await failure(async ({ mpi }) => {
        const c = await ring(mpi);
        c.ineighborAlltoallw(f(mpi), [1, 1], [0, 8], [mpi.DOUBLE, mpi.DOUBLE], f(mpi), [1, 1], [0, 8], [mpi.DOUBLE]);
      }),
    ).toMatch(/MPI_ERR_ARG: ineighborAlltoallw: recvTypes must have one datatype per source \(2\), got 1/);
    expect(
      await failure(async ({ mpi }) => {
        const c = await ring(mpi);
        const v = mpi.typeVector(2, 1, 2, mpi.DOUBLE);
        await c.neighborAlltoallw(f(mpi), [1, 1], [0, 64], [v, v], f(mpi), [2, 2], [0, 64], [mpi.DOUBLE, mpi.DOUBLE]);
      }),
    ).toMatch(/MPI_ERR_TYPE: neighborAlltoallw: sendTypes\[0\] \(.*\) is not committed/);
    // every rank sends 1 double up and expects 2 from below
    expect(
      await failure(async ({ mpi }) => {
        const c = await ring(mpi);
        await c.neighborAlltoallw(f(mpi), [1, 1], [0, 8], [mpi.DOUBLE, mpi.DOUBLE], f(mpi), [1, 2], [0, 64], [mpi.DOUBLE, mpi.DOUBLE]);
      }),
    ).toMatch(/MPI_ERR_COUNT: neighborAlltoallw: source 1 \(rank \d\) sent 8 bytes, but recvCounts\[1\] x recvTypes\[1\] take 16/);
  });

  it('ialltoallw: types shorter than the ranks, a block past the buffer', async () => {
    expect(await failure(async ({ mpi }) => mpi.ialltoallw(f(mpi), [1, 1, 1, 1], [0, 8, 16, 24], [mpi.DOUBLE], f(mpi), [1, 1, 1, 1], [0, 8, 16, 24], [mpi.DOUBLE]))).toMatch(/MPI_ERR_ARG: ialltoallw: sendTypes must have one datatype per rank \(4\), got 1/);
    const four = (mpi: Mpi): Datatype[] => [mpi.DOUBLE, mpi.DOUBLE, mpi.DOUBLE, mpi.DOUBLE];
    expect(await failure(async ({ mpi }) => mpi.ialltoallw(f(mpi), [1, 1, 1, 1], [0, 8, 16, 512], four(mpi), f(mpi), [1, 1, 1, 1], [0, 8, 16, 24], four(mpi)))).toMatch(/MPI_ERR_BUFFER: ialltoallw: 1 x MPI_DOUBLE from byte 512 touch bytes 512..520 of sendBuf \(block 3\), which has 512/);
  });
});
