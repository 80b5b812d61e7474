/**
 * The NIC's hardware blocks on their own (seed 001 "Aries NIC" to "Ordering and Completion",
 * seed 004 §II): the BTE's channels and fences, communication domains, vMDH, completion queues
 * and destination-side events, the AMO unit and its cache, the IOMMU's PTE cache, and FMA
 * descriptors. Driven straight on the NIC, below every API face.
 */
import { describe, expect, it } from 'vitest';
import { buildMachine, machineSpec, resolveMachine, type Machine } from '../fabric/machine.ts';
import { CompletionQueue, CqEventKind } from '../fabric/nic/cq.ts';
import { NicStatus, type NicTransfer } from '../fabric/nic/nic.ts';

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

const fill = (n: number, v: number): Uint8Array => new Uint8Array(n).fill(v);

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
