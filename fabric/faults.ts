/**
 * Link, lane and router failures of a fabric (machine parameters faults.links, faults.routers,
 * faults.lanes): their text form, their checks against a port graph, the fault sets a run goes
 * through, and the nodes a fault set would cut off.
 *
 * Text forms, the same on every topology (router and port numbers of the port graph, as
 * `phit topo` and the metrics name them), items joined by commas, each with an optional
 * simulated time it fails at (absent: from the start):
 * - faults.links: `none`, or `R:P[@time]`: the link on port P of router R, both directions.
 * - faults.routers: `none`, or `R[@time]`: router R and every link of it.
 * - faults.lanes: `none`, or `R:P/N[@time]`: N lanes of the link on port P of router R lost
 *   (both directions); its serialization bandwidth drops to (lanes - N) / lanes.
 */
import { parseTimePs } from './units.ts';
import { CLOS_LEVEL_R1, type ClosGraph } from './topology/clos.ts';
import { PORT_NODE, type PortGraph } from './topology/port-graph.ts';

/** A failed link: port `port` of router `router` (and its peer port), from `atPs` on. */
export interface LinkFault {
  readonly router: number;
  readonly port: number;
  readonly atPs: number;
}

/** A failed router, from `atPs` on. */
export interface RouterFault {
  readonly router: number;
  readonly atPs: number;
}

/** `lost` lanes of the link on port `port` of router `router`, from `atPs` on. */
export interface LaneFault {
  readonly router: number;
  readonly port: number;
  readonly lost: number;
  readonly atPs: number;
}

/** The faults of a machine, parsed and checked against its port graph. */
export interface FabricFaults {
  readonly links: readonly LinkFault[];
  readonly routers: readonly RouterFault[];
  readonly lanes: readonly LaneFault[];
  /** Lanes per link (link.lanes; optical.lanes for a dragonfly's global links), by link class. */
  readonly lanesByClass: readonly number[];
  /** Time the network pauses to compute new routes when connectivity between two routers is lost (ps). */
  readonly quiescePausePs: number;
}

/** The text of the fault parameters, as the machine gives them. */
export interface FaultText {
  readonly links: string;
  readonly routers: string;
  readonly lanes: string;
}

const LINK_RE = /^(\d+):(\d+)(?:@(.+))?$/;
const ROUTER_RE = /^(\d+)(?:@(.+))?$/;
const LANE_RE = /^(\d+):(\d+)\/(\d+)(?:@(.+))?$/;

/** Whether `text` has the syntax of faults.links, faults.routers or faults.lanes (for the schema). */
export function isFaultText(which: keyof FaultText, text: string): boolean {
  const t = text.trim();
  if (t === 'none') return true;
  const re = which === 'links' ? LINK_RE : which === 'routers' ? ROUTER_RE : LANE_RE;
  return t.split(',').every((item) => re.test(item.trim()));
}

/** The expected form of each fault parameter, for messages. */
export const FAULT_FORMS: Readonly<Record<keyof FaultText, string>> = {
  links: 'none, or router:port[@time] items joined by commas, e.g. 12:3,40:7@5us',
  routers: 'none, or router[@time] items joined by commas, e.g. 7,9@10us',
  lanes: 'none, or router:port/lanesLost[@time] items joined by commas, e.g. 12:3/1,40:7/2@5us',
};

function items(text: string): string[] {
  const t = text.trim();
  return t === 'none' || t === '' ? [] : t.split(',').map((s) => s.trim());
}

function timeOf(key: string, item: string, text: string | undefined): number {
  if (text === undefined) return 0;
  try {
    return parseTimePs(text);
  } catch (e) {
    throw new RangeError(`${key}: item "${item}": bad time "${text}" (${e instanceof Error ? e.message : String(e)})`, { cause: e });
  }
}

function checkRouter(key: string, item: string, g: PortGraph, r: number): void {
  if (r >= g.routers) throw new RangeError(`${key}: item "${item}": router ${r} does not exist (routers 0..${g.routers - 1})`);
}

function checkLinkPort(key: string, item: string, g: PortGraph, r: number, p: number): void {
  checkRouter(key, item, g, r);
  if (p >= g.radix) throw new RangeError(`${key}: item "${item}": port ${p} does not exist (ports 0..${g.radix - 1})`);
  if (g.peerRouter[r * g.radix + p]! < 0) {
    const what = g.portClass[r * g.radix + p] === PORT_NODE ? 'a node port' : 'not wired';
    throw new RangeError(`${key}: item "${item}": port ${p} of router ${r} is ${what}, not a router-to-router link`);
  }
}

/**
 * Parses and checks the fault parameters against graph g; throws a RangeError naming the
 * parameter and the bad item.
 */
export function parseFaults(text: FaultText, g: PortGraph, lanesByClass: readonly number[], quiescePausePs: number): FabricFaults {
  const links: LinkFault[] = [];
  for (const item of items(text.links)) {
    const m = LINK_RE.exec(item);
    if (!m) throw new RangeError(`faults.links: bad item "${item}"; expected ${FAULT_FORMS.links}`);
    const router = Number(m[1]);
    const port = Number(m[2]);
    checkLinkPort('faults.links', item, g, router, port);
    links.push({ router, port, atPs: timeOf('faults.links', item, m[3]) });
  }
  const routers: RouterFault[] = [];
  for (const item of items(text.routers)) {
    const m = ROUTER_RE.exec(item);
    if (!m) throw new RangeError(`faults.routers: bad item "${item}"; expected ${FAULT_FORMS.routers}`);
    const router = Number(m[1]);
    checkRouter('faults.routers', item, g, router);
    routers.push({ router, atPs: timeOf('faults.routers', item, m[2]) });
  }
  const lanes: LaneFault[] = [];
  for (const item of items(text.lanes)) {
    const m = LANE_RE.exec(item);
    if (!m) throw new RangeError(`faults.lanes: bad item "${item}"; expected ${FAULT_FORMS.lanes}`);
    const router = Number(m[1]);
    const port = Number(m[2]);
    const lost = Number(m[3]);
    checkLinkPort('faults.lanes', item, g, router, port);
    const have = lanesByClass[g.portClass[router * g.radix + port]!] ?? 1;
    if (lost < 1 || lost >= have) {
      throw new RangeError(`faults.lanes: item "${item}": ${lost} lanes lost of ${have}: from 1 to ${have - 1} (a link with no lane left is a failed link: faults.links)`);
    }
    lanes.push({ router, port, lost, atPs: timeOf('faults.lanes', item, m[4]) });
  }
  return { links, routers, lanes, lanesByClass, quiescePausePs };
}

/** Whether any fault is given. */
export function hasFaults(f: FabricFaults | undefined): f is FabricFaults {
  return f !== undefined && f.links.length + f.routers.length + f.lanes.length > 0;
}

/**
 * Whether a packet whose head reaches the next router at `nowPs` and whose tail is across at
 * `tailPs` did not get across a link that failed at `failPs` (Infinity: up): the link failed
 * before its tail was across. The link's retry buffer then gives it back (replayLink); where no
 * parallel link is left, it cannot take another route (its routing state has moved on: a Kautz
 * route word, a dragonfly stage), so it is lost, and the transaction it belongs to fails at its
 * initiator by the NIC timeout, as seed 001 "Reliability" reports discarded packets.
 */
export function lostInFlight(failPs: number, nowPs: number, tailPs: number): boolean {
  return failPs <= nowPs && failPs < tailPs;
}

/**
 * A link of graph g still up (failPs Infinity) parallel to channel `chan` (from the same router
 * to the same next router, of any link class: a torus ring of two routers joins them both ways;
 * on a BlackWidow, in the same slice: seed 003 B5 makes each slice a separate network, whose
 * virtual routers share a router number here), or -1: the link over which chan's retry buffer
 * sends again what chan lost when it failed (Gemini's links of a group, seed 004 §IV; an Aries
 * bundle of global links; BlackWidow's sidelinks to one peer), the packet then reaching the same
 * router as before.
 */
export function replayLink(g: PortGraph, failPs: Float64Array, chan: number): number {
  const r = Math.floor(chan / g.radix);
  const peer = g.peerRouter[chan]!;
  const slice = g.topology === 'clos' ? closSlice(g as ClosGraph, r, chan - r * g.radix) : -1;
  for (let q = 0; q < g.radix; q++) {
    const c = r * g.radix + q;
    if (c !== chan && g.peerRouter[c] === peer && failPs[c] === Infinity && (slice < 0 || closSlice(g as ClosGraph, r, q) === slice)) return c;
  }
  return -1;
}

/** The slice of router-to-router port `port` of router `r` of a BlackWidow (its block of ports). */
function closSlice(g: ClosGraph, r: number, port: number): number {
  const base = g.routerLevel[r] === CLOS_LEVEL_R1 ? g.r1UpBase : 0;
  return Math.floor((port - base) / g.blockPorts);
}

/** The distinct times (ps, ascending) at which a fault takes effect. */
export function faultTimes(f: FabricFaults): number[] {
  const t = new Set<number>();
  for (const x of [...f.links, ...f.routers, ...f.lanes]) t.add(x.atPs);
  return [...t].sort((a, b) => a - b);
}

/**
 * Per global port 1 where the link is down at time `atPs` (failed links both ways, every link
 * of a failed router), and per router 1 where it is down.
 */
export function downAt(f: FabricFaults, g: PortGraph, atPs: number): { readonly ports: Uint8Array; readonly routers: Uint8Array } {
  const ports = new Uint8Array(g.routers * g.radix);
  const routers = new Uint8Array(g.routers);
  const cut = (gp: number): void => {
    const peer = g.peerRouter[gp]!;
    if (peer < 0) return;
    ports[gp] = 1;
    ports[peer * g.radix + g.peerPort[gp]!] = 1;
  };
  for (const l of f.links) if (l.atPs <= atPs) cut(l.router * g.radix + l.port);
  for (const r of f.routers) {
    if (r.atPs > atPs) continue;
    routers[r.router] = 1;
    for (let p = 0; p < g.radix; p++) cut(r.router * g.radix + p);
  }
  return { ports, routers };
}

/**
 * Throws a RangeError naming the nodes that fault set `down` (downAt) cuts off: nodes on a failed
 * router, or whose router no longer reaches the others that carry nodes (on a digraph, Kautz's,
 * or can no longer be reached from them). `when` says which set.
 */
export function checkConnected(g: PortGraph, down: { readonly ports: Uint8Array; readonly routers: Uint8Array }, when: string): void {
  let start = -1;
  for (let n = 0; n < g.nodes && start < 0; n++) if (!down.routers[g.nodeRouter[n]!]) start = g.nodeRouter[n]!;
  const reach = reachable(g, down.ports, start, false);
  // on a digraph a router reached from the start may still have no way back to it
  const back = g.directed === true ? reachable(g, down.ports, start, true) : reach;
  const cut: number[] = [];
  for (let n = 0; n < g.nodes; n++) if (!reach[g.nodeRouter[n]!] || !back[g.nodeRouter[n]!]) cut.push(n);
  if (cut.length === 0) return;
  const shown = cut.slice(0, 12).map((n) => `${n} (router ${g.nodeRouter[n]})`);
  const more = cut.length > 12 ? ` and ${cut.length - 12} more` : '';
  throw new RangeError(`faults (${when}) disconnect ${cut.length} node${cut.length === 1 ? '' : 's'}: ${shown.join(', ')}${more}; the fabric cannot route to them`);
}

/** Per router 1 where it is reached from router `start` (or, `backward`, reaches it) over links not down. */
function reachable(g: PortGraph, ports: Uint8Array, start: number, backward: boolean): Uint8Array {
  const reach = new Uint8Array(g.routers);
  if (start < 0) return reach;
  // backward: the links reversed, as lists of the routers that feed each router
  let feeds: number[][] = [];
  if (backward) {
    feeds = Array.from({ length: g.routers }, () => []);
    for (let gp = 0; gp < ports.length; gp++) {
      const s = g.peerRouter[gp]!;
      if (s >= 0 && !ports[gp]) feeds[s]!.push(Math.floor(gp / g.radix));
    }
  }
  const queue = [start];
  reach[start] = 1;
  for (let i = 0; i < queue.length; i++) {
    const r = queue[i]!;
    if (backward) {
      for (const s of feeds[r]!) {
        if (reach[s]) continue;
        reach[s] = 1;
        queue.push(s);
      }
      continue;
    }
    for (let p = 0; p < g.radix; p++) {
      const gp = r * g.radix + p;
      const s = g.peerRouter[gp]!;
      if (s < 0 || ports[gp] || reach[s]) continue;
      reach[s] = 1;
      queue.push(s);
    }
  }
  return reach;
}
