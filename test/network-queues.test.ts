/**
 * Router input queues (router.queues): one FIFO per input and VC or one queue per output,
 * crosspoint credits, and the limits of the network's counts.
 */
import { describe, expect, it } from 'vitest';
import { Prng } from '../fabric/engine/prng.ts';
import { Engine } from '../fabric/engine/engine.ts';
import { buildMachine, linksByClass, machineSpec, resolveMachine } from '../fabric/machine.ts';
import { Network } from '../fabric/network.ts';
import { PacketPool } from '../fabric/packet.ts';
import { buildTopology } from '../fabric/topology/topologies.ts';
import { injectPacket } from './helpers.ts';
import { pattern } from './network-helpers.ts';

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
