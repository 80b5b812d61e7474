import type { TorusGraph } from '../topology/torus.ts';

/*
 * The fault rules of the Cray XT4 SeaStar's routing tables (seed 000, "Routing", "Avoiding
 * deadlock in the presence of faults and turn constraints", "Routing rules for X / Y / Z links";
 * S1, S2, S9): the generator of every table entry (seastar-tables.ts holds the tables,
 * seastar-routing.ts the routing function that reads them).
 *
 * Port numbering (torus.ts): node ports first, then for each dimension d and direction s (0 = +,
 * 1 = -) `links[d]` parallel ports starting at `groupPort[2d+s]`. Output directions and table
 * input indices use the same order: 0 x+, 1 x-, 2 y+, 3 y-, 4 z+, 5 z-; input index 6 is the
 * processor port (every node port) and output 6 ejects. A packet that arrives on input port group
 * q came travelling the opposite way, q ^ 1; leaving by q again is a 180-degree turn.
 *
 * The rules, as the generator applies them at router r for destination router t. The phase is the
 * first dimension in which r and t differ (always X under a GLUT entry).
 * - Fault-free: dimension order x, y, z, the shortest way round each ring, ties going + (the
 *   seed's "straightforward dimension-ordered routing"), so that without faults every route is
 *   the one of torusDor (torus-routing.ts). Under a GLUT entry the X direction is the shorter way
 *   to the nearer edge of the destination's slab of planes (ties +), since one entry serves every
 *   node of the partition. A packet that arrives travelling in X keeps its X direction: it cannot
 *   turn back (no 180-degree turns), and a GLUT direction may differ from the LUT's shortest way.
 * - X phase: the desired X link; if it is broken, y+, else z+ ("X broken: y+ if available, else
 *   z+"). Neither detour may cross the dateline of its dimension (seed: the z+ "must not cross a
 *   dateline"; for y+ this follows from the seed's rule that once a dateline is crossed no routing
 *   in a higher dimension is permitted). Lookahead: when the X link is usable but the packet would
 *   be boxed in at the next node, it detours early, z+ first. Choice: "boxed in" means that the
 *   rules leave the next node no output; under a GLUT entry whose X link enters the destination
 *   partition (where the next node's entry depends on the exact destination) it is the seed's test
 *   "the next node has neither a safe y+ nor a safe z+".
 * - Y phase: the desired Y link; if broken, z+ (not across the Z dateline), else the opposite Y
 *   direction. Lookahead against a 180-degree turn: a node does not send a packet to a neighbour
 *   whose rules would leave it no way but back (the generic "boxed in" test above, which the
 *   neighbour's 180-degree exclusion makes fire). Lookahead for z+: when the next node's default
 *   for this destination is z+ and its z+ link is broken, take z+ here instead of the Y link.
 * - Z phase: z+ desired and broken: y+, else y- (the Y lookahead at that node then turns the
 *   packet to z+ instead of straight back). z- desired: the z- path to the destination is checked
 *   link by link; if any link is broken the packet is forced to z+, the long way round. Choice,
 *   for the same dateline rule: a z+ path that crosses the Z dateline must be clean from the
 *   dateline on (after it no Y detour is allowed); if it is not, the packet takes a clean z- path
 *   instead. In a Z mesh there is no long way: a destination below a broken z link is unreachable.
 * - Datelines (seed: "the dateline in Z is chosen so that there are no nodes with a broken X link
 *   and a broken y+ link"): without faults every dateline is the wraparound link, as in torusDor.
 *   With faults the Y and Z datelines move to the highest link c -> c + 1 of the ring such that no
 *   router at position c is an end of a broken link, so that detours next to a fault need not
 *   cross them (when every position has one, the dateline stays at the wraparound link).
 * Not implemented: "when y = Ymax it is permissible to dodge y- then go x+/x-" (an option the seed
 * leaves open), and the real tables' VC field: VCs come from the packet state as below.
 *
 * VCs (S2: 4): vc = 2 * class + dateline bit, as in torus-routing.ts: the bit is set when a hop
 * crosses the dateline of its dimension and cleared when the packet turns into another dimension.
 * Deadlock freedom (Dally and Seitz): the rules keep these invariants: (1) no 180-degree turn;
 * (2) after z- only z- (the checked z- path is final); (3) a z+ run that crossed the Z dateline
 * runs on to the destination; (4) after y- no x; (5) a y+ run that crossed the Y dateline is not
 * followed by x (X-phase detours never cross datelines); (6) a run of hops in one dimension is at
 * most one ring long (a longer run revisits a router and input, so the route loops, and the
 * reachability check of seastar-reachability.ts refuses the fault set). Then a cycle of channel
 * dependencies would have to contain a z- channel
 * (by (2) a pure z- ring), or wrap around Z through its dateline (by (3) a pure z+ run), or
 * contain y- (by (4) and no z: a pure y- ring), or wrap around Y (by (5) a pure y+ run), or be a
 * pure x ring; each is a single run around a ring crossing its dateline on VC 1 and reaching it
 * again on VC 1, which (6) excludes. The check in deadlock.ts confirms it on the tests' fault sets.
 */

/** Table index of the processor input port (the six network inputs are 0..5: x+ x- y+ y- z+ z-). */
export const SEASTAR_PROCESSOR_PORT = 6;
/** Table entry: deliver to the node (the processor port). Entries 0..5 are x+ x- y+ y- z+ z-. */
export const SEASTAR_EJECT = 6;
/** Table entry: no route (a GLUT slot of the router's own partition, a NID with no router). */
export const SEASTAR_NO_ROUTE = 0xff;
/** Tables per router: one per input, the six network inputs (0..5) and the processor port (6). */
export const SEASTAR_TABLES = 7;

const EJECT = SEASTAR_EJECT;
const NONE = SEASTAR_NO_ROUTE;

/** Direction round a ring from c to t: 0 (+) or 1 (-); shortest way, ties +, as torusDor. */
function ringDir(c: number, t: number, k: number, wrap: boolean): number {
  if (wrap) return 2 * ((t - c + k) % k) <= k ? 0 : 1;
  return t > c ? 0 : 1;
}

/**
 * The routing rules of one fault set (see the comment at the top of this file). `decide` is the table
 * generator: stored tables are filled by it, computed tables call it per lookup.
 */
export class SeastarRules {
  readonly X: number;
  readonly Y: number;
  readonly Z: number;
  private readonly wx: boolean;
  private readonly wy: boolean;
  private readonly wz: boolean;
  private readonly coords: Int32Array;

  constructor(
    g: TorusGraph,
    /** Neighbour of each router in each direction in the fault-free graph, or -1: `nbr[r * 6 + o]`. */
    readonly nbr: Int32Array,
    /** 1 where the link of (router, direction) is wired and not broken. */
    readonly usable: Uint8Array,
    /** 1 where the hop (router, direction) crosses the dateline of its dimension. */
    readonly cross: Uint8Array,
    /** 1 for each column (x + X * y) that has a broken z link. */
    private readonly colBroken: Uint8Array,
    private readonly dlZ: number,
    readonly part: Uint8Array,
    private readonly partLo: Int32Array,
    private readonly partHi: Int32Array,
  ) {
    this.X = g.dims[0]!;
    this.Y = g.dims[1]!;
    this.Z = g.dims[2]!;
    this.wx = g.wrap[0]!;
    this.wy = g.wrap[1]!;
    this.wz = g.wrap[2]!;
    this.coords = g.coords;
  }

  /**
   * The entry at router r, input index `inp`, for destination router t in partition `part`
   * (t is ignored, and may be -1, when r lies outside `part`: a GLUT entry). `look` enables the
   * lookahead rules; without it the result is just the first usable output, or NONE.
   */
  decide(r: number, inp: number, t: number, part: number, look: boolean): number {
    const c = this.coords;
    const base = r * 6;
    const x = c[r * 3]!;
    const global = this.part[r] !== part;
    if (!global && r === t) return EJECT;
    if (global || x !== c[t * 3]) {
      // X phase; a packet travelling in X keeps its direction (no 180-degree turn)
      let s: number;
      if (inp === 0 || inp === 1) s = inp ^ 1;
      else s = global ? this.edgeDir(x, part) : ringDir(x, c[t * 3]!, this.X, this.wx);
      const yp = this.cross[base + 2] ? NONE : 2;
      const zp = this.cross[base + 4] ? NONE : 4;
      if (this.usable[base + s]) {
        if (!look || !this.stuck(this.nbr[base + s]!, s ^ 1, t, part)) return s;
        // boxed in at the next node: an early detour, toward z+ first
        const d = this.pick(r, inp, t, part, true, true, zp, yp, NONE);
        return d === NONE ? s : d;
      }
      return this.pick(r, inp, t, part, look, false, yp, zp, NONE);
    }
    const y = c[r * 3 + 1]!;
    const yt = c[t * 3 + 1]!;
    if (y !== yt) {
      // Y phase
      const s = ringDir(y, yt, this.Y, this.wy);
      const zp = this.cross[base + 4] ? NONE : 4;
      if (look && zp !== NONE && this.brokenZDefault(this.nbr[base + 2 + s]!, t)) {
        return this.pick(r, inp, t, part, look, false, zp, 2 + s, 3 - s);
      }
      return this.pick(r, inp, t, part, look, false, 2 + s, zp, 3 - s);
    }
    // Z phase
    const zd = this.zPref(r, t);
    if (zd === 5) return inp !== 5 && this.usable[base + 5] ? 5 : NONE;
    if (zd === NONE) return NONE;
    return this.pick(r, inp, t, part, look, false, 4, 2, 3);
  }

  /**
   * The first of outputs a, b, c (NONE = skip) that is usable and not a 180-degree turn and, with
   * `look`, whose next node is not boxed in; if every such output leads to a boxed-in node, the
   * first of them (or NONE when `strict`).
   */
  private pick(r: number, inp: number, t: number, part: number, look: boolean, strict: boolean, a: number, b: number, c: number): number {
    const base = r * 6;
    let first = NONE;
    for (let k = 0; k < 3; k++) {
      const o = k === 0 ? a : k === 1 ? b : c;
      if (o === NONE || o === inp || !this.usable[base + o]) continue;
      if (!look) return o;
      if (!this.stuck(this.nbr[base + o]!, o ^ 1, t, part)) return o;
      if (first === NONE) first = o;
    }
    return strict ? NONE : first;
  }

  /** Whether a packet entering router n by input `inp` would be boxed in: no output under the rules. */
  private stuck(n: number, inp: number, t: number, part: number): boolean {
    if (t < 0 && this.part[n] === part) {
      // a GLUT entry whose link enters the destination partition: the seed's test
      const b = n * 6;
      return !((this.usable[b + 2] && !this.cross[b + 2]) || (this.usable[b + 4] && !this.cross[b + 4]));
    }
    return this.decide(n, inp, t, part, false) === NONE;
  }

  /** Whether router n (reached by a Y hop toward t) would want z+ for t and has it broken (seed: Y lookahead). */
  private brokenZDefault(n: number, t: number): boolean {
    if (n < 0 || n === t || this.coords[n * 3 + 1] !== this.coords[t * 3 + 1]) return false;
    return !this.usable[n * 6 + 4] && this.zPref(n, t) === 4;
  }

  /** X direction toward the nearer edge of partition `part`'s slab of planes (ties +). */
  private edgeDir(x: number, part: number): number {
    const lo = this.partLo[part]!;
    const hi = this.partHi[part]!;
    if (!this.wx) return lo > x ? 0 : 1;
    const X = this.X;
    return (lo - x + X) % X <= (x - hi + X) % X ? 0 : 1;
  }

  /**
   * Z direction from router r to t in t's column (z differs): 4 (z+), 5 (z-) or NONE. The shortest
   * way (ties +); z- only on a clean path (else forced z+, the long way); z+ only if clean from
   * the Z dateline on (else z- if clean).
   */
  zPref(r: number, t: number): number {
    const c = this.coords;
    const X = this.X;
    const Z = this.Z;
    const col = c[t * 3]! + X * c[t * 3 + 1]!;
    const z = c[r * 3 + 2]!;
    const zt = c[t * 3 + 2]!;
    if (!this.colBroken[col]) return ringDir(z, zt, Z, this.wz) === 0 ? 4 : 5;
    const XY = X * this.Y;
    const u = this.usable;
    if (!this.wz) {
      if (zt > z) return 4;
      for (let q = z; q > zt; q--) if (!u[(col + XY * q) * 6 + 5]) return NONE;
      return 5;
    }
    const delta = (zt - z + Z) % Z;
    let plusOk = true;
    let crossed = false;
    for (let i = 0, q = z; i < delta; i++, q = q + 1 === Z ? 0 : q + 1) {
      if (q === this.dlZ) crossed = true;
      if (crossed && !u[(col + XY * q) * 6 + 4]) {
        plusOk = false;
        break;
      }
    }
    let minusOk = true;
    for (let i = 0, q = z; i < Z - delta; i++, q = q === 0 ? Z - 1 : q - 1) {
      if (!u[(col + XY * q) * 6 + 5]) {
        minusOk = false;
        break;
      }
    }
    if (2 * delta <= Z) return plusOk ? 4 : minusOk ? 5 : NONE;
    return minusOk ? 5 : plusOk ? 4 : NONE;
  }
}
