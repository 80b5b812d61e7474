import { bw } from './bw.ts';
import { sc5832 } from './sc5832.ts';
import type { MachineSpec } from './spec.ts';
import { xc30 } from './xc30.ts';
import { xe6 } from './xe6.ts';
import { xt4 } from './xt4.ts';

/** Every machine preset, by name. */
export const presets: Readonly<Record<string, MachineSpec>> = byName({ xt4, xe6, xc30, sc5832, bw });

/** A table looked up by name with nothing inherited: `toString` or `__proto__` name no entry. */
export function byName<T>(entries: Record<string, T>): Readonly<Record<string, T>> {
  return Object.freeze(Object.assign(Object.create(null) as Record<string, T>, entries));
}
