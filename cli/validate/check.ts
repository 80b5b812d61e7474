/**
 * A check of `phit validate`: one quantity of a seed paper beside the model's value, with the
 * relation the paper states and the tolerance it is held to. Pure data and pure functions; the
 * checks themselves live in figures-<machine>.ts.
 */

/** How the paper states a value. */
export type Relation = 'about' | 'atMost' | 'atLeast' | 'under' | 'over' | 'range' | 'exact';

/** The relations, for messages. */
export const RELATIONS: readonly Relation[] = ['about', 'atMost', 'atLeast', 'under', 'over', 'range', 'exact'];

/** What the paper says: a number (or a range, or an exact text) with its unit and relation. */
export interface PaperValue {
  readonly relation: Relation;
  /** The value; for `range` the low end. A string only with `exact`. */
  readonly value: number | string;
  /** High end of a `range`. */
  readonly high?: number;
  /** Unit shown after the numbers ('' for a count). */
  readonly unit: string;
}

/** Cost of a check: quick (seconds) runs by default, long (minutes) with --all. */
export type Tier = 'quick' | 'long';

/** What a measurement gives: the model's value, or the value with a reference computed by the model's own formula. */
export type Measured = number | string | { readonly value: number; readonly reference: number; readonly note?: string };

/** Memoises work shared by the checks of one figure id (within one task). */
export type Memo = <T>(key: string, compute: () => T | Promise<T>) => Promise<T>;

/**
 * What a row's model value is, so that a reader can tell a prediction from a read-back:
 * - `structure`: counted from the built graph or topology (ports, links, diameter, node counts);
 * - `parameter`: a machine parameter or a paper formula read back (a clock, a lane rate, 1 / fma.op);
 * - `fitted`: simulated, but a parameter was fitted to this very figure (named in `fittedParams`);
 * - `predicted`: simulated, and nothing was fitted to the figure.
 */
export type Kind = 'structure' | 'parameter' | 'fitted' | 'predicted';

/** The kinds, in the order the summary counts them. */
export const KINDS: readonly Kind[] = ['structure', 'parameter', 'fitted', 'predicted'];

/** A row's kind; a `fitted` row names the machine parameters fitted to its figure. */
export type CheckKind =
  | { readonly kind: 'structure' | 'parameter' | 'predicted'; readonly fittedParams?: undefined }
  | {
      readonly kind: 'fitted';
      /** Parameters of the machine's spec (fabric/machines/<machine>.ts) whose value was chosen from this figure. */
      readonly fittedParams: readonly [string, ...string[]];
    };

/**
 * A row's tolerance: SEED-FIGURES.md's (none given here: see `seedTolerance`), or its own with
 * the reason it differs.
 */
export type CheckTolerance =
  | { readonly tolerance?: undefined; readonly toleranceWhy?: undefined }
  | {
      /** Relative tolerance of `about` and the widening of a `range`. */
      readonly tolerance: number;
      /** Why the row is not held to SEED-FIGURES.md's tolerance. */
      readonly toleranceWhy: string;
    };

/** What every check has besides its kind and tolerance. */
export interface CheckFields {
  /** Figure id of SEED-FIGURES.md (S.., A.., K.., B.., G..). */
  readonly id: string;
  readonly machine: string;
  /** The quantity, one line. */
  readonly quantity: string;
  /** Seed file and section. */
  readonly source: string;
  /** The paper's value; with `report` it is shown without a verdict. */
  readonly paper: PaperValue;
  /** The paper's wording when the number alone would mislead (shown instead of the number). */
  readonly paperText?: string;
  /** Shown without pass/fail (SEED-FIGURES.md: "report, don't assert"). */
  readonly report?: boolean;
  readonly tier: Tier;
  /** Unit of the model's value, when it differs from the paper's. */
  readonly modelUnit?: string;
  /** Computes the model's value with phit's public functions. */
  measure(memo: Memo): Promise<Measured>;
}

/** One check of the registry: its fields, its kind (required) and its tolerance. */
export type Check = CheckFields & CheckKind & CheckTolerance;

/** The verdict of one check. */
export type Status = 'pass' | 'fail' | 'report' | 'skipped' | 'error';

/** Default tolerance of an `about` figure (SEED-FIGURES.md: within 15 %). */
export const DEFAULT_TOLERANCE = 0.15;

/**
 * The tolerance SEED-FIGURES.md gives a figure stated with `relation`: 15 % for an `about` value,
 * none for a `range` (inside it, as on the right side of a bound); undefined where no tolerance
 * applies (bounds and exact values).
 */
export function seedTolerance(relation: Relation): number | undefined {
  if (relation === 'about') return DEFAULT_TOLERANCE;
  if (relation === 'range') return 0;
  return undefined;
}

/** Slack of exact and inclusive comparisons: structural numbers derived in floating point (9.375 GB/s, 6.25 Gb/s). */
const EPS = 1e-9;

/** Relative difference of two numbers, exact for 0 = 0. */
function relative(model: number, paper: number): number {
  if (paper === 0) return model === 0 ? 0 : Infinity;
  return (model - paper) / Math.abs(paper);
}

/** Deviation (a fraction, signed) and whether the model meets the paper under the relation. */
export function judge(paper: PaperValue, model: number | string, tolerance?: number): { deviation: number | null; ok: boolean } {
  if (typeof paper.value === 'string' || typeof model === 'string') {
    if (paper.relation !== 'exact') throw new RangeError(`a text value needs the relation exact, not ${paper.relation}`);
    return { deviation: null, ok: String(model) === String(paper.value) };
  }
  const p = paper.value;
  const d = relative(model, p);
  switch (paper.relation) {
    case 'about':
      return { deviation: d, ok: Math.abs(d) <= (tolerance ?? DEFAULT_TOLERANCE) };
    case 'exact':
      return { deviation: d, ok: Math.abs(d) <= EPS || model === p };
    case 'atMost':
      return { deviation: d, ok: model <= p + EPS * Math.abs(p) };
    case 'under':
      return { deviation: d, ok: model < p };
    case 'atLeast':
      return { deviation: d, ok: model >= p - EPS * Math.abs(p) };
    case 'over':
      return { deviation: d, ok: model > p };
    case 'range': {
      const high = paper.high;
      if (high === undefined || high < p) throw new RangeError(`a range needs high >= value, got ${p} to ${String(high)}`);
      const w = tolerance ?? 0;
      const dev = model < p ? relative(model, p) : model > high ? relative(model, high) : 0;
      return { deviation: dev, ok: model >= p * (1 - w - EPS) && model <= high * (1 + w + EPS) };
    }
  }
}

/** A number with at most 4 significant digits, without trailing zeros. */
export function formatNumber(v: number): string {
  if (!Number.isFinite(v)) return String(v);
  if (Number.isInteger(v) && Math.abs(v) < 1e7) return String(v);
  const abs = Math.abs(v);
  const digits = abs >= 1000 ? 0 : abs >= 100 ? 1 : abs >= 10 ? 2 : abs >= 1 ? 3 : 4;
  return String(Number(v.toFixed(digits)));
}

const withUnit = (v: string, unit: string): string => (unit === '' ? v : `${v} ${unit}`);

/** The paper's value as text: "about 0.8 us", "under 10 us", "50-120 M/s", "exact 96". */
export function formatPaper(p: PaperValue): string {
  if (typeof p.value === 'string') return p.value;
  const v = formatNumber(p.value);
  switch (p.relation) {
    case 'about':
      return withUnit(`about ${v}`, p.unit);
    case 'exact':
      return withUnit(v, p.unit);
    case 'atMost':
      return withUnit(`at most ${v}`, p.unit);
    case 'under':
      return withUnit(`under ${v}`, p.unit);
    case 'atLeast':
      return withUnit(`at least ${v}`, p.unit);
    case 'over':
      return withUnit(`over ${v}`, p.unit);
    case 'range':
      return withUnit(`${v}-${formatNumber(p.high ?? p.value)}`, p.unit);
  }
}
