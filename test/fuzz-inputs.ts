/**
 * Shared pieces of the bad-input fuzz (issue 24): values that are wrong for a number, a name or a
 * machine parameter, and the verdict every bad input must get: exit code 2 (bad input) or 1 (the
 * program failed), nothing on stdout, one line on stderr that names the bad value, and no trace
 * of a JavaScript fault (a stack frame, an error class name, `undefined`, `NaN`).
 *
 * Values are what a shell passes on one line: printable text without control characters.
 */
import fc from 'fast-check';
import type { ParamSpec } from '../apps/app.ts';
import type { ParamKind } from '../fabric/machines/schema.ts';
import type { Captured } from './helpers.ts';

/** The seed of every fuzz run: the same inputs, in the same order, every time. */
export const FUZZ_SEED = 24;

/** Names of the object machinery that a lookup by name must not find. */
export const PROTO_NAMES = ['__proto__', 'constructor', 'toString', 'valueOf', 'hasOwnProperty', 'isPrototypeOf', '__defineGetter__', 'prototype'] as const;

/** Text that is no number at all. */
const NOT_NUMBERS = ['abc', 'NaN', 'Infinity', '-Infinity', '', ' ', '1e', '0x', '1,5', '2 3', '--', 'null', 'undefined', 'true', ...PROTO_NAMES] as const;

/** Numbers no count accepts: not finite, beyond 2^53, or astronomically large. */
export const HUGE_NUMBERS = ['1e400', '-1e400', '99999999999999999999', '9007199254740993', '1e30', '1e300'] as const;

/** Printable text of up to 12 characters (no control characters, so one line). */
export const printable = fc.string({ unit: fc.constantFrom(...'abcxyz_-.:/=,@+ 019AZ%$'.split('')), maxLength: 12 });

/** Words that are not any of `valid`: prototype names, near misses and random text. */
export function notOneOf(valid: readonly string[]): fc.Arbitrary<string> {
  const near = valid.flatMap((v) => [v.toUpperCase(), `${v}x`, v.slice(1), ` ${v}`]);
  return fc.oneof(fc.constantFrom(...PROTO_NAMES, '', 'none', ...near), printable).filter((s) => !valid.includes(s));
}

/** Values that are not an integer of at least `min` (and at most `max`). */
export function badInteger(min: number, max?: number): fc.Arbitrary<string> {
  const edges = [String(min - 1), String(min - 0.5), '-1', '1.5', '2.000001', ...(max !== undefined ? [String(max + 1), String(max * 10)] : [])];
  return fc.constantFrom(...NOT_NUMBERS, ...HUGE_NUMBERS, ...edges).filter((s) => {
    const v = Number(s);
    return s.trim() === '' || !Number.isSafeInteger(v) || v < min || (max !== undefined && v > max);
  });
}

/** Values that are not a finite number of at least `min`. */
export function badNumber(min: number, max?: number): fc.Arbitrary<string> {
  return fc.constantFrom(...NOT_NUMBERS, '1e400', '-1e400', String(min - 1), ...(max !== undefined ? [String(max + 1)] : [])).filter((s) => {
    const v = Number(s);
    return s.trim() === '' || !Number.isFinite(v) || v < min || (max !== undefined && v > max);
  });
}

/** Values that are wrong for an app parameter of `spec`. */
export function badParamValue(spec: ParamSpec): fc.Arbitrary<string> {
  switch (spec.type) {
    case 'int':
      return badInteger(spec.min ?? Number.MIN_SAFE_INTEGER, spec.max);
    case 'number':
      return badNumber(spec.min ?? -Number.MAX_VALUE);
    case 'bytes':
      return fc.constantFrom('abc', '', 'NaN', 'Infinity', '1e400', '1e400KiB', '4GiB', '2TB', '1e30', '99999999999999999999', '-1', '-4KiB', '5parsec', '5toString', '5constructor', ...PROTO_NAMES);
    case 'choice':
      return notOneOf(spec.choices);
    case 'list':
      return notOneOf(spec.choices).filter((s) => s.split(',').some((i) => !spec.choices.includes(i)));
  }
}

/** Values that are not of machine-parameter kind `kind`: wrong words, units, signs, or beyond every cap. */
export function badKindValue(kind: ParamKind): fc.Arbitrary<string> {
  const words = fc.constantFrom(...NOT_NUMBERS.filter((s) => s !== ''), '');
  switch (kind.type) {
    case 'time':
      return fc.oneof(words, fc.constantFrom('5', '-5ns', '1e400ns', '1e30s', '99999999999999999999s', '5 parsec', '5toString', '5constructor', '5NS', 'ns'));
    case 'size':
      return fc.oneof(words, fc.constantFrom('-1', '1e400', '1e30', '99999999999999999999', '1e30GiB', '5TiB', '5toString', '5 bytes', 'KiB'));
    case 'bandwidth':
      return fc.oneof(words, fc.constantFrom('0GB/s', '-1GB/s', '5', '1e400GB/s', '1e30GB/s', '1e-300GB/s', '5GB', '5toString/s', 'GB/s'));
    case 'frequency':
      return fc.oneof(words, fc.constantFrom('0Hz', '-1MHz', '5', '1e400GHz', '1e30GHz', '1e-30Hz', '5constructor', 'MHz'));
    case 'int':
      return fc.oneof(badInteger(kind.min), fc.constantFrom('1e30', '99999999999999999999'));
    case 'number': {
      const ok = (t: string): boolean => {
        const v = Number(t);
        return t.trim() !== '' && Number.isFinite(v) && (kind.minExclusive ? v > kind.min : v >= kind.min) && (kind.max === undefined || v <= kind.max);
      };
      return fc.constantFrom(...NOT_NUMBERS, '1e400', String(kind.min - 1), String(kind.min), ...(kind.max !== undefined ? [String(kind.max + 1)] : [])).filter((t) => !ok(t));
    }
    case 'flag':
      return notOneOf(['yes', 'no', 'true', 'false']);
    case 'enum':
      return notOneOf(kind.values);
    case 'routing':
      return notOneOf(['dor', 'table', 'minimal', 'valiant', 'adaptive', 'ugal', 'source', 'multipath', 'updown', 'shortest']);
    case 'ints':
      return fc.oneof(words, fc.constantFrom('0', '0x4', '8,,8', '8x', '-2,2,2', '1.5,2,2', '99999999x99999999x99999', '99999999999999999999', '1e3,2,2', '1000x1000x1000', '1000000,1000000,1000000'));
    case 'bools':
      return fc.oneof(words, fc.constantFrom('yes,no', 'true,maybe', 'true,,false', 'TRUE'));
    case 'hex':
      return fc.oneof(words, fc.constantFrom('0'.repeat(kind.digits - 1), '0'.repeat(kind.digits + 1), `${'0'.repeat(kind.digits - 1)}g`, '0x' + '0'.repeat(kind.digits - 2)));
    case 'brokenLinks':
      return fc.constantFrom('x', 'x+', 'x+@', 'x+@a', '+@1.2.3', 'x+@1..2', 'x+@1.2.3,', 'abc', ...PROTO_NAMES);
    case 'word':
      return badKindValue(kind.other).filter((s) => s !== kind.word);
    case 'ber':
      // rates outside [0, 1e-3], non-numbers, and link classes no machine has
      return fc.oneof(words, fc.constantFrom('-1e-9', '2e-3', '1', '1e400', 'nosuch=1e-9', '1e-9,nosuch=1e-9', '=1e-9', '1e-9,', ...PROTO_NAMES.map((p) => `${p}=1e-9`)));
    case 'deadNodes':
      return fc.oneof(words.filter((s) => s !== '1,5'), fc.constantFrom('-1', '1.5', '3,', '3,3', '3@', '3@5', '3@-1us', '3@1e30s', '@2us', 'x', ...PROTO_NAMES));
    case 'faults':
      return fc.constantFrom('1:', ':2', '1:2,', '1:2@', 'a:b', '1-2', '1:2/x', '1:2:3', 'nonee', ...PROTO_NAMES);
  }
}

/** Signs of a JavaScript fault in what phit printed: none of these may reach a user. */
const FAULTS: readonly RegExp[] = [
  /^\s+at /m,
  /\b(TypeError|ReferenceError|SyntaxError|EvalError|InternalError)\b/,
  /\bRangeError\b/,
  /Cannot (read|set) propert/,
  /Cannot convert/,
  /is not a function/,
  /is not iterable/,
  /is not a constructor/,
  /Invalid (typed )?array length/,
  /Maximum call stack/,
  /\[object Object\]/,
  // a system error passed on bare (EISDIR, ENOENT) names nothing the user typed
  /^phit: E[A-Z]{3,}\b/,
];

/**
 * What is wrong with the outcome of one bad input, or null: exit code 1 or 2, nothing on stdout,
 * exactly one line on stderr that contains one of `names` (the bad value as typed, or the flag or
 * key when the value is empty), no sign of a fault, and `undefined`/`NaN` only if the input has them.
 */
export function badInputProblem(r: Captured, names: readonly string[], input: string): string | null {
  if (r.code !== 1 && r.code !== 2) return `exit code ${r.code}, expected 1 or 2`;
  if (r.out.length > 0) return `printed on stdout: ${r.out.join('\n').slice(0, 200)}`;
  const lines = r.err.flatMap((s) => s.split('\n'));
  if (lines.length !== 1) return `${lines.length} lines on stderr, expected one: ${JSON.stringify(lines.slice(0, 4))}`;
  const line = lines[0]!;
  for (const f of FAULTS) if (f.test(line)) return `a fault shows (${f.source}): ${line}`;
  for (const w of ['undefined', 'NaN']) if (line.includes(w) && !input.includes(w)) return `"${w}" in: ${line}`;
  if (!names.some((n) => line.includes(n))) return `names none of ${JSON.stringify(names)}: ${line}`;
  return null;
}

/** What names a bad value in a message: the value as typed, or when it is blank, `flag` or the value in quotes. */
export function namesOf(value: string, flag: string): string[] {
  return value.trim() === '' ? [flag, JSON.stringify(value)] : [value];
}
