import type { EventHandler } from './engine/engine.ts';
import { buildMachine, type Machine, type MachineConfig } from './machine.ts';
import { Prng } from './engine/prng.ts';
import type { FabricMetrics } from './metrics.ts';
import { collectFabricMetrics } from './metrics.ts';

/** Synthetic traffic patterns: who each node sends to. */
export const PATTERNS = ['uniform', 'transpose', 'tornado', 'bitcomplement', 'neighbor', 'hotspot', 'worstcase'] as const;
export type Pattern = (typeof PATTERNS)[number];

/** A traffic run: pattern, offered load and how long to measure. */
export interface TrafficOptions {
  readonly pattern: Pattern;
  /** Offered load as a fraction of each NIC's peak injection bandwidth (0 < load). */
  readonly load: number;
  /** Simulated time before measuring (us). */
  readonly warmupUs?: number;
  /** Measurement window (us). */
  readonly windowUs?: number;
  /** Hotspot pattern: the node everyone sends to. */
  readonly hotspot?: number;
  /** Nodes per group, for the dragonfly worst case (every node of group i sends to group i+1). */
  readonly nodesPerGroup?: number;
  readonly seed?: number;
  /** Record each source's share of the delivered bandwidth. */
  readonly perSource?: boolean;
  /** Collect the fabric's metrics (links, hops, latency, routing) over the measurement window. */
  readonly metrics?: boolean;
}

/** One measured point. */
export interface TrafficRow {
  readonly offeredFraction: number;
  readonly acceptedFraction: number;
  readonly latencyMeanUs: number;
  readonly latencyP99Us: number;
  readonly packets: number;
  readonly sourceShares?: readonly number[];
  /** The fabric over the measurement window, when asked for. */
  readonly metrics?: FabricMetrics;
}

/** A function from source node to destination node (-1: this node does not send). */
export type DestinationFn = (src: number, rng: Prng) => number;

/** The destination function of a pattern over `n` nodes; throws RangeError when it does not apply. */
export function destinations(pattern: Pattern, n: number, opts: { hotspot?: number; nodesPerGroup?: number } = {}): DestinationFn {
  if (n < 2) throw new RangeError(`traffic needs at least 2 nodes, got ${n}`);
  switch (pattern) {
    case 'uniform':
      return (src, rng) => {
        const d = rng.int(n - 1);
        return d >= src ? d + 1 : d;
      };
    case 'transpose': {
      const s = Math.round(Math.sqrt(n));
      if (s * s !== n) throw new RangeError(`pattern transpose needs a square number of nodes, got ${n}`);
      return (src) => {
        const d = (src % s) * s + Math.floor(src / s);
        return d === src ? -1 : d;
      };
    }
    case 'tornado': {
      const shift = Math.ceil(n / 2) - 1;
      if (shift === 0) throw new RangeError(`pattern tornado needs at least 3 nodes, got ${n}`);
      return (src) => (src + shift) % n;
    }
    case 'bitcomplement': {
      if ((n & (n - 1)) !== 0) throw new RangeError(`pattern bitcomplement needs a power-of-two number of nodes, got ${n}`);
      return (src) => ~src & (n - 1);
    }
    case 'neighbor':
      return (src) => (src + 1) % n;
    case 'hotspot': {
      const hot = opts.hotspot ?? 0;
      if (!Number.isInteger(hot) || hot < 0 || hot >= n) throw new RangeError(`hotspot node ${hot} is not a node (0..${n - 1})`);
      return (src) => (src === hot ? -1 : hot);
    }
    case 'worstcase': {
      const per = opts.nodesPerGroup;
      if (per === undefined) throw new RangeError('pattern worstcase applies to dragonflies only (every node of group i sends to group i+1)');
      const groups = Math.ceil(n / per);
      if (groups < 2) throw new RangeError(`pattern worstcase needs at least 2 groups, got ${groups}`);
      return (src, rng) => {
        const g = (Math.floor(src / per) + 1) % groups;
        const size = Math.min(per, n - g * per);
        return g * per + rng.int(size);
      };
    }
  }
}

const EV_SEND = 0;
const EV_WINDOW_START = 1;
const EV_WINDOW_END = 2;
/** Payload bytes of one traffic packet: a one-packet short message (header + payload = one full packet). */
function payloadBytes(c: MachineConfig): number {
  return Math.max(0, c.nic.format.maxPayloadBytes - c.nic.smsgHeaderBytes);
}

/** Peak injection bandwidth of one NIC (bytes per ps of wire payload): one full packet per NIC packet time. */
export function peakInjectionBytesPerPs(c: MachineConfig): number {
  return c.nic.format.maxPayloadBytes / c.nic.packetPs;
}

/**
 * Drives a pattern from every NIC: each node issues one-packet short messages (a full packet on
 * the wire) with exponential gaps so that its offered load is `load` x the NIC's peak injection
 * bandwidth. Accepted load (and each source's share) counts what arrives in the target's memory
 * during the measurement window, whenever it was offered; latency runs from offer to arrival for
 * the messages offered in the window (those still queued at the end of the run are not counted).
 */
class Generator implements EventHandler {
  readonly id: number;
  private readonly meanGapPs: number;
  private readonly latencies: number[] = [];
  private readonly deliveredBySource: Float64Array;
  private readonly payload: Uint8Array;
  private readonly windowStart: number;
  private readonly windowEnd: number;
  delivered = 0;
  offered = 0;
  /** The fabric's metrics over the window, once it has ended (metrics runs only). */
  metrics: FabricMetrics | null = null;
  /** Source completions are not measured; one shared callback, none allocated per message. */
  private readonly ignore = (): void => {};

  constructor(
    private readonly m: Machine,
    private readonly dest: DestinationFn,
    load: number,
    warmupPs: number,
    windowPs: number,
    metrics: boolean,
  ) {
    const c = m.config;
    this.id = m.engine.register(this);
    if (metrics) {
      m.net.enableMetrics();
      m.engine.at(warmupPs, this.id, EV_WINDOW_START, 0);
      m.engine.at(warmupPs + windowPs, this.id, EV_WINDOW_END, 0);
    }
    this.meanGapPs = c.nic.format.maxPayloadBytes / (load * peakInjectionBytesPerPs(c));
    this.payload = new Uint8Array(payloadBytes(c));
    this.deliveredBySource = new Float64Array(c.nodes);
    this.windowStart = warmupPs;
    this.windowEnd = warmupPs + windowPs;
    for (let n = 0; n < c.nodes; n++) {
      m.nics[n]!.setSmsgHandler(0, (src, meta) => this.arrived(src, meta as number));
      this.next(n, 0);
    }
  }

  private next(node: number, from: number): void {
    const gap = -Math.log(1 - this.m.engine.rng.next()) * this.meanGapPs;
    const at = Math.round(from + gap);
    if (at < this.windowEnd) this.m.engine.at(at, this.id, EV_SEND, node);
  }

  onEvent(kind: number, node: number): void {
    if (kind === EV_WINDOW_START) {
      this.m.net.resetMetrics();
      return;
    }
    if (kind === EV_WINDOW_END) {
      this.metrics = collectFabricMetrics(this.m, this.windowEnd - this.windowStart);
      return;
    }
    const now = this.m.engine.now;
    const dst = this.dest(node, this.m.engine.rng);
    if (dst >= 0 && dst !== node) {
      if (now >= this.windowStart) this.offered++;
      this.m.nics[node]!.sendSmsg(dst, 0, now, this.payload, this.ignore);
    }
    this.next(node, now);
  }

  private arrived(src: number, sentAt: number): void {
    const now = this.m.engine.now;
    if (now >= this.windowStart && now < this.windowEnd) {
      this.delivered++;
      this.deliveredBySource[src]!++;
    }
    if (sentAt >= this.windowStart && sentAt < this.windowEnd) this.latencies.push(now - sentAt);
  }

  row(load: number, perSource: boolean, windowPs: number): TrafficRow {
    const c = this.m.config;
    const lat = this.latencies.sort((a, b) => a - b);
    const mean = lat.length ? lat.reduce((a, b) => a + b, 0) / lat.length : 0;
    const p99 = lat.length ? lat[Math.min(lat.length - 1, Math.floor(0.99 * lat.length))]! : 0;
    const senders = this.senders();
    const accepted = (this.delivered * c.nic.format.maxPayloadBytes) / (windowPs * senders * peakInjectionBytesPerPs(c));
    const row: TrafficRow = {
      offeredFraction: load,
      acceptedFraction: Number(accepted.toFixed(4)),
      latencyMeanUs: Number((mean / 1e6).toFixed(4)),
      latencyP99Us: Number((p99 / 1e6).toFixed(4)),
      packets: this.delivered,
      ...(perSource ? { sourceShares: Array.from(this.deliveredBySource, (v) => Number((v / (this.delivered || 1)).toFixed(5))) } : {}),
      ...(this.metrics ? { metrics: this.metrics } : {}),
    };
    return row;
  }

  /** Nodes that send at all under the pattern (the hotspot itself does not); uses a throwaway generator. */
  private senders(): number {
    const probe = new Prng(0);
    let s = 0;
    for (let n = 0; n < this.m.config.nodes; n++) if (this.dest(n, probe) !== -1) s++;
    return s;
  }
}

/** Runs one load point of a pattern on a resolved machine. */
export function runTraffic(config: MachineConfig, opts: TrafficOptions): TrafficRow {
  if (!(opts.load > 0) || !Number.isFinite(opts.load)) throw new RangeError(`load must be a positive fraction of peak injection, got ${opts.load}`);
  const dest = destinations(opts.pattern, config.nodes, opts);
  const m = buildMachine(config, opts.seed ?? 1);
  const warmupPs = Math.round((opts.warmupUs ?? 5) * 1e6);
  const windowPs = Math.round((opts.windowUs ?? 20) * 1e6);
  const gen = new Generator(m, dest, opts.load, warmupPs, windowPs, opts.metrics ?? false);
  // let packets offered in the window arrive, but do not wait forever on a saturated network
  m.engine.drain(warmupPs + 3 * windowPs);
  return gen.row(opts.load, opts.perSource ?? false, windowPs);
}

/** Runs a sweep over loads; the saturation point is the first load whose accepted load falls 5 % short of the offered. */
export function sweepTraffic(config: MachineConfig, opts: Omit<TrafficOptions, 'load'>, loads: readonly number[]): { rows: TrafficRow[]; saturationFraction: number | null } {
  const rows: TrafficRow[] = [];
  let saturation: number | null = null;
  for (const load of loads) {
    const row = runTraffic(config, { ...opts, load });
    rows.push(row);
    if (saturation === null && row.acceptedFraction < 0.95 * load) saturation = load;
  }
  return { rows, saturationFraction: saturation };
}
