import type { Proc } from '../proc.ts';
import type { MpiWorld } from './core.ts';
import { PostedQueue, UnexpectedQueue } from './match-queue.ts';
import type { Msg, Posted } from './message.ts';
import { PeerCounts } from './peer-counts.ts';
import type { Progress, Request } from './request.ts';

/**
 * Per-rank MPI state: queues, sequence numbers, the rank's process, and when the rank is inside
 * MPI. A rank's calls act at its own clock, which may run ahead of the engine's time (CPU time
 * charged without a suspension): a call ahead of time records its time in `polls`, a wait the
 * time it began in `waitSince`, and a rendezvous pull that needs the rank's CPU starts at the
 * first of them at or after the moment it could (seed 001: large messages progress inside MPI
 * calls unless a progress thread runs).
 */
export class Endpoint implements Progress {
  /** Receives posted and not matched yet, in the order posted. */
  readonly posted: PostedQueue<Posted>;
  /** Messages arrived (in their pair's order) that no receive has taken yet, in arrival order. */
  readonly unexpected: UnexpectedQueue<Msg>;
  /** Next sequence number to send to each peer (0 for peers never sent to). */
  readonly sendSeq: PeerCounts;
  /** Next sequence number expected from each peer (0 at first). */
  readonly recvSeq: PeerCounts;
  /** Arrivals ahead of their turn, per peer, keyed by sequence number. */
  readonly early = new Map<number, Map<number, Msg>>();
  /** Protocol steps waiting for the rank to call MPI (rendezvous pulls without asynchronous progress). */
  readonly pending: (() => void)[] = [];
  /** Times (ps, increasing) of the rank's MPI calls made ahead of the engine's time and not yet reached. */
  private readonly polls: number[] = [];
  private pollHead = 0;
  private pollEnd = 0;
  /** The rank's time when its current wait began (inside MPI from then on); Infinity outside a wait. */
  private waitSince = Infinity;
  /** The earliest time the rank's next message to another node may leave (mpi.messageGap). */
  nextSendPs = 0;
  /** The first of the rank's sends that no receive has matched yet (a list through Msg.nextUnmatched). */
  unmatched: Msg | null = null;
  /** Probes waiting for any new unexpected message. */
  readonly probers: Request[] = [];
  constructor(
    readonly proc: Proc,
    private readonly world: MpiWorld,
  ) {
    this.sendSeq = new PeerCounts(world.size);
    this.recvSeq = new PeerCounts(world.size);
    this.posted = new PostedQueue<Posted>(world.size);
    this.unexpected = new UnexpectedQueue<Msg>(world.size);
  }

  /** Adds `m`, a send of this rank, to its unmatched sends. */
  addUnmatched(m: Msg): void {
    m.nextUnmatched = this.unmatched;
    if (this.unmatched) this.unmatched.prevUnmatched = m;
    this.unmatched = m;
  }

  /** Takes `m` off its unmatched sends (a receive matched it, or it was cancelled). */
  dropUnmatched(m: Msg): void {
    if (m.prevUnmatched) m.prevUnmatched.nextUnmatched = m.nextUnmatched;
    else this.unmatched = m.nextUnmatched;
    if (m.nextUnmatched) m.nextUnmatched.prevUnmatched = m.prevUnmatched;
    m.prevUnmatched = m.nextUnmatched = null;
  }

  poll(): void {
    const at = this.proc.time();
    const now = this.proc.engine.now;
    if (at <= now) {
      while (this.pending.length > 0) this.pending.shift()!();
      return;
    }
    if (this.pending.length > 0) for (const step of this.pending.splice(0)) this.world.runAt(this.proc, at, step);
    // polls already passed are dropped first, so the list holds only calls still ahead
    // (the array keeps its storage: `pollEnd` is its length in use)
    const polls = this.polls;
    while (this.pollHead < this.pollEnd && polls[this.pollHead]! < now) this.pollHead++;
    if (this.pollHead === this.pollEnd) {
      this.pollHead = this.pollEnd = 0;
    } else if (this.pollHead > 64) {
      polls.copyWithin(0, this.pollHead, this.pollEnd);
      this.pollEnd -= this.pollHead;
      this.pollHead = 0;
    }
    if (this.pollEnd < polls.length) polls[this.pollEnd] = at;
    else polls.push(at);
    this.pollEnd++;
  }

  enter(): void {
    this.poll();
    this.waitSince = this.proc.time();
  }

  leave(): void {
    this.waitSince = Infinity;
  }

  onCpu(step: () => void): void {
    if (this.world.params.asyncProgress) return this.proc.aside(step);
    const at = this.cpuAt();
    if (at < 0) this.pending.push(step);
    else this.world.runAt(this.proc, at, step);
  }

  /**
   * When a step that needs the rank's CPU can run if it becomes due now: now inside a wait, else
   * at the rank's next MPI call already made ahead of time, else -1 (at its next call).
   */
  cpuAt(): number {
    const now = this.proc.engine.now;
    if (this.waitSince <= now) return now;
    const polls = this.polls;
    while (this.pollHead < this.pollEnd && polls[this.pollHead]! < now) this.pollHead++;
    if (this.pollHead < this.pollEnd) return Math.min(polls[this.pollHead]!, this.waitSince);
    return this.waitSince < Infinity ? this.waitSince : -1;
  }
}
