/** `phit traffic`: synthetic traffic from every NIC, one row per load (and bit-error rate). */
import { resolveMachine } from '../fabric/machine.ts';
import { MAX_BER } from '../fabric/link-errors.ts';
import { PATTERNS, runTraffic, sweepTraffic, type Pattern, type TrafficRow } from '../fabric/traffic.ts';
import { nonNegativeInt, nonNegativeNumber, positiveInt, positiveNumber, seedOf } from './args.ts';
import { readFaultsFile } from './faults-file.ts';
import { loadMachine, parseSets } from './machine-arg.ts';
import { formatFabricMetrics } from './metrics-output.ts';
import { formatTable } from './table.ts';

/** Longest warm-up or measurement window of `phit traffic` (simulated us): every NIC offers packets all along. */
const TRAFFIC_MAX_US = 10_000;

/** Options of `phit traffic` as commander hands them over. */
export interface TrafficCliOptions {
  machine: string;
  faults?: string;
  nodes: string;
  pattern: string;
  load: string;
  sweep?: boolean;
  routing?: string;
  hotspot: string;
  window: string;
  warmup: string;
  perSource?: boolean;
  metrics?: boolean;
  ber?: string;
  set: string[];
  seed: string;
  json?: boolean;
}

/** The loads of `--sweep`. */
const SWEEP_LOADS = [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0];

/** The rates of `--ber`: one or more bit-error rates from 0 to MAX_BER, comma-separated; throws naming the bad one. */
export function parseBerList(text: string): number[] {
  return text.split(',').map((item) => {
    const v = Number(item);
    if (item.trim() === '' || !Number.isFinite(v) || v < 0 || v > MAX_BER) throw new RangeError(`--ber ${text}: "${item}" is not a bit-error rate from 0 to ${MAX_BER}`);
    return v;
  });
}

/** Runs `phit traffic`; returns the exit code. */
export function trafficCommand(opts: TrafficCliOptions, io: { out: (s: string) => void }): number {
  const spec = loadMachine(opts.machine);
  if (!(PATTERNS as readonly string[]).includes(opts.pattern)) throw new RangeError(`--pattern ${opts.pattern}: valid: ${PATTERNS.join(', ')}`);
  const nodes = positiveInt('nodes', opts.nodes);
  // the faults file's parameters first: --set overrides them
  const set = { ...(opts.faults !== undefined ? readFaultsFile(opts.faults, spec) : {}), ...parseSets(opts.set, spec) };
  if (opts.routing !== undefined) set['routing.algorithm'] = opts.routing;
  const bers = opts.ber === undefined ? null : parseBerList(opts.ber);
  if (bers !== null && !Object.hasOwn(spec.params, 'link.ber')) throw new RangeError(`--ber: machine ${spec.name} has no link-error parameters (link.ber and the keys beside it)`);
  const load = opts.sweep ? 0 : positiveNumber('load', opts.load, 1);
  const options = {
    pattern: opts.pattern as Pattern,
    windowUs: positiveNumber('window', opts.window, TRAFFIC_MAX_US),
    warmupUs: nonNegativeNumber('warmup', opts.warmup, TRAFFIC_MAX_US),
    hotspot: nonNegativeInt('hotspot', opts.hotspot),
    seed: seedOf(opts.seed),
    perSource: opts.perSource ?? false,
    metrics: opts.metrics ?? false,
  };
  const rows: (TrafficRow & { ber?: number })[] = [];
  const saturations: { ber: number | null; saturationFraction: number | null }[] = [];
  let config = resolveMachine(spec, nodes, set);
  for (const ber of bers ?? [null]) {
    if (ber !== null) config = resolveMachine(spec, nodes, { ...set, 'link.ber': String(ber) });
    const base = {
      ...options,
      ...(config.topology.kind === 'dragonfly'
        ? { nodesPerGroup: config.topology.config.chassis * config.topology.config.routersPerChassis * config.topology.config.nodesPerRouter }
        : {}),
    };
    const result = opts.sweep ? sweepTraffic(config, base, SWEEP_LOADS) : { rows: [runTraffic(config, { ...base, load })], saturationFraction: null };
    rows.push(...result.rows.map((r) => (ber === null ? r : { ber, ...r })));
    saturations.push({ ber, saturationFraction: result.saturationFraction });
  }
  const head = { machine: spec.name, topology: config.topologySummary, nodes, pattern: opts.pattern, routing: config.topology.routing };
  if (opts.json) {
    const tail = bers === null ? { saturationFraction: saturations[0]!.saturationFraction } : { saturations };
    io.out(JSON.stringify({ ...head, rows, ...tail }));
    return 0;
  }
  io.out(`${opts.pattern} traffic on ${spec.name}: ${config.topologySummary}, ${nodes} nodes`);
  io.out(formatTable(rows.map(({ sourceShares: _s, metrics: _m, ...r }) => r)));
  if (opts.sweep) {
    for (const s of saturations) {
      const at = s.ber === null ? '' : ` at BER ${s.ber}`;
      io.out(s.saturationFraction === null ? `no saturation up to full load${at}` : `saturates at ${s.saturationFraction} of peak injection${at}`);
    }
  }
  for (const row of rows) {
    const at = row.ber === undefined ? '' : `, BER ${row.ber}`;
    if (row.metrics) io.out(['', `fabric at load ${row.offeredFraction}${at}:`, ...formatFabricMetrics(row.metrics, config.topology.routing)].join('\n'));
  }
  return 0;
}
