import type { RankContext } from '../runtime/rank.ts';
import { parseBytes } from '../fabric/units.ts';

/** One parameter of an app: type, default and one line of help. */
export type ParamSpec =
  | { readonly type: 'int'; readonly default: number; readonly help: string; readonly min?: number; readonly max?: number }
  | { readonly type: 'number'; readonly default: number; readonly help: string; readonly min?: number }
  | { readonly type: 'bytes'; readonly default: number; readonly help: string; readonly min?: number }
  | { readonly type: 'choice'; readonly default: string; readonly help: string; readonly choices: readonly string[] }
  | { readonly type: 'list'; readonly default: string; readonly help: string; readonly choices: readonly string[] };

/** A measured point: keys carry their unit (`latencyUs`, `bandwidthGBs`, `bytes`). */
export type Row = Readonly<Record<string, number | string | boolean>>;

/** What an app returns from rank 0. */
export interface AppResult {
  readonly rows: readonly Row[];
  readonly [extra: string]: unknown;
}

/** Resolved parameter values. */
export type ParamValues = Readonly<Record<string, number | string>>;

/** An app: one file exporting this object. */
export interface App {
  readonly name: string;
  readonly summary: string;
  readonly params: Readonly<Record<string, ParamSpec>>;
  /** Fewest ranks the app needs. */
  readonly minRanks: number;
  /**
   * The app's figure of merit: a numeric key of its last result row (`bandwidthGBs`), whether
   * higher is better, and an optional column title. Without it `phit compare` guesses from the keys.
   */
  readonly merit?: { readonly key: string; readonly higherIsBetter: boolean; readonly label?: string };
  /**
   * Checks relations between parameters, and with `ranks` (the run's rank count, when the caller
   * knows it) the rank count the app accepts; throws RangeError naming the bad one.
   */
  check?(params: ParamValues, ranks?: number): void;
  /** Runs on every rank; rank 0's return value is the run's result. */
  main(ctx: RankContext, params: ParamValues): Promise<AppResult | undefined>;
}

/** Resolves `key=value` strings against an app's schema; throws RangeError naming the bad one. */
export function resolveParams(app: Pick<App, 'name' | 'params'>, raw: Readonly<Record<string, string>>): ParamValues {
  const out: Record<string, number | string> = {};
  for (const k of Object.keys(raw)) {
    if (!Object.hasOwn(app.params, k)) {
      const valid = Object.keys(app.params);
      throw new RangeError(`unknown parameter "${k}" for app ${app.name}; valid: ${valid.length ? valid.join(', ') : '(none)'}`);
    }
  }
  for (const [k, spec] of Object.entries(app.params)) {
    const text = raw[k];
    if (text === undefined) {
      out[k] = spec.default;
      continue;
    }
    out[k] = parseValue(app.name, k, spec, text);
  }
  return out;
}

/** Largest value of an integer parameter with no maximum of its own (iterations, counts): beyond it a run would take hours. */
export const INT_PARAM_CAP = 100_000_000;
/** Largest size parameter: a rank holds buffers of this size. */
export const BYTES_PARAM_CAP = 1 << 30;

function parseValue(app: string, key: string, spec: ParamSpec, text: string): number | string {
  const bad = (why: string): RangeError => new RangeError(`parameter ${key}=${text} of app ${app}: ${why}`);
  switch (spec.type) {
    case 'int': {
      const v = Number(text);
      if (!Number.isSafeInteger(v) || text.trim() === '') throw bad('expected an integer');
      if (spec.min !== undefined && v < spec.min) throw bad(`must be at least ${spec.min}`);
      const max = spec.max ?? INT_PARAM_CAP;
      if (v > max) throw bad(`must be at most ${max}`);
      return v;
    }
    case 'number': {
      const v = Number(text);
      if (!Number.isFinite(v) || text.trim() === '') throw bad('expected a number');
      if (spec.min !== undefined && v < spec.min) throw bad(`must be at least ${spec.min}`);
      return v;
    }
    case 'bytes': {
      let v: number;
      try {
        v = parseBytes(text);
      } catch {
        throw bad('expected a size such as 64, 4KiB or 1MiB');
      }
      if (!Number.isFinite(v)) throw bad('expected a size such as 64, 4KiB or 1MiB');
      if (spec.min !== undefined && v < spec.min) throw bad(`must be at least ${spec.min} bytes`);
      if (v > BYTES_PARAM_CAP) throw bad(`must be at most ${BYTES_PARAM_CAP} bytes (1 GiB: a rank's buffer of more does not fit the host)`);
      return v;
    }
    case 'choice':
      if (!spec.choices.includes(text)) throw bad(`valid: ${spec.choices.join(', ')}`);
      return text;
    case 'list': {
      const items = text.split(',');
      for (const i of items) if (!spec.choices.includes(i)) throw bad(`"${i}" is not one of ${spec.choices.join(', ')}`);
      return items.join(',');
    }
  }
}

/** An app's `check` in a skeleton run: the data did not move, so it was not checked. */
export const SKELETON_CHECK = 'skipped (skeleton run)';

/** `{ check: SKELETON_CHECK }` in a skeleton run, else nothing: spread into the result of an app whose rows have no `check`. */
export function skeletonCheck(ctx: RankContext): { check?: string } {
  return ctx.skeleton ? { check: SKELETON_CHECK } : {};
}

/** Throws unless `minBytes <= maxBytes` (the apps that sweep sizes share this rule). */
export function checkSizeRange(app: string, p: ParamValues): void {
  if ((p.minBytes as number) > (p.maxBytes as number)) {
    throw new RangeError(`parameter minBytes=${p.minBytes} of app ${app}: must not exceed maxBytes=${p.maxBytes}`);
  }
}

/** Message sizes from `min` to `max` doubling (both included). */
export function sizeSweep(min: number, max: number): number[] {
  const out: number[] = [];
  for (let b = Math.max(1, min); b <= max; b *= 2) out.push(b);
  if (out[out.length - 1] !== max && max >= min) out.push(max);
  return out;
}

/** Rounds to `digits` significant decimals for readable results. */
export function round(v: number, digits = 4): number {
  return Number(v.toPrecision(digits));
}
