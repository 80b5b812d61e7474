/**
 * Persistent point-to-point requests (sendInit, ssendInit, bsendInit, rsendInit, recvInit, start,
 * startAll, requestFree; the datatype forms of sendInit and recvInit): reuse over many starts with
 * real data on xe6 over the network and within a node, the inactive state between starts, the
 * request overhead paid once, cancel, and every error case.
 */
import { describe, expect, it } from 'vitest';
import { RankError } from '../fabric/engine/engine.ts';
import { BSEND_OVERHEAD, MpiError, type Request, type Status } from '../runtime/mpi/mpi.ts';
import type { RankContext } from '../runtime/rank.ts';
import { simulate } from '../runtime/simulate.ts';
import { rejection } from './helpers.ts';

const EMPTY = { source: -2, tag: -1, count: 0, bytes: 0 };

/** The value of element `i` that rank `r` sends in iteration `it`. */
const value = (r: number, it: number, i: number): number => r * 1e6 + it * 1e3 + i + 0.25;

/** A ring of 4 ranks over the network (4 nodes) and within a node (1 node, 4 ranks). */
const placements = [
  { name: 'over the network', nodes: 4, ppn: 1 },
  { name: 'within a node', nodes: 1, ppn: 4 },
] as const;

/** Float64 elements per message: eager (40 B) and rendezvous (16 KiB, above xe6's eager limit). */
const COUNTS = [5, 2048];

describe('a persistent ring exchange', () => {
  describe.each(placements)('$name', ({ nodes, ppn }) => {
    it.each(COUNTS)('%i doubles: 10 iterations of startAll + waitAll move each iteration\'s data; the requests stay, inactive between starts', async (n) => {
      const iters = 10;
      const r = await simulate({
        machine: 'xe6',
        nodes,
        ppn,
        program: async ({ mpi }) => {
          const next = (mpi.rank + 1) % mpi.size;
          const prev = (mpi.rank + mpi.size - 1) % mpi.size;
          const out = new Float64Array(n);
          const inb = new Float64Array(n);
          const reqs = [mpi.recvInit(inb, prev, 3), mpi.sendInit(out, next, 3)];
          const before = await mpi.waitAll(reqs);
          let bad = 0;
          const statuses: Status[] = [];
          for (let it = 0; it < iters; it++) {
            for (let i = 0; i < n; i++) out[i] = value(mpi.rank, it, i);
            mpi.startAll(reqs);
            const [st] = await mpi.waitAll(reqs);
            statuses.push(st!);
            for (let i = 0; i < n; i++) if (inb[i] !== value(prev, it, i)) bad++;
            // inactive again: a wait returns the empty status at once
            if ((await mpi.wait(reqs[0]!)).source !== -2 || reqs.some((q) => q.active)) bad++;
          }
          for (const q of reqs) mpi.requestFree(q);
          return { before, bad, statuses, prev };
        },
      });
      for (const g of r.rankResults) {
        expect(g.before).toEqual([EMPTY, EMPTY]);
        expect(g.bad).toBe(0);
        expect(g.statuses).toEqual(Array.from({ length: iters }, () => ({ source: g.prev, tag: 3, count: n, bytes: 8 * n })));
      }
    });
  });

  it('waitAny and testAny leave persistent requests in the list, and report UNDEFINED once every one is inactive', async () => {
    const r = await simulate({
      machine: 'xe6',
      nodes: 3,
      program: async ({ mpi }) => {
        if (mpi.rank !== 0) {
          for (let it = 0; it < 2; it++) await mpi.send(Int32Array.of(mpi.rank * 10 + it), 0, 0);
          return null;
        }
        const bufs = [new Int32Array(1), new Int32Array(1)];
        const reqs: (Request | null)[] = bufs.map((b, i) => mpi.recvInit(b, i + 1, 0));
        const kept = [...reqs];
        const got: number[] = [];
        for (let it = 0; it < 2; it++) {
          mpi.startAll(kept as Request[]);
          for (let k = 0; k < 2; k++) {
            const { index, status } = it === 0 ? await mpi.waitAny(reqs) : await waitWithTestAny(reqs);
            got.push(index, status.source, bufs[index]![0]!);
          }
        }
        const none = await mpi.waitAny(reqs);
        const noneTest = await mpi.testAny(reqs);
        return { got, same: reqs.every((q, i) => q === kept[i]), none, noneTest };

        async function waitWithTestAny(list: (Request | null)[]): Promise<{ index: number; status: Status }> {
          for (;;) {
            const t = await mpi.testAny(list);
            if (t.flag) return { index: t.index, status: t.status! };
          }
        }
      },
    });
    const g = r.result!;
    const srcOrder = (g.got as number[]).filter((_, i) => i % 3 === 1);
    expect(srcOrder.sort()).toEqual([1, 1, 2, 2]);
    for (let k = 0; k < 4; k++) {
      const [index, source, v] = (g.got as number[]).slice(3 * k, 3 * k + 3);
      expect(source).toBe(index! + 1);
      expect(v).toBe(source! * 10 + (k < 2 ? 0 : 1));
    }
    expect(g.same).toBe(true);
    expect(g.none).toEqual({ index: -32766, status: EMPTY });
    expect(g.noneTest).toEqual({ flag: true, index: -32766, status: EMPTY });
  });
});

describe('metrics', () => {
  it('count the persistent calls under their MPI names, a bsendInit start as one MPI_Start', async () => {
    const r = await simulate({
      machine: 'xe6',
      nodes: 2,
      metrics: true,
      program: async ({ mpi }) => {
        const buf = new Int32Array(1);
        if (mpi.rank === 1) {
          const rr = mpi.recvInit(buf, 0, 0);
          for (let it = 0; it < 3; it++) {
            mpi.start(rr);
            await mpi.wait(rr);
          }
          mpi.requestFree(rr);
          return null;
        }
        mpi.bufferAttach(2 * (4 + BSEND_OVERHEAD));
        const reqs = [mpi.sendInit(buf, 1, 0), mpi.bsendInit(buf, 1, 0)];
        mpi.startAll([reqs[0]!]);
        await mpi.wait(reqs[0]!);
        for (let it = 0; it < 2; it++) {
          mpi.start(reqs[1]!);
          await mpi.wait(reqs[1]!);
        }
        await mpi.bufferDetach();
        return null;
      },
    });
    const calls = Object.fromEntries(r.metrics!.calls.map((c) => [c.name, c.calls]));
    expect(calls).toMatchObject({ MPI_Send_init: 1, MPI_Bsend_init: 1, MPI_Recv_init: 1, MPI_Startall: 1, MPI_Start: 5, MPI_Wait: 6, MPI_Request_free: 1 });
    expect(calls.MPI_Ibsend).toBeUndefined();
  });
});

describe('send modes', () => {
  it('ssendInit: each start completes only once the receiver has matched it (the receiver posts at 30 us, then 60 us)', async () => {
    const r = await simulate({
      machine: 'xe6',
      nodes: 2,
      program: async ({ mpi, compute, now }) => {
        const buf = new Int32Array(1);
        if (mpi.rank === 1) {
          const got: number[] = [];
          for (const at of [30, 60]) {
            await compute({ us: at - now() });
            await mpi.recv(buf, 0, 1);
            got.push(buf[0]!);
          }
          return got;
        }
        const req = mpi.ssendInit(buf, 1, 1);
        const ends: number[] = [];
        for (let it = 0; it < 2; it++) {
          buf[0] = 70 + it;
          mpi.start(req);
          await mpi.wait(req);
          ends.push(now());
        }
        return ends;
      },
    });
    expect(r.rankResults[1]).toEqual([70, 71]);
    const [e1, e2] = r.rankResults[0] as number[];
    expect(e1).toBeGreaterThan(30);
    expect(e1).toBeLessThan(35);
    expect(e2).toBeGreaterThan(60);
    expect(e2).toBeLessThan(65);
  });

  it('bsendInit: each start copies into the attached buffer and completes at once; rsendInit sends to a posted receive', async () => {
    const r = await simulate({
      machine: 'xe6',
      nodes: 2,
      program: async ({ mpi, compute, now }) => {
        const buf = new Int32Array(4);
        if (mpi.rank === 1) {
          await compute({ us: 50 });
          const got: number[][] = [];
          for (let it = 0; it < 3; it++) {
            await mpi.recv(buf, 0, 2);
            got.push(Array.from(buf));
          }
          const ready = mpi.irecv(buf, 0, 3);
          await mpi.barrier();
          await mpi.wait(ready);
          got.push(Array.from(buf));
          return got;
        }
        mpi.bufferAttach(3 * (16 + BSEND_OVERHEAD));
        const b = mpi.bsendInit(buf, 1, 2);
        const times: number[] = [];
        for (let it = 0; it < 3; it++) {
          buf.fill(it + 1);
          const t0 = now();
          mpi.start(b);
          await mpi.wait(b);
          times.push(now() - t0);
        }
        await mpi.bufferDetach();
        const rs = mpi.rsendInit(buf, 1, 3);
        buf.fill(9);
        await mpi.barrier();
        mpi.start(rs);
        await mpi.wait(rs);
        return times;
      },
    });
    expect(r.rankResults[1]).toEqual([
      [1, 1, 1, 1],
      [2, 2, 2, 2],
      [3, 3, 3, 3],
      [9, 9, 9, 9],
    ]);
    // the receiver comes at 50 us; the buffered sends returned long before
    for (const t of r.rankResults[0] as number[]) expect(t).toBeLessThan(5);
  });
});

describe('the request overhead is paid once', () => {
  /** Rank 0's time for 10 sends (isend + wait, or start + wait of one sendInit request) and rank 1's for 10 receives. */
  const run = (requestOverhead: string, persistent: boolean) =>
    simulate({
      machine: 'xe6',
      nodes: 2,
      set: { 'mpi.requestOverhead': requestOverhead },
      program: async ({ mpi, now }) => {
        const buf = new Float64Array(4);
        const peer = 1 - mpi.rank;
        // eager sends: the sender's waits end at its NIC's completions, whenever the receiver comes
        await mpi.barrier();
        const t0 = now();
        if (mpi.rank === 0) {
          const req = persistent ? mpi.sendInit(buf, peer, 0) : null;
          for (let it = 0; it < 10; it++) {
            buf[0] = it;
            if (req) {
              mpi.start(req);
              await mpi.wait(req);
            } else await mpi.wait(mpi.isend(buf, peer, 0));
          }
          return now() - t0;
        }
        const req = persistent ? mpi.recvInit(buf, peer, 0) : null;
        let sum = 0;
        for (let it = 0; it < 10; it++) {
          if (req) {
            mpi.start(req);
            await mpi.wait(req);
          } else await mpi.wait(mpi.irecv(buf, peer, 0));
          sum += buf[0]!;
        }
        return { sum, dt: now() - t0 };
      },
    });

  it('with mpi.requestOverhead = 2 us, 10 starts of a persistent send cost the sender 9 x 2 us less than 10 isends; with 0 the two are equal', async () => {
    const [iFree, pFree, iCost, pCost] = await Promise.all([run('0ns', false), run('0ns', true), run('2us', false), run('2us', true)]);
    for (const x of [iFree, pFree, iCost, pCost]) expect((x.rankResults[1] as { sum: number }).sum).toBe(45);
    const sender = (x: typeof iFree) => x.rankResults[0] as number;
    expect(sender(pFree)).toBeCloseTo(sender(iFree), 6);
    // 10 isends pay 10 request overheads; the persistent send pays one, at sendInit
    expect(sender(iCost) - sender(iFree)).toBeCloseTo(20, 3);
    expect(sender(pCost) - sender(pFree)).toBeCloseTo(2, 3);
    expect(sender(iCost) - sender(pCost)).toBeCloseTo(18, 3);
  });
});

describe('inactive, active, cancelled and freed persistent requests', () => {
  it('an inactive request waits and tests at once with the empty status; requestGetStatus does not make it inactive again', async () => {
    const r = await simulate({
      machine: 'xe6',
      nodes: 2,
      program: async ({ mpi, now }) => {
        if (mpi.rank === 1) {
          await mpi.send(Int32Array.of(8), 0, 0);
          return null;
        }
        const buf = new Int32Array(1);
        const req = mpi.recvInit(buf, 1, 0);
        const t0 = now();
        const w = await mpi.wait(req);
        const t = await mpi.test(req);
        const dtWait = now() - t0;
        const g0 = await mpi.requestGetStatus(req);
        mpi.start(req);
        let g1 = await mpi.requestGetStatus(req);
        while (!g1.flag) g1 = await mpi.requestGetStatus(req);
        const activeAfterGet = req.active;
        const st = await mpi.wait(req);
        return { w, t, dtWait, g0, g1, activeAfterGet, st, v: buf[0], activeAfterWait: req.active };
      },
    });
    const g = r.result!;
    expect(g.w).toEqual(EMPTY);
    expect(g.t).toBe(true);
    expect(g.g0).toEqual({ flag: true, status: EMPTY });
    expect(g.g1).toEqual({ flag: true, status: { source: 1, tag: 0, count: 1, bytes: 4 } });
    expect(g.activeAfterGet).toBe(true);
    expect(g.st).toEqual({ source: 1, tag: 0, count: 1, bytes: 4 });
    expect(g.v).toBe(8);
    expect(g.activeAfterWait).toBe(false);
  });

  it('cancel of an active persistent receive and of an unmatched persistent send: the waits say cancelled, and the requests start again and deliver', async () => {
    const r = await simulate({
      machine: 'xe6',
      nodes: 2,
      program: async ({ mpi, compute }) => {
        const buf = new Int32Array(1);
        if (mpi.rank === 0) {
          const s = mpi.sendInit(buf, 1, 5);
          buf[0] = 1;
          mpi.start(s);
          await compute({ us: 20 }); // queued unexpected at rank 1
          const ok = mpi.cancel(s);
          const st = await mpi.wait(s);
          buf[0] = 2;
          mpi.start(s);
          await mpi.wait(s);
          return { ok, st };
        }
        const rr = mpi.recvInit(buf, 0, 6);
        mpi.start(rr);
        const ok = mpi.cancel(rr);
        const st = await mpi.wait(rr);
        const again = mpi.recvInit(buf, 0, 5);
        await compute({ us: 40 });
        mpi.start(again);
        const st2 = await mpi.wait(again);
        return { ok, st, st2, v: buf[0], left: await mpi.iprobe(mpi.ANY_SOURCE, mpi.ANY_TAG) };
      },
    });
    expect(r.rankResults[0]).toEqual({ ok: true, st: { source: 1, tag: 5, count: 0, bytes: 0, cancelled: true } });
    expect(r.rankResults[1]).toEqual({
      ok: true,
      st: { source: -2, tag: -1, count: 0, bytes: 0, cancelled: true },
      st2: { source: 0, tag: 5, count: 1, bytes: 4 },
      v: 2,
      left: null,
    });
  });

  it('freeing an active persistent receive lets it complete into its buffer; the freed request cannot be used again', async () => {
    const r = await simulate({
      machine: 'xe6',
      nodes: 2,
      program: async ({ mpi }) => {
        mpi.setErrhandler(mpi.ERRORS_RETURN);
        if (mpi.rank === 1) {
          await mpi.send(Float64Array.of(2.5, -1), 0, 0);
          await mpi.barrier();
          return null;
        }
        const buf = new Float64Array(2);
        const req = mpi.recvInit(buf, 1, 0);
        mpi.start(req);
        mpi.requestFree(req);
        await mpi.barrier();
        const errs: string[] = [];
        for (const use of [() => mpi.start(req), () => mpi.wait(req), () => mpi.test(req), () => mpi.cancel(req), () => mpi.startAll([req])]) {
          try {
            await use();
          } catch (e) {
            errs.push((e as MpiError).errorClass);
          }
        }
        return { data: Array.from(buf), errs, freed: req.isFreed };
      },
    });
    expect(r.result).toEqual({ data: [2.5, -1], errs: Array(5).fill('MPI_ERR_REQUEST'), freed: true });
  });

  it('startAll with one active request starts none of them', async () => {
    const r = await simulate({
      machine: 'xe6',
      nodes: 2,
      program: async ({ mpi }) => {
        mpi.setErrhandler(mpi.ERRORS_RETURN);
        if (mpi.rank === 1) return null;
        const a = mpi.recvInit(new Int32Array(1), 1, 0);
        const b = mpi.recvInit(new Int32Array(1), 1, 1);
        mpi.start(b);
        let msg = '';
        try {
          mpi.startAll([a, b]);
        } catch (e) {
          msg = (e as Error).message;
        }
        const aActive = a.active;
        mpi.cancel(b);
        await mpi.wait(b);
        return { msg, aActive };
      },
    });
    expect(r.result).toEqual({ msg: 'MPI_ERR_REQUEST: startAll: reqs[1]: recvInit(source=1, tag=1) is active: it was started and no wait or test has completed it yet', aActive: false });
  });
});

describe('the datatype forms (count, datatype) of sendInit and recvInit', () => {
  it('pack a strided send at each start and unpack it into a strided receive, the types freed right after the init calls', async () => {
    const iters = 3;
    // the send: 2 of vector(4 blocks of 1 int, stride 3): ints 0, 3, 6, 9 and (extent 10 ints) 10, 13, 16, 19
    const sent = [0, 3, 6, 9, 10, 13, 16, 19];
    const r = await simulate({
      machine: 'xe6',
      nodes: 2,
      program: async ({ mpi }) => {
        if (mpi.rank === 0) {
          const out = new Int32Array(20);
          const vec = mpi.typeCommit(mpi.typeVector(4, 1, 3, mpi.INT));
          const s = mpi.sendInit(out, 2, vec, 1, 5);
          mpi.typeFree(vec);
          for (let it = 0; it < iters; it++) {
            // the data of each start is the buffer's contents at that start
            for (let i = 0; i < 20; i++) out[i] = 100 * it + i;
            mpi.start(s);
            await mpi.wait(s);
          }
          mpi.requestFree(s);
          return null;
        }
        // the receive: 8 ints, every other int (an int resized to an extent of 2 ints)
        const inb = new Int32Array(16);
        const every2 = mpi.typeCommit(mpi.typeCreateResized(mpi.INT, 0, 8));
        const q = mpi.recvInit(inb, 8, every2, 0, 5);
        mpi.typeFree(every2);
        const same = mpi.typeCommit(mpi.typeCreateResized(mpi.INT, 0, 8));
        const got: number[][] = [];
        const counts: number[] = [];
        for (let it = 0; it < iters; it++) {
          inb.fill(-1);
          mpi.start(q);
          counts.push(mpi.getCount(await mpi.wait(q), same));
          got.push([...inb]);
        }
        mpi.requestFree(q);
        return { got, counts };
      },
    });
    const g = r.rankResults[1] as { got: number[][]; counts: number[] };
    for (let it = 0; it < iters; it++) {
      const want = Array.from({ length: 16 }, (_, i) => (i % 2 === 0 ? 100 * it + sent[i / 2]! : -1));
      expect(g.got[it]).toEqual(want);
    }
    expect(g.counts).toEqual([8, 8, 8]);
  });
});

describe('bad use of persistent requests', () => {
  const u8 = new Uint8Array(4);
  const bad: { name: string; cls: string; mentions: string; call: (ctx: RankContext) => Promise<unknown> }[] = [
    { name: 'start of an active request', cls: 'MPI_ERR_REQUEST', mentions: 'start: sendInit(dest=1, tag=0, 4 bytes) is active', call: async ({ mpi }) => {
      const r = mpi.sendInit(u8, 1, 0);
      mpi.start(r);
      mpi.start(r);
    } },
    { name: 'start of a completed request not yet waited on', cls: 'MPI_ERR_REQUEST', mentions: 'start: sendInit(dest=-1, tag=0, 4 bytes) is active', call: async ({ mpi }) => {
      const r = mpi.sendInit(u8, mpi.PROC_NULL, 0);
      mpi.start(r);
      mpi.start(r);
    } },
    { name: 'start of a nonpersistent request', cls: 'MPI_ERR_REQUEST', mentions: 'start: isend(dest=1, tag=0, 4 bytes) is not a persistent request', call: async ({ mpi }) => mpi.start(mpi.isend(u8, 1, 0)) },
    { name: 'start of REQUEST_NULL', cls: 'MPI_ERR_REQUEST', mentions: 'start: REQUEST_NULL is not a persistent request', call: async ({ mpi }) => mpi.start(mpi.REQUEST_NULL) },
    { name: 'start of a non-request', cls: 'MPI_ERR_REQUEST', mentions: 'start: expected a request, got number', call: async ({ mpi }) => mpi.start(7 as never) },
    { name: 'startAll of a non-array', cls: 'MPI_ERR_ARG', mentions: 'startAll: expected an array of requests', call: async ({ mpi }) => mpi.startAll(mpi.sendInit(u8, 1, 0) as never) },
    { name: 'startAll with a non-request', cls: 'MPI_ERR_REQUEST', mentions: 'startAll: reqs[1]: expected a request, got Object', call: async ({ mpi }) => mpi.startAll([mpi.sendInit(u8, 1, 0), {} as never]) },
    { name: 'wait on a freed persistent request', cls: 'MPI_ERR_REQUEST', mentions: 'wait: the request recvInit(source=1, tag=0) was freed by requestFree', call: async ({ mpi }) => {
      const r = mpi.recvInit(u8, 1, 0);
      mpi.requestFree(r);
      await mpi.wait(r);
    } },
    { name: 'start of a freed persistent request', cls: 'MPI_ERR_REQUEST', mentions: 'start: the request recvInit(source=ANY_SOURCE, tag=ANY_TAG) was freed', call: async ({ mpi }) => {
      const r = mpi.recvInit(u8, mpi.ANY_SOURCE, mpi.ANY_TAG);
      mpi.requestFree(r);
      mpi.start(r);
    } },
    { name: 'bsendInit start without room in the attached buffer', cls: 'MPI_ERR_BUFFER', mentions: 'the attached buffer has 0 of 0 bytes free', call: async ({ mpi }) => mpi.start(mpi.bsendInit(u8, 1, 0)) },
    { name: 'sendInit dest = 4', cls: 'MPI_ERR_RANK', mentions: 'sendInit: dest=4', call: async ({ mpi }) => mpi.sendInit(u8, 4, 0) },
    { name: 'ssendInit tag = ANY_TAG', cls: 'MPI_ERR_TAG', mentions: 'ssendInit: tag=-1', call: async ({ mpi }) => mpi.ssendInit(u8, 1, mpi.ANY_TAG) },
    { name: 'rsendInit buf = array', cls: 'MPI_ERR_BUFFER', mentions: 'rsendInit: buf must be a typed array', call: async ({ mpi }) => mpi.rsendInit([1] as never, 1, 0) },
    { name: 'bsendInit dest = ANY_SOURCE', cls: 'MPI_ERR_RANK', mentions: 'bsendInit: dest=-2', call: async ({ mpi }) => mpi.bsendInit(u8, mpi.ANY_SOURCE, 0) },
    { name: 'recvInit source = 9', cls: 'MPI_ERR_RANK', mentions: 'recvInit: source=9', call: async ({ mpi }) => mpi.recvInit(u8, 9, 0) },
    { name: 'recvInit tag = -4', cls: 'MPI_ERR_TAG', mentions: 'recvInit: tag=-4', call: async ({ mpi }) => mpi.recvInit(u8, 0, -4) },
    { name: 'sendInit with an uncommitted datatype', cls: 'MPI_ERR_TYPE', mentions: 'sendInit: datatype', call: async ({ mpi }) => mpi.sendInit(u8, 1, mpi.typeContiguous(1, mpi.INT), 1, 0) },
    { name: 'recvInit count = -1', cls: 'MPI_ERR_COUNT', mentions: 'recvInit: count=-1', call: async ({ mpi }) => mpi.recvInit(u8, -1, mpi.INT, 1, 0) },
    { name: 'recvInit with a freed datatype', cls: 'MPI_ERR_TYPE', mentions: 'recvInit: datatype', call: async ({ mpi }) => {
      const t = mpi.typeCommit(mpi.typeContiguous(1, mpi.INT));
      mpi.typeFree(t);
      return mpi.recvInit(u8, 1, t, 1, 0);
    } },
  ];
  it.each(bad)('$name fails with $cls naming the call', async ({ cls, mentions, call }) => {
    const e = await rejection(
      simulate({
        machine: 'xe6',
        nodes: 4,
        program: async (ctx) => {
          if (ctx.rank === 0) await call(ctx);
        },
      }),
    );
    expect(e).toBeInstanceOf(RankError);
    expect((e as RankError).rank).toBe(0);
    expect(((e as RankError).error as MpiError).errorClass).toBe(cls);
    expect(e.message).toContain(`${cls}:`);
    expect(e.message).toContain(mentions);
  });
});
