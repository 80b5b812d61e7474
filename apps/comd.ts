import type { CartComm } from '../runtime/mpi/mpi.ts';
import type { RankContext } from '../runtime/rank.ts';
import { round, SKELETON_CHECK, type App, type AppResult, type ParamValues } from './app.ts';

/** CoMD's Lennard-Jones copper (CoMD 1.1 ljForce.c): lattice constant 3.615 A, cutoff 2.5 sigma = 5.7875 A. */
const LATTICE = 3.615;
const CUTOFF = 5.7875;
/**
 * An atom in a halo message: CoMD's AtomMsg (haloExchange.c: gid and type as ints, position and
 * momentum as 6 doubles) is 56 bytes; here 7 doubles of the same size (gid, type, position, and
 * two momentum components standing for the three).
 */
const RECORD = 7;
/**
 * Work per atom and time step, counted from CoMD's ljForce (no per-atom figure is published):
 * every atom of the 27 neighbouring link cells is a candidate (its distance, 8 flops, reading its
 * 24-byte position); each within the cutoff costs the force and energy, about 20 flops; the
 * velocity and position updates (advanceVelocity twice, advancePosition) 18 flops, reading and
 * writing momentum, force and position (96 bytes).
 */
const PER_CANDIDATE = { flops: 8, bytes: 24 };
const PER_NEIGHBOUR = { flops: 20 };
const PER_ATOM = { flops: 18, bytes: 96 };

/** FCC lattice sites (integer coordinates in half lattice constants, even sum) with x, y, z in [lo, hi) per axis. */
function fccSites(lo: readonly number[], hi: readonly number[]): number {
  let even = 1;
  let odd = 0;
  for (let d = 0; d < 3; d++) {
    const first = Math.ceil(lo[d]!);
    const last = Math.ceil(hi[d]!) - 1;
    const n = Math.max(0, last - first + 1);
    const e = n === 0 ? 0 : Math.floor(last / 2) - Math.ceil(first / 2) + 1;
    const o = n - e;
    [even, odd] = [even * e + odd * o, even * o + odd * e];
  }
  return even;
}

/**
 * CoMD (the ExMatEx molecular dynamics proxy, CoMD 1.1; Mohd-Yusof, Sewell et al.) with its
 * Lennard-Jones copper: an FCC crystal of `n` unit cells per rank along each axis (4 atoms each)
 * on a periodic 3-D process grid, split into link cells at least the cutoff wide. Each time step
 * rebuilds the halo of atoms from the 26 neighbours as CoMD's haloExchange does it, in three
 * phases x, y, z: in each, the atoms in the boundary link cells (those received in the earlier
 * phases included, so edges and corners travel on) go to the minus and the plus neighbour by two
 * sendrecvs; then the forces are computed; every 10 steps the energy is summed by an allreduce.
 * Real data: the atoms are lattice sites with global ids; every message must hold exactly the
 * atoms of the boundary layer, and after the three phases the halo must hold every site within a
 * link cell of the box, each id where it belongs (checked by count and sum of ids).
 */
export const comd: App = {
  name: 'comd',
  summary: 'CoMD: atom halo exchange with the 26 neighbours in three phases (x, y, z; two sendrecvs each, edges and corners forwarded), Lennard-Jones forces, energy allreduce; us per atom-step, every halo atom checked',
  merit: { key: 'usPerAtom', higherIsBetter: false, label: 'us/atom' },
  minRanks: 1,
  params: {
    n: { type: 'int', default: 10, min: 4, max: 200, help: "FCC unit cells per rank along each axis (CoMD's -x, -y, -z over the ranks); 4 atoms each" },
    steps: { type: 'int', default: 10, min: 1, help: 'time steps (CoMD: -N)' },
  },
  main: runComd,
};

async function runComd(ctx: RankContext, p: ParamValues): Promise<AppResult | undefined> {
  const { mpi } = ctx;
  const real = !ctx.skeleton;
  const n = p.n as number;
  const steps = p.steps as number;
  const procs = mpi.dimsCreate(mpi.size, [0, 0, 0]);
  const cart = (await mpi.cartCreate(procs, [true, true, true])) as CartComm;
  const coords = cart.coords;
  const side = 2 * n; // the box in half lattice constants
  const links = Math.floor((n * LATTICE) / CUTOFF);
  if (links < 1) throw new RangeError(`parameter n=${n} of app comd: a box of ${n} unit cells is narrower than the cutoff`);
  const L = side / links; // a link cell, in half lattice constants
  const G = procs.map((q) => q * side);
  const atoms = 4 * n ** 3;
  // per phase d, the atoms sent each way: the boundary layer along d, the halo of the earlier axes included
  const region = (d: number, plus: boolean): [number[], number[]] => {
    const lo = [0, 1, 2].map((e) => (e < d ? -L : e === d ? (plus ? side - L : 0) : 0));
    const hi = [0, 1, 2].map((e) => (e < d ? side + L : e === d ? (plus ? side : L) : side));
    return [lo, hi];
  };
  const counts = [0, 1, 2].map((d) => [fccSites(...region(d, false)), fccSites(...region(d, true))] as [number, number]);
  const maxCount = Math.max(...counts.flat());
  const sendBuf = ctx.alloc(Float64Array, RECORD * maxCount);
  const recvBuf = ctx.alloc(Float64Array, RECORD * maxCount);
  // this rank's atoms: local coordinates (half lattice constants) and global ids
  const own: number[][] = [];
  if (real) {
    for (let x = 0; x < side; x++) for (let y = 0; y < side; y++) for (let z = 0; z < side; z++) if ((x + y + z) % 2 === 0) own.push([x, y, z]);
  }
  const gid = (l: readonly number[]): number => {
    const g = l.map((v, d) => (((v + coords[d]! * side) % G[d]!) + G[d]!) % G[d]!);
    return (g[0]! * G[1]! + g[1]!) * G[2]! + g[2]!;
  };
  // the work of a step: candidates in 27 link cells, neighbours within the cutoff (atom density 4 / a^3)
  const perLink = 4 * (L / 2) ** 3;
  const candidates = 27 * perLink;
  const neighbours = (4 / 3) * Math.PI * (CUTOFF / LATTICE) ** 3 * 4;
  const flops = atoms * (PER_CANDIDATE.flops * candidates + PER_NEIGHBOUR.flops * neighbours + PER_ATOM.flops);
  const bytes = atoms * (PER_CANDIDATE.bytes * candidates + PER_ATOM.bytes);
  let errors = 0;
  let compute = 0;
  let halo = 0;

  /** CoMD's haloExchange: three phases, each to the minus neighbour (receiving from the plus one) and back. */
  const exchange = async (): Promise<void> => {
    const list = own.map((a) => [a[0]!, a[1]!, a[2]!, gid(a)]);
    for (let d = 0; d < 3; d++) {
      const { source: minus, dest: plus } = cart.cartShift(d, 1);
      for (const toPlus of [false, true]) {
        const [lo, hi] = region(d, toPlus);
        const count = counts[d]![toPlus ? 1 : 0]!;
        // what comes back is the other neighbour's layer of the same side: as many atoms
        const inCount = count;
        if (real) {
          let k = 0;
          for (const a of list) {
            if (a[0]! < lo[0]! || a[0]! >= hi[0]! || a[1]! < lo[1]! || a[1]! >= hi[1]! || a[2]! < lo[2]! || a[2]! >= hi[2]!) continue;
            if (k < count) sendBuf.set([a[3]!, 0, a[0]!, a[1]!, a[2]!, 0, 0], RECORD * k);
            k++;
          }
          if (k !== count) errors += Math.abs(k - count);
        }
        await cart.sendrecv(sendBuf.subarray(0, RECORD * count), toPlus ? plus : minus, 10 + d, recvBuf.subarray(0, RECORD * inCount), toPlus ? minus : plus, 10 + d);
        if (real) {
          for (let k = 0; k < inCount; k++) {
            const at = RECORD * k;
            const a = [recvBuf[at + 2]!, recvBuf[at + 3]!, recvBuf[at + 4]!];
            a[d]! += toPlus ? -side : side;
            list.push([a[0]!, a[1]!, a[2]!, recvBuf[at]!]);
          }
        }
      }
    }
    if (real) {
      // the halo: every site within a link cell of the box, outside it, with its own id
      let expectCount = 0;
      let expectSum = 0;
      const lo = Math.ceil(-L);
      const hi = Math.ceil(side + L) - 1;
      for (let x = lo; x <= hi; x++) for (let y = lo; y <= hi; y++) for (let z = lo; z <= hi; z++) {
        if ((((x + y + z) % 2) + 2) % 2 !== 0) continue;
        if (x >= 0 && x < side && y >= 0 && y < side && z >= 0 && z < side) continue;
        expectCount++;
        expectSum += gid([x, y, z]);
      }
      const got = list.slice(own.length);
      let sum = 0;
      for (const a of got) {
        if (a[3] !== gid(a)) errors++;
        sum += a[3]!;
      }
      if (got.length !== expectCount || sum !== expectSum) errors++;
      halo = got.length;
    } else halo = counts.flat().reduce((s, c) => s + c, 0);
  };

  await cart.barrier();
  const start = ctx.now();
  const energy = new Float64Array(2);
  for (let s = 1; s <= steps; s++) {
    await exchange();
    const t = ctx.now();
    await ctx.compute({ flops, bytes });
    compute += ctx.now() - t;
    if (s % 10 === 0 || s === steps) await cart.allreduce(Float64Array.of(0, atoms), energy, mpi.SUM);
  }
  const elapsed = ctx.now() - start;
  const errs = new Float64Array(1);
  await cart.allreduce(Float64Array.of(errors), errs, mpi.SUM);
  if (errs[0]! > 0) throw new Error(`comd: data check failed: ${errs[0]} halo atoms missing, extra or out of place`);
  if (cart.rank !== 0) return undefined;
  return {
    rows: [
      {
        ranks: mpi.size,
        procGrid: procs.join('x'),
        atoms: atoms * mpi.size,
        atomsPerRank: atoms,
        haloAtoms: halo,
        linkCells: links,
        steps,
        timeUs: round(elapsed),
        computeUs: round(compute),
        commUs: round(elapsed - compute),
        usPerAtom: round(elapsed / steps / atoms),
        check: real ? 'passed' : SKELETON_CHECK,
      },
    ],
  };
}
