/**
 * How a packet-level network (network.ts) lays out its input queues and credit pools: one FIFO
 * per input port and VC, or virtual output queues (one per port, VC and output, as behind a
 * crosspoint switch), and with source routes crosspoint credits (one pool per VC and output at
 * the next router).
 */
import { PORT_NODE, type PortGraph } from './topology/port-graph.ts';

/** The queue and credit-pool layout of a network. */
export interface QueueLayout {
  /** With virtual output queues, per port index: its queue (and credit pool) among an input's, or -1 if no router outputs there. */
  readonly outSlot: Int16Array;
  /** The port index of each output slot. */
  readonly slotPort: Int32Array;
  /** Queues per input port and VC: with virtual output queues one per port index that is an output (outSlot), else 1. */
  readonly qPer: number;
  /** Credit pools per channel and VC: 1, or with crosspoint credits one per output at the next router (outSlot), rounded up to a power of two (1 << cqShift). */
  readonly cq: number;
  readonly cqShift: number;
  /** Input queues per port (vcs * qPer), and its log2 when a power of two (else -1). */
  readonly nvq: number;
  readonly nvqShift: number;
  /** Credit pools per channel (vcs * cq). */
  readonly nvcq: number;
}

/**
 * The layout for graph g with `nv` VCs: virtual output queues when `voq`, crosspoint credits when
 * also `sourceRoutes` (the router upstream knows each packet's output at the next router).
 * Throws a RangeError when a router would have 65,535 input queues or more (waiting requests are
 * counted in 16 bits).
 */
export function queueLayout(g: PortGraph, nv: number, voq: boolean, sourceRoutes: boolean): QueueLayout {
  // virtual output queues: one per port index that is an output somewhere (a link or a node port)
  const outSlot = new Int16Array(g.radix).fill(-1);
  const ports: number[] = [];
  if (voq) {
    for (let j = 0; j < g.radix; j++) {
      for (let r = 0; r < g.routers; r++) {
        const gp = r * g.radix + j;
        if (g.peerRouter[gp]! >= 0 || g.portClass[gp] === PORT_NODE) {
          outSlot[j] = ports.length;
          ports.push(j);
          break;
        }
      }
    }
  }
  const qPer = Math.max(1, ports.length);
  // crosspoint credits: pools per channel-VC a power of two, so that a pool's channel-VC and slot
  // are a shift and a mask away
  const cqShift = sourceRoutes && qPer > 1 ? Math.ceil(Math.log2(qPer)) : 0;
  const cq = 1 << cqShift;
  const nvq = nv * qPer;
  if (g.radix * nv * qPer >= 0xffff) throw new RangeError(`${g.radix} ports x ${nv} VCs x ${qPer} queues: at most 65,534 input queues per router (waiting requests are counted in 16 bits)`);
  return { outSlot, slotPort: Int32Array.from(ports), qPer, cq, cqShift, nvq, nvqShift: nvq & (nvq - 1) ? -1 : Math.log2(nvq), nvcq: nv * cq };
}
