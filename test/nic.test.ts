/**
 * The NIC's hardware blocks on their own (seed 001 "Aries NIC" to "Ordering and Completion",
 * seed 004 §II): the BTE's channels and fences, BTE sends into pre-posted receive buffers,
 * communication domains, vMDH, completion queues
 * and destination-side events, the AMO unit and its cache, the IOMMU's PTE cache, and FMA
 * descriptors. Driven straight on the NIC, below every API face.
 */
import { describe, expect, it } from 'vitest';
import { buildMachine, machineSpec, resolveMachine, type Machine } from '../fabric/machine.ts';
import { CompletionQueue, CqEventKind } from '../fabric/nic/cq.ts';
import { NicStatus, type NicSend, type NicTransfer } from '../fabric/nic/nic.ts';

function machine(name: string, nodes: number, overrides: Record<string, string> = {}): Machine {
  return buildMachine(resolveMachine(machineSpec(name), nodes, overrides), 1);
}

/** Posts `t` from `src` and records its completion status and time. */
function post(m: Machine, src: number, t: Omit<NicTransfer, 'onComplete'>): { status: NicStatus | -1; at: number } {
  const r = { status: -1 as NicStatus | -1, at: -1 };
  m.nics[src]!.post({
    ...t,
    onComplete: (s) => {
      r.status = s;
      r.at = m.engine.now;
    },
  });
  return r;
}

/** Sends `t` from `src` on the BTE and records its completion status and time. */
function send(m: Machine, src: number, t: Omit<NicSend, 'onComplete'>): { status: NicStatus | -1; at: number } {
  const r = { status: -1 as NicStatus | -1, at: -1 };
  m.nics[src]!.sendBte({
    ...t,
    onComplete: (s) => {
      r.status = s;
      r.at = m.engine.now;
    },
  });
  return r;
}

const fill = (n: number, v: number): Uint8Array => new Uint8Array(n).fill(v);

/** Every CQ event waiting in `q`, oldest first. */
function drainCq(q: CompletionQueue): ReturnType<CompletionQueue['get']>[] {
  const out = [];
  for (let e = q.get(); e; e = q.get()) out.push(e);
  return out;
}

describe('BTE channels and fences (seed 001 A14: up to four concurrent block transfers)', () => {
  it('runs at most bte.channels transfers at once: small transfers pipeline over the channels', () => {
    const finish = (channels: string): number => {
      const m = machine('xc30', 8, { 'bte.channels': channels });
      const seg = new Uint8Array(32 * 512);
      const h = m.nics[4]!.register(seg);
      const done = [...Array(32).keys()].map((i) => post(m, 0, { op: 'put', mode: 'bte', local: fill(512, i + 1), remoteNode: 4, remoteHandle: h, remoteOffset: i * 512 }));
      m.engine.drain();
      for (const [i, d] of done.entries()) {
        expect(d.status).toBe(NicStatus.Ok);
        expect(seg[i * 512 + 100]).toBe(i + 1);
      }
      return Math.max(...done.map((d) => d.at));
    };
    // one channel serialises the start-up and host-read latency of every transfer; four overlap them
    const one = finish('1');
    const four = finish('4');
    expect(one).toBeGreaterThan(3 * four);
    // a large transfer keeps the link busy on one channel (seed 001: one active channel suffices)
    const m = machine('xc30', 8, { 'bte.channels': '1' });
    const h = m.nics[4]!.register(new Uint8Array(1 << 20));
    const big = post(m, 0, { op: 'put', mode: 'bte', local: fill(1 << 20, 3), remoteNode: 4, remoteHandle: h, remoteOffset: 0 });
    m.engine.drain();
    expect((1 << 20) / (big.at / 1000)).toBeGreaterThan(9); // GB/s
  });

  it('a fenced transfer starts only after every earlier one has completed', () => {
    const m = machine('xc30', 8);
    const seg = new Uint8Array(2 * 65536);
    const h = m.nics[4]!.register(seg);
    const first = post(m, 0, { op: 'put', mode: 'bte', local: fill(65536, 1), remoteNode: 4, remoteHandle: h, remoteOffset: 0 });
    const plain = post(m, 0, { op: 'put', mode: 'bte', local: fill(64, 2), remoteNode: 4, remoteHandle: h, remoteOffset: 65536 });
    m.engine.drain();
    // without a fence, the small transfer overtakes the big one
    expect(plain.at).toBeLessThan(first.at);
    const m2 = machine('xc30', 8);
    const h2 = m2.nics[4]!.register(new Uint8Array(2 * 65536));
    const first2 = post(m2, 0, { op: 'put', mode: 'bte', local: fill(65536, 1), remoteNode: 4, remoteHandle: h2, remoteOffset: 0 });
    const fenced = post(m2, 0, { op: 'put', mode: 'bte', local: fill(64, 2), remoteNode: 4, remoteHandle: h2, remoteOffset: 65536, fence: true });
    m2.engine.drain();
    expect(fenced.at).toBeGreaterThan(first2.at);
  });
});

describe('BTE send into pre-posted receive buffers (seed 001 "Remote Memory Access", seed 004 §II.C)', () => {
  it('fills the buffers in posting order (not address order) and reports user id, bytes and source at the buffer CQ', () => {
    const m = machine('xc30', 8);
    const rx = m.nics[4]!;
    const seg = new Uint8Array(3000);
    const h = rx.register(seg);
    const cq = new CompletionQueue(8);
    // posted at offsets 2000, 0, 1000: the first send must land at 2000
    for (const [i, off] of [2000, 0, 1000].entries()) rx.postReceive({ inst: 2, handle: h, offset: off, length: 1000, userId: 100 + i, cq });
    expect(rx.receivesPosted(2)).toBe(3);
    const sizes = [300, 1000, 64];
    // fenced, so that each send's first packet arrives after the previous send has completed
    const done = sizes.map((n, i) => send(m, 0, { local: fill(n, i + 1), remoteNode: 4, remoteInst: 2, fence: i > 0 }));
    m.engine.drain();
    expect(done.map((d) => d.status)).toEqual([NicStatus.Ok, NicStatus.Ok, NicStatus.Ok]);
    expect(rx.receivesPosted(2)).toBe(0);
    for (const [i, off] of [2000, 0, 1000].entries()) {
      expect(seg.subarray(off, off + sizes[i]!).every((v) => v === i + 1)).toBe(true);
      // bytes past the message are untouched
      expect(seg.subarray(off + sizes[i]!, off + 1000).every((v) => v === 0)).toBe(true);
    }
    expect(drainCq(cq)).toEqual([
      { kind: CqEventKind.Receive, status: NicStatus.Ok, data: 100, sourceNode: 0, bytes: 300 },
      { kind: CqEventKind.Receive, status: NicStatus.Ok, data: 101, sourceNode: 0, bytes: 1000 },
      { kind: CqEventKind.Receive, status: NicStatus.Ok, data: 102, sourceNode: 0, bytes: 64 },
    ]);
  });

  it('two senders sending at once each get whole buffers, though their packets interleave at the target', () => {
    const m = machine('xc30', 8);
    const rx = m.nics[4]!;
    const n = 4096;
    const seg = new Uint8Array(6 * n);
    const h = rx.register(seg);
    const cq = new CompletionQueue(8);
    for (let b = 0; b < 6; b++) rx.postReceive({ handle: h, offset: b * n, length: n, userId: b, cq });
    // source s sends messages filled with 10 * (s + 1) + i
    const done = [0, 1].flatMap((src) => [0, 1, 2].map((i) => send(m, src, { local: fill(n, 10 * (src + 1) + i), remoteNode: 4, remoteInst: 0 })));
    m.engine.drain();
    expect(done.every((d) => d.status === NicStatus.Ok)).toBe(true);
    const evs = drainCq(cq);
    expect(evs.map((e) => e!.data).sort()).toEqual([0, 1, 2, 3, 4, 5]);
    const got: number[] = [];
    for (const e of evs) {
      const buf = seg.subarray(e!.data * n, (e!.data + 1) * n);
      const v = buf[0]!;
      expect(buf.every((x) => x === v)).toBe(true);
      // the event names the sender whose message fills the buffer
      expect(e!.sourceNode).toBe(Math.floor(v / 10) - 1);
      expect(e!.bytes).toBe(n);
      got.push(v);
    }
    expect(got.sort()).toEqual([10, 11, 12, 20, 21, 22]);
    // the two senders' buffers alternate: both were receiving at once
    const bySender = evs.map((e) => e!.sourceNode);
    expect(new Set(bySender.slice(0, 3)).size).toBe(2);
  });

  it('no buffer posted, or another domain: the send fails with a status, writes nothing and takes no buffer', () => {
    const m = machine('xe6', 8);
    const rx = m.nics[4]!;
    const seg = new Uint8Array(256);
    const h = rx.register(seg, { ptag: 3 });
    const cq = new CompletionQueue(4);
    const srcCq = new CompletionQueue(4);
    const none = send(m, 0, { local: fill(64, 7), remoteNode: 4, remoteInst: 1, ptag: 3, cq: srcCq, cqData: 5 });
    m.engine.drain();
    expect(none.status).toBe(NicStatus.NoReceiveBuffer);
    expect(srcCq.get()).toEqual({ kind: CqEventKind.Local, status: NicStatus.NoReceiveBuffer, data: 5, sourceNode: 0 });
    rx.postReceive({ inst: 1, handle: h, offset: 0, length: 256, userId: 9, cq });
    const foreign = send(m, 0, { local: fill(64, 7), remoteNode: 4, remoteInst: 1, ptag: 4 });
    m.engine.drain();
    expect(foreign.status).toBe(NicStatus.DomainRefused);
    expect(rx.receivesPosted(1)).toBe(1);
    expect(seg.every((v) => v === 0)).toBe(true);
    expect(cq.size).toBe(0);
    // the buffer is still there for a send of its domain; once taken, the next send finds none
    const ok = send(m, 0, { local: fill(64, 8), remoteNode: 4, remoteInst: 1, ptag: 3 });
    m.engine.drain();
    const late = send(m, 0, { local: fill(64, 9), remoteNode: 4, remoteInst: 1, ptag: 3 });
    m.engine.drain();
    expect([ok.status, late.status]).toEqual([NicStatus.Ok, NicStatus.NoReceiveBuffer]);
    expect(seg[63]).toBe(8);
    expect(seg[64]).toBe(0);
    expect(cq.size).toBe(1);
  });

  it('a message longer than its buffer fails with ReceiveOverflow, writes nothing and uses the buffer up; so does a deregistered one', () => {
    const m = machine('xc30', 8);
    const rx = m.nics[4]!;
    const seg = new Uint8Array(400);
    const h = rx.register(seg);
    const spare = rx.register(new Uint8Array(64));
    const cq = new CompletionQueue(8);
    rx.postReceive({ handle: h, offset: 0, length: 100, userId: 1, cq });
    rx.postReceive({ handle: spare, offset: 0, length: 64, userId: 2, cq });
    rx.postReceive({ handle: h, offset: 100, length: 300, userId: 3, cq });
    rx.deregister(spare);
    const results = [0, 1, 2].map((i) => send(m, 0, { local: fill(200, i + 1), remoteNode: 4, remoteInst: 0, fence: i > 0 }));
    m.engine.drain();
    expect(results.map((r) => r.status)).toEqual([NicStatus.ReceiveOverflow, NicStatus.BadHandle, NicStatus.Ok]);
    // the receiver learns which buffers were used up, and how long the message that overflowed was
    expect(drainCq(cq)).toEqual([
      { kind: CqEventKind.Receive, status: NicStatus.ReceiveOverflow, data: 1, sourceNode: 0, bytes: 200 },
      { kind: CqEventKind.Receive, status: NicStatus.BadHandle, data: 2, sourceNode: 0, bytes: 200 },
      { kind: CqEventKind.Receive, status: NicStatus.Ok, data: 3, sourceNode: 0, bytes: 200 },
    ]);
    expect(seg.subarray(0, 100).every((v) => v === 0)).toBe(true);
    expect(seg.subarray(100, 300).every((v) => v === 3)).toBe(true);
  });

  it('a fenced send waits for the big one before it; unfenced, it completes first, yet the big one, whose first packet arrived first, holds the first buffer', () => {
    const run = (fence: boolean): { big: number; small: number; bigAt: number; smallAt: number } => {
      const m = machine('xc30', 8);
      const rx = m.nics[4]!;
      const seg = new Uint8Array(2 * 65536);
      const h = rx.register(seg);
      const cq = new CompletionQueue(4);
      rx.postReceive({ handle: h, offset: 0, length: 65536, userId: 0, cq });
      rx.postReceive({ handle: h, offset: 65536, length: 65536, userId: 1, cq });
      const big = send(m, 0, { local: fill(65536, 1), remoteNode: 4, remoteInst: 0 });
      m.engine.drain(200_000); // the big send is on its way (0.2 us)
      const small = send(m, 0, { local: fill(64, 2), remoteNode: 4, remoteInst: 0, fence });
      m.engine.drain();
      expect([big.status, small.status]).toEqual([NicStatus.Ok, NicStatus.Ok]);
      const ev = drainCq(cq);
      const buf = (v: number): number => ev.find((e) => seg[e!.data * 65536] === v)!.data;
      return { big: buf(1), small: buf(2), bigAt: big.at, smallAt: small.at };
    };
    const fenced = run(true);
    expect(fenced.smallAt).toBeGreaterThan(fenced.bigAt);
    expect([fenced.big, fenced.small]).toEqual([0, 1]);
    const loose = run(false);
    expect(loose.smallAt).toBeLessThan(loose.bigAt);
    // buffers are matched when a send's first packet arrives, not when its last one does
    expect([loose.big, loose.small]).toEqual([0, 1]);
  });

  it.each(['xc30', 'xe6'])('takes the time of a BTE put of the same size on %s', (name) => {
    const time = (n: number, how: 'put' | 'send'): number => {
      const m = machine(name, 8);
      const h = m.nics[4]!.register(new Uint8Array(n));
      m.nics[4]!.postReceive({ handle: h, offset: 0, length: n, userId: 0, cq: new CompletionQueue(1) });
      const local = fill(n, 1);
      const r = how === 'put' ? post(m, 0, { op: 'put', mode: 'bte', local, remoteNode: 4, remoteHandle: h, remoteOffset: 0 }) : send(m, 0, { local, remoteNode: 4, remoteInst: 0 });
      m.engine.drain();
      expect(r.status).toBe(NicStatus.Ok);
      return r.at;
    };
    for (const n of [8, 4096, 1 << 20]) {
      const put = time(n, 'put');
      const sent = time(n, 'send');
      expect(Math.abs(sent / put - 1)).toBeLessThan(0.01);
      // and it is a block transfer: slower than an FMA put when small (BTE start-up)
      if (n === 8) {
        const m = machine(name, 8);
        const h = m.nics[4]!.register(new Uint8Array(n));
        const fma = post(m, 0, { op: 'put', mode: 'fma', local: fill(n, 1), remoteNode: 4, remoteHandle: h, remoteOffset: 0 });
        m.engine.drain();
        expect(sent).toBeGreaterThan(1.5 * fma.at);
      }
    }
  });

  it('rejects a receive buffer outside its segment, of an unregistered handle or of another domain than its queue', () => {
    const m = machine('xc30', 4);
    const rx = m.nics[2]!;
    const cq = new CompletionQueue(1);
    const h = rx.register(new Uint8Array(100), { ptag: 1 });
    const other = rx.register(new Uint8Array(100), { ptag: 2 });
    expect(() => rx.postReceive({ handle: h, offset: 50, length: 51, userId: 0, cq })).toThrow(/inside the 100-byte segment/);
    expect(() => rx.postReceive({ handle: 77, offset: 0, length: 1, userId: 0, cq })).toThrow(/not registered/);
    rx.postReceive({ handle: h, offset: 0, length: 100, userId: 0, cq });
    expect(() => rx.postReceive({ handle: other, offset: 0, length: 100, userId: 0, cq })).toThrow(/domain 2 .* domain 1/);
    expect(rx.clearReceives(0)).toBe(1);
    rx.postReceive({ handle: other, offset: 0, length: 100, userId: 0, cq });
    expect(rx.receivesPosted(0)).toBe(1);
  });
});

describe('communication domains, vMDH and completion queues', () => {
  it('refuses an access from another ptag and changes no memory', () => {
    const m = machine('xc30', 8);
    const seg = new Uint8Array(64);
    const h = m.nics[4]!.register(seg, { ptag: 7 });
    const bad = post(m, 0, { op: 'put', mode: 'fma', local: fill(8, 9), remoteNode: 4, remoteHandle: h, remoteOffset: 0, ptag: 8 });
    const good = post(m, 0, { op: 'put', mode: 'fma', local: fill(8, 5), remoteNode: 4, remoteHandle: h, remoteOffset: 8, ptag: 7 });
    m.engine.drain();
    expect(bad.status).toBe(NicStatus.DomainRefused);
    expect(good.status).toBe(NicStatus.Ok);
    expect([...seg.subarray(0, 8)]).toEqual(new Array(8).fill(0));
    expect(seg[8]).toBe(5);
  });

  it('reaches each instance through the same virtual handle (vMDH) and refuses an unbound one', () => {
    const m = machine('xc30', 8);
    const a = new Uint8Array(16);
    const b = new Uint8Array(16);
    m.nics[4]!.register(new Uint8Array(4)); // shifts the real handles so that they differ from the virtual one
    m.nics[4]!.register(a, { inst: 0, vmdh: 3 });
    m.nics[4]!.register(b, { inst: 1, vmdh: 3 });
    expect(() => m.nics[4]!.register(new Uint8Array(1), { inst: 1, vmdh: 3 })).toThrow(/already bound/);
    const toA = post(m, 0, { op: 'put', mode: 'fma', local: fill(4, 1), remoteNode: 4, remoteInst: 0, vmdh: true, remoteHandle: 3, remoteOffset: 0 });
    const toB = post(m, 0, { op: 'put', mode: 'fma', local: fill(4, 2), remoteNode: 4, remoteInst: 1, vmdh: true, remoteHandle: 3, remoteOffset: 0 });
    const unbound = post(m, 0, { op: 'put', mode: 'fma', local: fill(4, 3), remoteNode: 4, remoteInst: 2, vmdh: true, remoteHandle: 3, remoteOffset: 0 });
    m.engine.drain();
    expect([toA.status, toB.status, unbound.status]).toEqual([NicStatus.Ok, NicStatus.Ok, NicStatus.BadHandle]);
    expect(a[0]).toBe(1);
    expect(b[0]).toBe(2);
  });

  it('writes local events with status and user data, remote events to the segment CQ, and marks an overrun', () => {
    const m = machine('xe6', 4);
    const local = new CompletionQueue(2);
    const remote = new CompletionQueue(8);
    const seg = new Uint8Array(256);
    const h = m.nics[2]!.register(seg, { cq: remote });
    for (let i = 0; i < 3; i++) {
      m.nics[0]!.post({ op: 'put', mode: 'fma', local: fill(100, i + 1), remoteNode: 2, remoteHandle: h, remoteOffset: 0, cq: local, cqData: 10 + i, remoteEvent: true, remoteData: 20 + i });
    }
    m.nics[0]!.post({ op: 'get', mode: 'fma', local: new Uint8Array(8), remoteNode: 2, remoteHandle: h, remoteOffset: 250, cq: local, cqData: 99 });
    m.engine.drain();
    // two entries fit; the third and the failed get's event are dropped and the queue says so
    expect(local.overrun).toBe(true);
    const e1 = local.get()!;
    expect(e1).toMatchObject({ kind: CqEventKind.Local, status: NicStatus.Ok, data: 10, sourceNode: 0 });
    expect(local.get()!.data).toBe(11);
    expect(local.get()).toBeUndefined();
    const datas = [remote.get(), remote.get(), remote.get()].map((e) => (e!.kind === CqEventKind.Remote ? e!.data : -1));
    expect(datas.sort()).toEqual([20, 21, 22]);
    expect(remote.get()).toBeUndefined();
    // a failed transfer reports its status word
    const q = new CompletionQueue(4);
    m.nics[0]!.post({ op: 'get', mode: 'fma', local: new Uint8Array(8), remoteNode: 2, remoteHandle: h, remoteOffset: 250, cq: q, cqData: 7 });
    m.engine.drain();
    expect(q.get()).toMatchObject({ status: NicStatus.OutOfBounds, data: 7 });
  });
});

describe('AMO unit (seed 001 A14, A27; seed 004 §II.E, G11)', () => {
  const amo = (m: Machine, h: number, offset: number, op: 'add' | 'cswap' | 'swap' | 'xor', operand: bigint, fetch: boolean, compare?: bigint) => {
    const local = new Uint8Array(8);
    const r = post(m, 0, { op: 'amo', mode: 'fma', local, remoteNode: 2, remoteHandle: h, remoteOffset: offset, amo: { op, width: 8, operand, fetch, ...(compare !== undefined ? { compare } : {}) } });
    return { r, old: () => new DataView(local.buffer).getBigUint64(0, true) };
  };

  it('executes add, xor, swap and compare-swap on real memory and returns old values', () => {
    const m = machine('xc30', 4);
    const seg = new Uint8Array(64);
    const view = new DataView(seg.buffer);
    view.setBigUint64(8, 40n, true);
    const h = m.nics[2]!.register(seg);
    const add = amo(m, h, 8, 'add', 2n, true);
    m.engine.drain();
    const cs = amo(m, h, 8, 'cswap', 7n, true, 42n);
    m.engine.drain();
    const csMiss = amo(m, h, 8, 'cswap', 9n, true, 42n);
    m.engine.drain();
    const sw = amo(m, h, 16, 'swap', 0xffff_ffff_ffff_ffffn, true);
    m.engine.drain();
    const x = amo(m, h, 16, 'xor', 0xffn, false);
    m.engine.drain();
    expect([add.old(), cs.old(), csMiss.old(), sw.old()]).toEqual([40n, 42n, 7n, 0n]);
    expect(view.getBigUint64(8, true)).toBe(7n);
    expect(view.getBigUint64(16, true)).toBe(0xffff_ffff_ffff_ff00n);
    expect(x.r.status).toBe(NicStatus.Ok);
    // a misaligned variable is refused and unchanged
    const bad = amo(m, h, 12, 'add', 1n, false);
    m.engine.drain();
    expect(bad.r.status).toBe(NicStatus.Misaligned);
    expect(view.getBigUint64(8, true)).toBe(7n);
  });

  it('hits its 64-entry cache on one hot variable and misses on more variables than it holds', () => {
    const m = machine('xc30', 4);
    const seg = new Uint8Array(8 * 200);
    const h = m.nics[2]!.register(seg, { pageBytes: 2 * 1024 * 1024 });
    for (let i = 0; i < 50; i++) amo(m, h, 0, 'add', 1n, false);
    m.engine.drain();
    expect(m.nics[2]!.amoStats).toEqual({ hits: 49, misses: 1 });
    // 100 variables cycled twice through a 64-entry LRU cache: every access misses
    for (let round = 0; round < 2; round++) for (let v = 1; v <= 100; v++) amo(m, h, 8 * v, 'add', 1n, false);
    m.engine.drain();
    expect(m.nics[2]!.amoStats.misses).toBe(1 + 200);
    expect(new DataView(seg.buffer).getBigUint64(8 * 77, true)).toBe(2n);
  });

  it('a machine without an AMO cache reads memory for every AMO (sc5832)', () => {
    const m = machine('sc5832', 4);
    const h = m.nics[2]!.register(new Uint8Array(8));
    for (let i = 0; i < 5; i++) amo(m, h, 0, 'add', 1n, false);
    m.engine.drain();
    expect(m.nics[2]!.amoStats).toEqual({ hits: 0, misses: 5 });
  });
});

describe('IOMMU PTE cache (seed 001 A13: four-way, 128 entries of eight PTEs)', () => {
  it('covers 4 MiB of 4 KiB pages and 2 GiB of 2 MiB pages; a miss costs a page-table read', () => {
    const sweep = (pageBytes: number, span: number): { hits: number; misses: number } => {
      const m = machine('xc30', 4);
      const h = m.nics[2]!.register(new Uint8Array(span), { pageBytes });
      // two passes over the span, one 8-byte put per 4 KiB
      for (let pass = 0; pass < 2; pass++) {
        for (let off = 0; off < span; off += 4096) post(m, 0, { op: 'put', mode: 'fma', local: fill(8, 1), remoteNode: 2, remoteHandle: h, remoteOffset: off });
      }
      m.engine.drain();
      return m.nics[2]!.pteStats;
    };
    // 2 MiB of 4 KiB pages: 64 entries of 8 pages, within reach; the second pass hits
    expect(sweep(4096, 2 * 1024 * 1024)).toEqual({ hits: 512 - 64 + 512, misses: 64 });
    // 8 MiB of 4 KiB pages: beyond the 4 MiB reach, LRU misses on every entry of both passes
    expect(sweep(4096, 8 * 1024 * 1024).misses).toBe(2 * 256);
    // the same 8 MiB on 2 MiB pages: one entry covers it all
    expect(sweep(2 * 1024 * 1024, 8 * 1024 * 1024).misses).toBe(1);
    // a miss takes host read slots: gets to a fresh page each wait behind the page-table reads
    const getsOver = (pageBytes: number): number => {
      const m = machine('xc30', 4, { 'host.readsInFlight': '4' });
      const span = 64 * 1024 * 1024;
      const h = m.nics[2]!.register(new Uint8Array(span), { pageBytes });
      const done = [...Array(64).keys()].map((i) => post(m, 0, { op: 'get', mode: 'fma', local: new Uint8Array(8), remoteNode: 2, remoteHandle: h, remoteOffset: i * (span / 64) }));
      m.engine.drain();
      return Math.max(...done.map((d) => d.at));
    };
    expect(getsOver(4096)).toBeGreaterThan(2 * getsOver(1024 * 1024 * 1024));
  });
});

describe('FMA descriptors (seed 001 A14: at most 127 per NIC)', () => {
  it('hands out fma.descriptors of them and refuses more until one is freed', () => {
    const m = machine('xc30', 4);
    const nic = m.nics[0]!;
    const got = [...Array(127).keys()].map((i) => nic.allocFma(i));
    expect(new Set(got).size).toBe(127);
    expect(nic.allocFma(200)).toBe(-1);
    nic.freeFma(got[5]!);
    expect(nic.allocFma(201)).toBe(got[5]);
    expect(() => nic.freeFma(500)).toThrow(/not allocated/);
  });
});

describe('short-message landing buffers', () => {
  /** Sends three 24-byte short messages from node 0 to node 5, one after the other; what the handler saw of each. */
  function three(lent: boolean): { bytes: number[][]; buffers: Uint8Array[] } {
    const m = machine('xe6', 8);
    const seen = { bytes: [] as number[][], buffers: [] as Uint8Array[] };
    m.nics[5]!.setSmsgHandler(0, (_src, _meta, payload) => {
      seen.bytes.push(Array.from(payload));
      seen.buffers.push(payload);
    }, 0, lent);
    const send = (i: number): void => {
      m.nics[0]!.sendSmsg(5, 0, i, Uint8Array.from({ length: 24 }, (_, j) => i * 24 + j), (s) => {
        expect(s).toBe(NicStatus.Ok);
        if (i < 2) send(i + 1);
      });
    };
    send(0);
    m.engine.drain();
    return seen;
  }

  it('a handler that takes the payload as lent gets every message\'s bytes in one buffer the NIC reuses; otherwise each message has its own', () => {
    const expected = [0, 1, 2].map((i) => Array.from({ length: 24 }, (_, j) => i * 24 + j));
    const lent = three(true);
    const own = three(false);
    expect(lent.bytes).toEqual(expected);
    expect(own.bytes).toEqual(expected);
    // lent: the next message lands where the one before did, so the buffer now holds the last one
    expect(new Set(lent.buffers).size).toBe(1);
    expect(Array.from(lent.buffers[0]!)).toEqual(expected[2]);
    // kept: each buffer still holds its own message
    expect(new Set(own.buffers).size).toBe(3);
    expect(own.buffers.map((b) => Array.from(b))).toEqual(expected);
  });
});

describe('short-message window (nic.smsgWindow)', () => {
  /** Sends a 1,000-byte short message from node 0 to node 5; the most request packets in flight at once, the payload and the time. */
  function smsg(window: string, ackDelay = '0ns'): { maxInFlight: number; payload: Uint8Array; at: number } {
    const m = machine('sc5832', 12, { 'nic.smsgWindow': window, 'nic.smsgAckDelay': ackDelay });
    const pk = m.net.pkts;
    let inFlight = 0;
    let maxInFlight = 0;
    // a request packet enters at the source NIC's injection channel and is answered at the target
    const injection = m.graph.routers * m.graph.radix;
    m.net.onHop = (p, chan) => {
      if (chan < injection) return;
      if (pk.vcClass[p] === 0 && pk.src[p] === 0) maxInFlight = Math.max(maxInFlight, ++inFlight);
      else if (pk.vcClass[p] === 1 && pk.src[p] === 5) inFlight--;
    };
    const data = Uint8Array.from({ length: 1000 }, (_, i) => (i * 7) & 255);
    let payload = new Uint8Array(0);
    m.nics[5]!.setSmsgHandler(0, (_src, _meta, bytes) => (payload = bytes.slice()));
    let at = -1;
    m.nics[0]!.sendSmsg(5, 0, null, data, (s) => {
      expect(s).toBe(NicStatus.Ok);
      at = m.engine.now;
    });
    m.engine.drain();
    expect(at).toBeGreaterThan(0);
    return { maxInFlight, payload, at };
  }

  it('with a window of 1 each packet waits for the acknowledgement of the one before; with 0 the packets stream', () => {
    const one = smsg('1');
    const stream = smsg('0');
    expect(one.maxInFlight).toBe(1);
    // 1,000 bytes and a 32-byte header in 128-byte packets: 9 packets, several out before the first answer
    expect(stream.maxInFlight).toBeGreaterThan(2);
    for (const r of [one, stream]) expect(Array.from(r.payload)).toEqual(Array.from({ length: 1000 }, (_, i) => (i * 7) & 255));
    // eight more round trips take longer than eight more packet times
    expect(one.at).toBeGreaterThan(stream.at + 8 * 0.3e6);
  });

  it('nic.smsgAckDelay holds each acknowledgement back: with a window of 1, nine packets wait nine times (the last for the completion)', () => {
    const at = smsg('1').at;
    const delayed = smsg('1', '1us');
    expect(delayed.maxInFlight).toBe(1);
    expect(Array.from(delayed.payload)).toEqual(Array.from({ length: 1000 }, (_, i) => (i * 7) & 255));
    expect(delayed.at - at).toBeGreaterThanOrEqual(9 * 1e6);
    expect(delayed.at - at).toBeLessThan(9 * 1e6 + 0.2e6);
    // streamed packets overlap their delays: the message completes about one delay later
    const streamed = smsg('0', '1us').at - smsg('0').at;
    expect(streamed).toBeGreaterThanOrEqual(1e6);
    expect(streamed).toBeLessThan(1.5e6);
  });
});
