/**
 * Weighted max-min fair sharing by progressive filling (Bertsekas and Gallager, "Data Networks",
 * §6.5.2; the sharing model of SimGrid's network layer). Flows share resources of fixed capacity:
 * a flow at rate r uses `weight * r` of every resource it crosses (a link's phits per payload byte,
 * say). All flows rise together at one common rate; when a resource fills, the flows on it stop
 * rising (that resource is their bottleneck), and when a flow reaches its own cap it stops alone.
 * The result: no resource above capacity, and every flow either at its cap or on a saturated
 * resource where no flow has a higher rate.
 *
 * The problem is given in compressed rows over typed arrays; the caller owns a MaxMinScratch that
 * grows to the largest problem and is reused, so a solve allocates nothing once warm. Cost:
 * O(entries x log(resources + flows)), a heap holding each resource's filling level.
 */

/**
 * One max-min problem in compressed rows: flow f uses entries [flowStart[f], flowStart[f + 1]),
 * each a resource and a weight (capacity units per unit of the flow's rate). The arrays may be
 * longer than needed; only the first `flows`, `resources` and flowStart[flows] entries are read.
 */
export interface MaxMinProblem {
  /** Number of flows. */
  flows: number;
  /** Number of resources. */
  resources: number;
  /** Per resource its capacity (units per unit of time), at least 0. */
  capacity: Float64Array;
  /** Per flow the first of its entries; flowStart[flows] ends the last flow's. */
  flowStart: Int32Array;
  /** Per entry its resource, in [0, resources). */
  entryResource: Int32Array;
  /** Per entry its weight: capacity units one unit of the flow's rate uses, above 0. */
  entryWeight: Float64Array;
  /** Per flow the largest rate it can take on its own (Infinity: none), or null for no caps. */
  rateCap: Float64Array | null;
}

/** Hot-path checks (weights): set true when changing this file. */
const DEBUG = false;

/**
 * A flow network's solve buffers, reused from solve to solve: the component's flows and resources
 * (slots), the max-min problem over them, its rates before and after, and maxMinRates' scratch.
 */
export class MaxMinBuffers {
  compFlows = new Int32Array(16);
  compRes = new Int32Array(16);
  rates = new Float64Array(16);
  oldRates = new Float64Array(16);
  readonly problem: MaxMinProblem = {
    flows: 0,
    resources: 0,
    capacity: new Float64Array(16),
    flowStart: new Int32Array(17),
    entryResource: new Int32Array(16),
    entryWeight: new Float64Array(16),
    rateCap: new Float64Array(16),
  };
  readonly scratch = new MaxMinScratch();

  /** Sized for `flows` flow slots, `resources` resources and `entries` resource uses. */
  ensure(flows: number, resources: number, entries: number): void {
    const pb = this.problem;
    if (this.compFlows.length < flows) {
      const n = 2 * flows;
      this.compFlows = new Int32Array(n);
      this.rates = new Float64Array(n);
      this.oldRates = new Float64Array(n);
      pb.flowStart = new Int32Array(n + 1);
      pb.rateCap = new Float64Array(n);
    }
    if (this.compRes.length < resources) {
      const n = 2 * resources;
      this.compRes = new Int32Array(n);
      pb.capacity = new Float64Array(n);
    }
    if (pb.entryResource.length < entries) {
      pb.entryResource = new Int32Array(2 * entries);
      pb.entryWeight = new Float64Array(2 * entries);
    }
  }
}

/** Working memory of maxMinRates, reused from solve to solve; grows as needed. */
export class MaxMinScratch {
  /** Per resource: first of its entries in the transposed lists (resources + 1). */
  resStart = new Int32Array(1);
  /** Transposed lists: per resource, the flows that use it... */
  resFlow = new Int32Array(0);
  /** ...and their weights on it. */
  resWeight = new Float64Array(0);
  /** Per resource: capacity used by frozen flows. */
  used = new Float64Array(0);
  /** Per resource: weight of its flows still rising. */
  rising = new Float64Array(0);
  /** Per resource: number of its flows still rising. */
  risingCount = new Int32Array(0);
  /** Per flow: 1 once its rate is fixed. */
  frozen = new Uint8Array(0);
  /** Min-heap of items (resources, then capped flows) keyed by the level at which they stop rising, as last computed. */
  heapItem = new Int32Array(0);
  heapKey = new Float64Array(0);

  /** Makes room for a problem of this size. */
  ensure(flows: number, resources: number, entries: number): void {
    if (this.resStart.length < resources + 1) this.resStart = new Int32Array(grown(resources + 1));
    if (this.used.length < resources) {
      const n = grown(resources);
      this.used = new Float64Array(n);
      this.rising = new Float64Array(n);
      this.risingCount = new Int32Array(n);
    }
    if (this.resFlow.length < entries) {
      const n = grown(entries);
      this.resFlow = new Int32Array(n);
      this.resWeight = new Float64Array(n);
    }
    if (this.frozen.length < flows) this.frozen = new Uint8Array(grown(flows));
    const items = resources + flows;
    if (this.heapItem.length < items) {
      const n = grown(items);
      this.heapItem = new Int32Array(n);
      this.heapKey = new Float64Array(n);
    }
  }
}

/** A size with headroom, so that growing one at a time costs amortized O(1). */
function grown(n: number): number {
  return Math.max(16, n + (n >> 1));
}

/**
 * Solves `p`: writes each flow's max-min fair rate into `rates[0..flows)` and returns the number
 * of filling steps (resources and caps that fixed some rates). A flow with no resources and no
 * cap gets Infinity. Deterministic: the same problem gives the same rates, bit for bit; where two
 * resources fill at the same level, the lower index goes first.
 */
export function maxMinRates(p: MaxMinProblem, rates: Float64Array, s: MaxMinScratch): number {
  const F = p.flows;
  const R = p.resources;
  const fs = p.flowStart;
  const E = fs[F]!;
  s.ensure(F, R, E);
  const { resStart, resFlow, resWeight, used, rising, risingCount, frozen, heapItem, heapKey } = s;
  const cap = p.capacity;
  const er = p.entryResource;
  const ew = p.entryWeight;
  const caps = p.rateCap;
  // transpose: the flows of every resource, in flow order
  resStart.fill(0, 0, R + 1);
  for (let k = 0; k < E; k++) resStart[er[k]! + 1]!++;
  for (let r = 0; r < R; r++) resStart[r + 1]! += resStart[r]!;
  for (let r = 0; r < R; r++) {
    risingCount[r] = resStart[r + 1]! - resStart[r]!;
    used[r] = 0;
    rising[r] = 0;
  }
  // fill with a moving cursor per resource (resStart[r] walks to the next resource's start)
  for (let f = 0; f < F; f++) {
    for (let k = fs[f]!; k < fs[f + 1]!; k++) {
      const r = er[k]!;
      const w = ew[k]!;
      if (DEBUG && !(w > 0 && w < Infinity)) throw new RangeError(`max-min: entry ${k} (flow ${f}, resource ${r}) has weight ${w}, not a positive finite number`);
      const at = resStart[r]!++;
      resFlow[at] = f;
      resWeight[at] = w;
      rising[r]! += w;
    }
  }
  for (let r = R; r > 0; r--) resStart[r] = resStart[r - 1]!;
  resStart[0] = 0;
  // the heap: every resource that has flows, keyed by its filling level, and every capped flow
  // keyed by its cap. A freeze only raises the levels of its resources, so keys are updated
  // lazily: a popped resource whose level has risen since it was pushed goes back in at its new
  // level, and the first one popped at its current level is the next to fill.
  let n = 0;
  for (let r = 0; r < R; r++) {
    if (risingCount[r]! > 0) {
      heapItem[n] = r;
      heapKey[n++] = fillLevel(cap[r]!, 0, rising[r]!);
    }
  }
  for (let f = 0; f < F; f++) {
    frozen[f] = 0;
    const c = caps === null ? Infinity : caps[f]!;
    if (c < Infinity) {
      heapItem[n] = R + f;
      heapKey[n++] = c > 0 ? c : 0;
    } else if (fs[f] === fs[f + 1]) {
      frozen[f] = 1;
      rates[f] = Infinity;
    }
  }
  for (let i = (n >> 1) - 1; i >= 0; i--) siftDown(heapItem, heapKey, n, i);
  let level = 0;
  let steps = 0;
  while (n > 0) {
    const item = heapItem[0]!;
    const key = heapKey[0]!;
    // pop
    n--;
    if (n > 0) {
      heapItem[0] = heapItem[n]!;
      heapKey[0] = heapKey[n]!;
      siftDown(heapItem, heapKey, n, 0);
    }
    let from: number;
    let to: number;
    if (item >= R) {
      // a flow reaches its own cap: it alone is fixed
      const f = item - R;
      if (frozen[f] !== 0) continue;
      if (key > level) level = key;
      from = f;
      to = f + 1;
    } else {
      if (risingCount[item] === 0) continue; // every flow on it is fixed
      let w = rising[item]!;
      if (!(w > 0)) w = rising[item] = risingWeight(resStart, resFlow, resWeight, frozen, item); // rounding ate the running sum
      const now = fillLevel(cap[item]!, used[item]!, w);
      if (now > key) {
        n = heapPush(heapItem, heapKey, n, item, now);
        continue;
      }
      // the resource fills: at its level from its rising weight summed afresh (the running sum drifts)
      const at = fillLevel(cap[item]!, used[item]!, risingWeight(resStart, resFlow, resWeight, frozen, item));
      if (at > level) level = at;
      from = resStart[item]!;
      to = resStart[item + 1]!;
    }
    steps++;
    // fix the rising flows (the capped flow, or the resource's) at the level: their resources
    // lose a rising flow and gain its use, and their heap keys are raised lazily
    for (let j = from; j < to; j++) {
      const f = item >= R ? j : resFlow[j]!;
      if (frozen[f] !== 0) continue;
      frozen[f] = 1;
      rates[f] = level;
      for (let k = fs[f]!, end = fs[f + 1]!; k < end; k++) {
        const r = er[k]!;
        const w = ew[k]!;
        used[r]! += w * level;
        rising[r]! -= w;
        risingCount[r]!--;
      }
    }
  }
  return steps;
}

/** Weight of the flows of resource r that are still rising, summed afresh. */
function risingWeight(resStart: Int32Array, resFlow: Int32Array, resWeight: Float64Array, frozen: Uint8Array, r: number): number {
  let w = 0;
  for (let k = resStart[r]!, end = resStart[r + 1]!; k < end; k++) if (frozen[resFlow[k]!] === 0) w += resWeight[k]!;
  return w;
}

/** The common rate at which a resource with `capacity`, `used` by frozen flows and `w` of rising weight fills. */
function fillLevel(capacity: number, used: number, w: number): number {
  const free = capacity - used;
  return free > 0 ? free / w : 0;
}

/** Pushes (item, key) on a heap of n entries; returns the new size. Order: smaller key, then smaller item. */
function heapPush(items: Int32Array, keys: Float64Array, n: number, item: number, key: number): number {
  let i = n;
  while (i > 0) {
    const parent = (i - 1) >> 1;
    const pk = keys[parent]!;
    if (pk < key || (pk === key && items[parent]! < item)) break;
    items[i] = items[parent]!;
    keys[i] = pk;
    i = parent;
  }
  items[i] = item;
  keys[i] = key;
  return n + 1;
}

/** Moves the entry at position i of a heap of n entries down to its place. */
function siftDown(items: Int32Array, keys: Float64Array, n: number, i: number): void {
  const item = items[i]!;
  const key = keys[i]!;
  for (;;) {
    let c = 2 * i + 1;
    if (c >= n) break;
    let ck = keys[c]!;
    let ci = items[c]!;
    const r = c + 1;
    if (r < n) {
      const rk = keys[r]!;
      const ri = items[r]!;
      if (rk < ck || (rk === ck && ri < ci)) {
        c = r;
        ck = rk;
        ci = ri;
      }
    }
    if (key < ck || (key === ck && item < ci)) break;
    items[i] = ci;
    keys[i] = ck;
    i = c;
  }
  items[i] = item;
  keys[i] = key;
}
