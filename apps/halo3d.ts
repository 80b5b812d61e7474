import { balancedDims } from '../fabric/topology/torus.ts';
import type { Request } from '../runtime/mpi/mpi.ts';
import { round, type App } from './app.ts';

/** Value a rank writes at index `i` of the face it sends toward direction `dir` in iteration `it`. */
function faceValue(rank: number, it: number, dir: number, i: number): number {
  return rank * 1e6 + it * 1e3 + dir * 100 + (i % 97);
}

/**
 * 3-D domain decomposition with a 6-face halo exchange (periodic), using irecv/isend/waitAll.
 * Every rank owns an nx x ny x nz block of doubles; each iteration computes, then exchanges its
 * faces with its six neighbours and checks every received value against what the neighbour
 * must have sent. A wrong value anywhere fails the run.
 */
export const halo3d: App = {
  name: 'halo3d',
  summary: '3-D halo exchange (6 faces, isend/irecv) with a compute phase and a data check',
  minRanks: 1,
  params: {
    nx: { type: 'int', default: 32, min: 1, help: 'cells per rank along x' },
    ny: { type: 'int', default: 32, min: 1, help: 'cells per rank along y' },
    nz: { type: 'int', default: 32, min: 1, help: 'cells per rank along z' },
    iterations: { type: 'int', default: 10, min: 1, help: 'compute + exchange steps' },
    computeUs: { type: 'number', default: -1, min: -1, help: 'compute time per iteration in us (-1: 8 flops and 16 bytes per cell on the processor model)' },
  },
  async main(ctx, p) {
    const { mpi } = ctx;
    const [px, py, pz] = balancedDims(mpi.size, 3) as [number, number, number];
    const me = mpi.rank;
    const cx = me % px;
    const cy = Math.floor(me / px) % py;
    const cz = Math.floor(me / (px * py));
    const rankAt = (x: number, y: number, z: number): number => ((x + px) % px) + px * (((y + py) % py) + py * ((z + pz) % pz));
    const nx = p.nx as number;
    const ny = p.ny as number;
    const nz = p.nz as number;
    // directions: 0 = -x, 1 = +x, 2 = -y, 3 = +y, 4 = -z, 5 = +z
    const neighbour = [rankAt(cx - 1, cy, cz), rankAt(cx + 1, cy, cz), rankAt(cx, cy - 1, cz), rankAt(cx, cy + 1, cz), rankAt(cx, cy, cz - 1), rankAt(cx, cy, cz + 1)];
    const faceCells = [ny * nz, ny * nz, nx * nz, nx * nz, nx * ny, nx * ny];
    const sendBufs = faceCells.map((n) => new Float64Array(n));
    const recvBufs = faceCells.map((n) => new Float64Array(n));
    const cells = nx * ny * nz;
    const iterations = p.iterations as number;
    const computeUs = p.computeUs as number;
    let computeTime = 0;
    let commTime = 0;
    let errors = 0;
    await mpi.barrier();
    const start = ctx.now();
    for (let it = 0; it < iterations; it++) {
      let t = ctx.now();
      if (computeUs >= 0) await ctx.compute({ us: computeUs });
      else await ctx.compute({ flops: 8 * cells, bytes: 16 * cells });
      computeTime += ctx.now() - t;
      t = ctx.now();
      const reqs: Request[] = [];
      // what arrives from the neighbour in direction d was sent toward the opposite direction
      for (let d = 0; d < 6; d++) reqs.push(mpi.irecv(recvBufs[d]!, neighbour[d]!, d ^ 1));
      for (let d = 0; d < 6; d++) {
        const buf = sendBufs[d]!;
        for (let i = 0; i < buf.length; i++) buf[i] = faceValue(me, it, d, i);
        reqs.push(mpi.isend(buf, neighbour[d]!, d));
      }
      await mpi.waitAll(reqs);
      commTime += ctx.now() - t;
      for (let d = 0; d < 6; d++) {
        const buf = recvBufs[d]!;
        const from = neighbour[d]!;
        for (let i = 0; i < buf.length; i++) if (buf[i] !== faceValue(from, it, d ^ 1, i)) errors++;
      }
    }
    const elapsed = ctx.now() - start;
    const total = new Float64Array(1);
    await mpi.allreduce(Float64Array.of(errors), total, mpi.SUM);
    if (total[0]! > 0) throw new Error(`halo3d: data check failed: ${total[0]} received values differ from what the neighbours sent`);
    if (me !== 0) return undefined;
    const bytesPerIteration = faceCells.reduce((a, b) => a + b, 0) * 8;
    return {
      rows: [
        {
          ranks: mpi.size,
          procGrid: `${px}x${py}x${pz}`,
          localGrid: `${nx}x${ny}x${nz}`,
          iterations,
          bytesPerIteration,
          timeUs: round(elapsed),
          timePerIterationUs: round(elapsed / iterations),
          computeUs: round(computeTime),
          commUs: round(commTime),
          check: 'passed',
        },
      ],
    };
  },
};
