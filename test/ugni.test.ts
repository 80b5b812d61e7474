import { describe, expect, it } from 'vitest';
import type { RankContext } from '../runtime/rank.ts';
import { simulate } from '../runtime/simulate.ts';
import { GNI_CQMODE, GNI_RC, gniCheck, type Gni, type GniCq, type GniCqResult, type GniEp, type GniMemHandle, type GniNic } from '../runtime/ugni/gni.ts';

/** One rank's uGNI setup: a domain, a source CQ, a target CQ, a registered segment, endpoints to every peer. */
interface Setup {
  nic: GniNic;
  cq: GniCq;
  rcq: GniCq;
  mem: Uint8Array;
  memHndl: GniMemHandle;
  handles: GniMemHandle[];
  /** Endpoint to each rank (undefined for this rank). */
  eps: (GniEp | undefined)[];
}

/** Creates and attaches a domain (instId = rank), CQs, registers `bytes` and exchanges handles. */
async function setup(gni: Gni, { bytes = 4096, ptag = 1, cookie = 0xc0ffee, cqEntries = 64 } = {}): Promise<Setup> {
  const { cdm } = gniCheck(gni.cdmCreate(gni.rank, ptag, cookie), 'cdmCreate');
  const { nic } = gniCheck(gni.cdmAttach(cdm), 'cdmAttach');
  const { cq } = gniCheck(gni.cqCreate(nic, cqEntries), 'cqCreate');
  const { cq: rcq } = gniCheck(gni.cqCreate(nic, cqEntries), 'cqCreate');
  const mem = new Uint8Array(bytes);
  const { memHndl } = gniCheck(gni.memRegister(nic, mem, rcq), 'memRegister');
  const handles = await gni.exchange(memHndl);
  const eps: (GniEp | undefined)[] = [];
  for (let r = 0; r < gni.size; r++) {
    if (r === gni.rank) {
      eps.push(undefined);
      continue;
    }
    const { ep } = gniCheck(gni.epCreate(nic, cq), 'epCreate');
    gniCheck(gni.epBind(ep, r, r), 'epBind');
    eps.push(ep);
  }
  return { nic, cq, rcq, mem, memHndl, handles, eps };
}

function pattern(n: number, seed: number): Uint8Array {
  const b = new Uint8Array(n);
  for (let i = 0; i < n; i++) b[i] = (i * 31 + seed) & 0xff;
  return b;
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && a.every((v, i) => v === b[i]);
}

function event(r: GniCqResult): Extract<GniCqResult, { event: unknown }>['event'] {
  if (!('event' in r)) throw new Error(`expected an event, got ${r.rc}: ${r.message}`);
  return r.event;
}

/** A put, a get and fetching AMOs from rank 0 to the last rank: the same program on every machine. */
async function putGetAmo(ctx: RankContext): Promise<{ putUs: number; fma8Us: number; rdma8Us: number; getOk: boolean; putOk: boolean; old: bigint[]; final: bigint }> {
  const gni = ctx.gni;
  const s = await setup(gni);
  const last = ctx.size - 1;
  // rank `last` fills bytes 1024.. for the get; everyone then synchronises through the job
  if (ctx.rank === last) s.mem.set(pattern(512, 9), 1024);
  await gni.exchange(0);
  const old: bigint[] = [];
  let putUs = 0;
  let getOk = false;
  if (ctx.rank === 0) {
    const ep = s.eps[last]!;
    const t0 = ctx.now();
    gniCheck(await gni.postFma(ep, { type: 'FMA_PUT', local: pattern(256, 3), remoteMemHndl: s.handles[last]!, remoteOffset: 64, postId: 7 }), 'postFma');
    const ev = event(await gni.cqWaitEvent(s.cq));
    putUs = ctx.now() - t0;
    expect(ev).toMatchObject({ type: 'POST', source: 'local', ok: true, status: 'Ok', data: 7 });
    expect(gniCheck(gni.getCompleted(s.cq, ev)).desc.postId).toBe(7);
    const dst = s.mem.subarray(2048, 2048 + 512);
    gniCheck(await gni.postFma(ep, { type: 'FMA_GET', local: dst, localMemHndl: s.memHndl, remoteMemHndl: s.handles[last]!, remoteOffset: 1024, postId: 8 }), 'get');
    expect(event(await gni.cqWaitEvent(s.cq)).data).toBe(8);
    getOk = sameBytes(dst, pattern(512, 9));
    const fetched = s.mem.subarray(8, 16);
    for (const v of [5n, 6n]) {
      gniCheck(await gni.postFma(ep, { type: 'AMO', amoCmd: 'FADD', local: fetched, localMemHndl: s.memHndl, remoteMemHndl: s.handles[last]!, remoteOffset: 3072, firstOperand: v }), 'amo');
      expect(event(await gni.cqWaitEvent(s.cq)).ok).toBe(true);
      old.push(new DataView(fetched.buffer, fetched.byteOffset, 8).getBigUint64(0, true));
    }
    // compare-and-swap: 11 -> 100 succeeds, returns 11
    gniCheck(await gni.postFma(ep, { type: 'AMO', amoCmd: 'FCSWAP', local: fetched, localMemHndl: s.memHndl, remoteMemHndl: s.handles[last]!, remoteOffset: 3072, firstOperand: 11n, secondOperand: 100n }), 'cswap');
    await gni.cqWaitEvent(s.cq);
    old.push(new DataView(fetched.buffer, fetched.byteOffset, 8).getBigUint64(0, true));
  }
  let fma8Us = 0;
  let rdma8Us = 0;
  if (ctx.rank === 0) {
    const ep = s.eps[last]!;
    const small = s.mem.subarray(0, 8);
    for (const rdma of [false, true]) {
      const t0 = ctx.now();
      const desc = { type: rdma ? 'RDMA_PUT' : 'FMA_PUT', local: small, localMemHndl: s.memHndl, remoteMemHndl: s.handles[last]!, remoteOffset: 0 } as const;
      gniCheck(rdma ? await gni.postRdma(ep, desc) : await gni.postFma(ep, desc));
      gniCheck(await gni.cqWaitEvent(s.cq));
      if (rdma) rdma8Us = ctx.now() - t0;
      else fma8Us = ctx.now() - t0;
    }
  }
  await gni.exchange(0);
  const putOk = ctx.rank !== last || sameBytes(s.mem.subarray(64, 320), pattern(256, 3));
  const final = new DataView(s.mem.buffer).getBigUint64(3072, true);
  return { putUs, fma8Us, rdma8Us, getOk, putOk, old, final };
}

describe('uGNI face', () => {
  it('put and get move real bytes with local CQ events; FADD and FCSWAP through postFma (xc30)', async () => {
    const r = await simulate({ machine: 'xc30', nodes: 2, program: putGetAmo });
    const [a, b] = r.rankResults;
    expect(a!.putUs).toBeGreaterThan(0.3);
    expect(a!.putUs).toBeLessThan(5);
    expect(a!.getOk).toBe(true);
    expect(b!.putOk).toBe(true);
    expect(a!.old).toEqual([0n, 5n, 11n]);
    expect(b!.final).toBe(100n);
  });

  it.each(['xe6', 'xt4', 'bw'])('the same program runs on %s (xt4 has no FMA: postFma goes through the block engine)', async (machine) => {
    const r = await simulate({ machine, nodes: 2, program: putGetAmo });
    const [a, b] = r.rankResults;
    expect(a!.getOk).toBe(true);
    expect(b!.putOk).toBe(true);
    expect(a!.old).toEqual([0n, 5n, 11n]);
    expect(b!.final).toBe(100n);
    expect(a!.putUs).toBeGreaterThan(0);
    // FMA beats the block engine's start-up on a small put, except where there is no FMA
    if (machine === 'xt4') expect(a!.fma8Us).toBeCloseTo(a!.rdma8Us, 6);
    else expect(a!.fma8Us).toBeLessThan(0.5 * a!.rdma8Us);
  });

  it('a put with GLOBAL_EVENT raises a remote event at the CQ of the target registration, after the data landed', async () => {
    const r = await simulate({
      machine: 'xc30',
      nodes: 2,
      program: async (ctx) => {
        const gni = ctx.gni;
        const s = await setup(gni);
        if (ctx.rank === 0) {
          gniCheck(await gni.postFma(s.eps[1]!, { type: 'FMA_PUT', cqMode: GNI_CQMODE.GLOBAL_EVENT, local: pattern(100, 1), remoteMemHndl: s.handles[1]!, remoteOffset: 0, remoteEventData: 99, postId: 1 }));
          const ev = event(await gni.cqWaitEvent(s.cq));
          // the source CQ sees only its local event; the remote one went to rank 1
          expect(ev.source).toBe('local');
          expect((await gni.cqGetEvent(s.rcq)).rc).toBe(GNI_RC.NOT_DONE);
          return null;
        }
        const ev = event(await gni.cqWaitEvent(s.rcq));
        return { ev, landed: sameBytes(s.mem.subarray(0, 100), pattern(100, 1)), srcEmpty: (await gni.cqGetEvent(s.cq)).rc };
      },
    });
    const b = r.rankResults[1] as { ev: { source: string; data: number; type: string; ok: boolean }; landed: boolean; srcEmpty: string };
    expect(b.ev).toMatchObject({ type: 'POST', source: 'remote', data: 99, ok: true, sourceNode: 0 });
    expect(b.landed).toBe(true);
    expect(b.srcEmpty).toBe(GNI_RC.NOT_DONE);
  });

  it('postRdma moves 1 MiB each way on the block engine; RDMA needs registered local memory', async () => {
    const n = 1 << 20;
    const r = await simulate({
      machine: 'xc30',
      nodes: 2,
      program: async (ctx) => {
        const gni = ctx.gni;
        const s = await setup(gni, { bytes: 2 * n });
        const p2 = pattern(n, 2);
        const p5 = pattern(n, 5);
        if (ctx.rank === 1) s.mem.set(p5, n);
        await gni.exchange(0);
        if (ctx.rank !== 0) {
          await gni.exchange(0);
          return sameBytes(s.mem.subarray(0, n), p2);
        }
        const ep = s.eps[1]!;
        const unregistered = await gni.postRdma(ep, { type: 'RDMA_PUT', local: new Uint8Array(64), remoteMemHndl: s.handles[1]!, remoteOffset: 0 });
        s.mem.set(p2, 0);
        const t0 = ctx.now();
        gniCheck(await gni.postRdma(ep, { type: 'RDMA_PUT', local: s.mem.subarray(0, n), localMemHndl: s.memHndl, remoteMemHndl: s.handles[1]!, remoteOffset: 0, postId: 1 }));
        gniCheck(await gni.postRdma(ep, { type: 'RDMA_GET', local: s.mem.subarray(n, 2 * n), localMemHndl: s.memHndl, remoteMemHndl: s.handles[1]!, remoteOffset: n, postId: 2 }));
        const ids = [event(await gni.cqWaitEvent(s.cq)).data, event(await gni.cqWaitEvent(s.cq)).data].sort();
        const us = ctx.now() - t0;
        const got = sameBytes(s.mem.subarray(n, 2 * n), p5);
        await gni.exchange(0);
        return { ids, us, got, unregistered: unregistered.rc };
      },
    });
    const a = r.rankResults[0] as { ids: number[]; us: number; got: boolean; unregistered: string };
    expect(a.unregistered).toBe(GNI_RC.INVALID_PARAM);
    expect(a.ids).toEqual([1, 2]);
    expect(a.got).toBe(true);
    expect(r.rankResults[1]).toBe(true);
    // 2 MiB over a ~10 GB/s link pair takes well over 100 us... and under a few ms
    expect(a.us).toBeGreaterThan(100);
    expect(a.us).toBeLessThan(2000);
  });

  it('an empty CQ reads GNI_RC_NOT_DONE; an overrun CQ reads GNI_RC_ERROR_RESOURCE once, then the events that fitted', async () => {
    const r = await simulate({
      machine: 'xc30',
      nodes: 2,
      program: async (ctx) => {
        const gni = ctx.gni;
        const s = await setup(gni, { cqEntries: 2 });
        if (ctx.rank !== 0) return null;
        const codes: string[] = [(await gni.cqGetEvent(s.cq)).rc];
        const t0 = ctx.now();
        await gni.cqGetEvent(s.cq);
        const pollUs = ctx.now() - t0;
        for (let i = 0; i < 4; i++) gniCheck(await gni.postFma(s.eps[1]!, { type: 'FMA_PUT', local: pattern(8, i), remoteMemHndl: s.handles[1]!, remoteOffset: 8 * i, postId: i }));
        await ctx.compute({ us: 20 });
        for (let i = 0; i < 4; i++) codes.push((await gni.cqGetEvent(s.cq)).rc);
        return { codes, pollUs };
      },
    });
    const a = r.result as { codes: string[]; pollUs: number };
    expect(a.codes).toEqual([GNI_RC.NOT_DONE, GNI_RC.ERROR_RESOURCE, GNI_RC.SUCCESS, GNI_RC.SUCCESS, GNI_RC.NOT_DONE]);
    // each read costs mpi.testOverhead (50 ns on xc30)
    expect(a.pollUs).toBeCloseTo(0.05, 6);
  });

  it('bad posts: unbound endpoint (INVALID_STATE), misaligned AMO and get (ALIGNMENT_ERROR), unregistered get buffer, over-long FMA, wrong type (INVALID_PARAM)', async () => {
    const r = await simulate({
      machine: 'xc30',
      nodes: 2,
      program: async (ctx) => {
        const gni = ctx.gni;
        const s = await setup(gni);
        if (ctx.rank !== 0) return null;
        const rm = s.handles[1]!;
        const { ep: loose } = gniCheck(gni.epCreate(s.nic, s.cq));
        const ep = s.eps[1]!;
        const reg = s.mem.subarray(0, 64);
        const out: Record<string, string> = {
          unbound: (await gni.postFma(loose, { type: 'FMA_PUT', local: reg, remoteMemHndl: rm, remoteOffset: 0 })).rc,
          unboundSmsg: (await gni.smsgSend(loose, new Uint8Array(4), new Uint8Array(0), 1)).rc,
          amo4: (await gni.postFma(ep, { type: 'AMO', amoCmd: 'ADD', remoteMemHndl: rm, remoteOffset: 4, firstOperand: 1n })).rc,
          amo4wide4: (await gni.postFma(ep, { type: 'AMO', amoCmd: 'ADD', length: 4, remoteMemHndl: rm, remoteOffset: 4, firstOperand: 1n, cqMode: GNI_CQMODE.SILENT })).rc,
          getOff: (await gni.postFma(ep, { type: 'FMA_GET', local: reg, localMemHndl: s.memHndl, remoteMemHndl: rm, remoteOffset: 2 })).rc,
          getLen: (await gni.postFma(ep, { type: 'FMA_GET', local: reg, length: 6, localMemHndl: s.memHndl, remoteMemHndl: rm, remoteOffset: 0 })).rc,
          getUnreg: (await gni.postFma(ep, { type: 'FMA_GET', local: new Uint8Array(64), remoteMemHndl: rm, remoteOffset: 0 })).rc,
          fmaTooLong: (await gni.postFma(ep, { type: 'FMA_PUT', local: reg, length: 2 ** 30 + 8, remoteMemHndl: rm, remoteOffset: 0 })).rc,
          rdmaTooLong: (await gni.postRdma(ep, { type: 'RDMA_PUT', local: reg, localMemHndl: s.memHndl, length: 2 ** 32 + 8, remoteMemHndl: rm, remoteOffset: 0 })).rc,
          rdmaAmo: (await gni.postRdma(ep, { type: 'AMO', amoCmd: 'ADD', remoteMemHndl: rm, remoteOffset: 0, firstOperand: 1n })).rc,
          bindTwice: gni.epBind(ep, 1, 1).rc,
          unbindUnbound: gni.epUnbind(loose).rc,
        };
        // the message names the bad argument
        const m = await gni.postFma(ep, { type: 'FMA_GET', local: reg, localMemHndl: s.memHndl, remoteMemHndl: rm, remoteOffset: 2 });
        // the silent 4-byte AMO went out: nothing else is in flight, so the endpoint unbinds
        await ctx.compute({ us: 10 });
        out.unbind = gni.epUnbind(ep).rc;
        out.afterUnbind = (await gni.postFma(ep, { type: 'FMA_PUT', local: reg, remoteMemHndl: rm, remoteOffset: 0 })).rc;
        return { out, message: 'message' in m ? m.message : '' };
      },
    });
    const { out, message } = r.result as { out: Record<string, string>; message: string };
    expect(out).toEqual({
      unbound: GNI_RC.INVALID_STATE,
      unboundSmsg: GNI_RC.INVALID_STATE,
      amo4: GNI_RC.ALIGNMENT_ERROR,
      amo4wide4: GNI_RC.SUCCESS,
      getOff: GNI_RC.ALIGNMENT_ERROR,
      getLen: GNI_RC.ALIGNMENT_ERROR,
      getUnreg: GNI_RC.INVALID_PARAM,
      fmaTooLong: GNI_RC.INVALID_PARAM,
      rdmaTooLong: GNI_RC.INVALID_PARAM,
      rdmaAmo: GNI_RC.INVALID_PARAM,
      bindTwice: GNI_RC.INVALID_STATE,
      unbindUnbound: GNI_RC.INVALID_STATE,
      unbind: GNI_RC.SUCCESS,
      afterUnbind: GNI_RC.INVALID_STATE,
    });
    expect(message).toMatch(/remoteOffset \(2\)/);
  });

  it('RDMA_SEND (phit extension): two senders fill the receiver\'s posted buffers whole, in posting order, with RECV events; overflow and no buffer are transaction errors', async () => {
    const n = 3000;
    const r = await simulate({
      machine: 'xc30',
      nodes: 3,
      program: async (ctx) => {
        const gni = ctx.gni;
        const s = await setup(gni, { bytes: 4 * n });
        if (ctx.rank === 0) {
          // four whole-message buffers at descending addresses, then a short one
          for (let b = 0; b < 4; b++) gniCheck(await gni.postRecvBuffer(s.nic, { memHndl: s.memHndl, offset: (3 - b) * n, length: n, userId: 500 + b, cq: s.rcq }));
          const { memHndl: smallHndl } = gniCheck(gni.memRegister(s.nic, new Uint8Array(16)));
          gniCheck(await gni.postRecvBuffer(s.nic, { memHndl: smallHndl, userId: 600, cq: s.rcq }));
          await gni.exchange(0);
          const evs: { data: number; length: number | undefined; sourceNode: number; ok: boolean; status: string; whole: boolean }[] = [];
          for (let i = 0; i < 5; i++) {
            const ev = event(await gni.cqWaitEvent(s.rcq));
            expect(ev).toMatchObject({ type: 'RECV', source: 'remote' });
            const at = ev.data === 600 ? -1 : (3 - (ev.data - 500)) * n;
            const whole = at >= 0 && sameBytes(s.mem.subarray(at, at + (ev.length ?? 0)), pattern(ev.length ?? 0, ev.sourceNode));
            evs.push({ data: ev.data, length: ev.length, sourceNode: ev.sourceNode, ok: ev.ok, status: ev.status, whole });
          }
          await gni.exchange(0);
          return evs;
        }
        await gni.exchange(0);
        const ep = s.eps[0]!;
        // each sender sends two messages of its own pattern; sizes differ per sender
        const len = ctx.rank === 1 ? n : 1000;
        s.mem.set(pattern(len, ctx.rank), 0);
        const t0 = ctx.now();
        for (let i = 0; i < 2; i++) gniCheck(await gni.postRdma(ep, { type: 'RDMA_SEND', local: s.mem.subarray(0, len), localMemHndl: s.memHndl, postId: 10 * ctx.rank + i }));
        const local = [event(await gni.cqWaitEvent(s.cq)), event(await gni.cqWaitEvent(s.cq))];
        const us = ctx.now() - t0;
        const completed = gniCheck(gni.getCompleted(s.cq, local[0]!)).desc.type;
        // rank 2 then sends one message too long for the last buffer (rank 1 waits), and one more that finds no buffer
        let over: GniCqResult | null = null;
        let none: GniCqResult | null = null;
        if (ctx.rank === 2) {
          gniCheck(await gni.postRdma(ep, { type: 'RDMA_SEND', local: s.mem.subarray(0, 64), localMemHndl: s.memHndl, postId: 77 }));
          over = await gni.cqWaitEvent(s.cq);
          gniCheck(await gni.postRdma(ep, { type: 'RDMA_SEND', local: s.mem.subarray(0, 8), localMemHndl: s.memHndl, postId: 78 }));
          none = await gni.cqWaitEvent(s.cq);
        }
        await gni.exchange(0);
        return { local: local.map((e) => e.data).sort(), us, completed, over, none };
      },
    });
    const evs = r.rankResults[0] as { data: number; length: number; sourceNode: number; ok: boolean; status: string; whole: boolean }[];
    const okEvs = evs.filter((e) => e.ok);
    // every buffer holds one whole message, from the node its event names
    expect(okEvs.map((e) => e.data).sort()).toEqual([500, 501, 502, 503]);
    expect(okEvs.every((e) => e.whole)).toBe(true);
    expect(okEvs.map((e) => `${e.sourceNode}:${e.length}`).sort()).toEqual(['1:3000', '1:3000', '2:1000', '2:1000']);
    expect(evs.find((e) => !e.ok)).toEqual({ data: 600, length: 64, sourceNode: 2, ok: false, status: 'ReceiveOverflow', whole: false });
    const a = r.rankResults[1] as { local: number[]; us: number; completed: string };
    const b = r.rankResults[2] as { local: number[]; completed: string; over: GniCqResult; none: GniCqResult };
    expect(a.local).toEqual([10, 11]);
    expect(b.local).toEqual([20, 21]);
    expect([a.completed, b.completed]).toEqual(['RDMA_SEND', 'RDMA_SEND']);
    // two block transfers of 3000 bytes: a few microseconds (BTE start-up plus the data)
    expect(a.us).toBeGreaterThan(2);
    expect(a.us).toBeLessThan(10);
    expect(b.over).toMatchObject({ rc: GNI_RC.TRANSACTION_ERROR, event: { type: 'POST', source: 'local', status: 'ReceiveOverflow', data: 77 } });
    expect(b.none).toMatchObject({ rc: GNI_RC.TRANSACTION_ERROR, event: { type: 'POST', source: 'local', status: 'NoReceiveBuffer', data: 78 } });
  });

  it('RDMA_SEND and postRecvBuffer misuse: unbound endpoint, unregistered buffers, lengths 0 and over 4 GiB, a peer domain not attached, the wrong post call', async () => {
    const r = await simulate({
      machine: 'xe6',
      nodes: 2,
      program: async (ctx) => {
        const gni = ctx.gni;
        const s = await setup(gni);
        if (ctx.rank !== 0) return null;
        const ep = s.eps[1]!;
        const reg = s.mem.subarray(0, 64);
        const desc = { type: 'RDMA_SEND', local: reg, localMemHndl: s.memHndl } as const;
        const { ep: loose } = gniCheck(gni.epCreate(s.nic, s.cq));
        const { ep: nowhere } = gniCheck(gni.epCreate(s.nic, s.cq));
        gniCheck(gni.epBind(nowhere, 1, 42));
        const { cdm: other } = gniCheck(gni.cdmCreate(77, 1, 1));
        const { nic: otherNic } = gniCheck(gni.cdmAttach(other));
        const { cq: otherCq } = gniCheck(gni.cqCreate(otherNic, 4));
        const gone = new Uint8Array(32);
        const { memHndl: goneHndl } = gniCheck(gni.memRegister(s.nic, gone));
        gniCheck(gni.memDeregister(s.nic, goneHndl));
        const buf = { memHndl: s.memHndl, userId: 1, cq: s.rcq };
        const out: Record<string, string> = {
          unbound: (await gni.postRdma(loose, desc)).rc,
          unregistered: (await gni.postRdma(ep, { ...desc, local: new Uint8Array(64) })).rc,
          length0: (await gni.postRdma(ep, { ...desc, length: 0 })).rc,
          tooLong: (await gni.postRdma(ep, { ...desc, length: 2 ** 32 + 8 })).rc,
          notAttached: (await gni.postRdma(nowhere, desc)).rc,
          viaFma: (await gni.postFma(ep, desc)).rc,
          recvLength0: (await gni.postRecvBuffer(s.nic, { ...buf, length: 0 })).rc,
          recvPastEnd: (await gni.postRecvBuffer(s.nic, { ...buf, offset: 4000, length: 100 })).rc,
          recvUnregistered: (await gni.postRecvBuffer(s.nic, { ...buf, memHndl: goneHndl })).rc,
          recvForeign: (await gni.postRecvBuffer(s.nic, { ...buf, memHndl: s.handles[1]! })).rc,
          recvOtherCq: (await gni.postRecvBuffer(s.nic, { ...buf, cq: otherCq })).rc,
          recvOtherNic: (await gni.postRecvBuffer(otherNic, buf)).rc,
          recvUserId: (await gni.postRecvBuffer(s.nic, { ...buf, userId: -1 })).rc,
          recvOk: (await gni.postRecvBuffer(s.nic, { ...buf, offset: 4000 })).rc,
        };
        gniCheck(gni.cdmDestroy(other));
        out.recvDestroyed = (await gni.postRecvBuffer(otherNic, buf)).rc;
        const m = await gni.postRdma(ep, { ...desc, length: 0 });
        return { out, message: 'message' in m ? m.message : '' };
      },
    });
    const { out, message } = r.result as { out: Record<string, string>; message: string };
    expect(out).toEqual({
      unbound: GNI_RC.INVALID_STATE,
      unregistered: GNI_RC.INVALID_PARAM,
      length0: GNI_RC.INVALID_PARAM,
      tooLong: GNI_RC.INVALID_PARAM,
      notAttached: GNI_RC.INVALID_STATE,
      viaFma: GNI_RC.INVALID_PARAM,
      recvLength0: GNI_RC.INVALID_PARAM,
      recvPastEnd: GNI_RC.INVALID_PARAM,
      recvUnregistered: GNI_RC.INVALID_PARAM,
      recvForeign: GNI_RC.INVALID_PARAM,
      recvOtherCq: GNI_RC.INVALID_PARAM,
      recvOtherNic: GNI_RC.INVALID_PARAM,
      recvUserId: GNI_RC.INVALID_PARAM,
      recvOk: GNI_RC.SUCCESS,
      recvDestroyed: GNI_RC.INVALID_STATE,
    });
    expect(message).toMatch(/desc\.length=0/);
  });

  it('cdmAttach takes an FMA descriptor: with fma.descriptors=2 the third process on a node gets ERROR_RESOURCE until one is freed', async () => {
    const r = await simulate({
      machine: 'xc30',
      nodes: 1,
      ppn: 3,
      set: { 'fma.descriptors': '2' },
      program: async (ctx) => {
        const gni = ctx.gni;
        const { cdm } = gniCheck(gni.cdmCreate(ctx.rank, 1, 1));
        const first = gni.cdmAttach(cdm).rc;
        await gni.exchange(first);
        if (ctx.rank === 0) gniCheck(gni.cdmDestroy(cdm));
        await gni.exchange(0);
        const second = ctx.rank === 2 ? gni.cdmAttach(cdm).rc : null;
        return { first, second };
      },
    });
    expect(r.rankResults.map((x) => x.first)).toEqual([GNI_RC.SUCCESS, GNI_RC.SUCCESS, GNI_RC.ERROR_RESOURCE]);
    expect(r.rankResults[2]!.second).toBe(GNI_RC.SUCCESS);
  });

  it('domain mismatch: a put, a short message and an RDMA_SEND between different ptags are refused by the NIC, reported as errors, and change no memory', async () => {
    const r = await simulate({
      machine: 'xc30',
      nodes: 2,
      program: async (ctx) => {
        const gni = ctx.gni;
        const s = await setup(gni, { ptag: ctx.rank === 0 ? 5 : 6 });
        gniCheck(gni.smsgInit(s.eps[1 - ctx.rank]!, { msgMaxSize: 128, mboxMaxCredit: 4 }));
        // a receive buffer for rank 0's send, which the NIC refuses: nothing lands, no RECV event
        if (ctx.rank === 1) gniCheck(await gni.postRecvBuffer(s.nic, { memHndl: s.memHndl, userId: 1, cq: s.rcq }));
        await gni.exchange(0);
        if (ctx.rank === 0) {
          gniCheck(await gni.postFma(s.eps[1]!, { type: 'FMA_PUT', cqMode: GNI_CQMODE.GLOBAL_EVENT, local: pattern(64, 1), remoteMemHndl: s.handles[1]!, remoteOffset: 0, postId: 3 }));
          const put = await gni.cqWaitEvent(s.cq);
          const completed = gni.getCompleted(s.cq, event(put));
          gniCheck(await gni.smsgSend(s.eps[1]!, new Uint8Array([1, 2, 3]), new Uint8Array(0), 42));
          const smsg = await gni.cqWaitEvent(s.cq);
          gniCheck(await gni.postRdma(s.eps[1]!, { type: 'RDMA_SEND', local: s.mem.subarray(0, 64), localMemHndl: s.memHndl, postId: 4 }));
          const sent = await gni.cqWaitEvent(s.cq);
          await gni.exchange(0);
          return { put: put.rc, putEv: event(put), completed: completed.rc, smsg: smsg.rc, smsgEv: event(smsg), sent: sent.rc, sentEv: event(sent) };
        }
        await gni.exchange(0);
        return { untouched: s.mem.every((v) => v === 0), remote: (await gni.cqGetEvent(s.rcq)).rc, msg: (await gni.smsgGetNext(s.eps[0]!)).rc };
      },
    });
    const a = r.rankResults[0] as Record<string, unknown>;
    const b = r.rankResults[1] as Record<string, unknown>;
    expect(a.put).toBe(GNI_RC.TRANSACTION_ERROR);
    expect(a.putEv).toMatchObject({ type: 'POST', source: 'local', ok: false, status: 'DomainRefused', data: 3 });
    expect(a.completed).toBe(GNI_RC.TRANSACTION_ERROR);
    expect(a.smsg).toBe(GNI_RC.TRANSACTION_ERROR);
    expect(a.smsgEv).toMatchObject({ type: 'SMSG', source: 'local', ok: false, status: 'DomainRefused', data: 42 });
    expect(a.sent).toBe(GNI_RC.TRANSACTION_ERROR);
    expect(a.sentEv).toMatchObject({ type: 'POST', source: 'local', ok: false, status: 'DomainRefused', data: 4 });
    expect(b).toEqual({ untouched: true, remote: GNI_RC.NOT_DONE, msg: GNI_RC.NOT_DONE });
  });

  it('short messages arrive whole and in order per sender, with credits, beside MPI traffic on the same processes', async () => {
    const sizes = [1, 200, 8, 1000, 0, 64, 65, 3, 500, 17];
    const r = await simulate({
      machine: 'xe6',
      nodes: 2,
      ppn: 2,
      program: async (ctx) => {
        const gni = ctx.gni;
        const s = await setup(gni);
        // ranks 0 and 2 (on different nodes) talk SMSG; MPI ping between 1 and 3 meanwhile
        const peer = ctx.rank ^ 2;
        const ep = s.eps[peer]!;
        gniCheck(gni.smsgInit(ep, { msgMaxSize: 1024, mboxMaxCredit: 3 }));
        await gni.exchange(0);
        const mpiBuf = new Float64Array([ctx.rank + 0.5]);
        if (ctx.rank === 1) await ctx.mpi.send(mpiBuf, 3, 7);
        if (ctx.rank === 3) await ctx.mpi.recv(mpiBuf, 1, 7);
        // MPI eager messages between the SMSG pair too, posted before the short messages flow
        const mpiIn = new Float64Array(1);
        const mpiReq = ctx.rank === 0 || ctx.rank === 2 ? [ctx.mpi.irecv(mpiIn, peer, 9), ctx.mpi.isend(new Float64Array([ctx.rank * 10]), peer, 9)] : [];
        if (ctx.rank === 0) {
          let retries = 0;
          for (let i = 0; i < sizes.length; i++) {
            const hdr = new Uint8Array([i]);
            let rc = (await gni.smsgSendWTag(ep, hdr, pattern(sizes[i]!, i), 100 + i, i % 4)).rc;
            while (rc === GNI_RC.NOT_DONE) {
              retries++;
              await ctx.compute({ us: 1 });
              rc = (await gni.smsgSendWTag(ep, hdr, pattern(sizes[i]!, i), 100 + i, i % 4)).rc;
            }
            expect(rc).toBe(GNI_RC.SUCCESS);
          }
          const local: number[] = [];
          while (local.length < sizes.length) local.push(event(await gni.cqWaitEvent(s.cq)).data);
          await ctx.mpi.waitAll(mpiReq);
          return { retries, local: local.sort((x, y) => x - y), mpi: mpiIn[0] };
        }
        if (ctx.rank === 2) {
          const got: { i: number; ok: boolean; tag: number; msgId: number; len: number }[] = [];
          const none = (await gni.smsgGetNext(ep)).rc;
          while (got.length < sizes.length) {
            const ev = event(await gni.cqWaitEvent(s.cq));
            expect(ev).toMatchObject({ type: 'SMSG', source: 'remote', data: 0 });
            const m = gniCheck(await gni.smsgGetNext(ep));
            const i = m.msg[0]!;
            got.push({ i, ok: sameBytes(m.msg.subarray(1), pattern(sizes[i]!, i)), tag: m.tag, msgId: m.msgId, len: m.msg.length - 1 });
            gniCheck(gni.smsgRelease(ep));
            // a slow receiver, so that the sender runs out of credits
            await ctx.compute({ us: 3 });
          }
          await ctx.mpi.waitAll(mpiReq);
          return { none, got, mpi: mpiIn[0] };
        }
        return ctx.rank === 3 ? mpiBuf[0] : null;
      },
    });
    const a = r.rankResults[0] as { retries: number; local: number[]; mpi: number };
    const c = r.rankResults[2] as { none: string; got: { i: number; ok: boolean; tag: number; msgId: number; len: number }[]; mpi: number };
    expect([a.mpi, c.mpi]).toEqual([20, 0]);
    expect(c.none).toBe(GNI_RC.NOT_DONE);
    expect(c.got.map((g) => g.i)).toEqual(sizes.map((_, i) => i));
    expect(c.got.every((g) => g.ok)).toBe(true);
    expect(c.got.map((g) => g.len)).toEqual(sizes);
    expect(c.got.map((g) => g.tag)).toEqual(sizes.map((_, i) => i % 4));
    expect(c.got.map((g) => g.msgId)).toEqual(sizes.map((_, i) => 100 + i));
    expect(a.retries).toBeGreaterThan(0);
    expect(a.local).toEqual(sizes.map((_, i) => 100 + i));
    expect(r.rankResults[3]).toBe(1.5);
  });

  it('bad setup calls: ptag out of range, duplicate instId, CQ of zero entries, foreign handles (INVALID_PARAM)', async () => {
    const r = await simulate({
      machine: 'xc30',
      nodes: 2,
      program: async (ctx) => {
        const gni = ctx.gni;
        const { cdm } = gniCheck(gni.cdmCreate(10 + ctx.rank, 1, 1));
        const { nic } = gniCheck(gni.cdmAttach(cdm));
        const shared = await gni.exchange(nic);
        return {
          ptag: gni.cdmCreate(1, 256, 0).rc,
          dup: gni.cdmCreate(10 + ctx.rank, 1, 1).rc,
          attachTwice: gni.cdmAttach(cdm).rc,
          cq0: gni.cqCreate(nic, 0).rc,
          foreign: gni.cqCreate(shared[1 - ctx.rank]!, 4).rc,
          bindRank: gni.epBind(gniCheck(gni.epCreate(nic)).ep, 9, 0).rc,
        };
      },
    });
    expect(r.result).toEqual({
      ptag: GNI_RC.INVALID_PARAM,
      dup: GNI_RC.INVALID_PARAM,
      attachTwice: GNI_RC.INVALID_STATE,
      cq0: GNI_RC.INVALID_PARAM,
      foreign: GNI_RC.INVALID_PARAM,
      bindRank: GNI_RC.INVALID_PARAM,
    });
  });
});
