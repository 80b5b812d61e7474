import type { PortGraph } from '../topology/port-graph.ts';
import { channelTiming, type ChannelTimingParams, type SampledHop } from './flow-route.ts';

/**
 * The resources flows share, as typed arrays indexed by resource id: link groups (made on first
 * use, one per group of parallel channels, capacity count / phit time in phits per ps) and the
 * caller's (a NIC's pipelines, its host interface). Per resource: its capacity, the flows on it,
 * and its utilisation counter, kept lazily (load now, since when, carried before). FlowNetwork
 * owns one and reads its arrays directly; they are replaced when they grow.
 */
export class FlowResources {
  /** Resources so far. */
  n = 0;
  /** Capacity (units per ps; phits per ps for a link group). */
  cap = new Float64Array(16);
  /** Capacity units used per ps now, and since when (ps). */
  load = new Float64Array(16);
  since = new Float64Array(16);
  /** Capacity units used until `since`. */
  carried = new Float64Array(16);
  /** Scratch of the solves: visit mark and index within a solve. */
  mark = new Int32Array(16);
  local = new Int32Array(16);
  /** First channel and count of a link group, or -1 and 0 for a caller's resource. */
  chan = new Int32Array(16);
  count = new Int32Array(16);
  /** Per resource its flows (slots), and each one's entry index within its flow. */
  readonly flows: number[][] = [];
  readonly entry: number[][] = [];
  /** Per channel (Network numbering) the resource of the group holding it, or -1. */
  readonly chanRes: Int32Array;

  /**
   * @param laneShare per router output port the share of its lanes that work (lost lanes: a
   * link group's capacity counts each link at its share); absent: every lane
   */
  constructor(
    private readonly graph: PortGraph,
    private readonly params: ChannelTimingParams,
    private laneShare?: Float64Array,
  ) {
    this.chanRes = new Int32Array(graph.routers * graph.radix + graph.nodes).fill(-1);
  }

  /** A new resource of `capacity`, counting from `nowPs`; `channel` and `count` name a link group (-1 and 0: the caller's). */
  add(capacity: number, nowPs: number, channel = -1, count = 0): number {
    const r = this.n++;
    if (r === this.cap.length) {
      const n = 2 * r;
      this.cap = grow(this.cap, n);
      this.load = grow(this.load, n);
      this.since = grow(this.since, n);
      this.carried = grow(this.carried, n);
      this.mark = grow(this.mark, n);
      this.local = grow(this.local, n);
      this.chan = grow(this.chan, n);
      this.count = grow(this.count, n);
    }
    this.cap[r] = capacity;
    this.since[r] = nowPs;
    this.chan[r] = channel;
    this.count[r] = count;
    this.flows.push([]);
    this.entry.push([]);
    return r;
  }

  /** The resource of the group of `count` channels from `first`, made on first use; groups must not overlap or mix link kinds. */
  group(first: number, count: number, nowPs: number): number {
    const have = this.chanRes[first]!;
    if (have >= 0) {
      if (this.chan[have] !== first || this.count[have] !== count) throw new Error(`channel group ${first}+${count} overlaps the group ${this.chan[have]}+${this.count[have]} another route used`);
      return have;
    }
    const { phitPs } = channelTiming(this.graph, this.params, first);
    for (let c = first; c < first + count; c++) {
      const other = this.chanRes[c]!;
      if (other !== -1) throw new Error(`channel group ${first}+${count} overlaps the group ${this.chan[other]}+${this.count[other]} another route used`);
      if (channelTiming(this.graph, this.params, c).phitPs !== phitPs) throw new Error(`channel group ${first}+${count} mixes link kinds`);
    }
    let links = count;
    const share = this.laneShare;
    if (share !== undefined) {
      links = 0;
      for (let c = first; c < first + count; c++) links += c < share.length ? share[c]! : 1;
    }
    const r = this.add(links / phitPs, nowPs, first, count);
    for (let c = first; c < first + count; c++) this.chanRes[c] = r;
    return r;
  }

  /**
   * The resources of channel groups `hops` (made on first use), with each one's share and the
   * link-layer phits it adds per packet; `split`: a group of several links as one resource per
   * link, each with an even part of the group's share.
   */
  entries(hops: readonly SampledHop[], split: boolean, nowPs: number): { resource: Int32Array; share: Float64Array; overhead: Float64Array } {
    const resource: number[] = [];
    const share: number[] = [];
    const overhead: number[] = [];
    for (const h of hops) {
      const oh = channelTiming(this.graph, this.params, h.channel).overheadPhits;
      if (!split || h.count === 1) {
        resource.push(this.group(h.channel, h.count, nowPs));
        share.push(h.share);
        overhead.push(oh);
        continue;
      }
      for (let c = h.channel; c < h.channel + h.count; c++) {
        resource.push(this.group(c, 1, nowPs));
        share.push(h.share / h.count);
        overhead.push(oh);
      }
    }
    return { resource: Int32Array.from(resource), share: Float64Array.from(share), overhead: Float64Array.from(overhead) };
  }

  /**
   * Channel `c` works at `share` of its lanes from `nowPs` on: the capacity of the link group
   * holding it changes (what it carried so far stays); returns that group's resource, or -1 if no
   * flow has used it yet. During a pause the share takes effect when it ends.
   */
  setShare(c: number, share: number, nowPs: number): number {
    if (this.pausedShares !== null) {
      this.pausedShares[c] = share;
      return -1;
    }
    this.laneShare ??= this.allLanes();
    this.laneShare[c] = share;
    const r = this.chanRes[c]!;
    if (r < 0) return -1;
    this.recount(r, nowPs);
    return r;
  }

  /**
   * Every link group carries nothing from `nowPs` until resume (the network quiesces while new
   * routes are computed); groups first used meanwhile start at nothing too. Returns the resources
   * whose capacity changed.
   */
  pause(nowPs: number): number[] {
    if (this.pausedShares !== null) return [];
    this.pausedShares = this.laneShare ?? this.allLanes();
    this.laneShare = new Float64Array(this.pausedShares.length);
    return this.recountGroups(nowPs);
  }

  /** The pause ends at `nowPs`: every link group carries at its lanes' shares again (those set during the pause included). */
  resume(nowPs: number): number[] {
    if (this.pausedShares === null) return [];
    this.laneShare = this.pausedShares;
    this.pausedShares = null;
    return this.recountGroups(nowPs);
  }

  /** The lane shares a pause set aside, per channel; null when the links carry. */
  private pausedShares: Float64Array | null = null;

  /** A share of 1 for every channel. */
  private allLanes(): Float64Array {
    return new Float64Array(this.graph.routers * this.graph.radix).fill(1);
  }

  /** Every link group's capacity counted again from the lane shares, from `nowPs`; returns them. */
  private recountGroups(nowPs: number): number[] {
    const out: number[] = [];
    for (let r = 0; r < this.n; r++) {
      if (this.chan[r]! < 0) continue;
      this.recount(r, nowPs);
      out.push(r);
    }
    return out;
  }

  /** Link group `r`'s capacity from its lanes' shares, from `nowPs` (what it carried so far stays). */
  private recount(r: number, nowPs: number): void {
    this.carried[r] = this.carriedAt(r, nowPs);
    this.since[r] = nowPs;
    const share = this.laneShare!;
    const { phitPs } = channelTiming(this.graph, this.params, this.chan[r]!);
    let links = 0;
    for (let x = this.chan[r]!; x < this.chan[r]! + this.count[r]!; x++) links += x < share.length ? share[x]! : 1;
    this.cap[r] = links / phitPs;
  }

  /** Throws a RangeError unless `r` is a resource id. */
  check(r: number): void {
    if (!Number.isInteger(r) || r < 0 || r >= this.n) throw new RangeError(`resource ${r}: not a resource (0..${this.n - 1})`);
  }

  /** Capacity units resource r has carried up to `nowPs`. */
  carriedAt(r: number, nowPs: number): number {
    return this.carried[r]! + this.load[r]! * (nowPs - this.since[r]!);
  }

  /** What each resource had carried when `markCarried` was last called (null: nothing before). */
  private carriedBase: Float64Array | null = null;

  /** From now on, `addChannelBusy` counts only what resources carry after `nowPs`. */
  markCarried(nowPs: number): void {
    const base = new Float64Array(this.n);
    for (let r = 0; r < this.n; r++) base[r] = this.carriedAt(r, nowPs);
    this.carriedBase = base;
  }

  /** Adds every link group's busy time since `markCarried` up to `nowPs` (carried over capacity) to each of its channels in `out`. */
  addChannelBusy(out: Float64Array, nowPs: number): void {
    const base = this.carriedBase;
    for (let r = 0; r < this.n; r++) {
      const c = this.chan[r]!;
      if (c < 0) continue;
      const busy = (this.carriedAt(r, nowPs) - (base !== null && r < base.length ? base[r]! : 0)) / this.cap[r]!;
      for (let k = 0; k < this.count[r]!; k++) out[c + k]! += busy;
    }
  }

  /** Puts entry `entry` of flow `flow` on resource r's list; returns its position there. */
  attach(r: number, flow: number, entry: number): number {
    this.entry[r]!.push(entry);
    return this.flows[r]!.push(flow) - 1;
  }

  /**
   * Takes the flow at position `at` off resource r's list, moving the last one into its place;
   * `positions` (per flow, per entry: its position) learns the move.
   */
  detach(r: number, at: number, positions: readonly Int32Array[]): void {
    const list = this.flows[r]!;
    const ent = this.entry[r]!;
    const end = list.length - 1;
    if (at !== end) {
      const moved = list[end]!;
      const movedEntry = ent[end]!;
      list[at] = moved;
      ent[at] = movedEntry;
      positions[moved]![movedEntry] = at;
    }
    list.pop();
    ent.pop();
  }
}

/** A copy of typed array `a` with room for `n` elements. */
export function grow<T extends Int32Array | Uint8Array | Float64Array>(a: T, n: number): T {
  const b = new (a.constructor as new (n: number) => T)(n);
  b.set(a);
  return b;
}
