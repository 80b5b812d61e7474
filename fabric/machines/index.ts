import type { MachineSpec } from './spec.ts';
import { xe6 } from './xe6.ts';

/** Every machine preset, by name. */
export const presets: Readonly<Record<string, MachineSpec>> = { xe6 };
