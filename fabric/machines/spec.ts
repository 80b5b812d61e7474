import { parseBandwidth, parseBytes, parseHz, parseTimePs } from '../units.ts';
import { validateParams } from './schema.ts';

/** One machine parameter: its value in human units, one line of help, and where it comes from. */
export interface ParamDef {
  readonly value: string | number;
  readonly help: string;
  /** Seed file and section, or "assumed: why". */
  readonly source: string;
}

/** A machine preset: identity plus a flat table of parameters keyed like `nic.packetCycles`. */
export interface MachineSpec {
  readonly name: string;
  readonly title: string;
  readonly seed: string;
  readonly params: Readonly<Record<string, ParamDef>>;
}

/** Typed reads from a spec's parameter table; errors name the key. */
export class ParamReader {
  constructor(
    private readonly spec: MachineSpec,
    private readonly overrides: Readonly<Record<string, string>> = {},
  ) {
    // unknown keys and values that are not of the key's kind fail here, before anything is read
    const topology = String(overrides['topology.kind'] ?? spec.params['topology.kind']?.value ?? '');
    validateParams(overrides, '', { machine: spec.name, valid: Object.keys(spec.params), topology });
  }
  /** Whether the machine has parameter `key` (optional features lack theirs). */
  has(key: string): boolean {
    return Object.hasOwn(this.overrides, key) || Object.hasOwn(this.spec.params, key);
  }
  raw(key: string): string | number {
    if (key in this.overrides) return this.overrides[key]!;
    const d = this.spec.params[key];
    if (!d) throw new Error(`machine ${this.spec.name} lacks parameter "${key}"`);
    return d.value;
  }
  private wrap<T>(key: string, f: (s: string) => T): T {
    try {
      return f(String(this.raw(key)));
    } catch (e) {
      throw new RangeError(`parameter ${key}: ${e instanceof Error ? e.message : String(e)}`, { cause: e });
    }
  }
  timePs(key: string): number {
    return this.wrap(key, parseTimePs);
  }
  bytes(key: string): number {
    return this.wrap(key, parseBytes);
  }
  hz(key: string): number {
    return this.wrap(key, parseHz);
  }
  bytesPerPs(key: string): number {
    return this.wrap(key, parseBandwidth);
  }
  number(key: string): number {
    return this.wrap(key, (s) => {
      const v = Number(s);
      if (!Number.isFinite(v) || s.trim() === '') throw new RangeError(`expected a number, got "${s}"`);
      return v;
    });
  }
  int(key: string): number {
    const v = this.number(key);
    if (!Number.isInteger(v) || v < 0) throw new RangeError(`parameter ${key}: expected a non-negative integer, got ${v}`);
    return v;
  }
  ints(key: string): number[] {
    return this.wrap(key, (s) =>
      s.split(/[,x]/).map((t) => {
        const v = Number(t);
        if (!Number.isInteger(v) || v < 1) throw new RangeError(`expected positive integers like "8,4,8", got "${s}"`);
        return v;
      }),
    );
  }
  yesNo(key: string): boolean {
    return this.wrap(key, (s) => {
      if (s === 'yes' || s === 'true') return true;
      if (s === 'no' || s === 'false') return false;
      throw new RangeError(`expected yes or no, got "${s}"`);
    });
  }
  string(key: string): string {
    return String(this.raw(key));
  }
}
