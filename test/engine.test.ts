import { describe, expect, it } from 'vitest';
import { DeadlockError, Engine, RankError, type EventHandler, type Thread } from '../fabric/engine/engine.ts';
import { Prng } from '../fabric/engine/prng.ts';

/** Runs `engine.run()` and returns what it rejected with (fails the test if it resolved). */
async function rejection(p: Promise<void>): Promise<unknown> {
  try {
    await p;
  } catch (e) {
    return e;
  }
  throw new Error('expected the run to reject, but it resolved');
}

describe('Engine threads and simulated time', () => {
  it('carries every event kind from 0 to 255 to its handler and refuses kinds outside that range', () => {
    const engine = new Engine(1);
    const seen: number[] = [];
    const id = engine.register({ onEvent: (kind, arg) => seen.push(kind * 1000 + arg) });
    for (let k = 0; k < 256; k++) engine.at(1000 - k, id, k, 7);
    engine.drain();
    expect(seen).toEqual(Array.from({ length: 256 }, (_, i) => (255 - i) * 1000 + 7));
    for (const bad of [256, -1, 1.5]) expect(() => engine.at(10, id, bad, 0)).toThrow(/event kind/);
  });

  it('sleep advances engine.now by exactly the slept time, cumulatively', async () => {
    const engine = new Engine(1);
    const seen: number[] = [];
    engine.spawn('rank 0', async (t) => {
      seen.push(engine.now);
      await engine.sleep(t, 1000);
      seen.push(engine.now);
      await engine.sleep(t, 250);
      seen.push(engine.now);
      await engine.sleep(t, 0);
      seen.push(engine.now);
      await engine.sleep(t, 1_000_000);
      seen.push(engine.now);
    });
    await engine.run();
    expect(seen).toEqual([0, 1000, 1250, 1250, 1_001_250]);
    expect(engine.now).toBe(1_001_250);
  });

  it('rounds fractional sleeps and treats negative sleeps as zero', async () => {
    const engine = new Engine(1);
    const seen: number[] = [];
    engine.spawn('r', async (t) => {
      await engine.sleep(t, 10.6);
      seen.push(engine.now);
      await engine.sleep(t, -50);
      seen.push(engine.now);
    });
    await engine.run();
    expect(seen).toEqual([11, 11]);
  });

  it('interleaves threads by simulated time, not by program order', async () => {
    const engine = new Engine(1);
    const log: string[] = [];
    engine.spawn('a', async (t) => {
      for (let i = 0; i < 3; i++) {
        await engine.sleep(t, 300);
        log.push(`a@${engine.now}`);
      }
    });
    engine.spawn('b', async (t) => {
      for (let i = 0; i < 2; i++) {
        await engine.sleep(t, 500);
        log.push(`b@${engine.now}`);
      }
    });
    await engine.run();
    expect(log).toEqual(['a@300', 'b@500', 'a@600', 'a@900', 'b@1000']);
    expect(engine.now).toBe(1000);
  });

  it('threads waking at the same time run in the order their wake-ups were scheduled', async () => {
    const scenario = async (): Promise<string[]> => {
      const engine = new Engine(7);
      const log: string[] = [];
      // c sleeps first, then a, then b (b's wake-up is scheduled last: at t=50 for t=100)
      engine.spawn('a', async (t) => {
        await engine.sleep(t, 0);
        await engine.sleep(t, 100);
        log.push(`a@${engine.now}`);
      });
      engine.spawn('b', async (t) => {
        await engine.sleep(t, 50);
        await engine.sleep(t, 50);
        log.push(`b@${engine.now}`);
      });
      engine.spawn('c', async (t) => {
        await engine.sleep(t, 100);
        log.push(`c@${engine.now}`);
      });
      await engine.run();
      return log;
    };
    const first = await scenario();
    expect(first).toEqual(['c@100', 'a@100', 'b@100']);
    // and the same program gives the same order every time
    for (let i = 0; i < 5; i++) expect(await scenario()).toEqual(first);
  });

  it('spawn order decides the order of equal-time wake-ups (reversing spawns reverses the order)', async () => {
    const order = async (labels: string[]): Promise<string[]> => {
      const engine = new Engine(1);
      const log: string[] = [];
      for (const l of labels) {
        engine.spawn(l, async (t) => {
          await engine.sleep(t, 10);
          log.push(l);
        });
      }
      await engine.run();
      return log;
    };
    expect(await order(['x', 'y', 'z'])).toEqual(['x', 'y', 'z']);
    expect(await order(['z', 'y', 'x'])).toEqual(['z', 'y', 'x']);
  });

  it('suspend blocks a thread until an event handler wakes it at that event time', async () => {
    const engine = new Engine(1);
    let thread: Thread | null = null;
    const waker: EventHandler = {
      onEvent(kind, arg) {
        expect(kind).toBe(5);
        expect(arg).toBe(9);
        engine.wake(thread!);
      },
    };
    const id = engine.register(waker);
    const log: string[] = [];
    thread = engine.spawn('rank 0', async (t) => {
      engine.at(700, id, 5, 9);
      log.push(`suspend@${engine.now}`);
      await engine.suspend(t, 'waiting for the waker');
      log.push(`woke@${engine.now}`);
      engine.at(engine.now + 300, id, 5, 9);
      await engine.suspend(t, 'second wait');
      log.push(`woke@${engine.now}`);
    });
    expect(thread.done).toBe(false);
    await engine.run();
    expect(log).toEqual(['suspend@0', 'woke@700', 'woke@1000']);
    expect(thread.done).toBe(true);
    expect(thread.blocked).toBe(false);
  });

  it('a thread blocked in suspend reports blocked = true while it waits', async () => {
    const engine = new Engine(1);
    const observed: boolean[] = [];
    let a: Thread | null = null;
    a = engine.spawn('a', async (t) => {
      await engine.suspend(t, 'wait for b');
    });
    engine.spawn('b', async (t) => {
      await engine.sleep(t, 10);
      observed.push(a!.blocked);
      engine.wake(a!); // a thread may also wake another thread
      observed.push(a!.blocked);
    });
    await engine.run();
    expect(observed).toEqual([true, false]);
    expect(a.done).toBe(true);
  });

  it('suspend from a thread that is not running throws', async () => {
    const engine = new Engine(1);
    const t = engine.spawn('never started', async () => {});
    expect(() => engine.suspend(t, 'x')).toThrow(/never started: x began while another blocking call of this rank is still pending/);
  });

  it('at() clamps events scheduled in the past to the current time', async () => {
    const engine = new Engine(1);
    const times: number[] = [];
    const h = engine.register({ onEvent: () => times.push(engine.now) });
    engine.spawn('r', async (t) => {
      await engine.sleep(t, 500);
      engine.at(100, h, 0, 0);
      await engine.sleep(t, 10);
    });
    await engine.run();
    expect(times).toEqual([500]);
  });

  it('drain() runs the event loop alone, up to a time limit', () => {
    const engine = new Engine(1);
    const times: number[] = [];
    const h = engine.register({ onEvent: (_k, arg) => times.push(arg) });
    for (const t of [50, 10, 30, 70]) engine.at(t, h, 0, t);
    engine.drain(40);
    expect(times).toEqual([10, 30]);
    expect(engine.now).toBe(30);
    expect(engine.pending).toBe(2);
    engine.drain();
    expect(times).toEqual([10, 30, 50, 70]);
    expect(engine.events).toBe(4);
  });
});

describe('Engine failure reporting', () => {
  it('rejects with DeadlockError listing every blocked thread and its wait reason', async () => {
    const engine = new Engine(1);
    engine.spawn('rank 0', async (t) => {
      await engine.sleep(t, 5);
    });
    engine.spawn('rank 1', async (t) => {
      await engine.sleep(t, 2_000_000);
      await engine.suspend(t, 'send(dest=2, tag=0)');
    });
    engine.spawn('rank 2', async (t) => {
      await engine.suspend(t, () => 'barrier (lazy reason)');
    });
    engine.spawn('rank 3', async (t) => {
      await engine.suspend(t, 'recv(source=7, tag=1)');
    });
    const err = await rejection(engine.run());
    expect(err).toBeInstanceOf(DeadlockError);
    const d = err as DeadlockError;
    expect(d.name).toBe('DeadlockError');
    expect(d.message).toContain('rank 1: send(dest=2, tag=0)');
    expect(d.message).toContain('rank 2: barrier (lazy reason)');
    expect(d.message).toContain('rank 3: recv(source=7, tag=1)');
    expect(d.message).not.toContain('rank 0');
    expect(d.message).toContain('3 rank(s) are blocked');
    expect(d.message).toContain('deadlock at 2.000 us');
    expect(d.blocked).toEqual(['rank 1: send(dest=2, tag=0)', 'rank 2: barrier (lazy reason)', 'rank 3: recv(source=7, tag=1)']);
    expect(d.timePs).toBe(2_000_000);
  });

  it('a run whose threads all finish does not report a deadlock', async () => {
    const engine = new Engine(1);
    let other: Thread | null = null;
    other = engine.spawn('rank 0', async (t) => {
      await engine.suspend(t, 'recv');
    });
    engine.spawn('rank 1', async (t) => {
      await engine.sleep(t, 100);
      engine.wake(other!);
    });
    await expect(engine.run()).resolves.toBeUndefined();
  });

  it('a thread that throws makes run() reject with RankError naming the rank and the time', async () => {
    const engine = new Engine(1);
    const cause = new Error('boom: bad buffer');
    engine.spawn('rank 0', async (t) => {
      await engine.sleep(t, 10_000_000);
    });
    engine.spawn('rank 1', async (t) => {
      await engine.sleep(t, 3_000_000);
      throw cause;
    });
    engine.spawn('rank 2', async (t) => {
      await engine.suspend(t, 'recv(source=1, tag=0)'); // would deadlock; the failure wins
    });
    const err = await rejection(engine.run());
    expect(err).toBeInstanceOf(RankError);
    const r = err as RankError;
    expect(r.name).toBe('RankError');
    expect(r.rank).toBe(1);
    expect(r.timePs).toBe(3_000_000);
    expect(r.error).toBe(cause);
    expect(r.message).toContain('rank 1 failed at 3.000 us');
    expect(r.message).toContain('boom: bad buffer');
    // the run stopped when rank 1 failed: rank 0's wake-up at 10 us never ran
    expect(engine.now).toBe(3_000_000);
  });

  it('a thread that throws before its first wait is reported too', async () => {
    const engine = new Engine(1);
    engine.spawn('rank 0', async (t) => {
      await engine.sleep(t, 5);
    });
    engine.spawn('rank 1', async () => {
      throw new Error('immediate');
    });
    const err = await rejection(engine.run());
    expect(err).toBeInstanceOf(RankError);
    expect((err as RankError).rank).toBe(1);
    expect((err as RankError).message).toMatch(/^rank 1 failed at 0\.000 us: immediate$/);
  });

  it('RankError reports non-Error throws as text', async () => {
    const engine = new Engine(1);
    engine.spawn('rank 0', async () => {
      throw 'plain string';
    });
    const err = await rejection(engine.run());
    expect(err).toBeInstanceOf(RankError);
    expect((err as RankError).message).toContain('plain string');
  });
});

describe('Prng', () => {
  const take = (p: Prng, n: number): number[] => Array.from({ length: n }, () => p.nextU32());

  it('gives the same sequence for the same seed', () => {
    for (const seed of [0, 1, 42, 0xdeadbeef]) expect(take(new Prng(seed), 200)).toEqual(take(new Prng(seed), 200));
  });

  it('gives different sequences for different seeds', () => {
    const seqs = [0, 1, 2, 3, 42, 1000].map((s) => take(new Prng(s), 16).join(','));
    expect(new Set(seqs).size).toBe(seqs.length);
  });

  it('produces uint32 values that are not constant, floats in [0, 1) and ints in [0, n)', () => {
    const p = new Prng(9);
    const u = take(p, 1000);
    expect(u.every((x) => Number.isInteger(x) && x >= 0 && x <= 0xffffffff)).toBe(true);
    expect(new Set(u).size).toBeGreaterThan(990);
    const counts = new Array<number>(10).fill(0);
    for (let i = 0; i < 10_000; i++) {
      const f = p.next();
      expect(f >= 0 && f < 1).toBe(true);
      const k = p.int(10);
      expect(Number.isInteger(k) && k >= 0 && k < 10).toBe(true);
      counts[k]!++;
    }
    // roughly uniform: each bucket within 20 % of 1000
    for (const c of counts) expect(Math.abs(c - 1000)).toBeLessThan(200);
  });

  it("the engine's rng is seeded by the engine seed", () => {
    const a = new Engine(5).rng;
    const b = new Engine(5).rng;
    const c = new Engine(6).rng;
    const sa = take(a, 20);
    expect(take(b, 20)).toEqual(sa);
    expect(take(c, 20)).not.toEqual(sa);
    expect(sa).toEqual(take(new Prng(5), 20));
  });
});
