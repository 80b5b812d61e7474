/**
 * MPI's two matching queues, the posted receives and the unexpected messages of one rank, kept
 * in arrival order and searched in constant time for the first match.
 *
 * An MPI library (MPICH's CH3 and CH4 queues, which Cray MPI inherits) keeps both as lists in
 * arrival order and searches them linearly: a message takes the first posted receive that
 * matches it, a receive the first unexpected message it matches. phit charges that search as the
 * library spends it, `mpi.matchEntry` per entry looked at, so each search reports `searched`, the
 * number of entries before the match (the whole queue when nothing matched), exactly as the
 * linear scan counts it. A short queue (up to LINEAR_MAX entries) is scanned, which costs less
 * than keeping an index; a longer one is indexed until it empties, and its search is no scan:
 * - every entry sits in the bucket of its exact key (context, source, tag), wildcards included in
 *   the key of a posted receive; a message looks at the heads of the four buckets that can hold a
 *   receive it matches, (src, tag), (ANY_SOURCE, tag), (src, ANY_TAG), (ANY_SOURCE, ANY_TAG), and
 *   takes the earliest by sequence number;
 * - an unexpected message is also in its context's list, its (context, source) list and its
 *   (context, tag) list: a receive, wildcards or not, finds its first match at the head of one list;
 * - a Fenwick tree over the sequence numbers of the live entries counts the entries before a
 *   match in O(log n); sequence numbers are renumbered in order when they run out (amortized O(1)).
 * Walks in arrival order (pending receives at finalize, failed peers) use `items()`.
 */
import { ANY_SOURCE, ANY_TAG } from './message.ts';

/** Link slots of an entry in the lists that index it: its exact bucket, and (unexpected only) its source, tag and context lists. */
const KEY = 0;
const SRC = 1;
const TAG = 2;
const CTX = 3;

/** One queued item: its place in arrival order (neighbours and sequence number) and its links in the lists that index it. */
class Entry<T> {
  item: T | null = null;
  seq = 0;
  older: Entry<T> | null = null;
  newer: Entry<T> | null = null;
  readonly prev: (Entry<T> | null)[];
  readonly next: (Entry<T> | null)[];
  constructor(links: number) {
    this.prev = new Array<Entry<T> | null>(links).fill(null);
    this.next = new Array<Entry<T> | null>(links).fill(null);
  }
}

/** A list of entries in arrival order through link slot `link`; `home` and `key` say where it is indexed (dropped once empty). */
class Chain<T> {
  head: Entry<T> | null = null;
  tail: Entry<T> | null = null;
  home: Map<number, Chain<T>> | null = null;
  key = 0;
  constructor(public link: number) {}

  append(e: Entry<T>): void {
    const k = this.link;
    e.prev[k] = this.tail;
    e.next[k] = null;
    if (this.tail) this.tail.next[k] = e;
    else this.head = e;
    this.tail = e;
  }

  /** Unlinks `e`; true when the list is empty afterwards. */
  unlink(e: Entry<T>): boolean {
    const k = this.link;
    const p = e.prev[k]!;
    const n = e.next[k]!;
    if (p) p.next[k] = n;
    else this.head = n;
    if (n) n.prev[k] = p;
    else this.tail = p;
    e.prev[k] = e.next[k] = null;
    return this.head === null;
  }
}

/**
 * Counts of live sequence numbers (a Fenwick tree): `before(seq)` is the number of live entries
 * that arrived before the one numbered `seq`.
 */
class Positions {
  private tree = NO_TREE;
  /** Sequence numbers available: 0 .. cap-1. */
  cap = 0;

  add(seq: number, d: number): void {
    const t = this.tree;
    for (let i = seq + 1; i <= this.cap; i += i & -i) t[i]! += d;
  }

  before(seq: number): number {
    const t = this.tree;
    let s = 0;
    for (let i = seq; i > 0; i -= i & -i) s += t[i]!;
    return s;
  }

  /** Capacity `cap`, with sequence numbers 0 .. n-1 live (built in O(cap)). */
  reset(cap: number, n: number): void {
    if (cap !== this.cap) this.tree = new Int32Array(cap + 1);
    else this.tree.fill(0);
    this.cap = cap;
    const t = this.tree;
    for (let i = 1; i <= cap; i++) {
      if (i <= n) t[i]! += 1;
      const j = i + (i & -i);
      if (j <= cap) t[j]! += t[i]!;
    }
  }
}

/** The tree of a queue that has never held an entry (capacity 0: never read or written). */
const NO_TREE = new Int32Array(0);

/** The smallest capacity of the sequence numbers. */
const MIN_CAP = 16;

/**
 * Length above which a queue indexes its entries (below it, a scan costs less than keeping the
 * lists and maps up to date, and makes no garbage); it scans again once it has emptied.
 */
export const LINEAR_MAX = 16;

/** What the two queues share: arrival order, positions, pooled entries and lists, the bucket key. */
abstract class MatchQueue<T> {
  /** Entries searched before the match by the last `take` (the whole queue when it found none). */
  searched = 0;
  /** Number of entries queued. */
  length = 0;
  /** Whether the entries are in their indexing lists and numbered (see LINEAR_MAX). */
  protected indexed = false;
  /** The oldest and newest entries (arrival order runs through Entry.newer). */
  protected head: Entry<T> | null = null;
  private tail: Entry<T> | null = null;
  private readonly positions = new Positions();
  private nextSeq = 0;
  private readonly freeEntries: Entry<T>[] = [];
  private readonly freeChains: Chain<T>[] = [];
  /** Bucket keys: tag * stride + source + 2, one per (source, tag) with ANY_SOURCE (-2) and ANY_TAG (-1) included. */
  private readonly stride: number;

  /**
   * A queue of a run of `ranks` ranks (sources are world ranks below `ranks`, or ANY_SOURCE);
   * `links` link slots per entry; indexed above `linearMax` entries.
   */
  constructor(
    readonly ranks: number,
    private readonly links: number,
    private readonly linearMax: number,
  ) {
    if (!Number.isInteger(ranks) || ranks < 1) throw new RangeError(`match queue: ranks=${ranks} must be a positive integer`);
    if (!Number.isInteger(linearMax) || linearMax < 0) throw new RangeError(`match queue: linearMax=${linearMax} must be an integer of 0 or more`);
    this.stride = ranks + 2;
  }

  /** The bucket key of (source, tag) (a small integer for small tags, so that Map lookups hash it as such). */
  protected key(source: number, tag: number): number {
    return tag * this.stride + source + 2;
  }

  /** The queue's items in arrival order (a copy). */
  items(): T[] {
    const out: T[] = [];
    for (let e = this.head; e !== null; e = e.newer) out.push(e.item!);
    return out;
  }

  /** Links `e` into its indexing lists. */
  protected abstract index(e: Entry<T>): void;

  /** Appends `item` at the end of arrival order, indexed if the queue is (or now becomes) indexed. */
  protected enter(item: T): void {
    const e = this.freeEntries.pop() ?? new Entry<T>(this.links);
    e.item = item;
    if (this.indexed) {
      if (this.nextSeq === this.positions.cap) this.renumber();
      e.seq = this.nextSeq++;
      this.positions.add(e.seq, 1);
      this.append(e);
      this.length++;
      this.index(e);
      return;
    }
    this.append(e);
    if (++this.length > this.linearMax) {
      this.indexed = true;
      this.renumber();
      for (let x = this.head; x !== null; x = x.newer) this.index(x);
    }
  }

  /** Entries in arrival order before `e` (indexed queue). */
  protected before(e: Entry<T>): number {
    return e === this.head ? 0 : this.positions.before(e.seq);
  }

  /** The list of `map` under `key`, made (from the pool) if absent. */
  protected chainOf(map: Map<number, Chain<T>>, key: number, link: number): Chain<T> {
    let c = map.get(key);
    if (c === undefined) {
      c = this.freeChains.pop() ?? new Chain<T>(link);
      c.link = link;
      c.home = map;
      c.key = key;
      map.set(key, c);
    }
    return c;
  }

  /** Takes `e` off list `c` (one of its indexing lists); a list left empty leaves its map. */
  protected unlinkFrom(c: Chain<T>, e: Entry<T>): void {
    if (c.unlink(e) && c.home !== null) {
      c.home.delete(c.key);
      c.home = null;
      this.freeChains.push(c);
    }
  }

  private append(e: Entry<T>): void {
    e.older = this.tail;
    e.newer = null;
    if (this.tail !== null) this.tail.newer = e;
    else this.head = e;
    this.tail = e;
  }

  /** Takes `e`, already off its indexing lists, out of arrival order and frees it; returns its item. */
  protected leave(e: Entry<T>): T {
    const o = e.older;
    const n = e.newer;
    if (o !== null) o.newer = n;
    else this.head = n;
    if (n !== null) n.older = o;
    else this.tail = o;
    e.older = e.newer = null;
    if (this.indexed) this.positions.add(e.seq, -1);
    const item = e.item!;
    e.item = null;
    this.freeEntries.push(e);
    // an empty queue scans again (its lists have all left their maps; every count in the tree is 0)
    if (--this.length === 0) {
      this.indexed = false;
      this.nextSeq = 0;
    }
    return item;
  }

  /** Numbers the entries 0 .. n-1 in order, with room for at least n more. */
  private renumber(): void {
    const n = this.length;
    let cap = this.positions.cap;
    if (cap < 2 * n || cap < MIN_CAP) cap = Math.max(MIN_CAP, 2 * n);
    else if (cap > 8 * n && cap > MIN_CAP) cap = Math.max(MIN_CAP, 2 * n);
    let s = 0;
    for (let e = this.head; e !== null; e = e.newer) e.seq = s++;
    this.nextSeq = n;
    this.positions.reset(cap, n);
  }
}

/** The envelope a posted receive matches on (world rank or ANY_SOURCE, tag or ANY_TAG, context). */
export interface ReceiveKey {
  readonly source: number;
  readonly tag: number;
  readonly ctx: number;
}

/** The envelope of an arrived message (world rank of its sender, tag, context). */
export interface MessageKey {
  readonly src: number;
  readonly tag: number;
  readonly ctx: number;
}

/** The posted receives of a rank, in the order posted; an arriving message takes the first that matches it. */
export class PostedQueue<T extends ReceiveKey> extends MatchQueue<T> {
  /** Buckets by context (kept once made: a run has few contexts), then by (source, tag) key, wildcards included; made once indexed. */
  private byCtx: Map<number, Map<number, Chain<T>>> | null = null;

  /** The posted receives of a rank of a run of `ranks` ranks (indexed above `linearMax` receives). */
  constructor(ranks: number, linearMax = LINEAR_MAX) {
    super(ranks, 1, linearMax);
  }

  /** Queues receive `p` (posted last). */
  push(p: T): void {
    if (p.source !== ANY_SOURCE && !(p.source >= 0 && p.source < this.ranks)) throw new RangeError(`posted queue: source=${p.source} must be a world rank below ${this.ranks} or ANY_SOURCE`);
    this.enter(p);
  }

  protected index(e: Entry<T>): void {
    const p = e.item!;
    this.byCtx ??= new Map();
    let m = this.byCtx.get(p.ctx);
    if (m === undefined) this.byCtx.set(p.ctx, (m = new Map()));
    this.chainOf(m, this.key(p.source, p.tag), KEY).append(e);
  }

  /**
   * Takes the first receive, in the order posted, that a message (src, tag, ctx) matches, or
   * null; `searched` is then the number of receives posted before it (all of them when none).
   */
  take(src: number, tag: number, ctx: number): T | null {
    if (!this.indexed) {
      let i = 0;
      for (let e = this.head; e !== null; e = e.newer, i++) {
        const p = e.item!;
        if (p.ctx === ctx && (p.source === src || p.source === ANY_SOURCE) && (p.tag === tag || p.tag === ANY_TAG)) {
          this.searched = i;
          return this.leave(e);
        }
      }
      this.searched = i;
      return null;
    }
    const m = this.byCtx!.get(ctx);
    let best: Entry<T> | null = null;
    if (m !== undefined) {
      best = earlier(best, m.get(this.key(src, tag)));
      best = earlier(best, m.get(this.key(ANY_SOURCE, tag)));
      best = earlier(best, m.get(this.key(src, ANY_TAG)));
      best = earlier(best, m.get(this.key(ANY_SOURCE, ANY_TAG)));
    }
    if (best === null) {
      this.searched = this.length;
      return null;
    }
    this.searched = this.before(best);
    return this.drop(best);
  }

  /** Takes receive `p` off the queue (cancelled or failed); false when it is not queued. */
  remove(p: T): boolean {
    if (!this.indexed) {
      for (let e = this.head; e !== null; e = e.newer) {
        if (e.item === p) {
          this.leave(e);
          return true;
        }
      }
      return false;
    }
    const c = this.byCtx!.get(p.ctx)?.get(this.key(p.source, p.tag));
    if (c === undefined) return false;
    for (let e = c.head; e !== null; e = e.next[KEY]!) {
      if (e.item === p) {
        this.drop(e);
        return true;
      }
    }
    return false;
  }

  /** Takes entry `e` of the indexed queue off its bucket and the queue. */
  private drop(e: Entry<T>): T {
    const p = e.item!;
    this.unlinkFrom(this.byCtx!.get(p.ctx)!.get(this.key(p.source, p.tag))!, e);
    return this.leave(e);
  }
}

/** Of entry `best` and the head of `c`, the one that arrived first (null when both are absent). */
function earlier<T>(best: Entry<T> | null, c: Chain<T> | undefined): Entry<T> | null {
  if (c === undefined) return best;
  const h = c.head!;
  return best === null || h.seq < best.seq ? h : best;
}

/** The lists of one context in the unexpected queue. */
class ContextLists<T> {
  readonly byKey = new Map<number, Chain<T>>();
  readonly bySrc = new Map<number, Chain<T>>();
  readonly byTag = new Map<number, Chain<T>>();
  readonly all = new Chain<T>(CTX);
}

/** The unexpected messages of a rank, in arrival order; a receive takes the first it matches. */
export class UnexpectedQueue<T extends MessageKey> extends MatchQueue<T> {
  /** Lists by context (kept once made: a run has few contexts); made once indexed. */
  private byCtx: Map<number, ContextLists<T>> | null = null;

  /** The unexpected messages of a rank of a run of `ranks` ranks (indexed above `linearMax` messages). */
  constructor(ranks: number, linearMax = LINEAR_MAX) {
    super(ranks, 4, linearMax);
  }

  /** Queues message `m` (arrived last). */
  push(m: T): void {
    if (!(m.src >= 0 && m.src < this.ranks)) throw new RangeError(`unexpected queue: src=${m.src} must be a world rank below ${this.ranks}`);
    this.enter(m);
  }

  protected index(e: Entry<T>): void {
    const m = e.item!;
    this.byCtx ??= new Map();
    let l = this.byCtx.get(m.ctx);
    if (l === undefined) this.byCtx.set(m.ctx, (l = new ContextLists<T>()));
    this.chainOf(l.byKey, this.key(m.src, m.tag), KEY).append(e);
    this.chainOf(l.bySrc, m.src, SRC).append(e);
    this.chainOf(l.byTag, m.tag, TAG).append(e);
    l.all.append(e);
  }

  /** The first message, in arrival order, that a receive (source, tag, ctx) matches, or null; it stays queued. */
  find(source: number, tag: number, ctx: number): T | null {
    return this.first(source, tag, ctx)?.item ?? null;
  }

  /**
   * Takes the first message, in arrival order, that a receive (source, tag, ctx) matches, or
   * null; `searched` is then the number of messages that arrived before it (all of them when none).
   */
  take(source: number, tag: number, ctx: number): T | null {
    const e = this.first(source, tag, ctx);
    if (e === null) {
      this.searched = this.length;
      return null;
    }
    if (!this.indexed) return this.leave(e);
    this.searched = this.before(e);
    return this.drop(e);
  }

  /** Takes message `m` off the queue (its send was cancelled); false when it is not queued. */
  remove(m: T): boolean {
    if (!this.indexed) {
      for (let e = this.head; e !== null; e = e.newer) {
        if (e.item === m) {
          this.leave(e);
          return true;
        }
      }
      return false;
    }
    const c = this.byCtx!.get(m.ctx)?.byKey.get(this.key(m.src, m.tag));
    if (c === undefined) return false;
    for (let e = c.head; e !== null; e = e.next[KEY]!) {
      if (e.item === m) {
        this.drop(e);
        return true;
      }
    }
    return false;
  }

  /** The first entry a receive (source, tag, ctx) matches; a scan of an unindexed queue sets `searched`. */
  private first(source: number, tag: number, ctx: number): Entry<T> | null {
    if (!this.indexed) {
      let i = 0;
      for (let e = this.head; e !== null; e = e.newer, i++) {
        const m = e.item!;
        if (m.ctx === ctx && (source === ANY_SOURCE || source === m.src) && (tag === ANY_TAG || tag === m.tag)) {
          this.searched = i;
          return e;
        }
      }
      return null;
    }
    const l = this.byCtx!.get(ctx);
    if (l === undefined) return null;
    let c: Chain<T> | undefined;
    if (source !== ANY_SOURCE) c = tag !== ANY_TAG ? l.byKey.get(this.key(source, tag)) : l.bySrc.get(source);
    else c = tag !== ANY_TAG ? l.byTag.get(tag) : l.all;
    return c === undefined ? null : c.head;
  }

  /** Takes entry `e` of the indexed queue off its lists and the queue. */
  private drop(e: Entry<T>): T {
    const m = e.item!;
    const l = this.byCtx!.get(m.ctx)!;
    this.unlinkFrom(l.byKey.get(this.key(m.src, m.tag))!, e);
    this.unlinkFrom(l.bySrc.get(m.src)!, e);
    this.unlinkFrom(l.byTag.get(m.tag)!, e);
    l.all.unlink(e);
    return this.leave(e);
  }
}
