import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { EventQueue, WHEEL_HORIZON_PS } from '../fabric/engine/event-queue.ts';

/** One event as the reference model keeps it; `id` is the push order. */
interface Ev {
  time: number;
  id: number;
  target: number;
  kind: number;
}

interface Popped {
  time: number;
  target: number;
  kind: number;
  arg: number;
}

function popAll(q: EventQueue): Popped[] {
  const out: Popped[] = [];
  while (q.pop()) out.push({ time: q.popTime, target: q.popTarget, kind: q.popKind, arg: q.popArg });
  return out;
}

/** Reference order: by time, then by push order. */
function byTimeThenPush(a: Ev, b: Ev): number {
  return a.time - b.time || a.id - b.id;
}

/** Small deterministic generator (mulberry32) for fixed-seed loops. */
function mulberry32(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) | 0;
    let t = Math.imul(s ^ (s >>> 15), 1 | s);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The queue under test beside a sorted reference: every pop is checked against the reference's. */
class Checked {
  readonly q = new EventQueue(16);
  private readonly pending: Ev[] = [];
  private id = 0;

  get size(): number {
    return this.pending.length;
  }

  push(time: number): void {
    const id = this.id++;
    this.q.push(time, id % 97, id % 13, id);
    this.pending.push({ time, id, target: id % 97, kind: id % 13 });
  }

  /** Pops one event from both and compares them; returns its time. */
  pop(): number {
    this.pending.sort(byTimeThenPush);
    const want = this.pending.shift()!;
    expect(this.q.peekTime()).toBe(want.time);
    expect(this.q.pop()).toBe(true);
    expect({ time: this.q.popTime, target: this.q.popTarget, kind: this.q.popKind, arg: this.q.popArg }).toEqual({
      time: want.time,
      target: want.target,
      kind: want.kind,
      arg: want.id,
    });
    expect(this.q.size).toBe(this.pending.length);
    return want.time;
  }

  /** Drains both and compares the orders. */
  finish(): void {
    this.pending.sort(byTimeThenPush);
    expect(popAll(this.q).map((e) => e.arg)).toEqual(this.pending.map((e) => e.id));
  }
}

describe('EventQueue', () => {
  it('is empty when new: size 0, peekTime Infinity, pop returns false', () => {
    const q = new EventQueue();
    expect(q.size).toBe(0);
    expect(q.peekTime()).toBe(Infinity);
    expect(q.pop()).toBe(false);
  });

  it('pops events in time order and carries target, kind and arg through', () => {
    const q = new EventQueue();
    q.push(30, 3, 33, 0.5);
    q.push(10, 1, 11, 1.5);
    q.push(20, 2, 22, 2.5);
    expect(q.size).toBe(3);
    expect(q.peekTime()).toBe(10);
    expect(popAll(q)).toEqual([
      { time: 10, target: 1, kind: 11, arg: 1.5 },
      { time: 20, target: 2, kind: 22, arg: 2.5 },
      { time: 30, target: 3, kind: 33, arg: 0.5 },
    ]);
    expect(q.size).toBe(0);
    expect(q.peekTime()).toBe(Infinity);
  });

  it('pops many same-time events in push order', () => {
    const q = new EventQueue(16);
    for (let i = 0; i < 500; i++) q.push(42, i % 7, i % 3, i);
    const out = popAll(q);
    expect(out.map((e) => e.arg)).toEqual(Array.from({ length: 500 }, (_, i) => i));
    expect(out.every((e) => e.time === 42)).toBe(true);
  });

  it('keeps push order among equal times mixed with other times (descending pushes)', () => {
    const q = new EventQueue(16);
    // times pushed in descending order, three events per time: a naive heap would reorder ties
    let id = 0;
    for (let t = 100; t >= 1; t--) for (let j = 0; j < 3; j++) q.push(t, 0, 0, id++);
    const out = popAll(q);
    expect(out).toHaveLength(300);
    for (let i = 0; i < out.length; i++) {
      const t = 1 + Math.floor(i / 3);
      const j = i % 3;
      expect(out[i]!.time).toBe(t);
      expect(out[i]!.arg).toBe((100 - t) * 3 + j);
    }
  });

  it('buckets of one and two events come out in (time, push) order, as a sorted bucket receiving pushes does', () => {
    // every ordered pair of times within and across the first buckets, equal times included
    const times = [0, 1, 7, 15, 16, 17, 31, 40];
    for (const a of times) {
      for (const b of times) {
        const c = new Checked();
        c.push(a);
        c.push(b);
        c.push(a + 3); // a third event in the bucket now being drained, after its first pop
        c.pop();
        c.push(Math.max(a, b)); // pushed into the sorted bucket being drained, or a later one
        c.finish();
      }
    }
  });

  it('grows past its initial capacity without losing or reordering events', () => {
    const q = new EventQueue(16); // the minimum capacity
    const ref: Ev[] = [];
    const rnd = mulberry32(12345);
    for (let i = 0; i < 5000; i++) {
      const time = Math.floor(rnd() * 64); // few distinct times: many ties
      q.push(time, i & 0xffff, i % 5, i);
      ref.push({ time, id: i, target: i & 0xffff, kind: i % 5 });
    }
    expect(q.size).toBe(5000);
    ref.sort(byTimeThenPush);
    const out = popAll(q);
    expect(out).toEqual(ref.map((e) => ({ time: e.time, target: e.target, kind: e.kind, arg: e.id })));
  });

  it('matches a sorted reference over a fixed-seed interleaving of pushes and pops (growing several times)', () => {
    for (const seed of [1, 2, 3, 99, 2024]) {
      const rnd = mulberry32(seed);
      const c = new Checked();
      let now = 0;
      for (let step = 0; step < 6000; step++) {
        // pushes dominate early (forcing growth), pops dominate late
        const pushBias = step < 3000 ? 0.75 : 0.35;
        if (rnd() < pushBias || c.size === 0) c.push(now + Math.floor(rnd() * 20));
        else now = c.pop(); // like the engine: never push into the past
      }
      c.finish();
    }
  });

  // The queue keeps near events in a timing wheel (WHEEL_HORIZON_PS ahead) and the rest in a heap: times from picoseconds to milliseconds, crowded buckets, long idle gaps and
  // pushes behind the bucket being drained must all come out in (time, push) order.
  it.each([
    { name: 'mixed scales', monotone: true },
    { name: 'mixed scales, pushes into the past too', monotone: false },
  ])('matches a sorted reference across both tiers ($name)', ({ monotone }) => {
    const scales = [0, 20, 300, 5_000, 200_000, 9_000_000, 2e9];
    for (const seed of [5, 6, 7]) {
      const rnd = mulberry32(seed);
      const c = new Checked();
      let now = 0;
      for (let step = 0; step < 8000; step++) {
        if (rnd() < 0.55 || c.size === 0) {
          const scale = scales[Math.floor(rnd() * scales.length)]!;
          const base = monotone || rnd() < 0.8 ? now : Math.max(0, now - Math.floor(rnd() * 3000));
          const time = base + Math.floor(rnd() * scale);
          // bursts of equal times crowd one bucket
          const burst = rnd() < 0.02 ? 40 : 1;
          for (let k = 0; k < burst; k++) c.push(time);
        } else {
          now = c.pop();
        }
      }
      c.finish();
    }
  });

  it('an event just beyond the wheel horizon does not overtake a near one in the bucket it would wrap onto', () => {
    const horizon = WHEEL_HORIZON_PS;
    for (const beyond of [horizon, horizon + 1, horizon + 300, 2 * horizon + 300]) {
      const q = new EventQueue();
      q.push(beyond, 1, 0, 1);
      const near = (beyond % horizon) + 1; // in the bucket `beyond` would wrap onto
      q.push(near, 2, 0, 2);
      q.push(horizon - 1, 3, 0, 3); // the last bucket inside the horizon
      expect(popAll(q).map((e) => e.time)).toEqual([near, horizon - 1, beyond]);
    }
  });

  it('property: any sequence of pushes and pops behaves like a stable sort by time (fast-check)', () => {
    const op = fc.oneof(
      { weight: 3, arbitrary: fc.record({ push: fc.constant(true as const), time: fc.integer({ min: 0, max: 12 }) }) },
      { weight: 1, arbitrary: fc.record({ push: fc.constant(false as const) }) },
    );
    fc.assert(
      fc.property(fc.array(op, { maxLength: 300 }), fc.integer({ min: 1, max: 40 }), (ops, cap) => {
        const q = new EventQueue(cap);
        const pending: Ev[] = [];
        let id = 0;
        for (const o of ops) {
          if (o.push) {
            q.push(o.time, 7, 1, id);
            pending.push({ time: o.time, id, target: 7, kind: 1 });
            id++;
          } else {
            pending.sort(byTimeThenPush);
            const want = pending.shift();
            const got = q.pop();
            if (want === undefined) {
              if (got) return false;
            } else if (!got || q.popTime !== want.time || q.popArg !== want.id) {
              return false;
            }
          }
          if (q.size !== pending.length) return false;
        }
        pending.sort(byTimeThenPush);
        const rest = popAll(q).map((e) => e.arg);
        return rest.length === pending.length && rest.every((a, i) => a === pending[i]!.id);
      }),
      { seed: 20240601, numRuns: 300 },
    );
  });
});
