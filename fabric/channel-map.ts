/**
 * The channels of a packet-level network (network.ts) and their timing: router output ports
 * (links and NIC ejection) and NIC injection channels, what each feeds and is fed by, and its
 * kind, which sets its phit time, latency and link-layer overhead.
 */
import type { NetworkParams } from './network-params.ts';
import { PORT_NODE, type PortGraph } from './topology/port-graph.ts';

/** Channel wiring and timing of a network. Channels: router output ports (routers * radix), then one injection channel per node. */
export interface ChannelMap {
  /** Per channel: the global input port it feeds, or -1 - node for an ejection channel (-1 unused). */
  readonly chanDown: Int32Array;
  /** Per global input port: the channel feeding it, or -1. */
  readonly upChan: Int32Array;
  /**
   * Per channel its kind: a router-to-router link's class (below the number of link classes),
   * then NIC ejection, then NIC injection. Timing is per kind (kindPhitPs, kindLatPs, kindOvh):
   * one byte per channel on the hot path instead of four numbers.
   */
  readonly chanKind: Uint8Array;
  readonly kindPhitPs: Float64Array;
  readonly kindLatPs: Float64Array;
  readonly kindOvh: Int32Array;
}

/** A link kind with lanes lost: link class `linkClass` at (lanes - lost) / lanes of its bandwidth. */
export interface DegradedKind {
  readonly linkClass: number;
  /** Fraction of the class's bandwidth left, in (0, 1). */
  readonly share: number;
}

/**
 * Wires the channels of graph g with timing `params`, plus kinds for links with lanes lost
 * (`degraded`, numbered after NIC injection; a channel takes one when its lanes fail); throws a
 * RangeError for a link class without parameters or more than 256 kinds.
 */
export function channelMap(g: PortGraph, params: NetworkParams, degraded: readonly DegradedKind[] = []): ChannelMap {
  const nGP = g.routers * g.radix;
  const nChan = nGP + g.nodes;
  const nLinkKinds = params.links.length;
  if (nLinkKinds + 2 + degraded.length > 256) throw new RangeError(`${nLinkKinds} link classes and ${degraded.length} degraded link kinds: at most 254 in all`);
  const kindEject = nLinkKinds;
  const kindInject = nLinkKinds + 1;
  const chanDown = new Int32Array(nChan).fill(-1);
  const upChan = new Int32Array(nChan).fill(-1);
  const chanKind = new Uint8Array(nChan);
  for (let gp = 0; gp < nGP; gp++) {
    const peer = g.peerRouter[gp]!;
    if (peer >= 0) {
      const down = peer * g.radix + g.peerPort[gp]!;
      const link = params.links[g.portClass[gp]!];
      if (!link) throw new RangeError(`no link parameters for link class ${g.classNames[g.portClass[gp]!]}`);
      chanDown[gp] = down;
      chanKind[gp] = g.portClass[gp]!;
      upChan[down] = gp;
    } else if (g.portClass[gp] === PORT_NODE) {
      const node = g.portNode[gp]!;
      chanDown[gp] = -1 - node;
      chanKind[gp] = kindEject;
      const inj = nGP + node;
      chanDown[inj] = gp;
      chanKind[inj] = kindInject;
      upChan[gp] = inj;
    }
  }
  return {
    chanDown,
    upChan,
    chanKind,
    // a link with lanes lost serializes its phits over the lanes left
    kindPhitPs: Float64Array.from([...params.links.map((l) => l.phitPs), params.ejectPhitPs, params.injectPhitPs, ...degraded.map((d) => params.links[d.linkClass]!.phitPs / d.share)]),
    kindLatPs: Float64Array.from([...params.links.map((l) => l.latencyPs), params.ejectLatencyPs, params.injectLatencyPs, ...degraded.map((d) => params.links[d.linkClass]!.latencyPs)]),
    kindOvh: Int32Array.from([...params.links.map((l) => l.overheadPhits), 0, 0, ...degraded.map((d) => params.links[d.linkClass]!.overheadPhits)]),
  };
}
