import type { FlowNetwork, FlowUse } from '../flow/flow-network.ts';
import type { NicParams } from './nic.ts';

/** A block transfer carried as a flow: what the NIC asks of the flow level. */
export interface BteFlowSpec {
  /** The node the data leaves (a put's or send's source, a get's target) and the node it reaches. */
  readonly from: number;
  readonly to: number;
  readonly bytes: number;
  /** True for a get: the data travels as get responses, the requests go the other way. */
  readonly get: boolean;
  /** The flow's own bound, bytes per ps (a DMA channel's pace); Infinity: none. */
  readonly rateCap: number;
  readonly onDone: () => void;
}

/**
 * The NIC side of the flow fidelity level: block transfers of at least `fabric.flowBytes` are
 * flows over the machine's routes (FlowNetwork), which also share each node's NIC pipelines and
 * host interface, registered here as flow resources. A flow uses, per payload byte:
 * - the network route of its data (put requests, or get responses) and the route of the packets
 *   that go back (a response per data packet, or a read request per data packet);
 * - the sending NIC's output pipeline and the receiving NIC's input pipeline (packetPs per full
 *   packet), and for the packets that go back the receiver's output pipeline and the sender's
 *   input pipeline (a cycle each);
 * - the sending node's host interface towards the NIC (the reads of the data, with their
 *   per-transfer overhead) and towards the host (a read request per packet: seed 004 §V.A, "a
 *   12-byte read request followed by a 76-byte posted write for every 64-byte data packet"),
 *   and the receiving node's towards the host (the writes).
 * Packets (short messages, control traffic, transfers below the threshold) and flows do not see
 * each other's load: the flow level's approximation, beside max-min sharing itself.
 */
export class BteFlows {
  private readonly outPipe: Int32Array;
  private readonly inPipe: Int32Array;
  private readonly hostDown: Int32Array;
  private readonly hostUp: Int32Array;

  constructor(
    readonly net: FlowNetwork,
    nodes: number,
    private readonly P: NicParams,
    /** Transfers of at least this many bytes are flows. */
    readonly minBytes: number,
  ) {
    this.outPipe = new Int32Array(nodes).fill(-1);
    this.inPipe = new Int32Array(nodes).fill(-1);
    this.hostDown = new Int32Array(nodes).fill(-1);
    this.hostUp = new Int32Array(nodes).fill(-1);
  }

  /** The resource of node `n` in `table`, registered (capacity 1: ps of work per ps) on first use. */
  private resource(table: Int32Array, n: number): number {
    let r = table[n]!;
    if (r < 0) table[n] = r = this.net.addResource(1);
    return r;
  }

  /** Starts the flow of a block transfer now; returns its id. */
  start(s: BteFlowSpec): number {
    const P = this.P;
    const max = P.format.maxPayloadBytes;
    const hostPerByte = (1 + P.hostWriteOverheadBytes / max) / P.hostBytesPerPs;
    const extra: FlowUse[] = [
      { resource: this.resource(this.outPipe, s.from), weight: P.packetPs / max },
      { resource: this.resource(this.inPipe, s.to), weight: P.packetPs / max },
      // the packets that go back leave the receiver's pipeline and enter the sender's, a cycle each
      { resource: this.resource(this.outPipe, s.to), weight: P.cyclePs / max },
      { resource: this.resource(this.inPipe, s.from), weight: P.cyclePs / max },
      { resource: this.resource(this.hostDown, s.from), weight: hostPerByte },
      // each data packet's host read sends its request up the sender's host interface
      { resource: this.resource(this.hostUp, s.from), weight: P.hostReadRequestBytes / max / P.hostBytesPerPs },
      { resource: this.resource(this.hostUp, s.to), weight: hostPerByte },
    ];
    return this.net.start({
      src: s.from,
      dst: s.to,
      vcClass: s.get ? 1 : 0,
      bytes: s.bytes,
      extra,
      ...(s.rateCap < Infinity ? { rateCap: s.rateCap } : {}),
      reverse: s.get ? { vcClass: 0, phitsPerPacket: P.format.readRequestPhits } : { vcClass: 1, phitsPerPacket: P.format.responsePhits },
      multipath: true,
      onDone: s.onDone,
    });
  }

  /** One-way latency of the data's route from `from` to `to` (wires and routers, ps). */
  latencyPs(from: number, to: number, get: boolean): number {
    return this.net.latencyPs(from, to, get ? 1 : 0);
  }
}
