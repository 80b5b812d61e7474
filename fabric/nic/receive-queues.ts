import { NicStatus, type NicReceiveBuffer, type ReceiveBuffer } from './nic-api.ts';
import type { SegmentTable } from './segment-table.ts';
import type { Txn } from './txn.ts';

/**
 * A NIC's receive queues for BTE sends, one per instance (seed 001 "Ordering and Completion":
 * the RMT matches BTE send requests to queued receive descriptors), each with the communication
 * domain of its first buffer.
 */
export class ReceiveQueues {
  /** Per instance: receive buffers for BTE sends, in posting order. */
  private readonly queues: (ReceiveBuffer[] | undefined)[] = [];
  /** Per instance: the communication domain of its receive queue (set by its first buffer). */
  private readonly ptags: (number | undefined)[] = [];

  /** `node` names the NIC in messages; `segments` are its registrations. */
  constructor(
    private readonly node: number,
    private readonly segments: SegmentTable,
  ) {}

  /** Queues receive buffer `b` (see `Nic.postReceive`); a bad one throws a RangeError. */
  post(b: NicReceiveBuffer): void {
    const inst = b.inst ?? 0;
    const seg = this.segments.get(b.handle);
    if (seg === undefined) throw new RangeError(`NIC ${this.node}: receive buffer handle ${b.handle} is not registered`);
    if (!Number.isInteger(b.offset) || !Number.isInteger(b.length) || b.offset < 0 || b.length < 0 || b.offset + b.length > seg.bytes.length) {
      throw new RangeError(`NIC ${this.node}: receive buffer offset=${b.offset} length=${b.length} must lie inside the ${seg.bytes.length}-byte segment of handle ${b.handle}`);
    }
    const ptag = this.ptags[inst];
    if (ptag !== undefined && ptag !== seg.ptag) {
      throw new RangeError(`NIC ${this.node}: receive buffer of domain ${seg.ptag} for instance ${inst}, whose receive queue is in domain ${ptag}`);
    }
    this.ptags[inst] = seg.ptag;
    (this.queues[inst] ??= []).push({ seg, handle: b.handle, offset: b.offset, length: b.length, userId: b.userId, cq: b.cq });
  }

  /** Receive buffers instance `inst` has posted that no send has taken yet. */
  posted(inst: number): number {
    return this.queues[inst]?.length ?? 0;
  }

  /** Drops the receive queue of instance `inst` and its domain; returns the buffers dropped. */
  clear(inst: number): number {
    const n = this.posted(inst);
    this.queues[inst] = undefined;
    this.ptags[inst] = undefined;
    return n;
  }

  /**
   * The first packet of BTE send x is in: x takes the next receive buffer of its target instance,
   * or gets the status that refuses it (see `Nic.sendBte`).
   */
  take(x: Txn): void {
    const ptag = this.ptags[x.remoteInst];
    if (ptag !== undefined && ptag !== x.ptag) {
      x.status = NicStatus.DomainRefused;
      return;
    }
    const b = this.queues[x.remoteInst]?.shift();
    if (b === undefined) {
      x.status = NicStatus.NoReceiveBuffer;
      return;
    }
    x.recv = b;
    if (this.segments.get(b.handle) !== b.seg) x.status = NicStatus.BadHandle;
    else if (x.bytes > b.length) x.status = NicStatus.ReceiveOverflow;
  }
}
