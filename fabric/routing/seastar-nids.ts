/** SeaStar node ids (NIDs): 15 bits, a partition in NID[14:12] and a local index in NID[11:0] (seed 000, S8), laid out over a torus. */
import type { TorusGraph } from '../topology/torus.ts';

/** Global table entries: one per partition NID[14:12] (seed 000, S8). */
export const SEASTAR_GLUT_ENTRIES = 8;
/** Local table entries: one per NID[11:0] (seed 000, S8). */
export const SEASTAR_LUT_ENTRIES = 4096;

/** The NID layout: x slowest, whole yz planes per partition; RangeError when 15 bits do not suffice. */
export function nidLayout(g: TorusGraph): { partitions: number; planesPerPartition: number; lutSize: number; nodeNid: Int32Array; routerNid: Int32Array; routerPartition: Uint8Array; partLo: Int32Array; partHi: Int32Array } {
  const [X, Y, Z] = [g.dims[0]!, g.dims[1]!, g.dims[2]!];
  const npr = g.nodesPerRouter;
  const plane = Y * Z * npr;
  if (plane > SEASTAR_LUT_ENTRIES) {
    throw new RangeError(`seastar routing: a yz plane of ${Y}x${Z} routers x ${npr} nodes has ${plane} NIDs, more than the ${SEASTAR_LUT_ENTRIES} of a partition (NID[11:0])`);
  }
  const ppp = Math.floor(SEASTAR_LUT_ENTRIES / plane);
  const partitions = Math.ceil(X / ppp);
  if (partitions > SEASTAR_GLUT_ENTRIES) {
    throw new RangeError(`seastar routing: ${X} yz planes of ${plane} NIDs need ${partitions} partitions of ${ppp} planes; 15-bit NIDs have ${SEASTAR_GLUT_ENTRIES} (at most 32K nodes, S1)`);
  }
  const partLo = new Int32Array(SEASTAR_GLUT_ENTRIES);
  const partHi = new Int32Array(SEASTAR_GLUT_ENTRIES);
  for (let p = 0; p < partitions; p++) {
    partLo[p] = p * ppp;
    partHi[p] = Math.min(X, (p + 1) * ppp) - 1;
  }
  const routerNid = new Int32Array(g.routers);
  const routerPartition = new Uint8Array(g.routers);
  for (let r = 0; r < g.routers; r++) {
    const x = g.coords[r * 3]!;
    const p = Math.floor(x / ppp);
    routerPartition[r] = p;
    routerNid[r] = p * SEASTAR_LUT_ENTRIES + ((x - p * ppp) * Y * Z + g.coords[r * 3 + 1]! * Z + g.coords[r * 3 + 2]!) * npr;
  }
  const nodeNid = new Int32Array(g.nodes);
  for (let n = 0; n < g.nodes; n++) nodeNid[n] = routerNid[g.nodeRouter[n]!]! + g.nodePort[n]!;
  return { partitions, planesPerPartition: ppp, lutSize: Math.min(ppp, X) * plane, nodeNid, routerNid, routerPartition, partLo, partHi };
}
