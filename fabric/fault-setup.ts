/**
 * Puts a machine's faults (faults.ts) into its network: parses them against the port graph,
 * refuses a fault set that disconnects nodes, wraps the topology's routing in the fault routing
 * (routing/fault-routing.ts), checks the channel dependency graph acyclic for every fault set the
 * run goes through, and lists the steps the network applies in time.
 */
import type { DegradedKind } from './channel-map.ts';
import { assertDeadlockFree } from './deadlock.ts';
import { checkConnected, downAt, faultTimes, hasFaults, parseFaults, type FaultText } from './faults.ts';
import type { FaultStep, NetworkFaults } from './network-params.ts';
import { FaultRouting } from './routing/fault-routing.ts';
import { ClosFaultRoutes } from './routing/clos-fault-routes.ts';
import { KautzFaultRoutes } from './routing/kautz-fault-routes.ts';
import type { BoundRoute } from './routing/routing.ts';
import type { ClosGraph } from './topology/clos.ts';
import type { KautzGraph } from './topology/kautz.ts';
import type { PortGraph } from './topology/port-graph.ts';

/** The fault parameters of a resolved machine. */
export interface FaultConfig extends FaultText {
  /** faults.quiescePause (ps). */
  readonly quiescePausePs: number;
}

/** What the network is built with when a machine has faults. */
export interface FaultSetup {
  readonly route: BoundRoute;
  /** VCs with the escape VCs of the detours, and the topology's own (NetworkParams.classVcs). */
  readonly vcs: number;
  readonly classVcs: number;
  readonly faults: NetworkFaults;
  /** The routing flows take (--fidelity flow): around the faults from the start; the network hands it each later fault set. */
  readonly flowRouting: FaultRouting;
  /** Per router output port the share of its lanes left from the start (1: all), for the flows' link capacities. */
  readonly flowLaneShare: Float64Array;
}

/** The text of a fault list's time, for messages: "from the start" or "at 5 us". */
function when(atPs: number): string {
  return atPs === 0 ? 'from the start' : `from ${atPs / 1e6} us`;
}

/**
 * The fault setup of graph g routed by `route` with `vcs` VCs, or null when `cfg` lists no
 * fault. `lanesByClass` gives the lanes of each link class. Throws a RangeError naming the bad
 * parameter item, the nodes a fault set disconnects, or a dependency cycle.
 */
export function setupFaults(cfg: FaultConfig, g: PortGraph, route: BoundRoute, vcs: number, lanesByClass: readonly number[], what: string, voq: boolean): FaultSetup | null {
  const f = parseFaults(cfg, g, lanesByClass, cfg.quiescePausePs);
  if (!hasFaults(f)) return null;
  // escape VCs multiply a router's queues: with one queue per output they may not fit (queue-layout.ts)
  const escape = g.radix * (vcs + 2) * (voq ? g.radix : 1) < 0xffff;
  const routing = newRouting(g, route, vcs, escape);
  const degraded: DegradedKind[] = [];
  const kindOf = (linkClass: number, share: number): number => {
    let k = degraded.findIndex((d) => d.linkClass === linkClass && d.share === share);
    if (k < 0) k = degraded.push({ linkClass, share }) - 1;
    return k;
  };
  const steps: FaultStep[] = [];
  let prev: Uint8Array = new Uint8Array(g.routers * g.radix);
  for (const t of faultTimes(f)) {
    const down = downAt(f, g, t);
    checkConnected(g, down, when(t));
    routing.setDown(down.ports, down.routers);
    routing.checkRoutes(when(t));
    assertDeadlockFree(`${what} with the faults ${when(t)}`, g, routing.route, routing.vcs, { maxPairs: 2048, salts: 2, classVcs: vcs });
    // quiesce where a link that fails now was the last between its two routers
    let quiesce = false;
    if (t > 0) {
      for (let gp = 0; gp < down.ports.length && !quiesce; gp++) {
        if (!down.ports[gp] || prev[gp]) continue;
        const r = Math.floor(gp / g.radix);
        const s = g.peerRouter[gp]!;
        let left = false;
        for (let q = 0; q < g.radix && !left; q++) if (g.peerRouter[r * g.radix + q] === s && !down.ports[r * g.radix + q]) left = true;
        if (!left) quiesce = true;
      }
    }
    prev = down.ports;
    const laneChannels: number[] = [];
    const laneKinds: number[] = [];
    for (const l of f.lanes) {
      if (l.atPs !== t) continue;
      const gp = l.router * g.radix + l.port;
      const cls = g.portClass[gp]!;
      const k = kindOf(cls, (lanesByClass[cls]! - l.lost) / lanesByClass[cls]!);
      for (const c of [gp, g.peerRouter[gp]! * g.radix + g.peerPort[gp]!]) {
        laneChannels.push(c);
        laneKinds.push(k);
      }
    }
    steps.push({ atPs: t, ports: down.ports, routers: down.routers, laneChannels, laneKinds, quiesce });
  }
  // the routes walked by the checks count no reroute
  routing.setDown(new Uint8Array(g.routers * g.radix), new Uint8Array(g.routers));
  routing.detours = 0;
  routing.masked = 0;
  routing.detourHops.fill(0);
  // the flow level's routes: a routing of its own (its traces count no reroute) with the faults from the start
  const flows = newRouting(g, route, vcs, escape);
  const laneShare = new Float64Array(g.routers * g.radix).fill(1);
  const first = steps[0]!;
  if (first.atPs === 0) {
    flows.setDown(first.ports, first.routers);
    first.laneChannels.forEach((c, k) => {
      laneShare[c] = degraded[first.laneKinds[k]!]!.share;
    });
  }
  return { route: routing.route, vcs: routing.vcs, classVcs: vcs, faults: { routing, degraded, steps, quiescePausePs: cfg.quiescePausePs }, flowRouting: flows, flowLaneShare: laneShare };
}

/**
 * The fault routing of graph g around the topology's routing `route` (`vcs` VCs; `escape`: room
 * for escape VCs): a Kautz digraph routes around failures by routes of its own, on the escape VCs
 * as one more VC number, and a BlackWidow's up choices leave out the routers whose way down has
 * failed.
 */
function newRouting(g: PortGraph, route: BoundRoute, vcs: number, escape: boolean): FaultRouting {
  const own = g.topology === 'kautz' && escape ? new KautzFaultRoutes(g as KautzGraph, route, vcs) : g.topology === 'clos' ? new ClosFaultRoutes(g as ClosGraph, route) : null;
  return new FaultRouting(g, route, vcs, escape, own);
}
