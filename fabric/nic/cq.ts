import type { NicStatus } from './nic.ts';

/** What a completion-queue event reports. */
export const enum CqEventKind {
  /** Source side: a transaction's responses are all back (or it failed). */
  Local = 0,
  /** Destination side: a transaction that asked for a remote event has landed in full. */
  Remote = 1,
  /** Destination side: a BTE send has filled (or failed to fill) a posted receive buffer. */
  Receive = 2,
}

/** One completion-queue entry: its kind, the transaction's status word and the user's data. */
export interface CqEvent {
  readonly kind: CqEventKind;
  readonly status: NicStatus;
  /** User data given when the transaction was posted (source side), with the remote event, or with the receive buffer. */
  readonly data: number;
  /** Node whose transaction raised the event. */
  readonly sourceNode: number;
  /**
   * Receive events only: the message's length in bytes (all written when the status is Ok; none
   * when it is not, e.g. the length that overflowed the buffer).
   */
  readonly bytes?: number;
}

/**
 * A completion queue in host memory (seed 001 "Ordering and Completion": events carry user
 * data and the transaction's status word; errors are reported there). It holds at most
 * `entries` events; an event that finds it full is dropped and the queue is marked overrun,
 * which the next read reports, as a real CQ does.
 */
export class CompletionQueue {
  private readonly ring: (CqEvent | undefined)[];
  private head = 0;
  private count = 0;
  /** An event was dropped because the queue was full; cleared by `clearOverrun`. */
  overrun = false;
  /** Called after each event is queued (a waiting process uses it to wake). */
  onEvent: (() => void) | null = null;

  constructor(readonly entries: number) {
    if (!Number.isInteger(entries) || entries < 1) throw new RangeError(`completion queue: entries=${entries} must be a positive integer`);
    this.ring = new Array<CqEvent | undefined>(entries);
  }

  /** Events waiting to be read. */
  get size(): number {
    return this.count;
  }

  /** The NIC writes an event (dropped, marking the queue overrun, when it is full). */
  post(ev: CqEvent): void {
    if (this.count === this.entries) {
      this.overrun = true;
    } else {
      this.ring[(this.head + this.count) % this.entries] = ev;
      this.count++;
    }
    if (this.onEvent) this.onEvent();
  }

  /** Takes the oldest event, or undefined when the queue is empty. */
  get(): CqEvent | undefined {
    if (this.count === 0) return undefined;
    const ev = this.ring[this.head]!;
    this.ring[this.head] = undefined;
    this.head = (this.head + 1) % this.entries;
    this.count--;
    return ev;
  }

  /** Clears the overrun mark (after the owner has recovered the lost events by other means). */
  clearOverrun(): void {
    this.overrun = false;
  }
}
