import type { PacketPool } from '../packet.ts';
import type { TorusGraph } from '../topology/torus.ts';
import type { RouteChoice, RouteFn } from './routing.ts';
import { SEASTAR_EJECT } from './seastar-rules.ts';
import type { SeastarTables } from './seastar-tables.ts';

export { SEASTAR_GLUT_ENTRIES, SEASTAR_LUT_ENTRIES } from './seastar-nids.ts';
export { brokenLinkName, parseBrokenLinks, withBrokenLinks, type BrokenLink } from './broken-links.ts';

/*
 * Table-driven routing of the Cray XT4 SeaStar, with its fault rules (seed 000, "Routing",
 * "Avoiding deadlock in the presence of faults and turn constraints", "Routing rules for X / Y /
 * Z links"; S1, S2, S8, S9).
 *
 * The routing function here reads the tables (seastar-tables.ts: the GLUT/LUT lookup per input
 * port, S8), which the fault rules fill (seastar-rules.ts: the rules, the datelines and why they
 * are deadlock-free, S9); seastar-reachability.ts refuses a fault set that leaves a destination
 * unreachable under the rules.
 *
 * VCs (S2: 4): vc = 2 * class + dateline bit, as in torus-routing.ts: the bit is set when a hop
 * crosses the dateline of its dimension and cleared when the packet turns into another dimension.
 */

/** VCs per port: two classes x a dateline pair (seed 000, S2: 4 virtual channels). */
export const SEASTAR_VCS = 4;

const EJECT = SEASTAR_EJECT;
const DIR_NAMES = ['x+', 'x-', 'y+', 'y-', 'z+', 'z-'];

/**
 * The SeaStar table routing (seed 000, S8, S9): reads the table of the packet's input port
 * (`pkts.at[p]`, the global input port) for its destination, GLUT or LUT, and sends it to that
 * output's group of parallel ports, or to the node. VC: 2 * class + dateline bit, as torusDor.
 */
export function seastarTableRoute(tables: SeastarTables): RouteFn<TorusGraph> {
  const inPortOf = tables.inPortOf;
  const cross = tables.cross;
  return (g: TorusGraph, router: number, pkts: PacketPool, p: number, out: RouteChoice): void => {
    const lp = pkts.at[p]! - router * g.radix;
    if (lp < 0 || lp >= g.radix) throw new Error(`seastar routing: packet ${p} is at global port ${pkts.at[p]}, not at an input of router ${router}`);
    const dst = pkts.dst[p]!;
    const cls = pkts.vcClass[p]!;
    const e = tables.entryForNode(router, inPortOf[lp]!, dst);
    if (e === EJECT) {
      out.port = g.nodePort[dst]!;
      out.count = 1;
      out.vc = 2 * cls;
      return;
    }
    if (e > 5) throw new Error(`seastar routing: no table entry at router ${router} input port ${lp} for node ${dst}`);
    const d = e >> 1;
    if (pkts.rDim[p] !== d) {
      pkts.rDim[p] = d;
      pkts.rDateline[p] = 0;
    }
    if (cross[router * 6 + e]) pkts.rDateline[p] = 1;
    out.port = g.groupPort[e]!;
    out.count = g.links[d]!;
    out.vc = 2 * cls + pkts.rDateline[p]!;
  };
}

/** Name of a table entry: x+ .. z-, "eject" or "none". */
export function seastarEntryName(e: number): string {
  return e === EJECT ? 'eject' : (DIR_NAMES[e] ?? 'none');
}
