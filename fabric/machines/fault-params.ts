import type { ParamDef } from './spec.ts';

/** What differs between presets in the fault parameters (fabric/faults.ts). */
export interface FaultOptions {
  /** How a lane loss degrades a link on this machine, for the help of faults.lanes, and its source. */
  readonly lanes: string;
  readonly lanesSource: string;
  /** The pause to compute new routes and where it comes from. */
  readonly quiescePause: string;
  readonly quiesceSource: string;
}

/**
 * The fault parameters every preset has, none failed by default: failed links, routers and lanes,
 * each item with an optional time it fails at, and the pause the network takes to compute new
 * routes when a failure cuts the last link between two routers.
 */
export function faultParams(o: FaultOptions): Record<string, ParamDef> {
  return {
    'faults.links': {
      value: 'none',
      help: 'failed links (both directions): none, or router:port[@time] items joined by commas, router and port numbers of the port graph (phit topo), e.g. 12:3,40:7@5us (fails 5 us into the run); adaptive routing masks them, other routes detour up*/down*',
      source: 'assumed: failures are a what-if the user sets',
    },
    'faults.routers': {
      value: 'none',
      help: 'failed routers (every link of each): none, or router[@time] items joined by commas, e.g. 7,9@10us; a set that cuts off nodes is refused naming them',
      source: 'assumed: failures are a what-if the user sets',
    },
    'faults.lanes': { value: 'none', help: `lanes lost per link: none, or router:port/lanesLost[@time] items joined by commas, e.g. 12:3/1; ${o.lanes}`, source: o.lanesSource },
    'faults.quiescePause': { value: o.quiescePause, help: 'time the whole network pauses to compute new routes when a failure during the run cuts the last link between two routers', source: o.quiesceSource },
  };
}
