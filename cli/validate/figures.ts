/**
 * The registry of `phit validate`: every check of the seed figures (SEED-FIGURES.md ids), in
 * output order, and the ids it does not cover with the reason for each.
 */
import type { Check } from './check.ts';
import { bwChecks } from './figures-bw.ts';
import { bwPerfChecks } from './figures-bw-perf.ts';
import { sc5832Checks } from './figures-sc5832.ts';
import { xt4Checks } from './figures-xt4.ts';
import { xe6Checks } from './figures-xe6.ts';
import { xc30Checks } from './figures-xc30.ts';
import { measuredChecks } from './measured.ts';

/** The checks of the seed figures, in the order `phit validate` prints them. */
export const SEED_CHECKS: readonly Check[] = [...xt4Checks, ...xc30Checks, ...sc5832Checks, ...bwChecks, ...bwPerfChecks, ...xe6Checks];

/** Every check: the seed figures, then the public measurements (ids `P:...`, see measured.ts). */
export const CHECKS: readonly Check[] = [...SEED_CHECKS, ...measuredChecks()];

/** Figure ids of SEED-FIGURES.md that no check covers: the machine and why (the model lacks what they describe). */
export const NOT_COVERED: Readonly<Record<string, { readonly machine: string; readonly reason: string }>> = {
  S6: { machine: 'xt4', reason: 'output staging buffers are not modelled: packets move from input buffer to input buffer (virtual cut-through)' },
  K4: { machine: 'sc5832', reason: 'clock domains and rate-matching buffers are not modelled' },
  G14: { machine: 'xe6', reason: 'network addresses are node indices: the NTT and the 58-bit address format are not modelled' },
};
