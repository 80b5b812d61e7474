/** FlowNetwork (fabric/flow/flow-network.ts): flows sharing link groups max-min, completion times to the ps, and on a real xe6 torus. */
import { describe, expect, it } from 'vitest';
import { Engine } from '../fabric/engine/engine.ts';
import { Prng } from '../fabric/engine/prng.ts';
import { FlowNetwork, type FlowSpec } from '../fabric/flow/flow-network.ts';
import type { FlowRoute } from '../fabric/flow/flow-route.ts';
import { linksByClass, machineSpec, resolveMachine } from '../fabric/machine.ts';
import type { NetworkParams } from '../fabric/network.ts';
import type { PacketFormatConfig } from '../fabric/nic/packet-format.ts';
import { bindRoute } from '../fabric/routing/routing.ts';
import { torusDor } from '../fabric/routing/torus-routing.ts';
import { buildTorus, type TorusGraph } from '../fabric/topology/torus.ts';
import { buildTopology } from '../fabric/topology/topologies.ts';

/**
 * A ring of 4 routers, one node each, numbers chosen to compute by hand: one phit per payload byte
 * and no header (unless asked), NIC channels 1 ps per phit (1 byte/ps), links 3 ps per phit
 * (1/3 byte/ps). Dimension order sends 0 -> 2 (half the ring) the + way.
 */
function ring(opts: { headerPhits?: number; linkOverheadPhits?: number; sampleLoads?: boolean } = {}) {
  const engine = new Engine(1);
  const graph = buildTorus({ dims: [4], links: [1], nodesPerRouter: 1 });
  const link = { phitPs: 3, latencyPs: 1000, overheadPhits: opts.linkOverheadPhits ?? 0 };
  const params: NetworkParams = {
    vcs: 4,
    routerLatencyPs: 10000,
    links: graph.classNames.map(() => link),
    injectPhitPs: 1,
    injectLatencyPs: 500,
    ejectPhitPs: 1,
    ejectLatencyPs: 500,
    inputBufferPhits: 256,
    ejectBufferPhits: 256,
    injectBufferPhits: 256,
  };
  const format: PacketFormatConfig = {
    phitBits: 8,
    requestHeaderPhits: opts.headerPhits ?? 0,
    eopPhits: 0,
    dataGroupBytes: 1,
    dataGroupPhits: 1,
    responsePhits: 2,
    errorResponsePhits: 3,
    readRequestPhits: 2,
    readResponseHeaderPhits: opts.headerPhits ?? 0,
    maxPayloadBytes: 64,
  };
  const fn = new FlowNetwork({ engine, graph, route: bindRoute(graph, torusDor), params, format, sampleLoads: opts.sampleLoads ?? false });
  /** Global port of router r's x+ (or x-) link. */
  const xPort = (r: number, minus = false): number => r * graph.radix + graph.groupPort[minus ? 1 : 0]!;
  return { engine, graph, fn, xPort };
}

/** Starts a flow that records (id, time) when it reports done. */
function recorder(fn: FlowNetwork, engine: Engine) {
  const done: { flow: number; at: number; name: string }[] = [];
  const start = (name: string, spec: Omit<FlowSpec, 'onDone'>, then?: () => void): number =>
    fn.start({
      ...spec,
      onDone: (flow) => {
        done.push({ flow, at: engine.now, name });
        then?.();
      },
    });
  return { done, start };
}

describe('FlowNetwork by hand (4-router ring)', () => {
  it('a flow whose bottleneck frees when another ends: 1/6 byte/ps each, then 1/3 alone', () => {
    const { engine, fn, xPort } = ring();
    const { done, start } = recorder(fn, engine);
    // A: 0 -> 1 and B: 0 -> 1 -> 2 share router 0's x+ link (1/3 byte/ps): 1/6 each. A's 100
    // bytes end at 600 ps; B then has 250 - 100 = 150 bytes left, alone at 1/3: 450 ps more.
    // C: 2 -> 3 shares nothing with them: 90 bytes at 1/3 end at 270 ps.
    const a = start('A', { src: 0, dst: 1, vcClass: 0, bytes: 100 });
    const b = start('B', { src: 0, dst: 2, vcClass: 0, bytes: 250 });
    start('C', { src: 2, dst: 3, vcClass: 0, bytes: 90 });
    expect(fn.active).toBe(3);
    expect(fn.rateOf(a)).toBeCloseTo(1 / 6, 15);
    expect(fn.rateOf(b)).toBeCloseTo(1 / 6, 15);
    engine.drain();
    expect(done.map((d) => [d.name, d.at])).toEqual([
      ['C', 270],
      ['A', 600],
      ['B', 1050],
    ]);
    expect(fn.active).toBe(0);
    // two solves: the start and A's end (B alone); C's and B's ends leave nothing connected
    expect(fn.solves).toBe(2);
    expect(fn.solvedFlows).toBe(3 + 1);
    // utilisation: the shared link carried A's and B's bytes, one phit each, at 3 ps per phit
    const shared = fn.linkResourceOf(xPort(0));
    expect(fn.capacityOf(shared)).toBeCloseTo(1 / 3, 15);
    expect(fn.carriedOf(shared)).toBeCloseTo(350, 9);
    expect(fn.busyPsOf(shared)).toBeCloseTo(1050, 9);
    const busy = new Float64Array(4 * 3 + 4);
    fn.addChannelBusy(busy);
    expect(busy[xPort(0)]).toBeCloseTo(1050, 9);
    expect(busy[xPort(1)]).toBeCloseTo(750, 9);
    expect(busy[xPort(3)]).toBe(0);
  });

  it('a multipath flow runs as a pool over its distinct routes; a plain one keeps the samples\' fixed shares', () => {
    // 0 -> 2 is half the ring: with made-up loads the route samples go both ways round
    const plain = ring({ sampleLoads: true });
    const routes = plain.fn.routesOf(0, 2, 0);
    const plus = routes.filter((r) => r.hops[1]!.channel === plain.xPort(0)).length / routes.length;
    expect(plus).toBeGreaterThan(0);
    expect(plus).toBeLessThan(1);
    const p = recorder(plain.fn, plain.engine);
    p.start('plain', { src: 0, dst: 2, vcClass: 0, bytes: 300 });
    plain.engine.drain();
    // every byte puts its share on each way's links (1/3 byte/ps): the busier way sets the rate
    expect(p.done.map((d) => d.at)).toEqual([Math.ceil(300 * 3 * Math.max(plus, 1 - plus))]);
    // multipath: a flow per way, each at its links' 1/3 byte/ps (the NIC's 1 byte/ps leaves room
    // for both): 300 bytes at 2/3 byte/ps end at 450 ps, reported once for the pool
    const multi = ring({ sampleLoads: true });
    const m = recorder(multi.fn, multi.engine);
    m.start('multi', { src: 0, dst: 2, vcClass: 0, bytes: 300, multipath: true });
    expect(multi.fn.active).toBe(2); // one flow per way
    multi.engine.drain();
    expect(m.done.map((d) => [d.name, d.at])).toEqual([['multi', 450]]);
    expect(multi.fn.active).toBe(0);
  });

  it('only the flows connected to a change are solved again', () => {
    const { engine, fn } = ring();
    const { done, start } = recorder(fn, engine);
    start('A', { src: 0, dst: 1, vcClass: 0, bytes: 6000 });
    start('D', { src: 2, dst: 3, vcClass: 0, bytes: 6000 });
    engine.drain(100);
    expect([fn.solves, fn.solvedFlows]).toEqual([1, 2]);
    // B joins A on router 0's x+ link at 100 ps; D, on the far side, is not solved again
    engine.at(100, engine.register({ onEvent: () => start('B', { src: 0, dst: 1, vcClass: 0, bytes: 10 }) }), 0, 0);
    engine.drain(100);
    expect([fn.solves, fn.solvedFlows]).toEqual([2, 4]);
    // B's 10 bytes at 1/6 end at 160; A has had 100/3 + 10 bytes and runs alone again: its first
    // completion event (18,000 ps) is stale, it ends at 160 + (6000 - 130/3) * 3 = 18,030
    engine.drain();
    expect(done.map((d) => [d.name, d.at])).toEqual([
      ['B', 160],
      ['D', 18000],
      ['A', 18030],
    ]);
  });

  it('completion at ceil(now + remaining / rate), and exact packetization weights', () => {
    const { engine, fn } = ring();
    const { done, start } = recorder(fn, engine);
    // capped at 0.3 byte/ps: 100 bytes take 333.3 ps, reported at 334
    start('capped', { src: 0, dst: 1, vcClass: 0, bytes: 100, rateCap: 0.3 });
    engine.drain();
    expect(done.map((d) => d.at)).toEqual([334]);
    // 4 header phits per packet, 2 link-layer phits per packet on links: 100 bytes are a 64- and
    // a 36-byte packet, 68 + 40 = 108 phits, 112 on a link; at 3 ps per link phit: 336 ps
    const h = ring({ headerPhits: 4, linkOverheadPhits: 2 });
    const r = recorder(h.fn, h.engine);
    const f = r.start('headers', { src: 0, dst: 1, vcClass: 0, bytes: 100 });
    expect(h.fn.rateOf(f)).toBeCloseTo(100 / 336, 15);
    expect(h.fn.loadOf(h.fn.linkResourceOf(h.xPort(0)))).toBeCloseTo(1 / 3, 15);
    // the NIC channels carry the 108 phits without link overhead
    expect(h.fn.loadOf(h.fn.linkResourceOf(4 * 3 + 0))).toBeCloseTo((108 / 100) * (100 / 336), 15);
    h.engine.drain();
    expect(r.done.map((d) => d.at)).toEqual([336]);
  });

  it('ends at one instant report in start order, and a flow started from onDone shares that instant`s solve', () => {
    const { engine, fn } = ring();
    const { done, start } = recorder(fn, engine);
    // A and B share router 0's x+ link at 1/6 each: both end at 600; A's callback starts C,
    // alone at 1/3 from 600: 50 bytes end at 750
    start('A', { src: 0, dst: 1, vcClass: 0, bytes: 100 }, () => start('C', { src: 0, dst: 1, vcClass: 0, bytes: 50 }));
    start('B', { src: 0, dst: 1, vcClass: 0, bytes: 100 });
    engine.drain();
    expect(done.map((d) => [d.name, d.at])).toEqual([
      ['A', 600],
      ['B', 600],
      ['C', 750],
    ]);
    expect(fn.solves).toBe(2);
    // flow ids are reused once reported
    expect(done[2]!.flow).toBe(done[0]!.flow);
  });

  it('caller resources: a NIC pipeline shared by two flows on different links', () => {
    const { engine, fn } = ring();
    const { done, start } = recorder(fn, engine);
    // 0.05 byte/ps of output pipeline, one unit per byte: the flows to 1 (x+) and to 3 (x-) get 0.025 each
    const pipe = fn.addResource(0.05);
    const a = start('east', { src: 0, dst: 1, vcClass: 0, bytes: 100, extra: [{ resource: pipe, weight: 1 }] });
    const b = start('west', { src: 0, dst: 3, vcClass: 0, bytes: 50, extra: [{ resource: pipe, weight: 1 }] });
    expect(fn.rateOf(a)).toBeCloseTo(0.025, 15);
    expect(fn.rateOf(b)).toBeCloseTo(0.025, 15);
    engine.drain();
    // west ends at 2000 ps; east has 50 bytes left, alone at 0.05: 1000 ps more
    expect(done.map((d) => [d.name, d.at])).toEqual([
      ['west', 2000],
      ['east', 3000],
    ]);
    expect(fn.carriedOf(pipe)).toBeCloseTo(150, 9);
  });

  it('reverse packets: a put`s responses load the links back from the destination', () => {
    const { fn, xPort } = ring();
    // 100 bytes are 2 packets; each sends a 2-phit response back over router 1's x- link
    const f = fn.start({ src: 0, dst: 1, vcClass: 0, bytes: 100, reverse: { vcClass: 1, phitsPerPacket: 2 }, onDone: () => {} });
    expect(fn.rateOf(f)).toBeCloseTo(1 / 3, 15);
    expect(fn.loadOf(fn.linkResourceOf(xPort(1, true)))).toBeCloseTo((4 / 100) * (1 / 3), 15);
    expect(fn.routesOf(1, 0, 1)[0]!.hops.map((h) => h.channel)).toContain(xPort(1, true));
  });

  it('refuses bad flows and resources, naming the bad value', () => {
    const { fn } = ring();
    const onDone = (): void => {};
    expect(() => fn.addResource(0)).toThrow(/capacity must be a positive finite number .* got 0/);
    expect(() => fn.start({ src: 0, dst: 1, vcClass: 0, bytes: -1, onDone })).toThrow(/bytes .* got -1/);
    expect(() => fn.start({ src: 0, dst: 1, vcClass: 0, bytes: 1, rateCap: 0, onDone })).toThrow(/rateCap .* got 0/);
    expect(() => fn.start({ src: 0, dst: 1, vcClass: 0, bytes: 1, extra: [{ resource: 99, weight: 1 }], onDone })).toThrow(/resource 99: not a resource/);
    const r = fn.addResource(1);
    expect(() => fn.start({ src: 0, dst: 1, vcClass: 0, bytes: 1, extra: [{ resource: r, weight: Infinity }], onDone })).toThrow(/weight must be a positive finite number, got Infinity/);
    expect(() => fn.start({ src: 0, dst: 9, vcClass: 0, bytes: 1, onDone })).toThrow(/flow destination 9: not a node/);
    expect(fn.active).toBe(0);
  });
});

describe('FlowNetwork on xe6 (64 nodes: 32 Geminis, 8/4/8 links per direction)', () => {
  const config = resolveMachine(machineSpec('xe6'), 64);
  const t = buildTopology(config.topology);
  const g = t.graph as TorusGraph;
  const params: NetworkParams = { ...config.network, vcs: t.vcs, links: linksByClass(config, g) };
  const format = config.nic.format;
  const make = (): { engine: Engine; fn: FlowNetwork } => {
    const engine = new Engine(1);
    return { engine, fn: new FlowNetwork({ engine, graph: g, route: t.route, params, format }) };
  };
  /** Whether channel c is a NIC channel (injection, or a node port: ejection). */
  const isNic = (c: number): boolean => c >= g.routers * g.radix || g.portClass[c] === 0;
  /**
   * The rate (bytes/ps) of a put flow of whole packets alone on `route`: the least, over its hops,
   * of the group's capacity (count / phit time) over the flow's phits per byte, 32 per 64-byte
   * packet (7 header + 24 data + 1 EOP) and 34 on router-to-router links (2 link-layer phits).
   */
  const soloRate = (route: FlowRoute): number => {
    let best = Infinity;
    for (const h of route.hops) {
      const c = h.channel;
      const phitPs = c >= g.routers * g.radix ? params.injectPhitPs : isNic(c) ? params.ejectPhitPs : params.links[g.portClass[c]!]!.phitPs;
      best = Math.min(best, h.count / phitPs / ((isNic(c) ? 32 : 34) / 64));
    }
    return best;
  };
  /** The node on router r (first of its two). */
  const nodeAt = (r: number): number => r * 2;
  const routerAt = (x: number, y: number, z: number): number => {
    for (let r = 0; r < g.routers; r++) if (g.coords[3 * r] === x && g.coords[3 * r + 1] === y && g.coords[3 * r + 2] === z) return r;
    throw new Error(`no router at ${x},${y},${z}`);
  };

  it('a flow alone gets the least, over its route, of each group`s capacity over its weight', () => {
    const { engine, fn } = make();
    const dst = nodeAt(routerAt(1, 1, 1)) + 1;
    const bytes = 1 << 20;
    let at = -1;
    const f = fn.start({ src: 0, dst, vcClass: 0, bytes, onDone: () => (at = engine.now) });
    const route = fn.routesOf(0, dst, 0)[0]!;
    expect(route.routerHops).toBe(3);
    const best = soloRate(route);
    // the 4-link y group is the bottleneck: 4 links of 1,280 ps per phit
    expect(params.links[g.portClass[route.hops[2]!.channel]!]!.phitPs).toBeCloseTo(1280, 9);
    expect(best).toBeCloseTo(4 / 1280 / (34 / 64), 15);
    expect(fn.rateOf(f)).toBeCloseTo(best, 15);
    engine.drain();
    expect(at).toBe(Math.ceil(bytes / best - 1e-6));
  });

  it('two flows sharing a torus link group each get half of what one gets alone', () => {
    const { fn } = make();
    // nodes 0 and 1 (router 0) to the two nodes of router (1,0,0): both cross router 0's x+ group
    const east = routerAt(1, 0, 0);
    const alone = make().fn;
    const solo = alone.start({ src: 0, dst: nodeAt(east), vcClass: 0, bytes: 1e6, onDone: () => {} });
    const a = fn.start({ src: 0, dst: nodeAt(east), vcClass: 0, bytes: 1e6, onDone: () => {} });
    const b = fn.start({ src: 1, dst: nodeAt(east) + 1, vcClass: 0, bytes: 1e6, onDone: () => {} });
    const soloRate = alone.rateOf(solo);
    expect(soloRate).toBeCloseTo(8 / 1280 / (34 / 64), 15);
    expect(fn.rateOf(a)).toBeCloseTo(soloRate / 2, 15);
    expect(fn.rateOf(b)).toBeCloseTo(soloRate / 2, 15);
    const shared = fn.linkResourceOf(g.groupPort[0]!);
    expect(shared).toBeGreaterThanOrEqual(0);
    expect(fn.loadOf(shared)).toBeCloseTo(fn.capacityOf(shared), 15);
    // every channel of the 8-link group is one resource
    for (let k = 0; k < 8; k++) expect(fn.linkResourceOf(g.groupPort[0]! + k)).toBe(shared);
  });

  /** 300 random put flows starting over 2 us; returns their end times and the network after the run. */
  function randomRun(seed: number, checkLoads: boolean) {
    const { engine, fn } = make();
    const rng = new Prng(seed);
    const flows = Array.from({ length: 300 }, () => {
      const src = rng.int(g.nodes);
      const dst = (src + 1 + rng.int(g.nodes - 1)) % g.nodes;
      return { src, dst, bytes: 64 * (1 + rng.int(2000)), at: rng.int(2_000_000) };
    });
    const ends = new Array<number>(flows.length).fill(-1);
    const over: string[] = [];
    const starter = engine.register({
      onEvent: (_kind, i) => {
        const f = flows[i]!;
        fn.start({ src: f.src, dst: f.dst, vcClass: 0, bytes: f.bytes, onDone: () => (ends[i] = engine.now) });
      },
    });
    flows.forEach((f, i) => engine.at(f.at, starter, 0, i));
    if (checkLoads) {
      const checker = engine.register({
        onEvent: () => {
          for (let r = 0; r < fn.resources; r++) if (fn.loadOf(r) > fn.capacityOf(r) * (1 + 1e-9)) over.push(`resource ${r} at ${engine.now} ps: ${fn.loadOf(r)} > ${fn.capacityOf(r)}`);
        },
      });
      for (let t = 25_000; t < 4_000_000; t += 50_000) engine.at(t, checker, 0, 0);
    }
    engine.drain();
    return { fn, flows, ends, over };
  }

  it('300 random flows: all end, no resource above capacity, every link carries exactly its flows` phits, and a rerun gives the same ps', () => {
    const { fn, flows, ends, over } = randomRun(5, true);
    expect(ends.filter((t) => t < 0)).toEqual([]);
    expect(fn.active).toBe(0);
    expect(over.slice(0, 3)).toEqual([]);
    // conservation: each group carried, for every flow through it, 32 phits per 64-byte packet
    // (34 on router-to-router links)
    const expected = new Float64Array(fn.resources);
    for (const f of flows) {
      for (const h of fn.routesOf(f.src, f.dst, 0)[0]!.hops) expected[fn.linkResourceOf(h.channel)]! += (f.bytes / 64) * (isNic(h.channel) ? 32 : 34);
    }
    for (let r = 0; r < fn.resources; r++) expect(Math.abs(fn.carriedOf(r) - expected[r]!)).toBeLessThanOrEqual(1e-6 * expected[r]!);
    // no flow ends before its bytes could cross its route alone
    const early = flows.filter((f, i) => ends[i]! - f.at < Math.floor(f.bytes / soloRate(fn.routesOf(f.src, f.dst, 0)[0]!)));
    expect(early).toEqual([]);
    expect(randomRun(5, false).ends).toEqual(ends);
  });
});

describe('FlowNetwork route samples (bw: four slices)', () => {
  it('a flow splits evenly over the slices its samples take, so cross traffic shares them evenly', () => {
    const config = resolveMachine(machineSpec('bw'), 256);
    const t = buildTopology(config.topology);
    const params: NetworkParams = { ...config.network, vcs: t.vcs, links: linksByClass(config, t.graph) };
    const fn = new FlowNetwork({ engine: new Engine(1), graph: t.graph, route: t.route, params, format: config.nic.format });
    const ids = Array.from({ length: 32 }, (_, k) => fn.start({ src: k, dst: 255 - k, vcClass: 0, bytes: 1 << 20, onDone: () => {} }));
    // the four samples leave the source router by four different slices' groups
    expect(new Set(fn.routesOf(0, 255, 0).map((r) => r.hops[1]!.channel)).size).toBe(4);
    const rates = ids.map((f) => fn.rateOf(f));
    for (const r of rates) expect(r).toBeCloseTo(rates[0]!, 15);
    // one sample each: the pairs' hashed slices load the slices unevenly
    const one = new FlowNetwork({ engine: new Engine(1), graph: t.graph, route: t.route, params, format: config.nic.format, routeSamples: 1 });
    const single = Array.from({ length: 32 }, (_, k) => one.rateOf(one.start({ src: k, dst: 255 - k, vcClass: 0, bytes: 1 << 20, onDone: () => {} })));
    expect(Math.min(...single)).toBeLessThan(rates[0]! * 0.99);
    expect(() => new FlowNetwork({ engine: new Engine(1), graph: t.graph, route: t.route, params, format: config.nic.format, routeSamples: 0 })).toThrow(/routeSamples must be an integer from 1 to 256, got 0/);
  });
});
