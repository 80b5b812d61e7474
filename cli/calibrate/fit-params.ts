/**
 * The machine parameters `phit calibrate` may fit: any parameter whose value is a number, with or
 * without a unit (a time, a size, a bandwidth, a frequency, a count, a plain number). Each becomes
 * a positive number in one base unit (ps, bytes, bytes/ps, Hz) for the minimiser and is written
 * back as the machine schema writes it ("700ns", "5.25GB/s", "8KiB", 64).
 */
import { PARAM_SCHEMA, unknownParamMessage, describeKind, type ParamKind } from '../../fabric/machines/schema.ts';
import type { MachineSpec } from '../../fabric/machines/spec.ts';
import { formatBandwidth, formatBytes, formatHz, formatTimePs, parseBandwidth, parseBytes, parseHz, parseTimePs } from '../../fabric/units.ts';

/** One fitted parameter: its start in base units, its bounds, and how a value is written. */
export interface FitParam {
  readonly key: string;
  /** The value the fit starts from (the machine's, or --set's), as written. */
  readonly startText: string;
  /** The start in base units (ps, bytes, bytes per ps, Hz, or the number itself); positive. */
  readonly start: number;
  /** Smallest and largest values the kind allows (base units). */
  readonly min: number;
  readonly max: number;
  /** The value as the machine schema writes it; rounds to what the kind holds (whole ps, bytes, counts). */
  format(v: number): string;
  /** A written value in base units. */
  read(text: string): number;
}

/** A kind's reader and writer in base units, or null for a kind without a number. */
function numeric(kind: ParamKind): { read(s: string): number; write(v: number): string; min: number; max: number } | null {
  switch (kind.type) {
    case 'time':
      return { read: parseTimePs, write: (v) => formatTimePs(Math.max(1, Math.round(v))), min: 1, max: Infinity };
    case 'size':
      return { read: parseBytes, write: (v) => formatBytes(Math.max(1, Math.round(v))), min: 1, max: Infinity };
    case 'bandwidth':
      return { read: parseBandwidth, write: (v) => formatBandwidth(v), min: 0, max: Infinity };
    case 'frequency':
      return { read: parseHz, write: (v) => formatHz(v), min: 0, max: Infinity };
    case 'int':
      return { read: Number, write: (v) => String(Math.max(Math.max(1, kind.min), Math.round(v))), min: Math.max(1, kind.min), max: Infinity };
    case 'number':
      return { read: Number, write: (v) => String(Number(Math.min(kind.max ?? Infinity, v).toPrecision(6))), min: 0, max: kind.max ?? Infinity };
    case 'word':
      return numeric(kind.other);
    default:
      return null;
  }
}

/**
 * The fitted parameter `key` of `machine`, starting from `set[key]` when given, else the machine's
 * value; throws a RangeError naming the key when it is unknown, not a number, or not positive
 * (a fit in log space starts from a positive value).
 */
export function fitParam(machine: MachineSpec, key: string, set: Readonly<Record<string, string>> = {}): FitParam {
  const topology = String(machine.params['topology.kind']?.value ?? '');
  if (!(key in machine.params)) throw new RangeError(`--fit: ${unknownParamMessage(key, machine.name, Object.keys(machine.params), topology)}`);
  const kind = PARAM_SCHEMA[key]!.kind;
  const io = numeric(kind);
  if (!io) throw new RangeError(`--fit ${key}: its value is ${describeKind(kind, topology).noun}, not a number; calibrate fits times, sizes, bandwidths, frequencies, counts and numbers`);
  const startText = set[key] ?? String(machine.params[key]!.value);
  let start: number;
  try {
    start = io.read(startText);
  } catch {
    start = NaN;
  }
  if (!(start > 0) || !Number.isFinite(start)) {
    throw new RangeError(`--fit ${key}: starts from "${startText}" on ${machine.name}; a fit needs a positive number to start from: give one with --set ${key}=<value>`);
  }
  return { key, startText, start, min: io.min, max: io.max, format: io.write, read: io.read };
}
