import { describe, expect, it } from 'vitest';
import { Prng } from '../fabric/engine/prng.ts';
import { LINEAR_MAX, PostedQueue, UnexpectedQueue } from '../runtime/mpi/match-queue.ts';
import { ANY_SOURCE, ANY_TAG, matches, Msg } from '../runtime/mpi/message.ts';

/**
 * The matching queues against the linear scan MPICH does (and phit did before them), with MPI's
 * match rule (`matches`, message.ts): the same receive or message is found, and the same number
 * of entries is counted before it, in every step of long seeded random runs of posts, arrivals,
 * cancels and probes with wildcards; queues that scan while short (LINEAR_MAX), always index, or
 * never index.
 */

interface Recv {
  readonly source: number;
  readonly tag: number;
  readonly ctx: number;
  readonly id: number;
}
type Message = Msg;

let nextId = 0;
/** A message of the library (only its envelope matters here). */
const message = (src: number, tag: number, ctx: number): Message => new Msg('eager', src, tag, ctx, nextId++, 0, -1, -1, false);
const takes = (r: Recv, m: Message): boolean => matches(r, m);

/** The reference: first match by a linear scan, and its index (the queue's length when none). */
function scan<T>(q: T[], hit: (x: T) => boolean): { index: number; item: T | null } {
  let i = 0;
  while (i < q.length && !hit(q[i]!)) i++;
  return { index: i, item: i < q.length ? q[i]! : null };
}

/** Fails, naming the step, unless the queue found `want` after `wantSearched` entries. */
function same<T>(got: T | null, want: T | null, searched: number, wantSearched: number, step: number): void {
  if (got !== want || searched !== wantSearched) {
    expect.fail(`step ${step}: found ${JSON.stringify(got)} after ${searched} entries, the scan ${JSON.stringify(want)} after ${wantSearched}`);
  }
}

interface Mix {
  readonly ranks: number;
  readonly tags: number;
  readonly ctxs: number;
  /** Chance that a receive's source (tag) is a wildcard. */
  readonly anySource: number;
  readonly anyTag: number;
}

/**
 * Runs `steps` random operations on both implementations and returns counts of what happened
 * (so that a test can check that the run exercised deep queues, matches at depth and wildcards).
 */
function race(seed: number, steps: number, mix: Mix, linearMax = LINEAR_MAX): { matchedDeep: number; maxPosted: number; maxUnexpected: number; wildTakes: number; cancels: number; drained: number } {
  const rng = new Prng(seed);
  const posted = new PostedQueue<Recv>(mix.ranks, linearMax);
  const unexpected = new UnexpectedQueue<Message>(mix.ranks, linearMax);
  const refPosted: Recv[] = [];
  const refUnexpected: Message[] = [];
  let id = 0;
  let matchedDeep = 0;
  let maxPosted = 0;
  let maxUnexpected = 0;
  let wildTakes = 0;
  let cancels = 0;
  // times a queue longer than LINEAR_MAX emptied (it then scans again)
  let drained = 0;
  let deepPosted = false;
  let deepUnexpected = false;
  // phases of 500 steps: mostly arrivals (the unexpected queue grows deep, the posted one drains),
  // mostly posts (the reverse), or both alike
  let arrivals = 0.4;
  for (let step = 0; step < steps; step++) {
    if (step % 500 === 0) arrivals = [0.4, 0.7, 0.1][rng.int(3)]!;
    const u = rng.next();
    const op = u < 0.8 ? (u < arrivals ? 0 : 0.5) : u;
    const ctx = rng.int(mix.ctxs);
    const tag = rng.int(mix.tags);
    const src = rng.int(mix.ranks);
    if (op < 0.4) {
      // a message arrives: the first posted receive that takes it, else it is unexpected
      const m = message(src, tag, ctx);
      const want = scan(refPosted, (r) => takes(r, m));
      same(posted.take(m.src, m.tag, m.ctx), want.item, posted.searched, want.index, step);
      if (want.item) {
        refPosted.splice(want.index, 1);
        if (want.index > 10) matchedDeep++;
      } else {
        refUnexpected.push(m);
        unexpected.push(m);
      }
    } else if (op < 0.8) {
      // a receive is posted: the first unexpected message it takes, else it is queued
      const r: Recv = { source: rng.next() < mix.anySource ? ANY_SOURCE : src, tag: rng.next() < mix.anyTag ? ANY_TAG : tag, ctx, id: id++ };
      const want = scan(refUnexpected, (m) => takes(r, m));
      same(unexpected.take(r.source, r.tag, r.ctx), want.item, unexpected.searched, want.index, step);
      if (want.item) {
        refUnexpected.splice(want.index, 1);
        if (want.index > 10) matchedDeep++;
        if (r.source === ANY_SOURCE || r.tag === ANY_TAG) wildTakes++;
      } else {
        refPosted.push(r);
        posted.push(r);
      }
    } else if (op < 0.87) {
      // a probe looks without taking (MPI_Iprobe)
      const source = rng.next() < mix.anySource ? ANY_SOURCE : src;
      const t = rng.next() < mix.anyTag ? ANY_TAG : tag;
      const probe: Recv = { source, tag: t, ctx, id: -1 };
      const want = scan(refUnexpected, (m) => takes(probe, m));
      same(unexpected.find(source, t, ctx), want.item, 0, 0, step);
    } else if (op < 0.91) {
      // a matched probe takes (MPI_Improbe)
      const source = rng.next() < mix.anySource ? ANY_SOURCE : src;
      const probe: Recv = { source, tag: ANY_TAG, ctx, id: -1 };
      const want = scan(refUnexpected, (m) => takes(probe, m));
      same(unexpected.take(source, ANY_TAG, ctx), want.item, unexpected.searched, want.index, step);
      if (want.item) refUnexpected.splice(want.index, 1);
    } else if (op < 0.955) {
      // a posted receive is cancelled (or one already matched: nothing to remove)
      if (refPosted.length > 0 && rng.next() < 0.8) {
        const k = rng.int(refPosted.length);
        const r = refPosted[k]!;
        refPosted.splice(k, 1);
        expect(posted.remove(r)).toBe(true);
        expect(posted.remove(r)).toBe(false);
        cancels++;
      } else expect(posted.remove({ source: src, tag, ctx, id: id++ })).toBe(false);
    } else {
      // an unexpected message's send is cancelled
      if (refUnexpected.length > 0 && rng.next() < 0.8) {
        const k = rng.int(refUnexpected.length);
        const m = refUnexpected[k]!;
        refUnexpected.splice(k, 1);
        expect(unexpected.remove(m)).toBe(true);
        expect(unexpected.remove(m)).toBe(false);
        cancels++;
      } else expect(unexpected.remove(message(src, tag, ctx))).toBe(false);
    }
    if (posted.length !== refPosted.length || unexpected.length !== refUnexpected.length) {
      expect.fail(`step ${step}: queue lengths ${posted.length} and ${unexpected.length}, the scan's ${refPosted.length} and ${refUnexpected.length}`);
    }
    if (refPosted.length > LINEAR_MAX) deepPosted = true;
    else if (refPosted.length === 0 && deepPosted) {
      deepPosted = false;
      drained++;
    }
    if (refUnexpected.length > LINEAR_MAX) deepUnexpected = true;
    else if (refUnexpected.length === 0 && deepUnexpected) {
      deepUnexpected = false;
      drained++;
    }
    maxPosted = Math.max(maxPosted, refPosted.length);
    maxUnexpected = Math.max(maxUnexpected, refUnexpected.length);
    // the walks in arrival order, now and then (they copy the queue)
    if (step % 97 === 0) {
      expect(posted.items()).toEqual(refPosted);
      expect(unexpected.items()).toEqual(refUnexpected);
    }
  }
  return { matchedDeep, maxPosted, maxUnexpected, wildTakes, cancels, drained };
}

describe('MPI matching queues against a linear scan', () => {
  it('find the same receive and message, and count the same entries before it, with wildcards, cancels and probes', () => {
    const r = race(20, 20_000, { ranks: 16, tags: 6, ctxs: 2, anySource: 0.15, anyTag: 0.15 });

    // the run went deep, matched far down the queues and used the wildcard lists
    expect(r.maxPosted).toBeGreaterThan(500);
    expect(r.maxUnexpected).toBeGreaterThan(500);
    expect(r.matchedDeep).toBeGreaterThan(2000);
    expect(r.wildTakes).toBeGreaterThan(500);
    expect(r.cancels).toBeGreaterThan(500);
    // and went from scanning to indexed and back many times
    expect(r.drained).toBeGreaterThan(5);
  });

  it('agree when always indexed and when never indexed', () => {
    const mix = { ranks: 16, tags: 6, ctxs: 2, anySource: 0.15, anyTag: 0.15 };
    race(24, 10_000, mix, 0);
    race(25, 5_000, mix, Number.MAX_SAFE_INTEGER);
  });

  it('agree with many sources and tags (sparse buckets) and with wildcards only', () => {
    race(21, 10_000, { ranks: 4096, tags: 1000, ctxs: 3, anySource: 0.05, anyTag: 0.05 });
    race(22, 10_000, { ranks: 2, tags: 2, ctxs: 1, anySource: 0.9, anyTag: 0.9 }, 0);
  });

  it('agree through the renumbering of a queue that never empties', () => {
    // one receive stays posted at the head while thousands pass behind it
    const posted = new PostedQueue<Recv>(8);
    const ref: Recv[] = [];
    const head: Recv = { source: 7, tag: 99, ctx: 0, id: -1 };
    posted.push(head);
    ref.push(head);
    const rng = new Prng(23);
    for (let k = 0; k < 5000; k++) {
      const r: Recv = { source: rng.int(4), tag: rng.int(3), ctx: 0, id: k };
      posted.push(r);
      ref.push(r);
      if (ref.length > 40) {
        const m = message(rng.int(4), rng.int(3), 0);
        const want = scan(ref, (x) => takes(x, m));
        expect(posted.take(m.src, m.tag, m.ctx)).toBe(want.item);
        expect(posted.searched).toBe(want.index);
        if (want.item) ref.splice(want.index, 1);
      }
    }
    expect(posted.items()).toEqual(ref);
    expect(posted.take(7, 99, 0)).toBe(head);
    expect(posted.searched).toBe(0);
  });

  it('reject a source that is no world rank, naming it', () => {
    const posted = new PostedQueue<Recv>(4);
    expect(() => posted.push({ source: 4, tag: 0, ctx: 0, id: 0 })).toThrow(/source=4 must be a world rank below 4 or ANY_SOURCE/);
    const unexpected = new UnexpectedQueue<Message>(4);
    expect(() => unexpected.push(message(-2, 0, 0))).toThrow(/src=-2 must be a world rank below 4/);
    expect(() => new PostedQueue<Recv>(0)).toThrow(/ranks=0 must be a positive integer/);
    expect(() => new UnexpectedQueue<Message>(4, -1)).toThrow(/linearMax=-1 must be an integer of 0 or more/);
  });
});
