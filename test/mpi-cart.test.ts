import { describe, expect, it } from 'vitest';
import { dimsCreate } from '../runtime/mpi/comm.ts';
import { CartComm, MpiError } from '../runtime/mpi/mpi.ts';
import { simulate } from '../runtime/simulate.ts';

describe('Cartesian topologies', () => {
  it.each([
    { n: 12, dims: [0, 0], want: [4, 3] },
    { n: 64, dims: [0, 0, 0], want: [4, 4, 4] },
    { n: 24, dims: [0, 3, 0], want: [4, 3, 2] },
    { n: 6, dims: [2, 0], want: [2, 3] },
    { n: 7, dims: [0, 0], want: [7, 1] },
    { n: 30, dims: [0, 0, 0], want: [5, 3, 2] },
    { n: 16, dims: [0, 0, 0, 0], want: [2, 2, 2, 2] },
    { n: 1, dims: [0, 0], want: [1, 1] },
    { n: 12, dims: [3, 4], want: [3, 4] },
    { n: 9, dims: [0], want: [9] },
  ])('dimsCreate($n, $dims) = $want', ({ n, dims, want }) => {
    expect(dimsCreate(n, dims)).toEqual(want);
  });

  it.each([
    { n: 12, dims: [5, 0], cls: 'MPI_ERR_DIMS', mentions: 'do not divide' },
    { n: 12, dims: [3, 3], cls: 'MPI_ERR_DIMS', mentions: 'do not divide' },
    { n: 12, dims: [2, 3], cls: 'MPI_ERR_DIMS', mentions: 'give 6 ranks' },
    { n: 12, dims: [-1, 0], cls: 'MPI_ERR_DIMS', mentions: 'dims=[-1,0]' },
    { n: 12, dims: [], cls: 'MPI_ERR_DIMS', mentions: 'dims=[]' },
    { n: 0, dims: [0, 0], cls: 'MPI_ERR_ARG', mentions: 'nnodes=0' },
    { n: 2.5, dims: [0], cls: 'MPI_ERR_ARG', mentions: 'nnodes=2.5' },
  ])('dimsCreate($n, $dims) throws $cls', ({ n, dims, cls, mentions }) => {
    let err: unknown = null;
    try {
      dimsCreate(n, dims);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(MpiError);
    expect((err as MpiError).errorClass).toBe(cls);
    expect((err as MpiError).message).toContain(mentions);
  });

  it('cartCreate 4x3 (periodic x, open y) on 14 ranks: coordinates, cartRank round trip, shifts at edges and wrapping; ranks 12 and 13 get null', async () => {
    const r = await simulate({
      machine: 'xe6',
      nodes: 7,
      ppn: 2,
      program: async ({ mpi }) => {
        const dims = mpi.dimsCreate(12, [0, 0]);
        const cart = await mpi.cartCreate(dims, [true, false]);
        if (!cart) return null;
        const roundTrip = Array.from({ length: cart.size }, (_, k) => cart.cartRank(cart.cartCoords(k)) === k).every(Boolean);
        return {
          isCart: cart instanceof CartComm,
          dims: cart.dims,
          rank: cart.rank,
          size: cart.size,
          coords: cart.coords,
          roundTrip,
          x1: cart.cartShift(0, 1),
          x5: cart.cartShift(0, 5),
          y1: cart.cartShift(1, 1),
          yMinus2: cart.cartShift(1, -2),
          wrapped: cart.cartRank([-1, 2]),
        };
      },
    });
    expect(r.rankResults[12]).toBeNull();
    expect(r.rankResults[13]).toBeNull();
    const P = -1;
    for (let k = 0; k < 12; k++) {
      const x = Math.floor(k / 3);
      const y = k % 3;
      const at = (xx: number, yy: number): number => (yy < 0 || yy > 2 ? P : (((xx % 4) + 4) % 4) * 3 + yy);
      expect(r.rankResults[k], `rank ${k}`).toEqual({
        isCart: true,
        dims: [4, 3],
        rank: k,
        size: 12,
        coords: [x, y],
        roundTrip: true,
        x1: { source: at(x - 1, y), dest: at(x + 1, y) },
        x5: { source: at(x - 5, y), dest: at(x + 5, y) },
        y1: { source: at(x, y - 1), dest: at(x, y + 1) },
        yMinus2: { source: at(x, y + 2), dest: at(x, y - 2) },
        wrapped: 11,
      });
    }
    // spot checks of the formula itself
    expect(r.rankResults[0]!.y1).toEqual({ source: P, dest: 1 });
    expect(r.rankResults[0]!.x1).toEqual({ source: 9, dest: 3 });
    expect(r.rankResults[11]!.x1).toEqual({ source: 8, dest: 2 });
  });

  it('cartSub into rows and columns: sizes, ranks, and a row sum and column max by allreduce', async () => {
    const r = await simulate({
      machine: 'xe6',
      nodes: 6,
      ppn: 2,
      program: async ({ mpi }) => {
        const cart = (await mpi.cartCreate([4, 3], [false, true]))!;
        const row = await cart.cartSub([false, true]);
        const col = await cart.cartSub([true, false]);
        const sum = new Int32Array(1);
        const max = new Int32Array(1);
        await row.allreduce(Int32Array.of(mpi.rank), sum, mpi.SUM);
        await col.allreduce(Int32Array.of(mpi.rank * 7 % 12), max, mpi.MAX);
        return { row: { size: row.size, rank: row.rank, dims: row.dims, periods: row.periods, members: row.group.ranks }, col: { size: col.size, rank: col.rank, dims: col.dims, members: col.group.ranks }, sum: sum[0], max: max[0] };
      },
    });
    r.rankResults.forEach((g, k) => {
      const x = Math.floor(k / 3);
      const y = k % 3;
      const rowMembers = [0, 1, 2].map((yy) => x * 3 + yy);
      const colMembers = [0, 1, 2, 3].map((xx) => xx * 3 + y);
      expect(g.row, `rank ${k}`).toEqual({ size: 3, rank: y, dims: [3], periods: [true], members: rowMembers });
      expect(g.col, `rank ${k}`).toEqual({ size: 4, rank: x, dims: [4], members: colMembers });
      expect(g.sum).toBe(rowMembers.reduce((a, b) => a + b, 0));
      expect(g.max).toBe(Math.max(...colMembers.map((m) => (m * 7) % 12)));
    });
  });

  it('2-D halo exchange on a 3x4 grid (periodic in x, open in y) with cartShift and sendrecv: every halo cell holds its neighbour\'s value', async () => {
    const NX = 4; // interior rows per rank
    const NY = 5; // interior columns per rank
    const PX = 3;
    const PY = 4;
    const value = (gi: number, gj: number): number => gi * 1000 + gj;
    const r = await simulate({
      machine: 'xe6',
      nodes: 6,
      ppn: 2,
      program: async ({ mpi }) => {
        const cart = (await mpi.cartCreate([PX, PY], [true, false]))!;
        const [cx, cy] = cart.coords as [number, number];
        const W = NY + 2;
        const a = new Float64Array((NX + 2) * W).fill(-1);
        for (let i = 1; i <= NX; i++) for (let j = 1; j <= NY; j++) a[i * W + j] = value(cx * NX + i - 1, cy * NY + j - 1);
        const rowOf = (i: number): Float64Array => a.subarray(i * W + 1, i * W + 1 + NY);
        const col = (j: number): Float64Array => Float64Array.from({ length: NX }, (_, i) => a[(i + 1) * W + j]!);
        const setCol = (j: number, v: Float64Array): void => v.forEach((x, i) => (a[(i + 1) * W + j] = x));
        // x: last interior row down, top halo from up; then first interior row up, bottom halo from down
        const x = cart.cartShift(0, 1);
        const top = new Float64Array(NY);
        const bottom = new Float64Array(NY);
        await cart.sendrecv(rowOf(NX), x.dest, 0, top, x.source, 0);
        await cart.sendrecv(rowOf(1), x.source, 1, bottom, x.dest, 1);
        a.set(top, 1);
        a.set(bottom, (NX + 1) * W + 1);
        // y (open): PROC_NULL at the edges leaves the halo at -1
        const y = cart.cartShift(1, 1);
        const left = new Float64Array(NX).fill(-1);
        const right = new Float64Array(NX).fill(-1);
        await cart.sendrecv(col(NY), y.dest, 2, left, y.source, 2);
        await cart.sendrecv(col(1), y.source, 3, right, y.dest, 3);
        setCol(0, left);
        setCol(NY + 1, right);
        return { cx, cy, a: Array.from(a) };
      },
    });
    let checked = 0;
    for (const g of r.rankResults) {
      const W = NY + 2;
      for (let i = 0; i <= NX + 1; i++) {
        for (let j = 0; j <= NY + 1; j++) {
          const corner = (i === 0 || i === NX + 1) && (j === 0 || j === NY + 1);
          if (corner) continue;
          const gi = (((g.cx * NX + i - 1) % (PX * NX)) + PX * NX) % (PX * NX);
          const gj = g.cy * NY + j - 1;
          const want = gj < 0 || gj >= PY * NY ? -1 : value(gi, gj);
          expect(g.a[i * W + j], `rank at (${g.cx},${g.cy}) cell (${i},${j})`).toBe(want);
          checked++;
        }
      }
    }
    expect(checked).toBe(12 * ((NX + 2) * (NY + 2) - 4));
  });
});
