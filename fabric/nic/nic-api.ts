/** What the NIC offers its users: parameters, statuses, transfers, sends, registrations, handlers. */
import type { CompletionQueue } from './cq.ts';
import type { PacketFormatConfig } from './packet-format.ts';

/** NIC timing, already in ps and bytes (see the machine presets for values and provenance). */
export interface NicParams {
  readonly format: PacketFormatConfig;
  /** Pipeline occupancy of a full packet, each direction (Gemini: 64 B every 5 cycles at 650 MHz). */
  readonly packetPs: number;
  /** One NIC cycle: the least a packet without payload occupies a pipeline. */
  readonly cyclePs: number;
  /** Latency through the NIC output pipeline (request or response to network). */
  readonly outLatencyPs: number;
  /** Latency through the NIC input pipeline (network to host interface or response). */
  readonly inLatencyPs: number;
  /** Host interface bandwidth per direction (bytes per ps). */
  readonly hostBytesPerPs: number;
  /** Host interface one-way latency, host to NIC or NIC to host (ps). */
  readonly hostLatencyPs: number;
  /** Bytes of protocol overhead on the host interface per posted write (FMA store, NIC write). */
  readonly hostWriteOverheadBytes: number;
  /** Bytes of a host-memory read request sent by the NIC. */
  readonly hostReadRequestBytes: number;
  /** Host memory access time of a NIC read, beyond the two host-interface crossings (ps). */
  readonly memoryReadLatencyPs: number;
  /**
   * Hardware packets one simulated packet of a bulk transfer stands for: 1 (every hardware
   * packet simulated, fidelity level packet), or more at the coarse level (`fabric.coarseBytes`
   * over the packet payload), for transfers of at least `coarseMinBytes`.
   */
  readonly coarseUnits: number;
  readonly coarseMinBytes: number;
  /** CPU time to issue one FMA store: a put of up to one packet, or a get/AMO control word. */
  readonly fmaIssuePs: number;
  /** CPU time to post one BTE descriptor. */
  readonly bteIssuePs: number;
  /** From a BTE descriptor post to the first host read. */
  readonly bteStartupPs: number;
  /** Host reads a BTE put keeps in flight (its read pipeline depth). */
  readonly bteReadsInFlight: number;
  /** Bytes of one completion-queue event written to host memory. */
  readonly cqEventBytes: number;
  /** Request packets a NIC may have outstanding (waiting for their responses). */
  readonly maxOutstandingPackets: number;
  /** Header bytes a short message (mailbox put) carries besides its payload. */
  readonly smsgHeaderBytes: number;
  /** Packets of one short message in flight before the first is acknowledged (0: no limit, they stream). */
  readonly smsgWindow: number;
  /** Time from a short-message packet landing to its acknowledgement leaving (the receiver takes the packet off its queue); 0: at once. */
  readonly smsgAckDelayPs: number;
  /** Whether the NIC has an FMA unit; without one, FMA-mode transfers run on the block engine. */
  readonly hasFma: boolean;
  /** FMA descriptors (and windows) the NIC can hand out to processes. */
  readonly fmaDescriptors: number;
  /** FMA unit time per operation (FMA launch: one per put, get or AMO request). */
  readonly fmaOpPs: number;
  /** Extra FMA unit time when an operation needs a different memory-domain handle than the last. */
  readonly fmaMdhChangePs: number;
  /** Block transfers the BTE runs at once; more wait in its descriptor queue. */
  readonly bteChannels: number;
  /** Payload rate a BTE channel asks for on one get, bytes per ps (0: it keeps up with the NIC's pipelines). */
  readonly bteGetBytesPerPs: number;
  /** Host-memory reads (gets, AMO fills, PTE fetches) the NIC keeps in flight. */
  readonly hostReadsInFlight: number;
  /** AMO unit time per operation. */
  readonly amoOpPs: number;
  /** AMO cache entries (0: no AMO cache; every AMO reads host memory). */
  readonly amoCacheEntries: number;
  /** AMO unit time to bring a missed variable in (on top of the host read). */
  readonly amoFillPs: number;
  /** IOMMU page-table-entry cache: entries (0: no IOMMU modelled), ways, PTEs per entry. */
  readonly pteEntries: number;
  readonly pteWays: number;
  readonly ptesPerEntry: number;
  /** Whether the NIC has a collective engine (Aries, seed 001 "Reductions and Barriers"). */
  readonly hasCe: boolean;
  /** Virtual CEs, each with at most one collective pending. */
  readonly ceEngines: number;
  /** Largest branching ratio of a CE reduction tree. */
  readonly ceRadix: number;
  /** CE combining-unit time per child input. */
  readonly ceOpPs: number;
}

/** Completion status of a transaction, as a CQ status word would report it. */
export const enum NicStatus {
  Ok = 0,
  /** The remote memory-domain handle is not registered at the target. */
  BadHandle = 1,
  /** The access falls outside the registered segment. */
  OutOfBounds = 2,
  /** The target belongs to another communication domain (ptag): refused, nothing changed. */
  DomainRefused = 3,
  /** An AMO address is not aligned to its operand width. */
  Misaligned = 4,
  /** A BTE send found no receive buffer posted by the target instance: nothing written. */
  NoReceiveBuffer = 5,
  /** A BTE send is longer than the receive buffer it took: nothing written, the buffer is used up. */
  ReceiveOverflow = 6,
  /** No response came back within the NIC timeout: the target node is dead (seed 001 "Reliability"). */
  Timeout = 7,
}

/** Name of a status, for messages. */
export function statusName(s: NicStatus): string {
  return ['Ok', 'BadHandle', 'OutOfBounds', 'DomainRefused', 'Misaligned', 'NoReceiveBuffer', 'ReceiveOverflow', 'Timeout'][s] ?? `status ${s}`;
}

/** AMO operations of the AMO unit (seed 001 "Remote Memory Access", seed 004 §II.E). */
export type AmoOp = 'add' | 'and' | 'or' | 'xor' | 'swap' | 'cswap';

/** An atomic memory operation on a 4- or 8-byte variable. */
export interface AmoRequest {
  readonly op: AmoOp;
  /** Operand width in bytes. */
  readonly width: 4 | 8;
  readonly operand: bigint;
  /** Compare value of a compare-and-swap. */
  readonly compare?: bigint;
  /** Whether the old value comes back (into the transfer's `local`, `width` bytes, little-endian). */
  readonly fetch: boolean;
}

/** A transfer mechanism: FMA (CPU stores, low latency) or BTE (block engine, no CPU). */
export type NicMode = 'fma' | 'bte';

/** A one-sided transfer request. */
export interface NicTransfer {
  readonly op: 'put' | 'get' | 'amo';
  readonly mode: NicMode;
  /** Local bytes: source of a put, destination of a get, the fetched value of an AMO. */
  readonly local: Uint8Array;
  readonly remoteNode: number;
  /** Memory-domain handle at the target; with `vmdh`, a virtual handle the target translates. */
  readonly remoteHandle: number;
  readonly remoteOffset: number;
  /** Issuing process (NIC instance) on this node; default 0. */
  readonly inst?: number;
  /** Communication domain (ptag) of the issuing process; default 0. */
  readonly ptag?: number;
  /** Target process (instance) whose virtual handle `remoteHandle` is; used with `vmdh`. */
  readonly remoteInst?: number;
  /** `remoteHandle` is a virtual MDH (seed 001 "Address Translation": the same on every node). */
  readonly vmdh?: boolean;
  /** The AMO of an `amo` transfer. */
  readonly amo?: AmoRequest;
  /** BTE: start only after every earlier block transfer of this NIC has completed. */
  readonly fence?: boolean;
  /** Write a destination-side event to the target segment's completion queue when all has landed. */
  readonly remoteEvent?: boolean;
  /** User data of the destination-side event. */
  readonly remoteData?: number;
  /** Source completion queue and the user data of its event. */
  readonly cq?: CompletionQueue;
  readonly cqData?: number;
  /** Hashed deterministic routing instead of adaptive (keeps the packets in order). */
  readonly ordered?: boolean;
  /** Route requests and responses over independent path `path` of the routing (Kautz: seed 002 K10); routings without such paths ignore it. */
  readonly path?: number;
  /** Source completion: every response is back (also written to `cq` if given). */
  readonly onComplete?: (status: NicStatus) => void;
}

/**
 * A BTE send (channel operation, seed 001 "Remote Memory Access", seed 004 §II.C): the source
 * names a node and an instance there, not an address; the data lands in the next receive buffer
 * that instance posted (`postReceive`). It runs on the BTE like a put: descriptor queue, channels,
 * fences, start-up, host reads, the same packets and responses.
 */
export interface NicSend {
  /** Bytes to send. */
  readonly local: Uint8Array;
  readonly remoteNode: number;
  /** Target instance whose receive queue takes the message. */
  readonly remoteInst: number;
  /** Issuing process (NIC instance) on this node; default 0. */
  readonly inst?: number;
  /** Communication domain (ptag) of the issuing process; default 0. */
  readonly ptag?: number;
  /** Start only after every earlier block transfer of this NIC has completed. */
  readonly fence?: boolean;
  /** Source completion queue and the user data of its event. */
  readonly cq?: CompletionQueue;
  readonly cqData?: number;
  /** Hashed deterministic routing instead of adaptive (keeps the packets in order). */
  readonly ordered?: boolean;
  /** Source completion: every response is back (also written to `cq` if given). */
  readonly onComplete?: (status: NicStatus) => void;
}

/** A receive buffer for BTE sends: `length` bytes at `offset` of a registered segment. */
export interface NicReceiveBuffer {
  /** Instance whose receive queue the buffer joins; default 0. */
  readonly inst?: number;
  readonly handle: number;
  readonly offset: number;
  readonly length: number;
  /** User data of the buffer's completion event. */
  readonly userId: number;
  /** Completion queue of the event that reports the message (or the error) that took the buffer. */
  readonly cq: CompletionQueue;
}

/**
 * Hears of remote data landing in a node's memory (see `Nic.landing`): a runtime that waits on
 * memory wakes its waiters from it instead of polling.
 */
export interface LandingListener {
  /**
   * `bytes` bytes at byte `offset` of `mem` (a registered segment, or the local buffer of a get
   * or fetching AMO) on `node` were written now, and are visible to the host's CPUs from
   * `visiblePs`, once the NIC's write has reached host memory.
   */
  landed(node: number, mem: Uint8Array, offset: number, bytes: number, visiblePs: number): void;
}

/** A posted receive buffer, as the NIC's receive queue holds it. */
export interface ReceiveBuffer {
  readonly seg: Segment;
  readonly handle: number;
  readonly offset: number;
  readonly length: number;
  readonly userId: number;
  readonly cq: CompletionQueue;
}

/** Options of a memory registration. */
export interface RegisterOptions {
  /** Registering process (instance) on the node; default 0. */
  readonly inst?: number;
  /** Its communication domain; accesses from other domains are refused. Default 0. */
  readonly ptag?: number;
  /** Page size backing the segment (IOMMU translation); default 4 KiB. */
  readonly pageBytes?: number;
  /** Also bind this virtual MDH of `inst` to the segment (vMDH). */
  readonly vmdh?: number;
  /** Completion queue of destination-side events for transfers into the segment. */
  readonly cq?: CompletionQueue;
}

/** A registered memory segment. */
export interface Segment {
  readonly bytes: Uint8Array;
  readonly view: DataView;
  readonly inst: number;
  readonly ptag: number;
  /** Virtual address of byte 0 (page aligned), for the IOMMU. */
  readonly base: number;
  readonly pageShift: number;
  readonly vmdh: number;
  readonly cq: CompletionQueue | undefined;
}

/** Receives short messages addressed to one instance (process) on a node. */
export type SmsgHandler = (srcNode: number, meta: unknown, payload: Uint8Array) => void;
