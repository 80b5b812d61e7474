/** The NIC's transactions (SSIDs): one record per put, get, AMO or short message in flight, pooled. */
import type { CompletionQueue } from './cq.ts';
import { NicStatus, type AmoRequest, type NicMode, type ReceiveBuffer } from './nic-api.ts';

/** Packet kinds on the wire. */
export const K_PUT = 0;
export const K_GET = 1;
export const K_SMSG = 2;
export const K_PUT_RESP = 3;
export const K_GET_RESP = 4;
export const K_SMSG_RESP = 5;
export const K_AMO = 6;
export const K_AMO_RESP = 7;
/** BTE send (channel operation): a put into the target's next receive buffer; answered by K_PUT_RESP. */
export const K_SEND = 8;
/** Collective engine: a partial result up the tree or the result down it (no response). */
export const K_CE = 9;

/** An empty buffer (no payload, no local memory). */
export const EMPTY = new Uint8Array(0);
const NO_READS = new Float64Array(0);

/** One transaction (SSID): a put, get or short message and its packets. */
export class Txn {
  op = K_PUT;
  mode: NicMode = 'fma';
  srcNode = 0;
  dstNode = 0;
  local: Uint8Array = EMPTY;
  remoteHandle = 0;
  remoteOffset = 0;
  /** Payload bytes. */
  bytes = 0;
  /** Virtual header bytes ahead of the payload on the wire (short messages). */
  header = 0;
  /** Simulated packets; `hw` hardware packets, `unit` of them per simulated packet (the last may hold fewer). */
  packets = 0;
  hw = 0;
  unit = 1;
  sent = 0;
  responsesLeft = 0;
  /** Short message: its window is full, the next packet waits for an acknowledgement. */
  windowWait = false;
  /** Hardware packets whose responses are back. */
  unitsBack = 0;
  /** A packet went to a dead node: the transaction fails by the NIC timeout (its record is never reused). */
  timedOut = false;
  deliveredAtTarget = 0;
  targetDoneAt = 0;
  status = NicStatus.Ok;
  startPs = 0;
  /** Host-side cursor of the FMA stores / BTE reads feeding this transaction. */
  cursorPs = 0;
  /** BTE put: times the data of the reads in flight reach the NIC, by packet index mod window (its first `readWindow` entries). */
  readReady: Float64Array = NO_READS;
  readWindow = 0;
  /** BTE put: reads issued so far. */
  reads = 0;
  /** BTE put: when the data of the last hardware packet of the next simulated packet is at the NIC. */
  tailReadyPs = 0;
  /** BTE get: when its channel may send the next request (the channel's own pace, bteGetBytesPerPs). */
  channelFreePs = 0;
  ordered = false;
  /** Independent path asked for (0xff: the routing chooses). */
  path = 0xff;
  /** Source completion; a short message's also gets its header back (one callback can serve every message). */
  onComplete: ((status: NicStatus, meta: unknown) => void) | null = null;
  inst = 0;
  ptag = 0;
  remoteInst = 0;
  vmdh = false;
  amo: AmoRequest | null = null;
  fence = false;
  remoteEvent = false;
  remoteData = 0;
  cq: CompletionQueue | null = null;
  cqData = 0;
  /** BTE: still holds a BTE channel (packets left to emit). */
  onBte = false;
  /** Carried as a flow (fidelity level flow) instead of packets. */
  flow = false;
  /** FMA: the descriptor needed another memory-domain handle for this operation. */
  mdhChange = false;
  /** Target segment's completion queue for the destination-side event. */
  remoteCq: CompletionQueue | null = null;
  /** BTE send: the receive buffer its first arriving packet took at the target. */
  recv: ReceiveBuffer | null = null;
  // short messages (inst: the target instance's mailbox)
  meta: unknown = null;
  landing: Uint8Array = EMPTY;
  /** A landing buffer the record keeps from one short message to the next (for handlers that take the payload as lent). */
  private spare: Uint8Array = EMPTY;
  refs = 0;

  /** The record's own landing buffer, of `bytes` bytes (made anew only when the size changes). */
  spareLanding(): Uint8Array {
    if (this.spare.length !== this.bytes) this.spare = new Uint8Array(this.bytes);
    return this.spare;
  }

  /** Clears every field for a new transaction (transactions are pooled); the read window's storage and the spare landing buffer stay. */
  reset(): void {
    this.op = K_PUT;
    this.mode = 'fma';
    this.srcNode = 0;
    this.dstNode = 0;
    this.local = EMPTY;
    this.remoteHandle = 0;
    this.remoteOffset = 0;
    this.bytes = 0;
    this.header = 0;
    this.packets = 0;
    this.hw = 0;
    this.unit = 1;
    this.sent = 0;
    this.responsesLeft = 0;
    this.windowWait = false;
    this.unitsBack = 0;
    this.timedOut = false;
    this.deliveredAtTarget = 0;
    this.targetDoneAt = 0;
    this.status = NicStatus.Ok;
    this.startPs = 0;
    this.cursorPs = 0;
    this.reads = 0;
    this.channelFreePs = 0;
    this.tailReadyPs = 0;
    this.ordered = false;
    this.path = 0xff;
    this.inst = 0;
    this.ptag = 0;
    this.remoteInst = 0;
    this.vmdh = false;
    this.amo = null;
    this.fence = false;
    this.remoteEvent = false;
    this.remoteData = 0;
    this.cq = null;
    this.cqData = 0;
    this.onBte = false;
    this.flow = false;
    this.mdhChange = false;
    this.remoteCq = null;
    this.recv = null;
    this.meta = null;
    this.landing = EMPTY;
    this.refs = 0;
    this.onComplete = null;
    this.readWindow = 0;
  }
}


/**
 * Transactions of a whole machine, indexed by id (the SSID state a real NIC keeps in its RMT).
 * Transaction records are pooled: a released id keeps its record, cleared when it is handed out
 * again, so a run allocates no record once it has reached its peak of transactions in flight.
 */
export class TxnTable {
  readonly list: Txn[] = [];
  private readonly freeIds: number[] = [];
  /** A fresh transaction's id (its record, cleared, is `list[id]`). */
  alloc(): number {
    if (this.freeIds.length > 0) {
      const id = this.freeIds.pop()!;
      this.list[id]!.reset();
      return id;
    }
    this.list.push(new Txn());
    return this.list.length - 1;
  }
  release(id: number): void {
    this.freeIds.push(id);
  }
}
