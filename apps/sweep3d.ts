import type { CartComm, Request } from '../runtime/mpi/mpi.ts';
import type { RankContext } from '../runtime/rank.ts';
import { round, SKELETON_CHECK, type App, type AppResult, type ParamValues } from './app.ts';

/**
 * Work per cell, angle and octant of a sweep: Sweep3D's diamond-difference update (sweep.f:
 * the cell's angular flux from its source and the three incoming face fluxes, 4 multiplies and 3
 * adds and a multiply by the precomputed denominator; the three outgoing fluxes, 2 flops each;
 * the scalar flux and its moments accumulated, about 6), about 20 flops: counted from the code,
 * no per-cell figure being published. Bytes: the source read (8), the three incoming fluxes read
 * and the outgoing ones written (48), the scalar flux read and written (16).
 */
const PER_CELL_ANGLE = { flops: 20, bytes: 72 };

/**
 * Sweep3D (Los Alamos; Hoisie, Lubeck, Wasserman, "Performance and Scalability Analysis of
 * Teraflop-Scale Parallel Architectures Using Multidimensional Wavefront Applications", 2000),
 * the discrete-ordinates transport sweep SNAP also follows, with the KBA decomposition (Koch,
 * Baker, Alcouffe 1992): the i-j plane split over a 2-D process grid, each rank holding whole
 * columns in k. Each source iteration sweeps the eight octants in turn; an octant's sweep is a
 * pipelined wavefront from the corner its directions leave: the k columns are cut into blocks of
 * `mk` planes and the octant's angles into blocks of `mmi`, and for each block a rank receives
 * the incoming i-face (jt x mk x mmi fluxes) from its upstream neighbour along i and the
 * incoming j-face (it x mk x mmi) along j, computes the block and sends its outgoing faces
 * downstream. Each iteration ends with the convergence test, an allreduce of the largest flux
 * change. Real data: every face carries known values (a function of the global cell, angle,
 * octant and iteration), and every value received is checked.
 */
export const sweep3d: App = {
  name: 'sweep3d',
  summary: 'Sweep3D / SNAP: KBA pipelined wavefront sweeps over the eight octants on a 2-D process grid, faces to the downstream neighbours per block of k planes and angles; grind time per cell-angle, every face value checked',
  merit: { key: 'grindNs', higherIsBetter: false, label: 'grind ns' },
  minRanks: 1,
  params: {
    it: { type: 'int', default: 8, min: 1, max: 4096, help: 'cells per rank along i (Sweep3D: it / npe_i)' },
    jt: { type: 'int', default: 8, min: 1, max: 4096, help: 'cells per rank along j' },
    kt: { type: 'int', default: 64, min: 1, max: 65536, help: 'cells along k (whole columns on each rank)' },
    mk: { type: 'int', default: 8, min: 1, help: 'k planes per pipelined block (divides kt)' },
    angles: { type: 'int', default: 6, min: 1, max: 1024, help: 'angles per octant (6: S6 quadrature)' },
    mmi: { type: 'int', default: 3, min: 1, help: 'angles per pipelined block (divides angles)' },
    iterations: { type: 'int', default: 2, min: 1, help: 'source iterations, each sweeping all eight octants' },
  },
  check: checkSweep,
  main: runSweep,
};

function checkSweep(p: ParamValues): void {
  if ((p.kt as number) % (p.mk as number) !== 0) throw new RangeError(`parameter mk=${p.mk} of app sweep3d: must divide kt=${p.kt}`);
  if ((p.angles as number) % (p.mmi as number) !== 0) throw new RangeError(`parameter mmi=${p.mmi} of app sweep3d: must divide angles=${p.angles}`);
}

async function runSweep(ctx: RankContext, p: ParamValues): Promise<AppResult | undefined> {
  checkSweep(p);
  const { mpi } = ctx;
  const real = !ctx.skeleton;
  const [it, jt, kt, mk, angles, mmi, iterations] = ['it', 'jt', 'kt', 'mk', 'angles', 'mmi', 'iterations'].map((k) => p[k] as number) as [number, number, number, number, number, number, number];
  const [pi, pj] = mpi.dimsCreate(mpi.size, [0, 0]) as [number, number];
  const cart = (await mpi.cartCreate([pi, pj], [false, false])) as CartComm;
  const [ci, cj] = cart.coords as [number, number];
  const iNbr = cart.cartShift(0, 1);
  const jNbr = cart.cartShift(1, 1);
  const iFace = jt * mk * mmi;
  const jFace = it * mk * mmi;
  const [sendI, recvI] = [0, 1].map(() => ctx.alloc(Float64Array, iFace)) as [Float64Array, Float64Array];
  const [sendJ, recvJ] = [0, 1].map(() => ctx.alloc(Float64Array, jFace)) as [Float64Array, Float64Array];
  const blockCells = it * jt * mk * mmi;
  let compute = 0;
  let errors = 0;
  let messages = 0;
  /** The flux leaving global cell (i, j, k) through a face, for angle a of octant o in iteration t. */
  const value = (i: number, j: number, k: number, a: number, o: number, t: number): number => ((((i * 7919 + j * 104_729 + k * 1_299_709 + a * 15_485_863) % 1_048_573) + o * 1_048_576) % 8_388_608) + 8_388_608 * (t % 64);

  await cart.barrier();
  const start = ctx.now();
  for (let t = 0; t < iterations; t++) {
    for (let o = 0; o < 8; o++) {
      const di = o & 1 ? -1 : 1;
      const dj = o & 2 ? -1 : 1;
      const dk = o & 4 ? -1 : 1;
      const upI = di > 0 ? iNbr.source : iNbr.dest;
      const downI = di > 0 ? iNbr.dest : iNbr.source;
      const upJ = dj > 0 ? jNbr.source : jNbr.dest;
      const downJ = dj > 0 ? jNbr.dest : jNbr.source;
      // the global i of the cells a rank at i-coordinate `coord` sends downstream, j likewise
      const edgeI = (coord: number): number => coord * it + (di > 0 ? it - 1 : 0);
      const edgeJ = (coord: number): number => coord * jt + (dj > 0 ? jt - 1 : 0);
      for (let kb = 0; kb < kt / mk; kb++) {
        const k0 = dk > 0 ? kb * mk : kt - (kb + 1) * mk;
        for (let ab = 0; ab < angles / mmi; ab++) {
          const a0 = ab * mmi;
          const reqs: Request[] = [];
          if (upI !== mpi.PROC_NULL) reqs.push(cart.irecv(recvI, upI, 1));
          if (upJ !== mpi.PROC_NULL) reqs.push(cart.irecv(recvJ, upJ, 2));
          await cart.waitAll(reqs);
          if (real && upI !== mpi.PROC_NULL) {
            const gi = edgeI(ci - di);
            for (let j = 0; j < jt; j++) for (let k = 0; k < mk; k++) for (let a = 0; a < mmi; a++) if (recvI[(j * mk + k) * mmi + a] !== value(gi, cj * jt + j, k0 + k, a0 + a, o, t)) errors++;
          }
          if (real && upJ !== mpi.PROC_NULL) {
            const gj = edgeJ(cj - dj);
            for (let i = 0; i < it; i++) for (let k = 0; k < mk; k++) for (let a = 0; a < mmi; a++) if (recvJ[(i * mk + k) * mmi + a] !== value(ci * it + i, gj, k0 + k, a0 + a, o, t)) errors++;
          }
          const c = ctx.now();
          await ctx.compute({ flops: PER_CELL_ANGLE.flops * blockCells, bytes: PER_CELL_ANGLE.bytes * blockCells });
          compute += ctx.now() - c;
          if (real && downI !== mpi.PROC_NULL) {
            const gi = edgeI(ci);
            for (let j = 0; j < jt; j++) for (let k = 0; k < mk; k++) for (let a = 0; a < mmi; a++) sendI[(j * mk + k) * mmi + a] = value(gi, cj * jt + j, k0 + k, a0 + a, o, t);
          }
          if (real && downJ !== mpi.PROC_NULL) {
            const gj = edgeJ(cj);
            for (let i = 0; i < it; i++) for (let k = 0; k < mk; k++) for (let a = 0; a < mmi; a++) sendJ[(i * mk + k) * mmi + a] = value(ci * it + i, gj, k0 + k, a0 + a, o, t);
          }
          if (downI !== mpi.PROC_NULL) {
            await cart.send(sendI, downI, 1);
            messages++;
          }
          if (downJ !== mpi.PROC_NULL) {
            await cart.send(sendJ, downJ, 2);
            messages++;
          }
        }
      }
    }
    // the convergence test: the largest flux change over all ranks
    await cart.allreduce(Float64Array.of(1), new Float64Array(1), mpi.MAX);
  }
  const elapsed = ctx.now() - start;
  const errs = new Float64Array(1);
  await cart.allreduce(Float64Array.of(errors), errs, mpi.SUM);
  if (errs[0]! > 0) throw new Error(`sweep3d: data check failed: ${errs[0]} face fluxes differ from the upstream neighbour's values`);
  if (cart.rank !== 0) return undefined;
  const cellAngles = pi * it * pj * jt * kt * angles * 8 * iterations;
  return {
    rows: [
      {
        ranks: mpi.size,
        procGrid: `${pi}x${pj}`,
        grid: `${pi * it}x${pj * jt}x${kt}`,
        angles,
        iterations,
        stages: (kt / mk) * (angles / mmi),
        timeUs: round(elapsed),
        computeUs: round(compute),
        commUs: round(elapsed - compute),
        grindNs: round((elapsed * 1000 * mpi.size) / cellAngles),
        check: real ? 'passed' : SKELETON_CHECK,
      },
    ],
    messages,
  };
}
