/**
 * The public tier of `phit validate`: measurements of the real machines published by sites and
 * papers (OSU, IMB and HPCC runs), none of them a seed figure, each beside the model's value for
 * the same benchmark, node count and ranks per node. The data live in `measured/<machine>.json`,
 * one record per measured value with its source, configuration and how it was read; a record's
 * `use` says whether a parameter was fitted to it (`fit`: the row is `fitted`) or not (`check`:
 * the row is `predicted`). The tier is judged by its median absolute deviation per machine (the
 * summary prints it), each row by a wider tolerance: these are production systems, with other
 * jobs, other node placements and other processors than the preset's.
 */
import { readFileSync } from 'node:fs';
import type { Check, Tier } from './check.ts';
import { appRows, num } from './measure.ts';

/** One published measurement, as `measured/<machine>.json` holds it. */
export interface Measurement {
  readonly id: string;
  /** The benchmark as published (IMB Allreduce, osu_latency, HPCC b_eff ping-pong latency, ...). */
  readonly benchmark: string;
  readonly nodes: number;
  readonly ppn: number;
  /** Message size in bytes (a block of alltoall; the buffer of allreduce). */
  readonly bytes: number;
  readonly value: number;
  /** us, MB/s, GB/s, or x for a ratio of two runs. */
  readonly unit: string;
  /** The system measured (name, network, processors). */
  readonly system: string;
  /** The MPI software measured (name and version). */
  readonly software: string;
  /** Citation: authors, title, venue, year, table or figure, address. */
  readonly source: string;
  /** How the value was read (table, listing, plot). */
  readonly note: string;
  /** `fit`: a parameter was fitted to it (named in `fitted`); `check`: nothing was. */
  readonly use: 'fit' | 'check';
  /** The machine parameters fitted to it (use `fit`). */
  readonly fitted?: readonly string[];
}

/** Machines with a data file. */
export const MEASURED_MACHINES = ['xc30', 'xe6', 'xt4'] as const;

/** Each row's own tolerance, and why it is wider than SEED-FIGURES.md's 15 %. */
export const PUBLIC_TOLERANCE = 0.5;
const PUBLIC_WHY =
  'a measurement of a production system (other jobs, node placement, processors): the public tier is held to a median absolute deviation of 20 % per machine, each row to 50 %';

/** Runs larger than this many ranks are not in the tiers (the data file keeps them). */
export const MAX_RANKS = 1536;
/** Runs up to this many ranks are in the quick tier. */
const QUICK_RANKS = 96;

/** The records of one machine's data file; throws naming the file and the bad record. */
export function loadMeasurements(machine: string): Measurement[] {
  const url = new URL(`./measured/${machine}.json`, import.meta.url);
  const data = JSON.parse(readFileSync(url, 'utf8')) as Measurement[];
  for (const m of data) {
    const bad = (what: string): never => {
      throw new Error(`measured/${machine}.json: record ${m.id ?? '?'}: ${what}`);
    };
    if (typeof m.id !== 'string' || m.id === '') bad('no id');
    if (!(m.nodes >= 1 && m.ppn >= 1 && Number.isInteger(m.nodes) && Number.isInteger(m.ppn))) bad('nodes and ppn must be positive integers');
    if (!(m.value > 0)) bad('value must be positive');
    if (m.use !== 'fit' && m.use !== 'check') bad(`use must be fit or check, not ${String(m.use)}`);
    if (m.use === 'fit' && !(m.fitted && m.fitted.length > 0)) bad('a fit record names its fitted parameters');
    if (benchmarkRun(m) === null) bad(`benchmark "${m.benchmark}" has no phit app`);
  }
  return data;
}

/** One app run of a benchmark: the app, its params and the key of rank 0's first row. */
interface AppKey {
  readonly app: string;
  readonly params: Record<string, string>;
  readonly key: string;
}

/**
 * How phit runs a benchmark: the app, its params and the row's key, and the factor from the key's
 * unit to the record's; with `per`, the value is the ratio of the two runs' keys.
 */
interface BenchmarkRun extends AppKey {
  readonly scale: number;
  readonly quantity: string;
  readonly per?: AppKey;
}

/** The phit run of a record's benchmark, or null when phit has none. */
export function benchmarkRun(m: Measurement): BenchmarkRun | null {
  const ranks = m.nodes * m.ppn;
  const size = { minBytes: String(m.bytes), maxBytes: String(m.bytes) };
  const mbs = m.unit === 'GB/s' ? 1 / 1000 : 1;
  switch (m.benchmark) {
    // IMB (-sync 1, its default since 2018) and OSU time each call alone, a barrier after it, and
    // print the average over the ranks of each rank's mean (IMB's t_avg, OSU's Avg Latency)
    case 'IMB Allreduce':
    case 'osu_allreduce':
      return { app: 'allreduce', params: { ...size, iterations: '10', timing: 'sync' }, key: 'avgUs', scale: 1, quantity: `${m.bytes}-byte allreduce time (average over the ranks)` };
    case 'IMB Alltoall':
    case 'osu_alltoall':
      // phit's alltoall moves int32 elements: a block under 4 bytes runs as 4 bytes
      return { app: 'alltoall', params: { ...size, iterations: '5', timing: 'sync' }, key: 'avgUs', scale: 1, quantity: `alltoall time, ${Math.max(m.bytes, 4)}-byte blocks (average over the ranks)` };
    case 'osu_latency':
    case 'ping-pong latency':
    case 'HPCC b_eff ping-pong latency':
      // b_eff averages pairs drawn over the machine: the pair half the ranks apart stands for them
      return { app: 'pingpong', params: { ...size, iterations: '10', peer: String(Math.max(1, Math.floor(ranks / 2))) }, key: 'latencyUs', scale: 1, quantity: `${m.bytes}-byte one-way latency` };
    case 'HPCC b_eff ping-pong latency, least over pairs':
      // the fastest of all pairs is two ranks of one node (ppn > 1): ranks 0 and 1
      return { app: 'pingpong', params: { ...size, iterations: '10', peer: '1' }, key: 'latencyUs', scale: 1, quantity: `${m.bytes}-byte one-way latency of two ranks of one node` };
    case 'HPCC b_eff ping-pong bandwidth':
      return { app: 'pingpong', params: { ...size, iterations: '2', peer: String(Math.max(1, Math.floor(ranks / 2))) }, key: 'bandwidthGBs', scale: 1000 * mbs, quantity: `${m.bytes}-byte ping-pong bandwidth` };
    case 'ping-pong bandwidth':
      // one message at a time between rank 0 and the rank half the ranks away (2 ranks: ranks 0 and 1)
      return { app: 'pingpong', params: { ...size, iterations: '2', peer: String(Math.max(1, Math.floor(ranks / 2))) }, key: 'bandwidthGBs', scale: 1000 * mbs, quantity: `${m.bytes}-byte ping-pong bandwidth` };
    case 'pingping bandwidth, both directions':
      // both ranks post a receive and send one message to the other at once (IMB PingPing's
      // pattern; MPI_Irecv then MPI_Send or MPI_Isend), bytes of both directions over the time:
      // osu_bibw with a window of one message
      return { app: 'osu-bibw', params: { ...size, iterations: '2', window: '1' }, key: 'bandwidthMBs', scale: mbs, quantity: `${m.bytes}-byte bandwidth, one message each way at a time (both directions summed)` };
    case 'osu_bw':
      return { app: 'osu-bw', params: { ...size, iterations: '2' }, key: 'bandwidthMBs', scale: mbs, quantity: `${m.bytes}-byte streaming bandwidth` };
    case 'DMAPP get latency':
      return { app: 'putget', params: { ...size, ops: 'get', iterations: '10' }, key: 'latencyUs', scale: 1, quantity: `${m.bytes}-byte DMAPP get latency (issue to completion)` };
    case 'DMAPP get bandwidth':
      return { app: 'putget', params: { ...size, ops: 'get', iterations: '2' }, key: 'bandwidthGBs', scale: 1000 * mbs, quantity: `${m.bytes}-byte DMAPP get bandwidth (a window of non-blocking gets)` };
    case 'NIC sustained put bandwidth':
      return { app: 'putget', params: { ...size, ops: 'put', iterations: '2' }, key: 'bandwidthGBs', scale: 1000 * mbs, quantity: `${m.bytes}-byte one-sided put bandwidth (a window of non-blocking puts)` };
    case 'one-sided/two-sided message rate ratio':
      return {
        app: 'putrate', params: { puts: '200' }, key: 'rateMps', scale: 1,
        per: { app: 'osu-bw', params: { ...size, iterations: '2' }, key: 'messageRateMps' },
        quantity: `${m.bytes}-byte one-sided put rate over the MPI streaming message rate`,
      };
    case 'HPCC b_eff random ring latency':
      return { app: 'randomring', params: { measure: 'latency', patterns: '3' }, key: 'latencyUs', scale: 1, quantity: '8-byte random-ring latency, every rank at once' };
    default:
      return null;
  }
}

/** The rows of the public tier, every machine's. */
export function measuredChecks(): Check[] {
  const out: Check[] = [];
  for (const machine of MEASURED_MACHINES) {
    for (const m of loadMeasurements(machine)) {
      const ranks = m.nodes * m.ppn;
      if (ranks > MAX_RANKS) continue;
      const run = benchmarkRun(m)!;
      const tier: Tier = ranks <= QUICK_RANKS ? 'quick' : 'long';
      const fields = {
        id: `P:${m.id}`,
        machine,
        quantity: `${run.quantity}, ${m.nodes} node${m.nodes > 1 ? 's' : ''} x ${m.ppn} (${m.benchmark})`,
        // the row's source: the measured system and its MPI (the full citation stays in the data file)
        source: [m.system, m.software].filter((x) => x !== '').join(', '),
        paper: { relation: 'about' as const, value: m.value, unit: m.unit },
        tier,
        tolerance: PUBLIC_TOLERANCE,
        toleranceWhy: PUBLIC_WHY,
        measure: async (): Promise<number> => {
          const value = async (r: AppKey): Promise<number> => num((await appRows({ app: r.app, machine, nodes: m.nodes, ppn: m.ppn, params: r.params }))[0], r.key);
          const v = run.scale * (await value(run));
          return run.per ? v / (await value(run.per)) : v;
        },
      };
      out.push(m.use === 'fit' ? { ...fields, kind: 'fitted', fittedParams: m.fitted as [string, ...string[]] } : { ...fields, kind: 'predicted' });
    }
  }
  return out;
}

/** The median of the absolute deviations (fractions) of `devs`, or null when there are none. */
export function medianAbs(devs: readonly number[]): number | null {
  if (devs.length === 0) return null;
  const a = devs.map(Math.abs).sort((x, y) => x - y);
  const h = a.length >> 1;
  return a.length % 2 === 1 ? a[h]! : (a[h - 1]! + a[h]!) / 2;
}
