import { MAX_NODES, MAX_PPN } from '../fabric/machine.ts';
/** Command-line argument helpers shared by the commands; bad input throws RangeError (exit code 2). */
import { writeFileSync } from 'node:fs';
import { SELECTOR_NAMES, type SelectorName } from '../runtime/mpi/coll/index.ts';

/** `key=value` items of a repeatable option, as an object; throws naming the bad item. */
export function parseKeyValues(items: readonly string[], flag: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const item of items) {
    const eq = item.indexOf('=');
    if (eq <= 0) throw new RangeError(`${flag} ${item}: expected key=value`);
    const key = item.slice(0, eq);
    // names of the object machinery (__proto__, constructor, toString, ...) are never keys
    if (key in Object.prototype) throw new RangeError(`${flag} ${item}: "${key}" is not a valid key`);
    out[key] = item.slice(eq + 1);
  }
  return out;
}

/** The positive integer of option `--name`; throws naming it. */
export function positiveInt(name: string, text: string): number {
  const v = Number(text);
  if (!Number.isInteger(v) || v < 1) throw new RangeError(`--${name} ${text}: expected a positive integer`);
  const cap = name === 'nodes' ? MAX_NODES : name === 'ppn' ? MAX_PPN : Number.MAX_SAFE_INTEGER;
  if (v > cap) throw new RangeError(`--${name} ${text}: at most ${cap}`);
  return v;
}

/**
 * Writes `text` to the file of option `flag`; a path that cannot be written is bad input. Called
 * with '' before a long run, it checks the path up front (and leaves an empty file).
 */
export function writeOutput(flag: string, path: string, text: string): void {
  try {
    writeFileSync(path, text);
  } catch (e) {
    throw new RangeError(`${flag} ${path}: cannot write it (${e instanceof Error ? e.message : String(e)})`, { cause: e });
  }
}

/** The positive number of option `--name`, at most `max`; throws naming it. */
export function positiveNumber(name: string, text: string, max = Number.MAX_VALUE): number {
  const v = Number(text);
  if (!Number.isFinite(v) || v <= 0 || text.trim() === '') throw new RangeError(`--${name} ${text}: expected a positive number`);
  if (v > max) throw new RangeError(`--${name} ${text}: at most ${max}`);
  return v;
}

/** The non-negative number of option `--name`, at most `max`; throws naming it. */
export function nonNegativeNumber(name: string, text: string, max = Number.MAX_VALUE): number {
  const v = Number(text);
  if (!Number.isFinite(v) || v < 0 || text.trim() === '') throw new RangeError(`--${name} ${text}: expected a non-negative number`);
  if (v > max) throw new RangeError(`--${name} ${text}: at most ${max}`);
  return v;
}

/** The non-negative integer of option `--name`; throws naming it. */
export function nonNegativeInt(name: string, text: string): number {
  const v = Number(text);
  if (!Number.isSafeInteger(v) || v < 0 || text.trim() === '') throw new RangeError(`--${name} ${text}: expected a non-negative integer`);
  return v;
}

/** The run's seed: a non-negative integer. */
export function seedOf(text: string): number {
  const seed = Number(text);
  if (!Number.isSafeInteger(seed) || seed < 0 || text.trim() === '') throw new RangeError(`--seed ${text}: expected a non-negative integer`);
  return seed;
}

/** The library of `--coll-selector` (undefined when not given); throws naming the valid ones. */
export function collSelectorArg(text: string | undefined): SelectorName | undefined {
  if (text === undefined) return undefined;
  if (!(SELECTOR_NAMES as readonly string[]).includes(text)) throw new RangeError(`--coll-selector ${text}: valid: ${SELECTOR_NAMES.join(', ')}`);
  return text as SelectorName;
}
