import type { Proc } from '../proc.ts';
import { CollLedger, type RankNames } from './agreement.ts';

/** A communicator as its ranks share it: members (world ranks), the inverse map and its context. */
export interface CommShape {
  readonly members: Int32Array;
  readonly inv: Int32Array;
  readonly ctx: number;
}

/**
 * The communicators of one run as the library knows them: context ids agreed by name, the
 * structures their ranks share (made once, by whichever rank asks first), and the record of
 * collective calls per context that finds calls some ranks never made.
 */
export class CommRegistry {
  private readonly contexts = new Map<string, number>();
  private identity: Int32Array | null = null;
  private readonly memos = new Map<string, unknown>();
  private readonly comms = new Map<string, CommShape>();
  private readonly ledgers = new Map<number, CollLedger>();
  /** Contexts 0 and 1 are MPI_COMM_WORLD's. */
  private nextContext = 2;

  constructor(private readonly procs: readonly Proc[]) {}

  /** A value made once per run under `key` (per-communicator structures shared by its ranks). */
  memo<T>(key: string, make: () => T): T {
    let v = this.memos.get(key) as T | undefined;
    if (v === undefined) {
      v = make();
      this.memos.set(key, v);
    }
    return v;
  }

  /** Drops what `memo` made under `key`. */
  forget(key: string): void {
    this.memos.delete(key);
  }

  /** MPI_COMM_WORLD's members: rank r is world rank r (one array shared by every rank). */
  get worldMembers(): Int32Array {
    if (!this.identity) {
      this.identity = new Int32Array(this.procs.length);
      for (let r = 0; r < this.procs.length; r++) this.identity[r] = r;
    }
    return this.identity;
  }

  /**
   * The members (world ranks), the inverse map and the context of the communicator named `key`,
   * made once and shared by all its ranks.
   */
  commFor(key: string, members: ArrayLike<number>): CommShape {
    let c = this.comms.get(key);
    if (!c) {
      const m = Int32Array.from(members);
      const inv = new Int32Array(this.procs.length).fill(-1);
      m.forEach((w, r) => (inv[w] = r));
      c = { members: m, inv, ctx: this.contextFor(key) };
      this.comms.set(key, c);
    }
    return c;
  }

  /**
   * The record of collective calls of the communicator with context `ctx` (shared by its ranks);
   * an intercommunicator gives its own label and names its ranks by group.
   */
  ledgerFor(ctx: number, members: Int32Array, label?: string, names?: RankNames): CollLedger {
    let l = this.ledgers.get(ctx);
    if (!l) {
      l = new CollLedger(members, label ?? (ctx === 0 ? 'MPI_COMM_WORLD' : `the communicator of context ${ctx} (${members.length} ranks)`), names);
      this.ledgers.set(ctx, l);
    }
    return l;
  }

  /** The first collective call that some ranks never made, described for the end of a run; null if none. */
  incompleteCollective(): string | null {
    for (const l of this.ledgers.values()) {
      const why = l.incomplete(this.procs);
      if (why) return why;
    }
    return null;
  }

  /**
   * Context id of the communicator named `key` (its point-to-point context; +1 is its collective
   * one). Every member asks with the same key, made from the parent's context and the order of
   * creation, so all get the same id.
   */
  contextFor(key: string): number {
    let c = this.contexts.get(key);
    if (c === undefined) {
      c = this.nextContext;
      this.nextContext += 2;
      this.contexts.set(key, c);
    }
    return c;
  }
}
