/**
 * NIC transfers over the xe6 network: the machine build, puts and gets of every size and mode move
 * real bytes, and error completions write nothing.
 */
import { describe, expect, it } from 'vitest';
import type { Machine } from '../fabric/machine.ts';
import { NicStatus, type NicMode } from '../fabric/nic/nic.ts';
import { machine, packetsOf, pattern, torusOf } from './network-helpers.ts';

const SIZES = [1, 8, 64, 65, 4096, 100_000];
const MODES: NicMode[] = ['fma', 'bte'];

interface Done {
  status: NicStatus | -1;
  calls: number;
  at: number;
}

function tracker(m: Machine): { done: Done; cb: (s: NicStatus) => void } {
  const done: Done = { status: -1, calls: 0, at: -1 };
  return {
    done,
    cb: (s) => {
      done.status = s;
      done.calls++;
      done.at = m.engine.now;
    },
  };
}

describe('xe6 machine build', () => {
  it('resolves 32 nodes to a 4x2x2 Gemini torus with 2 nodes per router and the dor routing', () => {
    expect(torusOf(machine(64)).dims).toEqual([4, 4, 2]);
    const m = machine(32);
    expect(torusOf(m).dims).toEqual([4, 2, 2]);
    expect(torusOf(m).links).toEqual([8, 4, 8]);
    expect(m.graph.nodes).toBe(32);
    expect(m.nics).toHaveLength(32);
    expect(m.config.topology.routing).toBe('dor');
    expect(m.net.nv).toBe(4);
    expect(m.hops(0, 1)).toBe(0); // same Gemini
    expect(m.hops(0, 2)).toBe(1);
    expect(m.hops(0, 31)).toBe(1 + 1 + 1); // router 15 = (3,1,1) from (0,0,0): one hop per dimension
  });
});

describe('NIC puts and gets move real bytes', () => {
  const PAIRS: [number, number][] = [
    [0, 1], // same router
    [0, 31],
    [5, 18],
    [31, 0],
    [12, 12], // to itself, through the local router
  ];

  for (const op of ['put', 'get'] as const) {
    for (const mode of MODES) {
      it(`${mode} ${op}s of sizes ${SIZES.join(', ')} arrive intact between several node pairs`, () => {
        const m = machine(32);
        const max = m.config.nic.format.maxPayloadBytes;
        let expectedPackets = 0;
        const checks: (() => void)[] = [];
        let salt = 1;
        for (const [src, dst] of PAIRS) {
          for (const size of SIZES) {
            const offset = 3; // unaligned
            const remote = new Uint8Array(size + 16);
            const local = new Uint8Array(size);
            const data = pattern(size, salt++);
            if (op === 'put') local.set(data);
            else remote.set(data, offset);
            const remoteBefore = remote.slice();
            const handle = m.nics[dst]!.register(remote);
            const t = tracker(m);
            const postedAt = m.engine.now;
            const cpu = m.nics[src]!.post({ op, mode, local, remoteNode: dst, remoteHandle: handle, remoteOffset: offset, onComplete: t.cb });
            expect(cpu).toBeGreaterThan(0);
            expectedPackets += packetsOf(size, max);
            checks.push(() => {
              const where = `${mode} ${op} ${src}->${dst} size ${size}`;
              expect(t.done.calls, where).toBe(1);
              expect(t.done.status, where).toBe(NicStatus.Ok);
              expect(t.done.at, where).toBeGreaterThan(postedAt);
              if (op === 'put') {
                expect(Buffer.from(remote.subarray(offset, offset + size)).equals(Buffer.from(data)), where).toBe(true);
                // nothing outside the target range was touched
                expect(Array.from(remote.subarray(0, offset)), where).toEqual([0, 0, 0]);
                expect(remote.subarray(offset + size).every((b) => b === 0), where).toBe(true);
              } else {
                expect(Buffer.from(local).equals(Buffer.from(data)), where).toBe(true);
                expect(Buffer.from(remote).equals(Buffer.from(remoteBefore)), where).toBe(true);
              }
            });
          }
        }
        m.engine.drain();
        for (const c of checks) c();
        expect(m.net.pkts.live).toBe(0);
        expect(m.engine.pending).toBe(0);
        // every request packet and its response were delivered exactly once
        expect(m.net.delivered).toBe(2 * expectedPackets);
      });
    }
  }

  it('a large put takes longer than a small one, and BTE starts later than FMA for one packet', () => {
    const times = (op: 'put' | 'get', mode: NicMode, size: number): number => {
      const m = machine(32);
      const seg = new Uint8Array(size);
      const h = m.nics[9]!.register(seg);
      const t = tracker(m);
      m.nics[0]!.post({ op, mode, local: new Uint8Array(size), remoteNode: 9, remoteHandle: h, remoteOffset: 0, onComplete: t.cb });
      m.engine.drain();
      expect(t.done.status).toBe(NicStatus.Ok);
      return t.done.at;
    };
    const large = 100_000; // bytes
    expect(times('put', 'fma', large)).toBeGreaterThan(times('put', 'fma', 64));
    expect(times('get', 'bte', large)).toBeGreaterThan(times('get', 'bte', 64));
    expect(times('put', 'bte', 8)).toBeGreaterThan(times('put', 'fma', 8));
  });
});

describe('NIC error completions', () => {
  it('a put to an unregistered handle completes with BadHandle (1) and writes nothing', () => {
    const m = machine(16);
    const seg = new Uint8Array(256);
    const h = m.nics[3]!.register(seg); // handle 0 is valid; handle h + 1 is not
    for (const mode of MODES) {
      for (const size of [8, 200]) {
        const t = tracker(m);
        m.nics[0]!.post({ op: 'put', mode, local: pattern(size, 7), remoteNode: 3, remoteHandle: h + 1, remoteOffset: 0, onComplete: t.cb });
        m.engine.drain();
        expect(t.done.calls).toBe(1);
        expect(t.done.status).toBe(NicStatus.BadHandle);
        expect(t.done.status).toBe(1);
      }
    }
    expect(seg.every((b) => b === 0)).toBe(true);
    expect(m.net.pkts.live).toBe(0);
  });

  it('a put or get to a deregistered handle completes with BadHandle; a get leaves the local buffer alone', () => {
    const m = machine(16);
    const seg = pattern(128, 3);
    const before = seg.slice();
    const h = m.nics[7]!.register(seg);
    m.nics[7]!.deregister(h);
    const tp = tracker(m);
    m.nics[2]!.post({ op: 'put', mode: 'fma', local: pattern(64, 9), remoteNode: 7, remoteHandle: h, remoteOffset: 0, onComplete: tp.cb });
    const local = new Uint8Array(100);
    const tg = tracker(m);
    m.nics[2]!.post({ op: 'get', mode: 'bte', local, remoteNode: 7, remoteHandle: h, remoteOffset: 0, onComplete: tg.cb });
    m.engine.drain();
    expect(tp.done.status).toBe(NicStatus.BadHandle);
    expect(tg.done.status).toBe(NicStatus.BadHandle);
    expect(Buffer.from(seg).equals(Buffer.from(before))).toBe(true);
    expect(local.every((b) => b === 0)).toBe(true);
    expect(m.net.pkts.live).toBe(0);
    expect(() => m.nics[7]!.deregister(h)).toThrow(RangeError);
  });

  it('a put past the segment end completes with OutOfBounds (2) and writes nothing', () => {
    const m = machine(16);
    // the segment is a window of a larger buffer: bytes past its end must stay untouched too
    const backing = new Uint8Array(512);
    const seg = backing.subarray(0, 100);
    const h = m.nics[5]!.register(seg);
    const cases: { mode: NicMode; size: number; offset: number }[] = [
      { mode: 'fma', size: 8, offset: 96 }, // one packet, 4 bytes over
      { mode: 'bte', size: 1, offset: 100 }, // one byte just past the end
      { mode: 'fma', size: 100, offset: 40 }, // two packets, both over the end
      { mode: 'bte', size: 300, offset: 60 }, // five packets, all over the end
      { mode: 'fma', size: 8, offset: -4 }, // before the start
    ];
    for (const c of cases) {
      const t = tracker(m);
      m.nics[0]!.post({ op: 'put', mode: c.mode, local: pattern(c.size, c.size), remoteNode: 5, remoteHandle: h, remoteOffset: c.offset, onComplete: t.cb });
      m.engine.drain();
      expect(t.done.calls, JSON.stringify(c)).toBe(1);
      expect(t.done.status, JSON.stringify(c)).toBe(NicStatus.OutOfBounds);
      expect(t.done.status).toBe(2);
      expect(backing.every((b) => b === 0), JSON.stringify(c)).toBe(true);
    }
    expect(m.net.pkts.live).toBe(0);
  });

  it('a get past the segment end completes with OutOfBounds and leaves the local buffer alone', () => {
    const m = machine(16);
    const seg = pattern(100, 11);
    const h = m.nics[9]!.register(seg);
    const local = new Uint8Array(30);
    const t = tracker(m);
    m.nics[1]!.post({ op: 'get', mode: 'fma', local, remoteNode: 9, remoteHandle: h, remoteOffset: 80, onComplete: t.cb });
    m.engine.drain();
    expect(t.done.status).toBe(NicStatus.OutOfBounds);
    expect(local.every((b) => b === 0)).toBe(true);
    expect(m.net.pkts.live).toBe(0);
  });

  it('a put that fits the segment exactly succeeds (the bounds check is not off by one)', () => {
    const m = machine(16);
    const seg = new Uint8Array(100);
    const h = m.nics[5]!.register(seg);
    const data = pattern(36, 5);
    const t = tracker(m);
    m.nics[0]!.post({ op: 'put', mode: 'fma', local: data, remoteNode: 5, remoteHandle: h, remoteOffset: 64, onComplete: t.cb });
    m.engine.drain();
    expect(t.done.status).toBe(NicStatus.Ok);
    expect(Buffer.from(seg.subarray(64)).equals(Buffer.from(data))).toBe(true);
  });
});
