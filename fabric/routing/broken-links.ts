/** Broken links of a torus (SeaStar's fault tables route around them): their text form, checks, and the graph without them. */
import { PORT_UNUSED } from '../topology/port-graph.ts';
import type { TorusGraph } from '../topology/torus.ts';

const DIM_LETTERS = 'xyzwvu'; // as torus.ts names the dimensions

/** A broken link: the link of `router` in dimension `dim` (0 = x), direction `dir` (0 = +, 1 = -); unusable both ways. */
export interface BrokenLink {
  readonly router: number;
  readonly dim: number;
  readonly dir: 0 | 1;
}

/** Name of router r's coordinates, "x.y.z". */
export function routerName(g: TorusGraph, r: number): string {
  const n = g.dims.length;
  return Array.from(g.coords.subarray(r * n, r * n + n)).join('.');
}

/** The text form of a broken link, e.g. "x+@1.2.3". */
export function brokenLinkName(g: TorusGraph, b: BrokenLink): string {
  return `${DIM_LETTERS[b.dim] ?? `d${b.dim}`}${b.dir === 0 ? '+' : '-'}@${routerName(g, b.router)}`;
}

/** Throws a RangeError naming the item unless `b` is an existing link of the fault-free graph g. */
function checkLink(g: TorusGraph, b: BrokenLink, what: string): void {
  const n = g.dims.length;
  if (!Number.isInteger(b.router) || b.router < 0 || b.router >= g.routers) {
    throw new RangeError(`${what}: router ${b.router} is outside the torus (0..${g.routers - 1})`);
  }
  if (!Number.isInteger(b.dim) || b.dim < 0 || b.dim >= n) throw new RangeError(`${what}: dimension ${b.dim} is not one of 0..${n - 1}`);
  if (b.dir !== 0 && b.dir !== 1) throw new RangeError(`${what}: direction ${String(b.dir)} must be 0 (+) or 1 (-)`);
  if (g.peerRouter[b.router * g.radix + g.groupPort[2 * b.dim + b.dir]!]! < 0) {
    throw new RangeError(`${what}: router ${routerName(g, b.router)} has no ${brokenLinkName(g, b).split('@')[0]} link (mesh edge or a dimension of size 1)`);
  }
}

/**
 * Parses a list of broken links: "none", or comma-separated items "<dim><+|->@<coordinates>", e.g.
 * "x+@1.2.3,y-@0.0.0" (the link leaving router (1,2,3) in +x, ...). Throws a RangeError naming the
 * bad item.
 */
export function parseBrokenLinks(text: string, g: TorusGraph): BrokenLink[] {
  const t = text.trim();
  if (t === 'none') return [];
  const n = g.dims.length;
  const letters = DIM_LETTERS.slice(0, n);
  const out: BrokenLink[] = [];
  for (const raw of t.split(',')) {
    const item = raw.trim();
    const m = /^([a-z])([+-])@(\d+(?:\.\d+)*)$/.exec(item);
    if (!m) {
      throw new RangeError(`broken link "${item}": expected none or <${letters.split('').join('|')}><+|->@<${n} coordinates joined by '.'>, e.g. x+@1.2.3`);
    }
    const dim = letters.indexOf(m[1]!);
    if (dim < 0) throw new RangeError(`broken link "${item}": dimension "${m[1]}" is not one of ${letters.split('').join(', ')}`);
    const cs = m[3]!.split('.').map(Number);
    if (cs.length !== n) throw new RangeError(`broken link "${item}": expected ${n} coordinates, got ${cs.length}`);
    let router = 0;
    let stride = 1;
    for (let d = 0; d < n; d++) {
      const k = g.dims[d]!;
      if (cs[d]! >= k) throw new RangeError(`broken link "${item}": coordinate ${DIM_LETTERS[d]} = ${cs[d]} is outside the torus (0..${k - 1})`);
      router += cs[d]! * stride;
      stride *= k;
    }
    const b: BrokenLink = { router, dim, dir: m[2] === '+' ? 0 : 1 };
    checkLink(g, b, `broken link "${item}"`);
    out.push(b);
  }
  return out;
}

/**
 * A copy of the fault-free torus g whose broken links are unwired at both ends (peer -1, class
 * PORT_UNUSED), every parallel port of the direction (the SeaStar has one), so that distances and
 * the network see the faults. g is not changed.
 */
export function withBrokenLinks(g: TorusGraph, broken: readonly BrokenLink[]): TorusGraph {
  const peerRouter = g.peerRouter.slice();
  const peerPort = g.peerPort.slice();
  const portClass = g.portClass.slice();
  broken.forEach((b, i) => {
    checkLink(g, b, `broken link ${i} (${brokenLinkName(g, b)})`);
    const first = b.router * g.radix + g.groupPort[2 * b.dim + b.dir]!;
    for (let l = 0; l < g.links[b.dim]!; l++) {
      const gp = first + l;
      const back = g.peerRouter[gp]! * g.radix + g.peerPort[gp]!;
      for (const q of [gp, back]) {
        peerRouter[q] = -1;
        peerPort[q] = -1;
        portClass[q] = PORT_UNUSED;
      }
    }
  });
  return { ...g, peerRouter, peerPort, portClass };
}
