/** The objects uGNI hands a process: communication domains, attached NICs, completion queues, endpoints, and the descriptors and events of its calls. */
import type { CompletionQueue } from '../../fabric/nic/cq.ts';
import type { GniAmoCmd, GniFailure, GniPostType, GniResult } from './codes.ts';

/** A communication domain (GNI_CdmCreate): instance id, protection tag and cookie. */
export class GniCdm {
  /** @internal */ nic: GniNic | null = null;
  /** @internal */ destroyed = false;
  constructor(
    /** Rank that created it. */
    readonly rank: number,
    readonly instId: number,
    readonly ptag: number,
    readonly cookie: number,
    readonly modes: number,
  ) {}
}

/** A CDM attached to the NIC (GNI_CdmAttach's nic handle): it holds one FMA descriptor. */
export class GniNic {
  /** @internal */ destroyed = false;
  /** @internal */ readonly eps = new Set<GniEp>();
  /** @internal short messages that arrived before their endpoint was ready, by `rank/instId` of the sender. */
  readonly unclaimed = new Map<string, SmsgMessage[]>();
  constructor(
    readonly cdm: GniCdm,
    /** NIC address of the node (GNI_CdmAttach's local address). */
    readonly localAddress: number,
    /** FMA descriptor the NIC handed out. */
    readonly fmaDescriptor: number,
    /** NIC instance id of this CDM's short-message mailbox (and of its receive queue for RDMA_SEND). */
    readonly mailboxInst: number,
    /** Domain key the NIC compares (ptag and cookie together): traffic between different keys is refused. */
    readonly domain: number,
  ) {}
}

/** A completion queue (GNI_CqCreate) over the NIC's CompletionQueue. */
export class GniCq {
  /** @internal */ destroyed = false;
  /** @internal */ waiting = false;
  constructor(
    readonly nic: GniNic,
    /** @internal the queue the NIC writes. */
    readonly queue: CompletionQueue,
  ) {}

  /** Entries the queue holds. */
  get entries(): number {
    return this.queue.entries;
  }
}

/** Short-message state of an endpoint (GNI_SmsgInit). */
export interface SmsgState {
  readonly msgMaxSize: number;
  credits: number;
  readonly rxCq: GniCq | null;
  sendSeq: number;
  recvSeq: number;
  /** In-order messages ready for smsgGetNext; the head stays until smsgRelease. */
  readonly inbox: SmsgMessage[];
  /** Messages that overtook an earlier one, by sequence number. */
  readonly early: Map<number, SmsgMessage>;
}

/** @internal One short message as it travels (meta) and waits in a mailbox. */
export interface SmsgMessage {
  readonly srcRank: number;
  readonly srcInstId: number;
  readonly seq: number;
  readonly msgId: number;
  readonly tag: number;
  /** The sender's endpoint, credited back when the receiver releases the message. */
  readonly creditTo: GniEp;
  payload: Uint8Array;
}

/** An endpoint (GNI_EpCreate), bound to one remote process's CDM by epBind. */
export class GniEp {
  /** @internal */ destroyed = false;
  /** @internal */ remoteRank = -1;
  /** @internal */ remoteInstId = -1;
  /** @internal */ outstanding = 0;
  /** @internal */ smsg: SmsgState | null = null;
  constructor(
    readonly nic: GniNic,
    /** Source completion queue of local events (null: none). */
    readonly cq: GniCq | null,
  ) {}

  /** Whether epBind has bound it. */
  get bound(): boolean {
    return this.remoteRank >= 0;
  }
}

/** A registered memory segment (GNI_MemRegister's memory handle): what a peer needs to address it. */
export interface GniMemHandle {
  /** Rank that registered it (for the reader; the endpoint decides where a post goes). */
  readonly rank: number;
  readonly node: number;
  /** The NIC's memory-domain handle. */
  readonly handle: number;
  /** Bytes registered. */
  readonly length: number;
}

/** What every transfer descriptor has. */
export interface GniPostCommon {
  /** GNI_CQMODE bits; default LOCAL_EVENT. */
  readonly cqMode?: number;
  /** Local bytes: source of a put or send, destination of a get, the fetched old value of an AMO. */
  readonly local?: Uint8Array;
  /** Registration holding `local` (needed by gets, RDMA and fetching AMOs). */
  readonly localMemHndl?: GniMemHandle;
  /** Bytes to move (default `local.length`); of an AMO, its width, 8 (default) or 4. */
  readonly length?: number;
  /** User data returned in the local event (the C descriptor's post_id). */
  readonly postId?: number;
  /** Source CQ for this post instead of the endpoint's. */
  readonly srcCq?: GniCq;
}

/** A put, get or AMO descriptor (gni_post_descriptor_t) for postFma and postRdma. */
export interface GniRmaDescriptor extends GniPostCommon {
  readonly type: Exclude<GniPostType, 'RDMA_SEND'>;
  readonly remoteMemHndl: GniMemHandle;
  /** Byte offset in the remote segment. */
  readonly remoteOffset: number;
  /** Data of the remote event (default: the initiator's CDM instance id). */
  readonly remoteEventData?: number;
  readonly amoCmd?: GniAmoCmd;
  readonly firstOperand?: bigint;
  readonly secondOperand?: bigint;
}

/**
 * A send descriptor for postRdma (phit extension, see postRecvBuffer): `local` goes, without a
 * remote address, into the next receive buffer the endpoint's peer domain posted. The receiver's
 * RECV event always goes to its buffer's CQ; the REMOTE_EVENT bit of `cqMode` changes nothing.
 */
export interface GniSendDescriptor extends GniPostCommon {
  readonly type: 'RDMA_SEND';
  readonly local: Uint8Array;
  readonly localMemHndl: GniMemHandle;
}

/** A transfer descriptor for postFma and postRdma. */
export type GniPostDescriptor = GniRmaDescriptor | GniSendDescriptor;

/**
 * A receive buffer for RDMA_SEND (phit extension, see postRecvBuffer): `length` bytes at
 * `offset` of a registration, reported with `userId` at `cq` when a message fills it.
 */
export interface GniRecvBuffer {
  readonly memHndl: GniMemHandle;
  /** Byte offset in the registration; default 0. */
  readonly offset?: number;
  /** Bytes; default the rest of the registration from `offset`. */
  readonly length?: number;
  /** Returned as the RECV event's data. */
  readonly userId: number;
  /** CQ of the RECV event (a CQ of the same nic handle). */
  readonly cq: GniCq;
}

/** A completion-queue event as cqGetEvent hands it out. */
export interface GniCqEvent {
  /** POST: a postFma/postRdma; SMSG: a short message; RECV: an RDMA_SEND took a posted receive buffer. */
  readonly type: 'POST' | 'SMSG' | 'RECV';
  /** local: at the initiator (source CQ); remote: at the target. */
  readonly source: 'local' | 'remote';
  /** Whether the transaction succeeded (GNI_CQ_STATUS_OK). */
  readonly ok: boolean;
  /**
   * The NIC's status word, by name (`Ok`, `DomainRefused`, `BadHandle`, `OutOfBounds`,
   * `Misaligned`, and for RDMA_SEND `NoReceiveBuffer`, `ReceiveOverflow`).
   */
  readonly status: string;
  /**
   * Local POST: the descriptor's postId; remote POST: its remoteEventData; local SMSG: the msgId;
   * remote SMSG: the sender's CDM instance id; RECV: the receive buffer's userId.
   */
  readonly data: number;
  /** Node of the process whose transaction raised the event. */
  readonly sourceNode: number;
  /** RECV only: the message's bytes (in the buffer when ok; too many for it on ReceiveOverflow). */
  readonly length?: number;
}

/** What cqGetEvent and cqWaitEvent return: an event (SUCCESS, or TRANSACTION_ERROR for a failed one) or a code. */
export type GniCqResult = GniResult<{ readonly event: GniCqEvent }> | (GniFailure & { readonly rc: 'GNI_RC_TRANSACTION_ERROR'; readonly event: GniCqEvent });

/** What getCompleted returns: the descriptor of a local POST event. */
export type GniCompletedResult = GniResult<{ readonly desc: GniPostDescriptor }> | (GniFailure & { readonly rc: 'GNI_RC_TRANSACTION_ERROR'; readonly desc: GniPostDescriptor });

/** What smsgGetNext returns: the next message, header bytes followed by data bytes. */
export type GniSmsgResult = GniResult<{ readonly msg: Uint8Array; readonly tag: number; readonly msgId: number }>;

/** Attributes of a mailbox (gni_smsg_attr_t, reduced to what the model uses). */
export interface GniSmsgAttr {
  /** Largest message (header plus data), bytes. */
  readonly msgMaxSize: number;
  /** Messages a sender may have unreleased at the receiver. */
  readonly mboxMaxCredit: number;
  /** CQ of this side's receive events (default: the endpoint's CQ). */
  readonly rxCq?: GniCq;
}
