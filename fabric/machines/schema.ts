/**
 * The parameter schema of every machine: what kind of value each key takes (a time, a size, a
 * bandwidth, an integer, one of a few words...), which topology it belongs to, and the checks
 * that turn a bad value into a message naming the key, the value and what is allowed. Presets,
 * machine files and `--set` are all checked against it; the parameter reference is generated
 * from it and the presets.
 */
import { CLOS_RANKS } from '../topology/clos.ts';
import { COLL_SELECTORS } from './coll-selector.ts';
import { FIDELITY_LEVELS } from './fidelity.ts';
import { isBerText, MAX_BER, RETRY_PROTOCOLS } from '../link-errors.ts';
import { isDeadNodesText } from '../node-faults.ts';
import { FAULT_FORMS, isFaultText } from '../faults.ts';
import { ROUTINGS_BY_TOPOLOGY, TOPOLOGY_KINDS } from '../topology/topologies.ts';
import { parseBandwidth, parseBytes, parseHz, parseTimePs } from '../units.ts';

/** A topology kind (`topology.kind`). */
export type TopologyKind = (typeof TOPOLOGY_KINDS)[number];

/** What one parameter's value may be. */
export type ParamKind =
  | { readonly type: 'time' }
  | { readonly type: 'size' }
  | { readonly type: 'bandwidth' }
  | { readonly type: 'frequency' }
  | { readonly type: 'int'; readonly min: number }
  | { readonly type: 'number'; readonly min: number; readonly max?: number; readonly minExclusive?: boolean }
  | { readonly type: 'flag' }
  | { readonly type: 'enum'; readonly values: readonly string[] }
  /** One of the routing algorithms of the machine's `topology.kind`. */
  | { readonly type: 'routing' }
  /** Positive integers, one per dimension: "8,4,8" or "8x4x8". */
  | { readonly type: 'ints' }
  /** true or false per dimension: "true,true,false". */
  | { readonly type: 'bools' }
  | { readonly type: 'hex'; readonly digits: number }
  /** none, or torus links like x+@1.2.3 joined by commas. */
  | { readonly type: 'brokenLinks' }
  /** A bit-error rate, or class=rate items after an optional rate for the classes not named. */
  | { readonly type: 'ber' }
  /** none, or node ids each with an optional @time, joined by commas. */
  | { readonly type: 'deadNodes' }
  /** none, or failed links, routers or lanes (fabric/faults.ts) joined by commas. */
  | { readonly type: 'faults'; readonly which: 'links' | 'routers' | 'lanes' }
  /** A word ("auto", "max", "nic") or a value of another kind. */
  | { readonly type: 'word'; readonly word: string; readonly meaning: string; readonly other: ParamKind };

/** The schema entry of one key. */
export interface ParamSchema {
  readonly kind: ParamKind;
  /** The key only exists on machines of this topology. */
  readonly topology?: TopologyKind;
  /** A machine may lack the key (the feature is off without it). */
  readonly optional?: boolean;
}

const time: ParamKind = { type: 'time' };
const size: ParamKind = { type: 'size' };
const bandwidth: ParamKind = { type: 'bandwidth' };
const frequency: ParamKind = { type: 'frequency' };
const flag: ParamKind = { type: 'flag' };
const count: ParamKind = { type: 'int', min: 0 };
const positive: ParamKind = { type: 'int', min: 1 };
const efficiency: ParamKind = { type: 'number', min: 0, max: 1, minExclusive: true };
const auto = (other: ParamKind, meaning: string): ParamKind => ({ type: 'word', word: 'auto', meaning, other });

const torus = (kind: ParamKind): ParamSchema => ({ kind, topology: 'torus' });
const dragonfly = (kind: ParamKind): ParamSchema => ({ kind, topology: 'dragonfly' });
const all = (kind: ParamKind): ParamSchema => ({ kind });
const arbitration = (kind: ParamKind): ParamSchema => ({ kind, optional: true });
/** Link errors are off on a machine without these keys (link-errors.ts: all or none). */
const linkErrors = (kind: ParamKind): ParamSchema => ({ kind, optional: true });

/** Every machine parameter key and the kind of its value (nothing inherited: `toString` is no key). */
export const PARAM_SCHEMA: Readonly<Record<string, ParamSchema>> = Object.freeze(Object.assign(Object.create(null) as Record<string, ParamSchema>, {
  'topology.kind': all({ type: 'enum', values: TOPOLOGY_KINDS }),
  'routing.algorithm': all({ type: 'routing' }),
  'torus.dims': torus(auto({ type: 'ints' }, 'a balanced torus that holds the nodes')),
  'torus.links': torus({ type: 'ints' }),
  'torus.wrap': torus({ type: 'bools' }),
  'torus.nodesPerRouter': torus(positive),
  'torus.brokenLinks': torus({ type: 'brokenLinks' }),
  'dragonfly.groups': dragonfly(auto(positive, 'as few groups as hold the nodes')),
  'dragonfly.cablesPerPair': dragonfly({ type: 'word', word: 'max', meaning: 'as many as the global ports allow', other: positive }),
  'dragonfly.chassis': dragonfly(positive),
  'dragonfly.routersPerChassis': dragonfly(positive),
  'dragonfly.blackLinks': dragonfly(positive),
  'dragonfly.globalPorts': dragonfly(positive),
  'dragonfly.linksPerCable': dragonfly(positive),
  'dragonfly.nodesPerRouter': dragonfly(positive),
  'routing.adaptiveBias': dragonfly({ type: 'number', min: 0 }),
  'kautz.degree': { kind: { type: 'int', min: 2 }, topology: 'kautz' },
  'kautz.diameter': { kind: auto(positive, 'the smallest graph that holds the nodes'), topology: 'kautz' },
  'clos.rank': { kind: { type: 'enum', values: ['auto', ...CLOS_RANKS.map(String)] }, topology: 'clos' },
  'clos.slices': { kind: positive, topology: 'clos' },
  'router.latency': all(time),
  'router.inputBuffer': all(positive),
  'router.queues': all({ type: 'enum', values: ['fifo', 'voq'] }),
  'link.phitBits': all(positive),
  'link.lanes': all(positive),
  'link.laneRate': all(bandwidth),
  'link.efficiency': all(efficiency),
  'link.latency': all(time),
  'link.overheadPhits': all(count),
  'link.ber': linkErrors({ type: 'ber' }),
  'faults.links': { kind: { type: 'faults', which: 'links' }, optional: true },
  'faults.routers': { kind: { type: 'faults', which: 'routers' }, optional: true },
  'faults.lanes': { kind: { type: 'faults', which: 'lanes' }, optional: true },
  'faults.quiescePause': { kind: time, optional: true },
  'link.retry': linkErrors({ type: 'enum', values: RETRY_PROTOCOLS }),
  'link.nackDelay': linkErrors(time),
  'link.sendBuffer': linkErrors(positive),
  'link.controlPacket': linkErrors(size),
  'link.resumePhits': linkErrors(count),
  'link.crcBits': linkErrors(positive),
  'link.crcBlock': linkErrors(size),
  'link.crcDistance': linkErrors(positive),
  'optical.lanes': dragonfly(positive),
  'optical.laneRate': dragonfly(bandwidth),
  'optical.efficiency': dragonfly(efficiency),
  'optical.latency': dragonfly(time),
  'optical.overheadPhits': dragonfly(count),
  'netlink.tiles': all(positive),
  'netlink.clock': all(frequency),
  'netlink.latency': all(time),
  'arbitration.ageRrSelect': arbitration({ type: 'hex', digits: 16 }),
  'arbitration.ageClockPeriod': arbitration(time),
  'arbitration.reqAgeBias': arbitration(count),
  'arbitration.rspAgeBias': arbitration(count),
  'packet.requestHeaderPhits': all(count),
  'packet.eopPhits': all(count),
  'packet.dataGroupBytes': all(positive),
  'packet.dataGroupPhits': all(positive),
  'packet.responsePhits': all(count),
  'packet.errorResponsePhits': all(count),
  'packet.readRequestPhits': all(count),
  'packet.readResponseHeaderPhits': all(count),
  'packet.maxPayload': all(size),
  'nic.clock': all(frequency),
  'nic.packetCycles': all(count),
  'nic.outLatencyCycles': all(count),
  'nic.inLatencyCycles': all(count),
  'nic.receiveBuffer': all(positive),
  'nic.maxOutstandingPackets': all(positive),
  'nic.cqEventBytes': all(size),
  'nic.smsgHeader': all(size),
  'nic.smsgWindow': all(count),
  'nic.smsgAckDelay': all(time),
  'nic.timeout': { kind: time, optional: true },
  'faults.nodes': { kind: { type: 'deadNodes' }, optional: true },
  'host.bandwidth': all(bandwidth),
  'host.latency': all(time),
  'host.writeOverhead': all(size),
  'host.readRequest': all(size),
  'host.memoryReadLatency': all(time),
  'host.readsInFlight': all(count),
  'fma.present': all(flag),
  'fma.issue': all(time),
  'fma.descriptors': all(count),
  'fma.op': all(time),
  'fma.mdhChange': all(time),
  'bte.issue': all(time),
  'bte.startup': all(time),
  'bte.readsInFlight': all(count),
  'bte.channels': all(count),
  'bte.getBandwidth': all({ type: 'word', word: 'nic', meaning: 'as fast as the NIC pipelines', other: bandwidth }),
  'amo.op': all(time),
  'amo.cacheEntries': all(count),
  'amo.fill': all(time),
  'iommu.pteEntries': all(count),
  'iommu.ways': all(count),
  'iommu.ptesPerEntry': all(count),
  'ce.present': all(flag),
  'ce.engines': all(count),
  'ce.radix': all(count),
  'ce.op': all(time),
  'cpu.gflops': all({ type: 'number', min: 0, minExclusive: true }),
  'cpu.memBandwidth': all(bandwidth),
  'cpu.sockets': all(positive),
  'cpu.nicSocket': all(count),
  'cpu.socketCrossing': all(time),
  'noise.kind': all({ type: 'enum', values: ['none', 'periodic', 'random'] }),
  'noise.period': all(time),
  'noise.detour': all(time),
  'noise.coreSpec': all(flag),
  'fabric.fidelity': all({ type: 'enum', values: FIDELITY_LEVELS }),
  'fabric.coarseBytes': all(size),
  'fabric.flowBytes': all(size),
  'mpi.eagerMaxBytes': all(size),
  'mpi.asyncProgress': all(flag),
  'mpi.collectiveEngine': all(flag),
  'mpi.nodeAwareCollectives': all(flag),
  'mpi.collSelector': all({ type: 'enum', values: COLL_SELECTORS }),
  'mpi.sendOverhead': all(time),
  'mpi.recvOverhead': all(time),
  'mpi.copyBandwidth': all(bandwidth),
  'mpi.testOverhead': all(time),
  'mpi.messageGap': all(time),
  'mpi.matchEntry': all(time),
  'mpi.requestOverhead': all(time),
  'mpi.collectiveOverhead': all(time),
  'mpi.collectiveStep': all(time),
  'mpi.packBlock': all(time),
  'mpi.shmOverhead': { kind: time, optional: true },
  'mpi.shmLatency': all(time),
  'mpi.shmBandwidth': all(bandwidth),
  'mpi.railThreshold': all(size),
  'mpi.rails': all(positive),
  'mpi.maxAttach': all(positive),
  'dmapp.bteThreshold': all(size),
  'dmapp.overhead': all(time),
  'dmapp.vmdh': all(flag),
  'dmapp.heapPage': all(size),
  'dmapp.symmetricSize': all(size),
}));

/** A kind in words: what a value is (`a time`) and what is expected (`a number and one of ps, ...`). */
export interface KindText {
  readonly noun: string;
  readonly expected: string;
}

/** Describes a kind for messages and the parameter reference; `topology` narrows the routing names. */
export function describeKind(kind: ParamKind, topology?: string): KindText {
  switch (kind.type) {
    case 'time':
      return { noun: 'a time', expected: 'a number and one of ps, ns, us, ms, s, e.g. 120ns' };
    case 'size':
      return { noun: 'a size', expected: 'a number of bytes, optionally with one of B, KB, MB, GB, KiB, MiB, GiB, e.g. 4KiB' };
    case 'bandwidth':
      return { noun: 'a bandwidth', expected: 'a positive number and one of B/s, KB/s, MB/s, GB/s, Mb/s, Gb/s, e.g. 4.7GB/s' };
    case 'frequency':
      return { noun: 'a frequency', expected: 'a positive number and one of Hz, kHz, MHz, GHz, e.g. 800MHz' };
    case 'int':
      return kind.min === 0
        ? { noun: 'a count', expected: 'a non-negative integer, e.g. 4' }
        : { noun: `an integer of at least ${kind.min}`, expected: `an integer of at least ${kind.min}, e.g. ${kind.min + 2}` };
    case 'number': {
      const low = `${kind.minExclusive ? 'above' : 'at least'} ${kind.min}`;
      const range = kind.max !== undefined ? `${low} and at most ${kind.max}` : low;
      return { noun: `a number ${range}`, expected: `a number ${range}, e.g. ${kind.max ?? kind.min + 1}` };
    }
    case 'flag':
      return { noun: 'yes or no', expected: 'yes or no' };
    case 'enum':
      return { noun: `one of ${kind.values.join(', ')}`, expected: `one of ${kind.values.join(', ')}` };
    case 'routing': {
      const known = topology !== undefined && Object.hasOwn(ROUTINGS_BY_TOPOLOGY, topology);
      if (known) {
        const names = ROUTINGS_BY_TOPOLOGY[topology as TopologyKind];
        return { noun: `a ${topology} routing`, expected: `one of ${names.join(', ')}` };
      }
      const each = Object.entries(ROUTINGS_BY_TOPOLOGY).map(([t, names]) => `${t}: ${names.join(', ')}`);
      return { noun: 'a routing of the topology', expected: each.join('; ') };
    }
    case 'ints':
      return { noun: 'a list of positive integers', expected: 'one positive integer per dimension, e.g. 8,4,8 or 8x4x8' };
    case 'bools':
      return { noun: 'a list of true/false', expected: 'true or false per dimension, e.g. true,true,false' };
    case 'hex':
      return { noun: `${kind.digits} hex digits`, expected: `exactly ${kind.digits} hex digits, e.g. ${'0'.repeat(kind.digits - 1)}f` };
    case 'brokenLinks':
      return { noun: 'a list of torus links', expected: 'none, or links like x+@1.2.3 (dimension, direction, router coordinates) joined by commas' };
    case 'deadNodes':
      return { noun: 'a list of nodes', expected: 'none, or node ids each with an optional @time of death, joined by commas, e.g. 3,12@2us' };
    case 'ber':
      return { noun: 'a bit-error rate', expected: `a rate from 0 to ${MAX_BER} for every link class, or class=rate items after an optional rate for the others, e.g. 1e-12,global=1e-9` };
    case 'faults':
      return { noun: `a list of failed ${kind.which}`, expected: FAULT_FORMS[kind.which] };
    case 'word': {
      const o = describeKind(kind.other, topology);
      return { noun: `${kind.word} or ${o.noun}`, expected: `${kind.word} (${kind.meaning}) or ${o.expected}` };
    }
  }
}

function parses(f: (s: string) => number, s: string, positiveOnly: boolean): boolean {
  try {
    const v = f(s);
    return positiveOnly ? v > 0 : v >= 0;
  } catch {
    return false;
  }
}

/**
 * The largest values a parameter may take, so that a value is refused before anything is
 * allocated or simulated: no machine part is slower than an hour, larger than a TiB, or counts
 * more than a million of anything.
 */
export const PARAM_CAPS = {
  /** A time: one hour of simulated time (ps), as `ctx.compute` allows in one call. */
  timePs: 3600e12,
  /** A size (bytes): 1 TiB. */
  bytes: 2 ** 40,
  /** A bandwidth (bytes per ps): from 1 B/s to 1 PB/s. */
  minBytesPerPs: 1e-12,
  maxBytesPerPs: 1e3,
  /** A frequency (Hz): from 1 Hz to 1 THz. */
  minHz: 1,
  maxHz: 1e12,
  /** An integer, or each integer of a list. */
  int: 1_000_000,
} as const;

/** The reading of `text` by `parse`, or null when it does not read. */
function reading(parse: (s: string) => number, text: string): number | null {
  try {
    return parse(text);
  } catch {
    return null;
  }
}

/** Why a value that reads as one of `kind` is beyond its cap (`is more than 1 TiB`), or null. */
function beyondCap(kind: ParamKind, text: string): string | null {
  const c = PARAM_CAPS;
  switch (kind.type) {
    case 'time': {
      const v = reading(parseTimePs, text);
      return v !== null && v > c.timePs ? 'is more than 1 hour (3600s)' : null;
    }
    case 'size': {
      const v = reading(parseBytes, text);
      return v !== null && v > c.bytes ? 'is more than 1 TiB' : null;
    }
    case 'bandwidth': {
      const v = reading(parseBandwidth, text);
      return v !== null && v > 0 && (v < c.minBytesPerPs || v > c.maxBytesPerPs) ? 'is outside 1B/s to 1000TB/s' : null;
    }
    case 'frequency': {
      const v = reading(parseHz, text);
      return v !== null && v > 0 && (v < c.minHz || v > c.maxHz) ? 'is outside 1Hz to 1000GHz' : null;
    }
    case 'int': {
      const v = Number(text);
      return text.trim() !== '' && Number.isInteger(v) && v > c.int ? `is more than ${c.int}` : null;
    }
    case 'ints':
      return readsAs(kind, text) && text.split(/[,x]/).some((x) => Number(x) > c.int) ? `has an entry of more than ${c.int}` : null;
    case 'word':
      return text === kind.word ? null : beyondCap(kind.other, text);
    default:
      return null;
  }
}

/** Whether `text` is a value of `kind` within its cap (topology narrows routing names). */
export function isValueOf(kind: ParamKind, text: string, topology?: string): boolean {
  return readsAs(kind, text, topology) && beyondCap(kind, text) === null;
}

/** Whether `text` reads as a value of `kind`, caps aside. */
function readsAs(kind: ParamKind, text: string, topology?: string): boolean {
  switch (kind.type) {
    case 'time':
      return parses(parseTimePs, text, false);
    case 'size':
      return parses(parseBytes, text, false);
    case 'bandwidth':
      return parses(parseBandwidth, text, true);
    case 'frequency':
      return parses(parseHz, text, true);
    case 'int': {
      const v = Number(text);
      return text.trim() !== '' && Number.isInteger(v) && v >= kind.min;
    }
    case 'number': {
      const v = Number(text);
      if (text.trim() === '' || !Number.isFinite(v)) return false;
      return (kind.minExclusive ? v > kind.min : v >= kind.min) && (kind.max === undefined || v <= kind.max);
    }
    case 'flag':
      return ['yes', 'no', 'true', 'false'].includes(text);
    case 'enum':
      return kind.values.includes(text);
    case 'routing': {
      const lists = topology !== undefined && Object.hasOwn(ROUTINGS_BY_TOPOLOGY, topology) ? [ROUTINGS_BY_TOPOLOGY[topology as TopologyKind]] : Object.values(ROUTINGS_BY_TOPOLOGY);
      return lists.some((names) => names.includes(text));
    }
    case 'ints':
      return /^[1-9][0-9]*([,x][1-9][0-9]*)*$/.test(text);
    case 'bools':
      return /^(true|false)(,(true|false))*$/.test(text);
    case 'hex':
      return new RegExp(`^[0-9a-fA-F]{${kind.digits}}$`).test(text);
    case 'brokenLinks':
      return text.trim() === 'none' || text.split(',').every((item) => /^[a-z][+-]@\d+(\.\d+)*$/.test(item.trim()));
    case 'ber':
      return isBerText(text);
    case 'deadNodes':
      return isDeadNodesText(text);
    case 'faults':
      return isFaultText(kind.which, text);
    case 'word':
      return text === kind.word || readsAs(kind.other, text, topology);
  }
}

/**
 * The problem with one value, as `key: "value" is not <noun>; expected <...>`, or null when it
 * is fine. A key without a schema entry is reported as unknown (with the closest key).
 */
export function checkParam(key: string, value: string | number, topology?: string): string | null {
  const s = PARAM_SCHEMA[key];
  if (!s) return `unknown parameter "${key}"; did you mean ${closestKey(key, Object.keys(PARAM_SCHEMA))}?`;
  const text = String(value);
  if (isValueOf(s.kind, text, topology)) return null;
  const cap = readsAs(s.kind, text, topology) ? beyondCap(s.kind, text) : null;
  if (cap !== null) return `${key}: "${text}" ${cap}`;
  const d = describeKind(s.kind, topology);
  return `${key}: "${text}" is not ${d.noun}; expected ${d.expected}`;
}

/** Edit distance between two keys, ignoring case. */
function distance(a: string, b: string): number {
  const x = a.toLowerCase();
  const y = b.toLowerCase();
  let prev = Array.from({ length: y.length + 1 }, (_, j) => j);
  for (let i = 1; i <= x.length; i++) {
    const cur = [i];
    for (let j = 1; j <= y.length; j++) cur.push(Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + (x[i - 1] === y[j - 1] ? 0 : 1)));
    prev = cur;
  }
  return prev[y.length]!;
}

/** The key of `valid` closest to `key` (edit distance; the first on ties). */
export function closestKey(key: string, valid: readonly string[]): string {
  let best = valid[0] ?? '';
  let bestD = Infinity;
  for (const v of valid) {
    const d = distance(key, v);
    if (d < bestD) {
      best = v;
      bestD = d;
    }
  }
  return best;
}

/** Why `key` is not a parameter of a machine whose keys are `valid`: another topology's key, or the closest valid key. */
export function unknownParamMessage(key: string, machine: string, valid: readonly string[], topology?: string): string {
  const s = PARAM_SCHEMA[key];
  if (s?.topology !== undefined && s.topology !== topology) {
    return `unknown parameter "${key}" for machine ${machine}: it belongs to ${s.topology} machines, and ${machine} is ${topology === undefined ? 'not one' : `a ${topology}`}`;
  }
  if (s?.optional) return `unknown parameter "${key}" for machine ${machine}: ${machine} does not model this feature`;
  return `unknown parameter "${key}" for machine ${machine}; did you mean ${closestKey(key, valid)}?`;
}

/** The keys a complete machine of topology `topology` must have. */
export function requiredKeys(topology: string): string[] {
  return Object.entries(PARAM_SCHEMA)
    .filter(([, s]) => !s.optional && (s.topology === undefined || s.topology === topology))
    .map(([k]) => k);
}

/** Options of `paramErrors`. */
export interface ParamCheckOptions {
  /** Machine name, for unknown keys. */
  readonly machine?: string;
  /** The keys the machine has (default: every schema key of its topology). */
  readonly valid?: readonly string[];
  /** The machine's topology kind (narrows routing names and topology keys). */
  readonly topology?: string;
}

/** Every problem of a table of parameters, each prefixed with `origin` (unless empty): unknown keys and bad values. */
export function paramErrors(params: Readonly<Record<string, string | number>>, origin: string, opts: ParamCheckOptions = {}): string[] {
  const topology = opts.topology ?? (params['topology.kind'] !== undefined ? String(params['topology.kind']) : undefined);
  const valid = opts.valid ?? Object.keys(PARAM_SCHEMA).filter((k) => topology === undefined || PARAM_SCHEMA[k]!.topology === undefined || PARAM_SCHEMA[k]!.topology === topology);
  const machine = opts.machine ?? 'this machine';
  const out: string[] = [];
  for (const [key, value] of Object.entries(params)) {
    const problem = valid.includes(key) ? checkParam(key, value, topology) : unknownParamMessage(key, machine, valid, topology);
    if (problem !== null) out.push(origin === '' ? problem : `${origin}: ${problem}`);
  }
  return out;
}

/** Throws a RangeError naming every bad key and value of `params` (see `paramErrors`). */
export function validateParams(params: Readonly<Record<string, string | number>>, origin: string, opts: ParamCheckOptions = {}): void {
  const errors = paramErrors(params, origin, opts);
  if (errors.length > 0) throw new RangeError(errors.join('\n'));
}
