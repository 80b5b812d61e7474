import type { ParamDef } from './spec.ts';

/** The fidelity levels of the fabric, most detailed first. */
export const FIDELITY_LEVELS = ['packet', 'coarse', 'flow'] as const;

/** A fidelity level (`fabric.fidelity`). */
export type Fidelity = (typeof FIDELITY_LEVELS)[number];

/**
 * The fidelity parameters every preset has: how much of the fabric a run simulates. `packet`
 * simulates every hardware packet through every router (the reference); `coarse` carries a bulk
 * transfer's hardware packets `fabric.coarseBytes` at a time through the same routers, links,
 * credits and arbitration, each still paying its header and link-layer overhead (SST/macro's
 * packet-flow approach); `flow` turns transfers of at least `fabric.flowBytes` into flows that
 * share link bandwidth max-min fairly over the machine's own routes (SimGrid's approach), while
 * smaller messages stay packets. The README's accuracy table says what each level costs.
 */
export function fidelityParams(): Record<string, ParamDef> {
  return {
    'fabric.fidelity': { value: 'packet', help: `what the fabric simulates: ${FIDELITY_LEVELS.join(', ')} (every hardware packet; bulk transfers in coarse packets; large transfers as flows)`, source: 'phit: packet is the reference; the others trade accuracy for speed (README, Fidelity levels)' },
    'fabric.coarseBytes': { value: '4KiB', help: 'coarse: payload of one simulated packet of a bulk transfer (transfers of at least this size)', source: 'assumed: the packet size of SST/macro\'s packet-flow model' },
    'fabric.flowBytes': { value: '64KiB', help: 'flow: transfers of at least this size become flows', source: 'assumed: well above every machine\'s eager limit, so latency-bound messages stay packets' },
  };
}
