import type { ParamDef } from './spec.ts';

/** What differs between presets in the host parameters below. */
export interface HostOptions {
  /** Sockets per node and the crossing between them (QPI, HyperTransport), or 1 and '0ns'. */
  readonly sockets: number;
  readonly socketCrossing: string;
  readonly socketSource: string;
  /** Where the run's OS noise comes from by default: 'none' (a quiet machine) or 'random'. */
  readonly noise: 'none' | 'random';
  readonly coreSpec: 'yes' | 'no';
  readonly noiseSource: string;
}

/**
 * The host parameters every preset has: sockets and which one drives the NIC, and the
 * operating-system noise model (detours on each application core, which core specialisation
 * moves to a core of their own).
 */
export function hostParams(o: HostOptions): Record<string, ParamDef> {
  return {
    'cpu.sockets': { value: o.sockets, help: 'processor sockets per node; a node\'s ranks fill socket 0 first, then the next', source: o.socketSource },
    'cpu.nicSocket': { value: 0, help: 'socket whose CPU is wired to the NIC; ranks on the other sockets pay cpu.socketCrossing', source: 'seed 001 "Aries Performance": latencies are for CPU 0, the CPU directly connected to the NIC' },
    'cpu.socketCrossing': {
      value: o.socketCrossing,
      help: 'extra time of a rank on a socket without the NIC: once when it posts a send, once when a wait returns',
      source: `${o.socketSource}; the time is assumed`,
    },
    'noise.kind': { value: o.noise, help: 'OS noise on each core: none, periodic (one detour every noise.period, a random phase per core) or random (Poisson arrivals, mean noise.period)', source: o.noiseSource },
    'noise.period': { value: '1ms', help: 'time between two detours of one core (mean for random)', source: 'assumed: 0.5 % of a core, within the 0.1-1 % measured on Linux compute nodes without core specialisation' },
    'noise.detour': { value: '5us', help: 'length of one detour: the core runs the OS, not the rank', source: 'assumed: a daemon wake-up or timer interrupt with its cache refill' },
    'noise.coreSpec': { value: o.coreSpec, help: 'core specialisation: the OS runs on a core of its own, so application cores see no detours', source: o.noiseSource },
  };
}
