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
 * O(entries x log(resources + flows)), an indexed heap holding each resource's filling level.
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

/** Heap items are resources [0, resources) then capped flows (resources + flow). */
const NOT_IN_HEAP = -1;

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
  /** Indexed min-heap of items keyed by the level at which they stop rising. */
  heapItem = new Int32Array(0);
  heapKey = new Float64Array(0);
  /** Per item its position in the heap, or NOT_IN_HEAP. */
  heapPos = new Int32Array(0);
  heapSize = 0;

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
      this.heapPos = new Int32Array(n);
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
  const { resStart, resFlow, resWeight, used, rising, risingCount, frozen, heapPos } = s;
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
  s.heapSize = 0;
  heapPos.fill(NOT_IN_HEAP, 0, R + F);
  for (let r = 0; r < R; r++) if (risingCount[r]! > 0) heapPush(s, r, fillLevel(cap[r]!, 0, rising[r]!));
  for (let f = 0; f < F; f++) {
    frozen[f] = 0;
    const c = caps === null ? Infinity : caps[f]!;
    if (c < Infinity) heapPush(s, R + f, c > 0 ? c : 0);
    else if (fs[f] === fs[f + 1]) {
      frozen[f] = 1;
      rates[f] = Infinity;
    }
  }
  let level = 0;
  let steps = 0;
  while (s.heapSize > 0) {
    const item = s.heapItem[0]!;
    let key = s.heapKey[0]!;
    heapRemove(s, item);
    steps++;
    if (item >= R) {
      // a flow reaches its own cap
      if (key < level) key = level;
      level = key;
      freeze(p, s, rates, item - R, key);
      continue;
    }
    // a resource fills: its weight still rising, summed afresh (the running sum drifts)
    key = fillLevel(cap[item]!, used[item]!, risingWeight(s, item));
    if (key < level) key = level;
    level = key;
    for (let k = resStart[item]!; k < resStart[item + 1]!; k++) {
      const f = resFlow[k]!;
      if (frozen[f] === 0) freeze(p, s, rates, f, key);
    }
  }
  return steps;
}

/** Weight of the flows of resource r that are still rising, summed afresh. */
function risingWeight(s: MaxMinScratch, r: number): number {
  let w = 0;
  for (let k = s.resStart[r]!; k < s.resStart[r + 1]!; k++) if (s.frozen[s.resFlow[k]!] === 0) w += s.resWeight[k]!;
  return w;
}

/** The common rate at which a resource with `capacity`, `used` by frozen flows and `w` of rising weight fills. */
function fillLevel(capacity: number, used: number, w: number): number {
  const free = capacity - used;
  return free > 0 ? free / w : 0;
}

/** Fixes flow f's rate at `rate`: its resources lose a rising flow and gain its use. */
function freeze(p: MaxMinProblem, s: MaxMinScratch, rates: Float64Array, f: number, rate: number): void {
  s.frozen[f] = 1;
  rates[f] = rate;
  const R = p.resources;
  if (s.heapPos[R + f] !== NOT_IN_HEAP) heapRemove(s, R + f);
  const fs = p.flowStart;
  for (let k = fs[f]!; k < fs[f + 1]!; k++) {
    const r = p.entryResource[k]!;
    const w = p.entryWeight[k]!;
    s.used[r]! += w * rate;
    s.rising[r]! -= w;
    const left = --s.risingCount[r]!;
    if (s.heapPos[r] === NOT_IN_HEAP) continue; // the resource being filled, or already full
    if (left === 0) {
      heapRemove(s, r);
      continue;
    }
    if (!(s.rising[r]! > 0)) s.rising[r] = risingWeight(s, r); // rounding ate the running sum: count it again
    heapUpdate(s, r, fillLevel(p.capacity[r]!, s.used[r]!, s.rising[r]!));
  }
}

/** Heap order: smaller key first, then the smaller item. */
function before(s: MaxMinScratch, i: number, j: number): boolean {
  const a = s.heapKey[i]!;
  const b = s.heapKey[j]!;
  return a < b || (a === b && s.heapItem[i]! < s.heapItem[j]!);
}

function heapPush(s: MaxMinScratch, item: number, key: number): void {
  const i = s.heapSize++;
  s.heapItem[i] = item;
  s.heapKey[i] = key;
  s.heapPos[item] = i;
  siftUp(s, i);
}

function heapRemove(s: MaxMinScratch, item: number): void {
  const i = s.heapPos[item]!;
  s.heapPos[item] = NOT_IN_HEAP;
  const last = --s.heapSize;
  if (i === last) return;
  s.heapItem[i] = s.heapItem[last]!;
  s.heapKey[i] = s.heapKey[last]!;
  s.heapPos[s.heapItem[i]!] = i;
  siftDown(s, siftUp(s, i));
}

function heapUpdate(s: MaxMinScratch, item: number, key: number): void {
  const i = s.heapPos[item]!;
  s.heapKey[i] = key;
  siftDown(s, siftUp(s, i));
}

function swap(s: MaxMinScratch, i: number, j: number): void {
  const a = s.heapItem[i]!;
  const b = s.heapItem[j]!;
  const ka = s.heapKey[i]!;
  s.heapItem[i] = b;
  s.heapKey[i] = s.heapKey[j]!;
  s.heapItem[j] = a;
  s.heapKey[j] = ka;
  s.heapPos[b] = i;
  s.heapPos[a] = j;
}

/** Moves position i up while it precedes its parent; returns where it ends. */
function siftUp(s: MaxMinScratch, i: number): number {
  while (i > 0) {
    const parent = (i - 1) >> 1;
    if (!before(s, i, parent)) break;
    swap(s, i, parent);
    i = parent;
  }
  return i;
}

function siftDown(s: MaxMinScratch, i: number): void {
  const n = s.heapSize;
  for (;;) {
    const l = 2 * i + 1;
    if (l >= n) return;
    const r = l + 1;
    const c = r < n && before(s, r, l) ? r : l;
    if (!before(s, c, i)) return;
    swap(s, i, c);
    i = c;
  }
}
