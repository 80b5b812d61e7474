import { describe, expect, it } from 'vitest';
import { Prng } from '../fabric/engine/prng.ts';
import { Engine } from '../fabric/engine/engine.ts';
import { buildMachine, linksByClass, machineSpec, resolveMachine, type Machine } from '../fabric/machine.ts';
import { Network } from '../fabric/network.ts';
import { PacketPool } from '../fabric/packet.ts';
import { buildTopology } from '../fabric/topology/topologies.ts';
import { NicStatus, type NicMode } from '../fabric/nic/nic.ts';
import type { TorusGraph } from '../fabric/topology/torus.ts';
import { injectPacket, sortDependencies } from './helpers.ts';

const SIZES = [1, 8, 64, 65, 4096, 100_000];
const MODES: NicMode[] = ['fma', 'bte'];

function machine(nodes: number, seed = 1, overrides: Record<string, string> = {}): Machine {
  return buildMachine(resolveMachine(machineSpec('xe6'), nodes, overrides), seed);
}

/** Deterministic, position- and stream-dependent bytes (never all zero). */
function pattern(n: number, salt: number): Uint8Array {
  const rng = new Prng(salt);
  const out = new Uint8Array(n);
  for (let i = 0; i < n; i++) out[i] = 1 + (rng.nextU32() % 255);
  return out;
}

/** Packets a transfer of `bytes` takes at `maxPayload` bytes per packet. */
function packetsOf(bytes: number, maxPayload: number): number {
  return Math.max(1, Math.ceil(bytes / maxPayload));
}

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

/** The torus graph of a machine built from a torus preset. */
function torusOf(m: Machine): TorusGraph {
  if (m.graph.topology !== 'torus') throw new Error(`expected a torus, got ${m.graph.topology}`);
  return m.graph as TorusGraph;
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

/** A fixed mixed workload; returns every completion as "node:index@time". */
function workload(seed: number): { log: string[]; events: number; linkHops: number } {
  const m = machine(32, seed);
  const rng = new Prng(77); // the workload itself is fixed; only the machine seed varies
  const log: string[] = [];
  const segs = m.nics.map((nic) => {
    const s = new Uint8Array(64 * 1024);
    return nic.register(s);
  });
  for (let src = 0; src < 32; src++) {
    for (let i = 0; i < 6; i++) {
      const dst = rng.int(32);
      const size = 1 + rng.int(3000);
      const op = rng.int(2) === 0 ? 'put' : 'get';
      const mode: NicMode = rng.int(2) === 0 ? 'fma' : 'bte';
      m.nics[src]!.post({
        op,
        mode,
        local: new Uint8Array(size),
        remoteNode: dst,
        remoteHandle: segs[dst]!,
        remoteOffset: rng.int(60_000),
        onComplete: (s) => log.push(`${src}:${i}:${s}@${m.engine.now}`),
      });
    }
  }
  m.engine.drain();
  expect(m.net.pkts.live).toBe(0);
  return { log, events: m.engine.events, linkHops: m.net.linkHops };
}

describe('determinism', () => {
  it('the same seed gives identical completion times, order and event counts', () => {
    const a = workload(1);
    const b = workload(1);
    expect(a.log).toHaveLength(32 * 6);
    expect(b.log).toEqual(a.log);
    expect(b.events).toBe(a.events);
    expect(b.linkHops).toBe(a.linkHops);
    const c = workload(12345);
    expect(c.log).toHaveLength(32 * 6);
  });
});

describe('all-to-all stress (credits, no deadlock, no leak)', () => {
  /**
   * Every node puts to random destinations at the same time. Each (src, i) pair owns its own
   * slot in the destination segment, so all data can be checked afterwards.
   */
  function stress(overrides: Record<string, string>, putsPerNode: number, maxSize: number): void {
    const N = 64;
    const m = machine(N, 1, overrides);
    const max = m.config.nic.format.maxPayloadBytes;
    const rng = new Prng(2024);
    const slot = maxSize;
    const segs = m.nics.map(() => new Uint8Array(N * putsPerNode * slot));
    const handles = m.nics.map((nic, i) => nic.register(segs[i]!));
    const expectations: { dst: number; off: number; data: Uint8Array }[] = [];
    const status: (NicStatus | -1)[] = [];
    let packets = 0;
    let hops = 0;
    for (let src = 0; src < N; src++) {
      for (let i = 0; i < putsPerNode; i++) {
        const dst = rng.int(N);
        const size = 1 + rng.int(maxSize);
        const off = (src * putsPerNode + i) * slot;
        const data = pattern(size, src * 1000 + i + 1);
        const k = status.length;
        status.push(-1);
        expectations.push({ dst, off, data });
        packets += packetsOf(size, max);
        hops += packetsOf(size, max) * 2 * m.hops(src, dst);
        m.nics[src]!.post({
          op: 'put',
          mode: rng.int(2) === 0 ? 'fma' : 'bte',
          local: data,
          remoteNode: dst,
          remoteHandle: handles[dst]!,
          remoteOffset: off,
          onComplete: (s) => {
            expect(status[k]).toBe(-1); // exactly one completion
            status[k] = s;
          },
        });
      }
    }
    m.engine.drain();
    expect(status.every((s) => s === NicStatus.Ok)).toBe(true);
    expect(m.net.pkts.live).toBe(0);
    expect(m.engine.pending).toBe(0);
    expect(m.net.delivered).toBe(2 * packets);
    // dimension-order routes are minimal: each packet and its response take torusDistance hops
    expect(m.net.linkHops).toBe(hops);
    let bad = 0;
    for (const e of expectations) {
      if (!Buffer.from(segs[e.dst]!.subarray(e.off, e.off + e.data.length)).equals(Buffer.from(e.data))) bad++;
    }
    expect(bad).toBe(0);
    // and nothing was written outside the owned slots
    let used = 0;
    for (const e of expectations) used += e.data.length;
    let nonZero = 0;
    for (const s of segs) for (let i = 0; i < s.length; i++) if (s[i] !== 0) nonZero++;
    expect(nonZero).toBe(used);
  }

  it('64 nodes, uniform random puts with the xe6 buffers: all data correct, nothing leaked', () => {
    stress({}, 24, 2048);
  });

  it('64 nodes with minimal buffers (one full packet per VC) and one link per direction still completes', () => {
    stress({ 'router.inputBuffer': '32', 'nic.receiveBuffer': '32', 'torus.links': '1,1,1' }, 16, 1024);
  });

  it('refuses buffers beyond the 16-bit credit counts, naming the parameters', () => {
    expect(() => resolveMachine(machineSpec('xe6'), 2, { 'nic.receiveBuffer': '40000' })).toThrow(/nic.receiveBuffer=40000\) must each be at most 32767 phits/);
    expect(() => resolveMachine(machineSpec('sc5832'), 12, { 'router.inputBuffer': '32767' })).not.toThrow();
  });
});

describe('VC use of response packets', () => {
  /**
   * Records, for every packet that crosses a router-to-router link, the VC it uses and whether it
   * has crossed the dateline (wraparound link) of the dimension it travels in.
   */
  function traceVcs(m: Machine): { cls: number; vc: number; expected: number; dim: number }[] {
    const g = torusOf(m);
    const pk = m.net.pkts;
    const n = g.dims.length;
    const nGP = g.routers * g.radix;
    const state = new Map<number, { dim: number; crossed: number }>();
    const out: { cls: number; vc: number; expected: number; dim: number }[] = [];
    m.net.onHop = (p, chan) => {
      if (chan >= nGP) {
        state.set(p, { dim: -1, crossed: 0 }); // injection: a new trip starts
        return;
      }
      const cls = g.portClass[chan]!;
      if (cls < 2) return; // ejection
      const d = (cls - 2) >> 1;
      const plus = ((cls - 2) & 1) === 0;
      const st = state.get(p)!;
      if (st.dim !== d) {
        st.dim = d;
        st.crossed = 0;
      }
      const r = Math.floor(chan / g.radix);
      const c = g.coords[r * n + d]!;
      const k = g.dims[d]!;
      if (g.wrap[d] && ((plus && c === k - 1) || (!plus && c === 0))) st.crossed = 1;
      out.push({ cls: pk.vcClass[p]!, vc: pk.vc[p]!, expected: 2 * pk.vcClass[p]! + st.crossed, dim: d });
    };
    return out;
  }

  /** An 8-byte put from node 4 (router 2) to node 0 on a 4-router ring; returns the traced hops. */
  function putOverDateline(): ReturnType<typeof traceVcs> {
    const m = machine(8, 1, { 'torus.dims': '4,1,1' });
    const hops = traceVcs(m);
    const h = m.nics[0]!.register(new Uint8Array(64));
    m.nics[4]!.post({ op: 'put', mode: 'fma', local: pattern(8, 1), remoteNode: 0, remoteHandle: h, remoteOffset: 0, onComplete: () => {} });
    m.engine.drain();
    return hops;
  }

  it('request packets use the low VC of class 0 until they cross the dateline, then the high one', () => {
    // node 4 sits on router 2: the put goes 2 -> 3 -> 0 (x+, over the wraparound link 3 -> 0)
    const hops = putOverDateline();
    const req = hops.filter((x) => x.cls === 0);
    expect(req.map((x) => x.vc)).toEqual([0, 1]);
    expect(req.map((x) => x.expected)).toEqual([0, 1]);
  });

  // Regression: a response reuses its request's packet; Network.inject must reset the torus
  // routing state, or a response whose first dimension is the request's last one inherits
  // rDateline = 1 and rides the high VC before it has crossed the dateline.
  it('a response packet uses the low VC of class 1 until it crosses the dateline (routing state is reset)', () => {
    // request 2 -> 3 -> 0 crosses the x dateline; its response 0 -> 1 -> 2 (tie: + way) does not
    const hops = putOverDateline();
    const resp = hops.filter((x) => x.cls === 1);
    expect(resp).toHaveLength(2);
    expect(resp.map((x) => x.expected)).toEqual([2, 2]);
    expect(resp.map((x) => x.vc)).toEqual([2, 2]); // actual: [3, 3]
  });

  // Consequence of the bug above: on a ring with an even k >= 6, the response class's high VC
  // gets a cyclic channel dependency (x+ links 0->1->2->3->4->5->0 all on VC 3), so the dateline
  // scheme no longer guarantees deadlock freedom.
  it('the channel dependency graph of the traffic the network really carries is acyclic (ring of 6)', () => {
    const m = machine(6, 1, { 'torus.dims': '6,1,1', 'torus.nodesPerRouter': '1', 'torus.links': '1,1,1' });
    const g = m.graph;
    const nGP = g.routers * g.radix;
    const last = new Map<number, number>();
    const succ = new Map<number, Set<number>>();
    m.net.onHop = (p, chan) => {
      const ch = chan * m.net.nv + m.net.pkts.vc[p]!;
      const prev = chan >= nGP ? undefined : last.get(p);
      if (prev !== undefined) {
        let s = succ.get(prev);
        if (!s) succ.set(prev, (s = new Set()));
        s.add(ch);
      }
      last.set(p, ch);
    };
    const segs = m.nics.map((nic) => nic.register(new Uint8Array(64)));
    for (let s = 0; s < 6; s++) {
      for (let d = 0; d < 6; d++) {
        m.nics[s]!.post({ op: 'put', mode: 'fma', local: pattern(8, s + 1), remoteNode: d, remoteHandle: segs[d]!, remoteOffset: 0, onComplete: () => {} });
      }
    }
    m.engine.drain();
    expect(m.net.pkts.live).toBe(0);
    const { cyclic, channels } = sortDependencies(succ);
    expect(channels).toBeGreaterThan(0);
    expect(cyclic).toBe(0);
  });
});

describe('input queues: one FIFO per input and VC, or one queue per output (router.queues)', () => {
  /**
   * A 4-router xt4 mesh in x. Nodes 0 and 1 each send 30 packets to node 3, so router 1's +x
   * output is shared and node 0's packets queue at router 1's input from router 0; node 0 then
   * sends one packet to node 1, which leaves router 1 by its node port. Returns when it arrives (ns).
   */
  function lastPacketArrives(queues: string): number {
    const m = buildMachine(resolveMachine(machineSpec('xt4'), 4, { 'torus.dims': '4,1,1', 'torus.wrap': 'false,false,false', 'router.queues': queues }), 1);
    const pk = m.net.pkts;
    let at = -1;
    for (const node of [1, 3]) {
      m.net.attach(node, {
        deliver: (p) => {
          if (node === 1) at = m.engine.now / 1000;
          m.net.ejectCredit(node, pk.vc[p]!, pk.phits[p]!, m.engine.now);
          pk.free(p);
        },
      });
    }
    const send = (src: number, dst: number): number => injectPacket(m.net, src, dst, 9);
    for (let i = 0; i < 30; i++) {
      send(0, 3);
      send(1, 3);
    }
    send(0, 1);
    m.engine.drain();
    expect(pk.live).toBe(0);
    return at;
  }

  it('a FIFO holds a packet behind heads waiting for a busy output; queues per output let it pass them', () => {
    const fifo = lastPacketArrives('fifo');
    const voq = lastPacketArrives('voq');
    // 9 flits at 4.8 GB/s with the link overhead: about 17 ns a packet; the FIFO costs several
    expect(voq).toBeGreaterThan(0);
    expect(fifo - voq).toBeGreaterThan(5 * 17);
  });

  /**
   * sc5832 on 36 nodes (Kautz diameter 3), queues per output. Node P sends one packet to node B
   * whose route runs P, A, R, B; before it, node A sends 40 packets to node H at router R, whose NIC
   * holds its receive buffer until 50 us, so they fill the buffers behind R's output to H and stop
   * (within 20 us). The link A -> R carries both flows on one VC. P sends when they have stopped;
   * returns when its packet reaches B (us after A's first packet).
   */
  function pastAFullOutput(crosspointCredits: boolean): number {
    const cfg = resolveMachine(machineSpec('sc5832'), 36);
    const engine = new Engine(1);
    const { graph: g, route, vcs, nextPort } = buildTopology(cfg.topology);
    const pk = new PacketPool(cfg.nic.format.maxPayloadBytes);
    const net = new Network(engine, g, route, { ...cfg.network, vcs, links: linksByClass(cfg, g) }, pk, crosspointCredits ? nextPort : undefined);
    const routerOf = (chan: number): number => Math.floor(chan / g.radix);
    const nodeAt = (router: number): number => g.nodeRouter.indexOf(router);
    // the links a lone packet takes, with its VC on each
    const probe = (src: number, dst: number): { chan: number; vc: number }[] => {
      const hops: { chan: number; vc: number }[] = [];
      net.onHop = (p, chan) => {
        if (chan < g.routers * g.radix && g.peerRouter[chan]! >= 0) hops.push({ chan, vc: pk.vc[p]! });
      };
      send(src, dst);
      engine.drain();
      net.onHop = null;
      return hops;
    };
    let holdUntil = 0;
    let arrived = -1;
    let target = -1;
    for (let n = 0; n < g.nodes; n++) {
      net.attach(n, {
        deliver: (p) => {
          if (n === target) arrived = engine.now / 1e6;
          net.ejectCredit(n, pk.vc[p]!, pk.phits[p]!, Math.max(engine.now, holdUntil));
          pk.free(p);
        },
      });
    }
    const send = (src: number, dst: number): number => injectPacket(net, src, dst, net.maxPacketPhits);
    // a three-hop route P, A, R, B whose second link carries A's one-hop packets to R on the same VC
    let found: { p: number; a: number; h: number; b: number } | null = null;
    for (let p = 0; p < g.nodes && !found; p++) {
      for (let b = 0; b < g.nodes && !found; b++) {
        const path = probe(p, b);
        if (path.length !== 3) continue;
        const a = nodeAt(routerOf(path[1]!.chan));
        const h = nodeAt(g.peerRouter[path[1]!.chan]!);
        const direct = probe(a, h);
        if (direct.length === 1 && direct[0]!.chan === path[1]!.chan && direct[0]!.vc === path[1]!.vc) found = { p, a, h, b };
      }
    }
    expect(found, 'no route P, A, R, B sharing the link A -> R on one VC').not.toBeNull();
    const { p, a, h, b } = found!;
    const start = engine.now;
    holdUntil = start + 50e6;
    for (let i = 0; i < 40; i++) send(a, h);
    engine.drain(start + 20e6); // the 40 packets move until the buffers are full (now: their last move)
    target = b;
    send(p, b);
    engine.drain();
    expect(pk.live).toBe(0);
    return arrived - start / 1e6;
  }

  it('sc5832 holds credits per crosspoint buffer: a packet passes a link whose buffer for another output is full (seed 002 §3.2, §4, K5)', () => {
    const shared = pastAFullOutput(false);
    const crosspoint = pastAFullOutput(true);
    // shared credits: P's packet waits until H frees its buffer at 50 us; crosspoint credits: it goes at once (about 2 us)
    expect(shared).toBeGreaterThan(50);
    expect(crosspoint).toBeGreaterThan(0);
    expect(crosspoint).toBeLessThan(25);
  });

  it('crosspoint credits return to the queue a packet leaves when the outputs are not a power of two (Kautz degree 2: 3 outputs, 4 pools)', () => {
    // a credit returned to the pool of another output starves one queue: this exchange deadlocked
    const m = buildMachine(resolveMachine(machineSpec('sc5832'), 48, { 'kautz.degree': '2' }));
    const rng = new Prng(7);
    const bytes = 16 * 1024;
    const checks: { seg: Uint8Array; data: Uint8Array }[] = [];
    let done = 0;
    for (let k = 0; k < 96; k++) {
      const src = k % 48;
      const dst = (src + 1 + rng.int(47)) % 48;
      const seg = new Uint8Array(bytes);
      const data = pattern(bytes, k + 1);
      checks.push({ seg, data });
      m.nics[src]!.post({ op: 'put', mode: 'bte', local: data, remoteNode: dst, remoteHandle: m.nics[dst]!.register(seg), remoteOffset: 0, onComplete: () => done++ });
    }
    m.engine.drain();
    expect(done).toBe(96);
    for (const c of checks) expect(c.seg).toEqual(c.data);
    expect(m.net.pkts.live).toBe(0);
  });

  it('a hotspot that keeps more than 1,024 requests waiting at once grows the request records without losing one (bw, 1,024 processors to one)', () => {
    const m = buildMachine(resolveMachine(machineSpec('bw'), 1024));
    const bytes = 2048;
    const sink = new Uint8Array(bytes * 1024);
    const h = m.nics[0]!.register(sink);
    const datas: Uint8Array[] = [];
    let done = 0;
    for (let src = 1; src < 1024; src++) {
      const data = pattern(bytes, src);
      datas.push(data);
      m.nics[src]!.post({ op: 'put', mode: 'bte', local: data, remoteNode: 0, remoteHandle: h, remoteOffset: src * bytes, onComplete: () => done++ });
    }
    m.engine.drain();
    expect(done).toBe(1023);
    expect(m.net.requestRecords).toBeGreaterThan(1024);
    for (let src = 1; src < 1024; src++) expect(sink.subarray(src * bytes, (src + 1) * bytes)).toEqual(datas[src - 1]);
    expect(m.net.pkts.live).toBe(0);
  });

  it('ports with more than 32 input queues (no word of queue bits per port) carry traffic exactly as ports with the bits (bw, 40 VCs)', () => {
    const run = (vcsOver?: number): string[] => {
      // one FIFO per input and VC: 40 VCs of a radix-160 port make more queues than the bits per port hold
      const cfg = resolveMachine(machineSpec('bw'), 64, { 'router.queues': 'fifo' });
      const { graph: g, route, vcs } = buildTopology(cfg.topology);
      const engine = new Engine(7);
      const pool = new PacketPool(cfg.nic.format.maxPayloadBytes);
      const net = new Network(engine, g, route, { ...cfg.network, vcs: vcsOver ?? vcs, links: linksByClass(cfg, g) }, pool);
      const seen: string[] = [];
      for (let n = 0; n < 64; n++) {
        net.attach(n, {
          deliver: (p) => {
            seen.push(`${pool.src[p]}>${pool.dst[p]}@${engine.now}`);
            net.ejectCredit(n, pool.vc[p]!, pool.phits[p]!, engine.now);
            pool.free(p);
          },
        });
      }
      // 2,000 requests at once from random sources: the NIC and router queues fill and drain
      const rng = new Prng(3);
      for (let i = 0; i < 2000; i++) {
        const p = pool.alloc();
        const src = rng.int(64);
        let dst = rng.int(63);
        if (dst >= src) dst++;
        pool.src[p] = src;
        pool.dst[p] = dst;
        pool.phits[p] = 16;
        pool.vcClass[p] = 0;
        net.inject(src, p);
      }
      engine.drain();
      expect(pool.live).toBe(0);
      return seen;
    };
    const withBits = run();
    expect(withBits).toHaveLength(2000);
    expect(run(40)).toEqual(withBits);
  });

  it('refuses, with a clear message, a network beyond its 16-bit counts or 8-bit pending-credit pools', () => {
    const build = (machine: string, nodes: number, over: { vcs?: number; inputBufferPhits?: number }, crosspoint = false): Network => {
      const cfg = resolveMachine(machineSpec(machine), nodes);
      const { graph: g, route, vcs, nextPort } = buildTopology(cfg.topology);
      return new Network(new Engine(1), g, route, { ...cfg.network, vcs, links: linksByClass(cfg, g), ...over }, new PacketPool(cfg.nic.format.maxPayloadBytes), crosspoint ? nextPort : undefined);
    };
    expect(() => build('xt4', 8, {})).not.toThrow();
    expect(() => build('xt4', 8, { inputBufferPhits: 0x8000 })).toThrow(/credits are 16-bit counts/);
    expect(() => build('xt4', 8, { vcs: 10_000 })).toThrow(/at most 65,534 input queues per router/);
    expect(() => build('sc5832', 12, { vcs: 64 }, true)).not.toThrow();
    expect(() => build('sc5832', 12, { vcs: 100 }, true)).toThrow(/at most 256 pools per channel/);
  });

  it('sc5832 (seed 002 §4: crosspoint buffers, K5) and bw (seed 003 §3: row buffers per output column) route with a queue per output; the other presets with one FIFO', () => {
    for (const name of ['xt4', 'xe6', 'xc30']) expect(resolveMachine(machineSpec(name), 8).network.voq, name).toBe(false);
    expect(resolveMachine(machineSpec('sc5832'), 12).network.voq).toBe(true);
    expect(resolveMachine(machineSpec('bw'), 8).network.voq).toBe(true);
  });
});
