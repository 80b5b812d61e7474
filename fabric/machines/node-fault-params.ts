import type { Sourced } from './link-error-params.ts';
import type { ParamDef } from './spec.ts';

/**
 * The node-failure parameters every preset has: the nodes that die (none by default) and how
 * long the initiating NIC waits before it fails a transaction the dead node never answers.
 */
export function nodeFaultParams(timeout: Sourced): Record<string, ParamDef> {
  return {
    'faults.nodes': {
      value: 'none',
      help: 'nodes that die: none, or node ids joined by commas, each dead from the start or, with @time, from that simulated time (e.g. 3,12@2us); their NICs neither send nor answer, their ranks stop',
      source: 'a fault to study, not a property of the machine',
    },
    'nic.timeout': { value: timeout.value, help: 'time the initiating NIC waits for a transaction\'s responses before it completes it with a timeout error (a dead target node)', source: timeout.source },
  };
}
