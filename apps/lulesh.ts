import type { CartComm, Request } from '../runtime/mpi/mpi.ts';
import type { RankContext } from '../runtime/rank.ts';
import { round, SKELETON_CHECK, type App, type AppResult, type ParamValues } from './app.ts';
import { FACES, isUp, neighbourRanks, OFFSETS26, region, type Offset } from './neighbours26.ts';

/**
 * Work per element and cycle of the LULESH 2.0 reference code (lulesh.cc, LLNL-CODE-461231),
 * counted from its kernels and rounded (no per-element figure is published; Karlin et al.,
 * "LULESH 2.0 Updates and Changes", LLNL-TR-641973, describes the phases): the nodal forces
 * (IntegrateStressForElems about 300 flops, CalcHourglassControlForElems with the
 * Flanagan-Belytschko hourglass force about 1,040), the kinematics (element volume,
 * characteristic length, shape-function derivatives, velocity gradient: about 490), the
 * monotonic-Q gradients (about 200), and the Q region, equation of state and time constraints
 * (about 250). Bytes: the element arrays each phase streams, with the force phase's eight-node
 * temporaries (x8n, dvdx, ... 48 doubles written and read back).
 */
const FORCE = { flops: 1340, bytes: 1000 };
const KINEMATICS = { flops: 690, bytes: 700 };
const ELEMENTS = { flops: 250, bytes: 450 };
/** Per node: acceleration, velocity and position updates (CalcAccelerationForNodes ... CalcPositionForNodes), 19 doubles moved. */
const NODAL = { flops: 15, bytes: 152 };

/**
 * LULESH 2.0's communication (lulesh-comm.cc) on a 3-D block decomposition of a hexahedral mesh,
 * s^3 elements and (s+1)^3 nodes per rank on a non-periodic Cartesian communicator (LULESH wants a
 * cube number of ranks; any count factored by dimsCreate works here). Each cycle: the time step's
 * allreduce (one double, MPI_MIN); the nodal forces summed over the nodes shared with all 26
 * neighbours (CommSBN: 3 fields, faces of (s+1)^2 nodes, edges of s+1, corners of one, irecv and
 * isend at once); the positions and velocities of shared nodes copied from the neighbours of
 * higher rank, which own them (CommSyncPosVel: 6 fields, 13 neighbours each way); the monotonic-Q
 * velocity gradients of the boundary elements to the 6 face neighbours (CommMonoQ: 3 fields of s^2
 * elements). Before the first cycle the nodal mass is summed as the forces are. Computation is
 * charged per element and node of each phase (FORCE, KINEMATICS, ELEMENTS, NODAL above). Real
 * data: every element adds known values to its nodes and each shared node's sum is checked
 * against the sum over the global elements around it; after the position sync a rank overwrites
 * the nodes it does not own with poison and unpacks the messages, and every node must come back
 * with its value; ghost gradients
 * and the time step (the least of the ranks' proposals) are checked the same way.
 */
export const lulesh: App = {
  name: 'lulesh',
  summary: "LULESH 2.0's communication: 27-point (26-neighbour) node sums and sync, face gradients, a MIN allreduce of the time step per cycle; per-element work costed; every exchanged value checked",
  merit: { key: 'fomZs', higherIsBetter: true, label: 'FOM (z/s)' },
  minRanks: 1,
  params: {
    s: { type: 'int', default: 30, min: 1, max: 512, help: 'elements per rank along each edge (LULESH -s)' },
    iterations: { type: 'int', default: 10, min: 1, help: 'cycles (LULESH -i)' },
  },
  main: runLulesh,
};

async function runLulesh(ctx: RankContext, p: ParamValues): Promise<AppResult | undefined> {
  const { mpi } = ctx;
  const s = p.s as number;
  const cycles = p.iterations as number;
  const real = !ctx.skeleton;
  const procs = mpi.dimsCreate(mpi.size, [0, 0, 0]);
  const cart = (await mpi.cartCreate(procs, [false, false, false])) as CartComm;
  const n = s + 1;
  const nodes = n * n * n;
  const elems = s * s * s;
  const nodeExt = [n, n, n];
  const elemExt = [s, s, s];
  // shared nodes with the neighbour at offset o: index 0 (o = -1), s (o = +1) or all along each axis
  const nodeRange = (_: number, od: number): [number, number] => (od < 0 ? [0, 0] : od > 0 ? [s, s] : [0, s]);
  const elemRange = (_: number, od: number): [number, number] => (od < 0 ? [0, 0] : od > 0 ? [s - 1, s - 1] : [0, s - 1]);
  const all = neighbourRanks(cart, OFFSETS26, mpi.PROC_NULL);
  const nodeRegions = OFFSETS26.map((o) => region(nodeExt, o, nodeRange));
  const faceRanks = neighbourRanks(cart, FACES, mpi.PROC_NULL);
  const elemRegions = FACES.map((o) => region(elemExt, o, elemRange));
  const live = (r: number): boolean => r !== mpi.PROC_NULL;

  // buffers of the largest message of each exchange, one per neighbour
  const buffers = (regions: readonly Int32Array[], fields: number): Float64Array[] => regions.map((r) => ctx.alloc(Float64Array, r.length * fields));
  const sbnSend = buffers(nodeRegions, 3);
  const sbnRecv = buffers(nodeRegions, 3);
  const posSend = buffers(nodeRegions, 6);
  const posRecv = buffers(nodeRegions, 6);
  const qSend = buffers(elemRegions, 3);
  const qRecv = buffers(elemRegions, 3);
  const field = (k: number): Float64Array[] => Array.from({ length: k }, () => ctx.alloc(Float64Array, real ? nodes : 0));
  const force = field(3);
  const posvel = field(6);
  const mass = field(1);
  const grad = Array.from({ length: 3 }, () => ctx.alloc(Float64Array, real ? elems : 0));

  let compute = 0;
  const work = async (per: { flops: number; bytes: number }, count: number): Promise<void> => {
    const t = ctx.now();
    await ctx.compute({ flops: per.flops * count, bytes: per.bytes * count });
    compute += ctx.now() - t;
  };

  /** Exchanges `fields` over `regions` with `ranks`: sends where `send(k)`, receives where `recv(k)`; returns the received buffers. */
  const exchange = async (tag: number, regions: readonly Int32Array[], ranks: readonly number[], fields: Float64Array[], sendBufs: Float64Array[], recvBufs: Float64Array[], send: (k: number) => boolean, recv: (k: number) => boolean): Promise<void> => {
    const reqs: Request[] = [];
    const f = fields.length;
    for (let k = 0; k < regions.length; k++) if (live(ranks[k]!) && recv(k)) reqs.push(cart.irecv(recvBufs[k]!.subarray(0, regions[k]!.length * f), ranks[k]!, tag));
    for (let k = 0; k < regions.length; k++) {
      if (!live(ranks[k]!) || !send(k)) continue;
      const buf = sendBufs[k]!;
      const reg = regions[k]!;
      if (real) for (let q = 0; q < f; q++) for (let i = 0; i < reg.length; i++) buf[q * reg.length + i] = fields[q]![reg[i]!]!;
      reqs.push(cart.isend(buf.subarray(0, reg.length * f), ranks[k]!, tag));
    }
    await cart.waitAll(reqs);
  };
  /** CommSBN: each shared node gets the neighbours' partial sums added. */
  const sumShared = async (tag: number, fields: Float64Array[]): Promise<void> => {
    await exchange(tag, nodeRegions, all, fields, sbnSend, sbnRecv, () => true, () => true);
    if (!real) return;
    for (let k = 0; k < 26; k++) {
      if (!live(all[k]!)) continue;
      const reg = nodeRegions[k]!;
      const buf = sbnRecv[k]!;
      for (let q = 0; q < fields.length; q++) for (let i = 0; i < reg.length; i++) fields[q]![reg[i]!]! += buf[q * reg.length + i]!;
    }
  };

  // global numbering: element (X, Y, Z) of the (s·px) x (s·py) x (s·pz) mesh, node (X, Y, Z) of its (s·p + 1) points
  const org = cart.coords.map((c) => c * s);
  const gE = procs.map((q) => q * s);
  const gN = gE.map((g) => g + 1);
  const elemId = (x: number, y: number, z: number): number => (x * gE[1]! + y) * gE[2]! + z;
  const nodeId = (x: number, y: number, z: number): number => (x * gN[1]! + y) * gN[2]! + z;
  /** What element (X, Y, Z) adds to each of its nodes in cycle c, field q (small integers: sums are exact). */
  const contrib = (x: number, y: number, z: number, c: number, q: number): number => ((elemId(x, y, z) * 7 + c) % 13) + 1 + q;
  /** The sum over the global elements around node (X, Y, Z) of `f`. */
  const around = (x: number, y: number, z: number, f: (x: number, y: number, z: number) => number): number => {
    let v = 0;
    for (let a = x - 1; a <= x; a++) for (let b = y - 1; b <= y; b++) for (let c = z - 1; c <= z; c++) if (a >= 0 && b >= 0 && c >= 0 && a < gE[0]! && b < gE[1]! && c < gE[2]!) v += f(a, b, c);
    return v;
  };
  let errors = 0;
  const eachNode = (f: (o: number, x: number, y: number, z: number, i: number, j: number, k: number) => void): void => {
    for (let i = 0, o = 0; i < n; i++) for (let j = 0; j < n; j++) for (let k = 0; k < n; k++, o++) f(o, org[0]! + i, org[1]! + j, org[2]! + k, i, j, k);
  };
  /** Adds `per(element)` to the 8 nodes of every local element, into `out` (zeroed first). */
  const scatter = (out: Float64Array, per: (x: number, y: number, z: number) => number): void => {
    out.fill(0);
    for (let i = 0; i < s; i++) {
      for (let j = 0; j < s; j++) {
        for (let k = 0; k < s; k++) {
          const v = per(org[0]! + i, org[1]! + j, org[2]! + k);
          for (let a = 0; a < 2; a++) for (let b = 0; b < 2; b++) for (let c = 0; c < 2; c++) out[((i + a) * n + j + b) * n + k + c]! += v;
        }
      }
    }
  };
  // up along d: this rank's last node layer is shared with the neighbour above, which owns it
  const upNeighbour = [0, 1, 2].map((d) => cart.coords[d]! < procs[d]! - 1);
  const owned = (i: number, j: number, k: number): boolean => !((i === s && upNeighbour[0]) || (j === s && upNeighbour[1]) || (k === s && upNeighbour[2]));
  const posValue = (x: number, y: number, z: number, c: number, q: number): number => (nodeId(x, y, z) % 1009) + c + q / 2;
  const gradValue = (x: number, y: number, z: number, c: number, q: number): number => (elemId(x, y, z) % 1009) + c + q / 4;

  // the nodal mass: each unit element puts 1/8 on each node, summed over the shared nodes
  if (real) scatter(mass[0]!, () => 1 / 8);
  await sumShared(1, mass);
  if (real) eachNode((o, x, y, z) => (errors += mass[0]![o] === around(x, y, z, () => 1 / 8) ? 0 : 1));

  const up = OFFSETS26.map((o: Offset) => isUp(o));
  const dtIn = new Float64Array(1);
  const dtOut = new Float64Array(1);
  const dt0 = 1e-7;
  await cart.barrier();
  const start = ctx.now();
  compute = 0;
  for (let c = 0; c < cycles; c++) {
    // TimeIncrement: every rank proposes a step, the least wins
    dtIn[0] = dt0 * (1 + 1 / (1 + ((cart.rank + c) % mpi.size)));
    await cart.allreduce(dtIn, dtOut, mpi.MIN);
    if (dtOut[0] !== dt0 * (1 + 1 / mpi.size)) errors++;
    // LagrangeNodal: forces on the nodes, summed over the shared ones
    await work(FORCE, elems);
    if (real) for (let q = 0; q < 3; q++) scatter(force[q]!, (x, y, z) => contrib(x, y, z, c, q));
    await sumShared(2, force);
    if (real) eachNode((o, x, y, z) => {
      for (let q = 0; q < 3; q++) if (force[q]![o] !== around(x, y, z, (a, b, e) => contrib(a, b, e, c, q))) errors++;
    });
    // the nodes move; their owners send positions and velocities down
    await work(NODAL, nodes);
    if (real) eachNode((o, x, y, z) => {
      for (let q = 0; q < 6; q++) posvel[q]![o] = posValue(x, y, z, c, q);
    });
    await exchange(3, nodeRegions, all, posvel, posSend, posRecv, (k) => !up[k], (k) => up[k]!);
    if (real) {
      // the nodes others own are poisoned, then written from the messages (faces, edges, corners)
      eachNode((o, _x, _y, _z, i, j, k) => {
        if (!owned(i, j, k)) for (let q = 0; q < 6; q++) posvel[q]![o] = -1;
      });
      for (let k = 0; k < 26; k++) {
        if (!up[k] || !live(all[k]!)) continue;
        const reg = nodeRegions[k]!;
        const buf = posRecv[k]!;
        for (let q = 0; q < 6; q++) for (let i = 0; i < reg.length; i++) posvel[q]![reg[i]!] = buf[q * reg.length + i]!;
      }
      eachNode((o, x, y, z) => {
        for (let q = 0; q < 6; q++) if (posvel[q]![o] !== posValue(x, y, z, c, q)) errors++;
      });
    }
    // LagrangeElements: kinematics and the monotonic-Q gradients, whose face layers go to the face neighbours
    await work(KINEMATICS, elems);
    if (real) for (let i = 0, e = 0; i < s; i++) for (let j = 0; j < s; j++) for (let k = 0; k < s; k++, e++) for (let q = 0; q < 3; q++) grad[q]![e] = gradValue(org[0]! + i, org[1]! + j, org[2]! + k, c, q);
    await exchange(4, elemRegions, faceRanks, grad, qSend, qRecv, () => true, () => true);
    if (real) {
      for (let f = 0; f < 6; f++) {
        if (!live(faceRanks[f]!)) continue;
        const reg = elemRegions[f]!;
        const o = FACES[f]!;
        for (let i = 0; i < reg.length; i++) {
          // the neighbour's element next to this rank's element reg[i], one step along o
          const e = reg[i]!;
          const loc = [Math.floor(e / (s * s)), Math.floor(e / s) % s, e % s];
          const [x, y, z] = loc.map((v, d) => org[d]! + v + o[d]!) as [number, number, number];
          for (let q = 0; q < 3; q++) if (qRecv[f]![q * reg.length + i] !== gradValue(x, y, z, c, q)) errors++;
        }
      }
    }
    await work(ELEMENTS, elems);
  }
  const elapsed = ctx.now() - start;
  const total = new Float64Array(1);
  await cart.allreduce(Float64Array.of(errors), total, mpi.SUM);
  if (total[0]! > 0) throw new Error(`lulesh: data check failed: ${total[0]} exchanged values differ from the values the neighbours sent`);
  if (cart.rank !== 0) return undefined;
  // LULESH's grind time: us per element and cycle over all ranks; its FOM is 1000 / grind
  const grind = elapsed / cycles / (elems * mpi.size);
  return {
    rows: [
      {
        ranks: mpi.size,
        procGrid: procs.join('x'),
        s,
        cycles,
        timeUs: round(elapsed),
        timePerCycleUs: round(elapsed / cycles),
        computeUs: round(compute),
        commUs: round(elapsed - compute),
        grindUs: round(grind),
        fomZs: round(1000 / grind),
        check: real ? 'passed' : SKELETON_CHECK,
      },
    ],
  };
}
