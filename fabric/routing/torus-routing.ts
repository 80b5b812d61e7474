import type { PacketPool } from '../packet.ts';
import type { TorusGraph } from '../topology/torus.ts';
import type { LoadView, RouteChoice, RoutingTable } from './routing.ts';

/**
 * Torus VC layout: two VC classes (0 = request, 1 = response; seed 004 §III names one VC for each)
 * and, within each class, a dateline pair (assumed: dimension-order routing on a ring needs two VCs
 * to be deadlock-free, Dally & Seitz). vc = 2 * class + crossedDateline.
 */
export const TORUS_VCS = 4;

/**
 * Dimension-order routing (x, then y, then z), shortest way round each ring. Where both ways
 * round are equally short (half a ring) an adaptive packet takes the less loaded way (seed 004
 * §II: packet-by-packet adaptive routing "distributing traffic over lightly loaded links"; ties,
 * and ordered packets, go +); it keeps that way, which is then the shorter. A packet switches to
 * the high VC of its class on the wraparound link of a dimension and returns to the low VC when
 * it turns into the next dimension. Port numbering: see torus.ts.
 */
export function torusDor(g: TorusGraph, router: number, pkts: PacketPool, p: number, out: RouteChoice, load: LoadView): void {
  const dst = pkts.dst[p]!;
  const target = g.nodeRouter[dst]!;
  const cls = pkts.vcClass[p]!;
  const n = g.dims.length;
  if (router === target) {
    out.port = g.nodePort[dst]!;
    out.count = 1;
    out.vc = 2 * cls;
    return;
  }
  const coords = g.coords;
  for (let d = 0; d < n; d++) {
    const c = coords[router * n + d]!;
    const t = coords[target * n + d]!;
    if (c === t) continue;
    const k = g.dims[d]!;
    let plus: boolean;
    if (g.wrap[d]) {
      const delta = (t - c + k) % k;
      plus = 2 * delta < k;
      if (2 * delta === k) {
        const base = router * g.radix;
        plus = pkts.ordered[p] === 1 || load.groupLoad(base + g.groupPort[2 * d]!, g.links[d]!) <= load.groupLoad(base + g.groupPort[2 * d + 1]!, g.links[d]!);
      }
    } else {
      plus = t > c;
    }
    if (pkts.rDim[p] !== d) {
      pkts.rDim[p] = d;
      pkts.rDateline[p] = 0;
    }
    if (g.wrap[d] && ((plus && c === k - 1) || (!plus && c === 0))) pkts.rDateline[p] = 1;
    const s = plus ? 0 : 1;
    out.port = g.groupPort[2 * d + s]!;
    out.count = g.links[d]!;
    out.vc = 2 * cls + pkts.rDateline[p]!;
    return;
  }
  throw new Error(`torus routing: no way from router ${router} to ${target}`);
}

/** The torus routing table. */
export const torusRouting: RoutingTable<TorusGraph> = {
  vcs: TORUS_VCS,
  algorithms: { dor: torusDor },
};
