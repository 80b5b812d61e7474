import type { Engine, EventHandler } from '../engine/engine.ts';
import { getResponsePhits, putRequestPhits, type PacketFormatConfig } from '../nic/packet-format.ts';
import type { FlowRoute } from './flow-route.ts';
import { FlowRouteTable } from './flow-route-table.ts';
import { FlowResources } from './flow-resources.ts';
import { FlowSolver } from './flow-solver.ts';
import { FlowTable } from './flow-table.ts';
import type { FlowCounters, FlowNetworkConfig, FlowSpec, RoutePath } from './flow-spec.ts';

export type { FlowCounters, FlowNetworkConfig, FlowReverse, FlowSpec, FlowUse } from './flow-spec.ts';

const enum Ev {
  Done = 0,
  Solve = 1,
  /** A quiesce's end: the links carry again. */
  Resume = 2,
}

/**
 * Flow-level model of a network (SimGrid's approach): a transfer is a flow over the channel groups
 * of its route (flowRoute), sharing their bandwidth with the other flows max-min fairly
 * (maxMinRates), together with resources the caller registers (a NIC's pipelines, its host
 * interface). Rates are solved again only where flows start or end, and only for the flows
 * connected to the change through shared resources; starts and ends at one instant share one
 * solve (an engine event at that instant). A flow's bytes left are updated lazily (remaining,
 * rate, since); its completion time, ceil(now + remaining / rate), is recomputed when a solve
 * changes its rate and kept in a heap, with one engine event standing for the earliest. Flows
 * ending at one instant report in start order.
 *
 * Units: rates in payload bytes per ps; a link group's capacity is its phits per ps (count over
 * the phit time of its kind), and a flow's weight on it the wire phits per payload byte of the
 * flow's own packets (full packets of format.maxPayloadBytes and a last partial one, each with
 * its header, data, EOP and that link class's overhead phits).
 *
 * This class starts flows, reports their ends and handles faults; the flows' state by slot is a
 * FlowTable (flow-table.ts), and a FlowSolver (flow-solver.ts) solves their rates.
 */
export class FlowNetwork implements EventHandler {
  readonly id: number;
  private readonly engine: Engine;
  private readonly format: PacketFormatConfig;
  /** The routes flows take, traced once and kept. */
  private readonly routes: FlowRouteTable;
  /** The resources flows share. */
  private readonly res: FlowResources;
  /** The flows and pools, by slot. */
  private readonly flows = new FlowTable();
  /** The max-min solve of the rates. */
  private readonly solver: FlowSolver;
  private nActive = 0;
  // pending work
  private doneList: number[] = [];
  private doneSpare: number[] = [];
  private solvePending = false;
  /** Time of the earliest Done event still pending (Infinity: none), so one event serves the earliest completion. */
  private armedAt = Infinity;

  constructor(cfg: FlowNetworkConfig) {
    this.engine = cfg.engine;
    this.format = cfg.format;
    this.res = new FlowResources(cfg.graph, cfg.params, cfg.laneShare);
    this.routes = new FlowRouteTable(cfg, this.res, cfg.engine);
    this.solver = new FlowSolver(this.flows, this.res);
    this.id = cfg.engine.register(this);
  }

  /** Flows under way (started and not yet reported done). */
  get active(): number {
    return this.nActive;
  }

  /** Max-min solves so far (an end that leaves no flow connected to it needs none). */
  get solves(): number {
    return this.solver.nSolves;
  }

  /** Flows the solves so far took in (a flow counts once per solve it was connected to a change in). */
  get solvedFlows(): number {
    return this.solver.nSolvedFlows;
  }

  /** Resources so far: link groups some flow has used, and the caller's. */
  get resources(): number {
    return this.res.n;
  }

  /** Registers a resource of `capacity` units per ps (above 0) for flows to use (FlowSpec.extra); returns its id. */
  addResource(capacity: number): number {
    if (!(capacity > 0 && capacity < Infinity)) throw new RangeError(`resource capacity must be a positive finite number of units per ps, got ${capacity}`);
    return this.res.add(capacity, this.engine.now);
  }

  /** Capacity of a resource (units per ps; phits per ps for a link group). */
  capacityOf(resource: number): number {
    this.res.check(resource);
    return this.res.cap[resource]!;
  }

  /** Capacity units a resource has carried up to now (phits for a link group). */
  carriedOf(resource: number): number {
    this.res.check(resource);
    return this.res.carriedAt(resource, this.engine.now);
  }

  /** Time a resource has been busy up to now: carried units over capacity (ps). */
  busyPsOf(resource: number): number {
    return this.carriedOf(resource) / this.res.cap[resource]!;
  }

  /** Capacity units per ps a resource carries now (after any pending solve). */
  loadOf(resource: number): number {
    this.res.check(resource);
    this.flush();
    return this.res.load[resource]!;
  }

  /** The resource of the link group holding `channel` (Network numbering), or -1 if no flow has used it. */
  linkResourceOf(channel: number): number {
    return this.res.chanRes[channel] ?? -1;
  }

  /**
   * Adds each link group's busy time up to now to `out`, indexed like the Network's channels
   * (NetworkCounters.busyPs): every channel of a group gets the group's carried phits over its
   * capacity, as if the flows spread evenly over its parallel links.
   */
  addChannelBusy(out: Float64Array): void {
    this.res.addChannelBusy(out, this.engine.now);
  }

  /** Transfers started as flows (a pool of flows counts once), their bytes and the solves of the rates, since `resetCounters`. */
  counters(): FlowCounters {
    return { transfers: this.cTransfers, bytes: this.cBytes, solves: this.solver.nSolves - this.solvesBase };
  }

  /** Counts afresh from now: `counters` and the busy time `addChannelBusy` adds. */
  resetCounters(): void {
    this.cTransfers = this.cBytes = 0;
    this.solvesBase = this.solver.nSolves;
    this.res.markCarried(this.engine.now);
  }
  private cTransfers = 0;
  private cBytes = 0;
  /** `nSolves` when the counters were last reset. */
  private solvesBase = 0;

  /**
   * The faults changed now (a failure during the run; the routing the flows were built with has
   * taken the new fault set): flows that start from now on trace their routes afresh, and the
   * link groups of `channels` count at their lanes' `shares` from now on, their flows re-solved.
   * A flow under way over a channel `down` marks (per channel, 1: failed) stops there, and the
   * rest of its bytes goes on at once as a flow of the same spec over the routes the routing now
   * gives (a new flow id; its onDone is called once, when the rest is done).
   */
  faultsChanged(channels: readonly number[], shares: readonly number[], down?: Uint8Array): void {
    this.routes.clear();
    channels.forEach((c, k) => {
      const r = this.res.setShare(c, shares[k]!, this.engine.now);
      if (r >= 0) this.solver.dirtyRes.push(r);
    });
    if (down !== undefined) this.reroute(down);
    if (this.solver.dirtyRes.length > 0) this.scheduleSolve();
  }

  /**
   * The network quiesces from now until `untilPs` (a failure cut the last link between two
   * routers, and new routes are computed: network.ts applyFault): no link carries anything
   * meanwhile, so every flow under way stops where it is and goes on when the pause ends, as the
   * packets do. A pause begun during another extends it.
   */
  quiesce(untilPs: number): void {
    this.changed(this.res.pause(this.engine.now));
    if (untilPs > this.pausedUntil) {
      this.pausedUntil = untilPs;
      this.engine.at(untilPs, this.id, Ev.Resume, 0);
    }
  }
  private pausedUntil = -Infinity;

  /** Resources whose capacity changed now: their flows are solved again. */
  private changed(rs: readonly number[]): void {
    if (rs.length === 0) return;
    for (const r of rs) this.solver.dirtyRes.push(r);
    this.scheduleSolve();
  }

  /** Re-routes the rest of every flow (or pool of flows) under way over a channel `down` marks. */
  private reroute(down: Uint8Array): void {
    const leads: number[] = [];
    for (let c = 0; c < down.length; c++) {
      const r = down[c] ? this.res.chanRes[c]! : -1;
      if (r < 0) continue;
      for (const f of this.res.flows[r]!) {
        const g = this.flows.fGroup[f]!;
        const lead = g >= 0 ? g : f;
        if (this.flows.fActive[lead] === 1 && this.flows.fSpec[lead] && !leads.includes(lead)) leads.push(lead);
      }
    }
    if (leads.length === 0) return;
    // the bytes left are those of the rates so far
    this.flush();
    const now = this.engine.now;
    leads.sort(this.flows.bySerial);
    for (const lead of leads) {
      const spec = this.flows.fSpec[lead]!;
      const cb = this.flows.fDone[lead]!;
      const pool = this.flows.gMembers[lead];
      const left = pool !== undefined ? this.flows.gRem[lead]! - this.flows.gRate[lead]! * (now - this.flows.gSince[lead]!) : this.remainingOf(lead);
      for (const m of pool ?? [lead]) {
        this.flows.fGroup[m] = -1;
        this.flows.fDone[m] = null;
        this.flows.fSpec[m] = null;
        if (this.flows.fActive[m] === 1) this.leave(m);
        this.flows.freeSlots.push(m);
      }
      if (pool !== undefined) {
        this.flows.gMembers[lead] = undefined;
        if (this.flows.gCap[lead]! >= 0) this.capPool.push(this.flows.gCap[lead]!);
        this.flows.gRem[lead] = 0;
        this.flows.gRate[lead] = 0;
      }
      // the rest goes on as a flow of its own, counted with the transfer it belongs to
      const bytes = left > 0 ? left : 0;
      this.start({ ...spec, bytes, onDone: cb });
      this.cTransfers--;
      this.cBytes -= bytes;
      this.nRerouted++;
    }
  }

  /** Flows (or pools) re-routed around a link that failed under them. */
  get rerouted(): number {
    return this.nRerouted;
  }
  private nRerouted = 0;

  /** The routes (one per sample, duplicates kept) flows from src to dst on `vcClass` take. */
  routesOf(src: number, dst: number, vcClass: number, ordered = false, path?: number): readonly FlowRoute[] {
    return this.routes.routesOf(src, dst, vcClass, ordered, path);
  }

  /** Zero-load latency (wire plus routers, ps) of the slowest of those routes: what a caller adds to a flow's end. */
  latencyPs(src: number, dst: number, vcClass: number, ordered = false, path?: number): number {
    return this.routes.use(src, dst, vcClass, ordered, path).latencyPs;
  }

  /**
   * Starts a flow now and returns its id, valid until its onDone has returned (ids are reused
   * afterwards). Its rate is set by the solve at this instant, after every other start and end of
   * this instant.
   */
  start(spec: FlowSpec): number {
    const { src, dst, vcClass, bytes } = spec;
    if (!(bytes >= 0 && bytes < Infinity)) throw new RangeError(`flow bytes must be a finite number at least 0, got ${bytes}`);
    const rateCap = spec.rateCap ?? Infinity;
    if (!(rateCap > 0)) throw new RangeError(`flow rateCap must be above 0 bytes per ps, got ${rateCap}`);
    const F = this.format;
    const max = F.maxPayloadBytes;
    const phitsOf = vcClass === 1 ? getResponsePhits : putRequestPhits;
    // the flow's own packets: full ones and a last partial one
    const packets = bytes > 0 ? Math.ceil(bytes / max) : 1;
    const perBytes = bytes > 0 ? bytes : max;
    const last = bytes > 0 ? bytes - (packets - 1) * max : max;
    const phits = (packets - 1) * phitsOf(F, max) + phitsOf(F, last);
    const res: number[] = [];
    const w: number[] = [];
    const use = (r: number, weight: number): void => {
      const i = res.indexOf(r);
      if (i >= 0) w[i]! += weight;
      else {
        res.push(r);
        w.push(weight);
      }
    };
    this.cTransfers++;
    this.cBytes += bytes;
    const fwd = this.routes.use(src, dst, vcClass, spec.ordered ?? false, spec.path);
    const paths = spec.multipath ? this.routes.paths(src, dst, vcClass, spec.ordered ?? false, spec.path) : [];
    if (paths.length > 1) {
      const lead = this.startPool(spec, paths, phits, packets, perBytes, rateCap);
      this.flows.fSpec[lead] = spec;
      return lead;
    }
    for (let k = 0; k < fwd.resource.length; k++) use(fwd.resource[k]!, (fwd.share[k]! * (phits + packets * fwd.overhead[k]!)) / perBytes);
    this.useExtra(spec, use, packets, perBytes);
    const f = this.addFlow(res, w, bytes, rateCap, spec.onDone, -1);
    this.flows.fSpec[f] = spec;
    return f;
  }

  /** The reverse packets' and the caller's resources of `spec`, through `use`. */
  private useExtra(spec: FlowSpec, use: (r: number, weight: number) => void, packets = 0, perBytes = 1): void {
    if (spec.reverse && packets > 0) {
      const rv = spec.reverse;
      if (!(rv.phitsPerPacket > 0)) throw new RangeError(`flow reverse.phitsPerPacket must be above 0, got ${rv.phitsPerPacket}`);
      const back = this.routes.use(spec.dst, spec.src, rv.vcClass, spec.ordered ?? false, spec.path);
      for (let k = 0; k < back.resource.length; k++) use(back.resource[k]!, (back.share[k]! * packets * (rv.phitsPerPacket + back.overhead[k]!)) / perBytes);
    }
    for (const x of spec.extra ?? []) {
      this.res.check(x.resource);
      if (!(x.weight > 0 && x.weight < Infinity)) throw new RangeError(`flow use of resource ${x.resource}: weight must be a positive finite number, got ${x.weight}`);
      use(x.resource, x.weight);
    }
  }

  /**
   * A pool of flows, one per distinct route in `paths` (see FlowSpec.multipath): each carries its
   * route and the pool's share of the rest (reverse packets, the caller's resources); a resource
   * of the pool's own (capacity `rateCap`) bounds their sum. Returns the pool's id (its first
   * flow's), done when the flows together have carried `bytes`.
   */
  private startPool(spec: FlowSpec, paths: readonly RoutePath[], phits: number, packets: number, perBytes: number, rateCap: number): number {
    let cap = -1;
    if (rateCap < Infinity) {
      cap = this.capPool.pop() ?? this.res.add(rateCap, this.engine.now);
      this.res.cap[cap] = rateCap;
    }
    let lead = -1;
    for (const path of paths) {
      const res: number[] = [];
      const w: number[] = [];
      const use = (r: number, weight: number): void => {
        const i = res.indexOf(r);
        if (i >= 0) w[i]! += weight;
        else {
          res.push(r);
          w.push(weight);
        }
      };
      for (let k = 0; k < path.resource.length; k++) use(path.resource[k]!, (path.part[k]! * (phits + packets * path.overhead[k]!)) / perBytes);
      this.useExtra(spec, use, packets, perBytes);
      if (cap >= 0) use(cap, 1);
      const f = this.addFlow(res, w, Infinity, Infinity, lead < 0 ? spec.onDone : null, lead);
      if (lead < 0) {
        lead = f;
        this.flows.gMembers[f] = [f];
        this.flows.gRem[f] = spec.bytes;
        this.flows.gSince[f] = this.engine.now;
        this.flows.gRate[f] = 0;
        this.flows.gCap[f] = cap;
        this.flows.fGroup[f] = f;
      } else this.flows.gMembers[lead]!.push(f);
    }
    return lead;
  }
  /** Pool resources of finished pools, for reuse. */
  private readonly capPool: number[] = [];

  /** Adds an active flow over resources `res` with weights `w`; returns its slot. */
  private addFlow(res: readonly number[], w: readonly number[], bytes: number, rateCap: number, onDone: ((flow: number) => void) | null, group: number): number {
    const f = this.flows.alloc();
    this.flows.fGroup[f] = group;
    const n = res.length;
    const fr = Int32Array.from(res);
    const pos = new Int32Array(n);
    for (let k = 0; k < n; k++) pos[k] = this.res.attach(fr[k]!, f, k);
    this.flows.fRes[f] = fr;
    this.flows.fW[f] = Float64Array.from(w);
    this.flows.fPos[f] = pos;
    this.flows.fDone[f] = onDone;
    this.flows.fRem[f] = bytes;
    this.flows.fRate[f] = 0;
    this.flows.fSince[f] = this.engine.now;
    this.flows.fCap[f] = rateCap;
    this.flows.fSerial[f] = this.flows.serial++;
    this.flows.fActive[f] = 1;
    this.nActive++;
    this.flows.nEntries += n;
    this.solver.dirtyFlows.push(f);
    this.scheduleSolve();
    return f;
  }

  /** A flow's rate now, payload bytes per ps (solving first if a start or end is pending); 0 once done. */
  rateOf(flow: number): number {
    this.flush();
    return this.flows.fActive[flow] === 1 ? this.flows.fRate[flow]! : 0;
  }

  /** A flow's payload bytes not yet serialized onto its bottleneck, now. */
  remainingOf(flow: number): number {
    if (this.flows.fActive[flow] !== 1) return 0;
    return Math.max(0, this.flows.fRem[flow]! - this.flows.fRate[flow]! * (this.engine.now - this.flows.fSince[flow]!));
  }

  /** Engine events: the earliest completion is due (Done), or this instant's ends are to be reported and its changes solved (Solve). */
  onEvent(kind: number, _arg: number): void {
    if (kind === Ev.Resume) {
      // the quiesce ends, unless a later one extended it
      if (this.engine.now >= this.pausedUntil) this.changed(this.res.resume(this.engine.now));
      return;
    }
    if (kind === Ev.Done) {
      // the earliest completion is due (or this event was overtaken: then nothing is due)
      const now = this.engine.now;
      if (now === this.armedAt) this.armedAt = Infinity;
      const heap = this.solver.due;
      while (heap.size > 0 && heap.topTime <= now) this.finish(heap.topSlot);
      this.arm();
      return;
    }
    // Ev.Solve: report the flows that ended at this instant, in start order, then solve once for
    // every change of the instant (flows their callbacks start included)
    const done = this.doneList;
    this.doneList = this.doneSpare;
    if (done.length > 1) done.sort(this.flows.bySerial);
    for (const f of done) {
      const cb = this.flows.fDone[f]!;
      this.flows.fDone[f] = null;
      this.flows.freeSlots.push(f);
      cb(f);
    }
    done.length = 0;
    this.doneSpare = done;
    this.flush();
    this.solvePending = false;
    // flows ended while the callbacks ran wait for their own solve event
    if (this.doneList.length > 0) this.scheduleSolve();
  }

  /** Solves the rates of every flow connected to a pending start or end, now. */
  flush(): void {
    if (this.solver.solve(this.engine.now)) this.arm();
  }

  /** Makes sure an engine event comes no later than the earliest completion. */
  private arm(): void {
    const t = this.solver.due.topTime;
    if (t < this.armedAt) {
      this.armedAt = t;
      this.engine.at(t, this.id, Ev.Done, 0);
    }
  }

  /** Flow (or pool) f's last byte is out: it leaves its resources, and reports at this instant's solve. */
  private finish(f: number): void {
    const g = this.flows.fGroup[f]!;
    if (g >= 0) {
      const members = this.flows.gMembers[g]!;
      this.flows.gMembers[g] = undefined;
      for (const m of members) {
        this.flows.fGroup[m] = -1;
        if (m !== g) {
          this.leave(m);
          this.flows.freeSlots.push(m);
        }
      }
      if (this.flows.gCap[g]! >= 0) this.capPool.push(this.flows.gCap[g]!);
      this.flows.gRem[g] = 0;
      this.flows.gRate[g] = 0;
    }
    this.leave(f);
    this.doneList.push(f);
    this.scheduleSolve();
  }

  /** Flow f stops: it leaves its resources. */
  private leave(f: number): void {
    this.flows.fActive[f] = 0;
    this.solver.due.remove(f);
    this.flows.fRem[f] = 0;
    this.flows.fRate[f] = 0;
    this.nActive--;
    const fr = this.flows.fRes[f]!;
    this.flows.nEntries -= fr.length;
    const pos = this.flows.fPos[f]!;
    for (let k = 0; k < fr.length; k++) {
      this.res.detach(fr[k]!, pos[k]!, this.flows.fPos);
      this.solver.dirtyRes.push(fr[k]!);
    }
  }

  private scheduleSolve(): void {
    if (this.solvePending) return;
    this.solvePending = true;
    this.engine.at(this.engine.now, this.id, Ev.Solve, 0);
  }
}
