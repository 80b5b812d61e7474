import { CompletionQueue } from '../../../fabric/nic/cq.ts';
import type { Request } from '../request.ts';

/** Kinds of notification, in the high bits of a remote event's user data (the sender's rank below). */
export const NOTE_POST = 1;
export const NOTE_COMPLETE = 2;
const KIND_SHIFT = 24;

/** The user data of a notification of `kind` from rank `from`. */
export function noteData(kind: number, from: number): number {
  return kind * 2 ** KIND_SHIFT + from;
}

const DONE = { source: -1, tag: -1, count: 0, bytes: 0 };

/**
 * The post and complete notifications one rank of a window has received, for general active
 * target synchronisation (MPI_Win_post/start/complete/wait). A notification is a small put into
 * the rank's control segment with a destination-side event (seed 001 "Ordering and Completion"):
 * the NIC writes the event into this completion queue when the put has landed, with no CPU of
 * the receiver involved; a rank blocked in start or wait resumes at that event. A post tells each
 * origin of its group; a complete, sent once the origin's operations are complete at the target,
 * tells each target.
 */
export class Notices {
  readonly cq: CompletionQueue;
  /** Posts received from each target, and those a start has consumed. */
  private readonly posts: Int32Array;
  private readonly used: Int32Array;
  /** Completes received so far, and those the posts opened so far wait for. */
  private completes = 0;
  private expected = 0;
  private waiter: { readonly ready: () => boolean; readonly req: Request } | null = null;

  constructor(size: number) {
    this.posts = new Int32Array(size);
    this.used = new Int32Array(size);
    // at most one post and one complete from each rank are outstanding at a time
    this.cq = new CompletionQueue(2 * size + 2);
    this.cq.onEvent = () => this.drain();
  }

  /** Whether every target of `targets` has posted since its last post was consumed. */
  postedBy(targets: Iterable<number>): boolean {
    for (const t of targets) if (this.posts[t]! <= this.used[t]!) return false;
    return true;
  }

  /** Consumes one post of each target (start). */
  consume(targets: Iterable<number>): void {
    for (const t of targets) this.used[t]!++;
  }

  /** A post of this rank waits for `n` more completes. */
  expect(n: number): void {
    this.expected += n;
  }

  /** Whether every complete the posts so far wait for has arrived. */
  get completed(): boolean {
    return this.completes >= this.expected;
  }

  /** Origins whose complete has not arrived (for a deadlock report): how many. */
  get missing(): number {
    return this.expected - this.completes;
  }

  /** Resumes `req` once `ready()` holds (checked at each notification). */
  until(ready: () => boolean, req: Request): void {
    this.waiter = { ready, req };
  }

  private drain(): void {
    for (let ev = this.cq.get(); ev !== undefined; ev = this.cq.get()) {
      const kind = Math.floor(ev.data / 2 ** KIND_SHIFT);
      const from = ev.data % 2 ** KIND_SHIFT;
      if (kind === NOTE_POST) this.posts[from]!++;
      else if (kind === NOTE_COMPLETE) this.completes++;
    }
    const w = this.waiter;
    if (w && w.ready()) {
      this.waiter = null;
      w.req.complete(DONE);
    }
  }
}
