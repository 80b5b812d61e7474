/**
 * Shared setup of the Aries traffic checks (seed 001_68348b17bd328203.txt, "Dragonfly
 * Implementation" and "Cray XC Routing"): 6 groups with 12 optical cables per group pair, and the
 * max-flow bounds the measured throughput is compared with.
 */
import { machineSpec, resolveMachine, type MachineConfig } from '../fabric/machine.ts';
import { putRequestPhits } from '../fabric/nic/packet-format.ts';
import { peakInjectionBytesPerPs, runTraffic, type Pattern, type TrafficRow } from '../fabric/traffic.ts';

export const GROUPS = 6;
export const CABLES = 12;
export const NODES_PER_GROUP = 384;

/** The 6-group, 12-cable xc30 with a routing algorithm. */
export function aries(routing: string): MachineConfig {
  return resolveMachine(machineSpec('xc30'), GROUPS * NODES_PER_GROUP, {
    'dragonfly.groups': String(GROUPS),
    'dragonfly.cablesPerPair': String(CABLES),
    'routing.algorithm': routing,
  });
}

/** One load point, short enough for a test (4 us warm-up, 6 us window). */
export function measure(routing: string, pattern: Pattern, load: number): TrafficRow {
  return runTraffic(aries(routing), { pattern, load, nodesPerGroup: NODES_PER_GROUP, warmupUs: 4, windowUs: 6, seed: 1 });
}

/**
 * Accepted fraction of injection that the global links leaving a group can carry when a share
 * `crossing` of the group's traffic leaves through `links` of them: links x a link's packet rate
 * x payload, over the group's peak injection.
 */
export function globalBound(c: MachineConfig, links: number, crossing: number): number {
  const payload = c.nic.format.maxPayloadBytes;
  const optical = c.links.optical!;
  const packetPs = (putRequestPhits(c.nic.format, payload) + optical.overheadPhits) * optical.phitPs;
  return (links * payload) / packetPs / (crossing * NODES_PER_GROUP * peakInjectionBytesPerPs(c));
}
