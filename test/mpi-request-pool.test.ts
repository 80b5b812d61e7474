/**
 * Pooled requests of collectives (RequestPool): a collective's internal sends and receives that
 * its schedule alone sees are reused from message to message, and none of them ever reaches the
 * program or is completed while back in its pool. Real data on xe6, over the network and within
 * a node, with user requests before, around and after the collectives.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Request } from '../runtime/mpi/request.ts';
import { RequestPool } from '../runtime/mpi/request-pool.ts';
import { simulate } from '../runtime/simulate.ts';

afterEach(() => {
  vi.restoreAllMocks();
});

/** Watches every request the pools hand out and take back, and every completion of one while pooled. */
function watchPools(): { handed: Set<Request>; recycled: Set<Request>; misuse: string[]; takes: { n: number } } {
  const handed = new Set<Request>();
  const recycled = new Set<Request>();
  const misuse: string[] = [];
  const takes = { n: 0 };
  const take = RequestPool.prototype.take;
  vi.spyOn(RequestPool.prototype, 'take').mockImplementation(function (this: RequestPool, what: string) {
    const r = take.call(this, what);
    if (r.inPool) misuse.push(`handed out still marked pooled: ${what}`);
    handed.add(r);
    takes.n++;
    return r;
  });
  const recycle = Request.prototype.recycle;
  vi.spyOn(Request.prototype, 'recycle').mockImplementation(function (this: Request) {
    // the library still refers to a request with a waiter or a canceller (a send whose message no receive has matched)
    const held = this.waiter !== null || this.canceller !== null || this.cancelTarget !== null;
    const what = this.what;
    recycle.call(this);
    if (!this.inPool) return;
    if (held) misuse.push(`recycled while the library still refers to it: ${what}`);
    recycled.add(this);
  });
  const complete = Request.prototype.complete;
  vi.spyOn(Request.prototype, 'complete').mockImplementation(function (this: Request, ...args: Parameters<Request['complete']>) {
    if (this.inPool) misuse.push(`completed while in its pool: ${this.what}`);
    complete.apply(this, args);
  });
  const fail = Request.prototype.fail;
  vi.spyOn(Request.prototype, 'fail').mockImplementation(function (this: Request, err: Error) {
    if (this.inPool) misuse.push(`failed while in its pool: ${this.what}`);
    fail.call(this, err);
  });
  return { handed, recycled, misuse, takes };
}

const placements = [
  { name: 'over the network, 8 ranks', nodes: 8, ppn: 1 },
  { name: 'over the network, 6 ranks (two fold in and out)', nodes: 6, ppn: 1 },
  { name: 'two ranks per node, 8 ranks', nodes: 4, ppn: 2 },
] as const;

describe('pooled collective requests', () => {
  it.each(placements)('recursive-doubling allreduces reuse their requests, and user requests are never pooled ($name)', async ({ nodes, ppn }) => {
    const w = watchPools();
    const ITER = 20;
    const r = await simulate({
      machine: 'xe6',
      nodes,
      ppn,
      program: async ({ mpi }) => {
        const n = mpi.size;
        const me = mpi.rank;
        const right = (me + 1) % n;
        const left = (me - 1 + n) % n;
        // a user receive posted before the collectives and completed after them
        const early = new Int32Array(3);
        const earlyReq = mpi.irecv(early, left, 77);
        const users: Request[] = [earlyReq];
        const sums: number[] = [];
        for (let i = 0; i < ITER; i++) {
          const out = new Float64Array(2);
          await mpi.allreduce(Float64Array.of(me + i, me * i), out, mpi.SUM, { algorithm: 'recursiveDoubling' });
          sums.push(out[0]!, out[1]!);
          // user point-to-point traffic between collectives: their requests are the program's
          const got = new Int32Array(1);
          const rr = mpi.irecv(got, left, i);
          const sr = mpi.isend(Int32Array.of(1000 * me + i), right, i);
          users.push(rr, sr);
          await mpi.waitAll([rr, sr]);
          sums.push(got[0]!);
        }
        await mpi.send(Int32Array.of(me, 2 * me, 3 * me), right, 77);
        const st = await earlyReq.wait();
        // a user send made after every collective can still be cancelled (its request is its own)
        const late = mpi.issend(Int32Array.of(5), right, 999);
        const cancelled = mpi.cancel(late);
        await late.wait();
        return { sums, early: [...early], earlyStatus: { source: st.source, tag: st.tag, count: st.count }, users, cancelled, lateCancelled: late.status?.cancelled === true };
      },
    });
    const n = nodes * ppn;
    const total = (k: number): number => (n * (n - 1)) / 2 + n * k;
    for (let rank = 0; rank < n; rank++) {
      const x = r.rankResults[rank]!;
      const left = (rank - 1 + n) % n;
      for (let i = 0; i < ITER; i++) {
        expect(x.sums[3 * i]).toBe(total(i));
        expect(x.sums[3 * i + 1]).toBe(((n * (n - 1)) / 2) * i);
        expect(x.sums[3 * i + 2]).toBe(1000 * left + i);
      }
      // the receive posted before the collectives got its own message and status
      expect(x.early).toEqual([left, 2 * left, 3 * left]);
      expect(x.earlyStatus).toEqual({ source: left, tag: 77, count: 3 });
      expect(x.cancelled).toBe(true);
      expect(x.lateCancelled).toBe(true);
      for (const u of x.users) {
        expect(u.pool).toBeNull();
        expect(w.handed.has(u)).toBe(false);
        expect(u.inPool).toBe(false);
      }
    }
    expect(w.misuse).toEqual([]);
    // requests were taken back and handed out again: far fewer objects than messages
    expect(w.recycled.size).toBeGreaterThan(0);
    expect(w.takes.n).toBeGreaterThan(ITER * n);
    expect(w.handed.size).toBeLessThan(w.takes.n / 4);
  });

  it('a request made outside a pool, or one something still refers to, is never recycled', async () => {
    const r = await simulate({
      machine: 'xe6',
      nodes: 2,
      program: async ({ mpi }) => {
        if (mpi.rank === 1) {
          await mpi.send(Int32Array.of(7), 0, 1);
          return null;
        }
        const got = new Int32Array(1);
        const req = mpi.irecv(got, 1, 1);
        await req.wait();
        req.recycle();
        return { pool: req.pool, inPool: req.inPool, got: got[0], status: req.status?.source };
      },
    });
    expect(r.result).toEqual({ pool: null, inPool: false, got: 7, status: 1 });
  });
});
