/** The fabric's opt-in metrics: link busy and credit-stall time, hop and latency histograms, minimal share. */
import { describe, expect, it } from 'vitest';
import type { EventHandler } from '../fabric/engine/engine.ts';
import { buildMachine, linksByClass, machineSpec, resolveMachine, type Machine } from '../fabric/machine.ts';
import { collectFabricMetrics, histogramQuantile, routerCoordinates } from '../fabric/metrics.ts';
import type { Endpoint } from '../fabric/network.ts';
import type { TorusGraph } from '../fabric/topology/torus.ts';
import { runTraffic } from '../fabric/traffic.ts';
import { injectPacket, phit } from './helpers.ts';

function machine(preset: string, nodes: number, set: Record<string, string> = {}, seed = 1): Machine {
  return buildMachine(resolveMachine(machineSpec(preset), nodes, set), seed);
}

interface Delivery {
  p: number;
  src: number;
  dst: number;
  atPs: number;
  latencyPs: number;
  hops: number;
}

/**
 * Replaces every NIC by a sink that returns the receive-buffer credit at once, and injects packets
 * of `phits` phits (src, dst, time) straight into the network. Returns what was delivered, in
 * order, and every hop the network traced.
 */
function sinkRun(m: Machine, sends: readonly (readonly [number, number, number])[], phits: number): { deliveries: Delivery[]; trace: number[] } {
  const { net, engine } = m;
  const pool = net.pkts;
  const deliveries: Delivery[] = [];
  for (let n = 0; n < m.config.nodes; n++) {
    const sink: Endpoint = {
      deliver(p) {
        deliveries.push({ p, src: pool.src[p]!, dst: pool.dst[p]!, atPs: engine.now, latencyPs: engine.now - pool.injectedAt[p]!, hops: pool.hops[p]! });
        net.ejectCredit(n, pool.vc[p]!, pool.phits[p]!, engine.now);
        pool.free(p);
      },
    };
    net.attach(n, sink);
  }
  const trace: number[] = [];
  net.onHop = (p, chan, start) => trace.push(p, chan, start);
  const injector: EventHandler & { id: number } = {
    id: -1,
    onEvent(_kind, i) {
      const [src, dst] = sends[i]!;
      injectPacket(net, src, dst, phits);
    },
  };
  injector.id = engine.register(injector);
  sends.forEach(([, , at], i) => engine.at(at, injector.id, 0, i));
  engine.drain();
  return { deliveries, trace };
}

/** Uniform random pairs, or everyone to node `hot`, one packet per node every `gapPs`. */
function pattern(nodes: number, count: number, gapPs: number, hot = -1): [number, number, number][] {
  const out: [number, number, number][] = [];
  let x = 12345;
  for (let i = 0; i < count; i++) {
    x = (Math.imul(x, 1103515245) + 12345) >>> 0;
    const src = i % nodes;
    let dst = hot >= 0 ? hot : (x >>> 8) % nodes;
    if (dst === src) dst = (dst + 1) % nodes;
    out.push([src, dst, Math.floor(i / nodes) * gapPs]);
  }
  return out;
}

describe('link utilisation', () => {
  it('a slower injection channel stretches how long a packet holds the link, not the link\'s utilisation', () => {
    // injection at 100 MHz (10,000 ps per phit) feeds a 1,771 ps-per-phit link: the link carries the
    // packet at the injection rate, so it is held longer than its serialization time
    const m = machine('xt4', 16, { 'torus.dims': '4x2x2', 'netlink.clock': '100MHz' });
    m.net.enableMetrics();
    const N = 100;
    sinkRun(m, Array.from({ length: N }, () => [0, 1, 0] as const), 24);
    const g = m.graph as TorusGraph;
    const link = linksByClass(m.config, g)[g.portClass[g.groupPort[0]!]!]!;
    const busy = m.net.metricsCounters().busyPs[g.groupPort[0]!]!;
    expect(busy).toBeCloseTo(N * (24 + link.overheadPhits) * link.phitPs, 0);
    expect(busy / m.engine.now).toBeLessThan(link.phitPs / m.config.network.injectPhitPs + 0.01);
  });

  it('one stream over one link: busy time = packets x (phits + link overhead) x phit time, nothing elsewhere', () => {
    // xt4 on a 4x2x2 torus, one node per router: node 0 -> node 1 is one x+ hop
    const m = machine('xt4', 16, { 'torus.dims': '4x2x2' });
    m.net.enableMetrics();
    const N = 200;
    const phits = 24;
    const { deliveries } = sinkRun(m, Array.from({ length: N }, () => [0, 1, 0] as const), phits);
    expect(deliveries).toHaveLength(N);
    const duration = m.engine.now;
    const g = m.graph as TorusGraph;
    const link = linksByClass(m.config, g)[g.portClass[g.groupPort[0]!]!]!;
    const expected = (N * (phits + link.overheadPhits) * link.phitPs) / duration;
    const f = collectFabricMetrics(m, duration);
    const x = f.linkClasses.find((c) => c.name === 'x+')!;
    expect(x.links).toBe(16);
    expect(Math.abs(x.maxUtilisation - expected) / expected).toBeLessThan(0.02);
    expect(x.utilisation).toBeCloseTo(x.maxUtilisation / 16, 5);
    // a NIC injecting back to back keeps the link busy a known share of the time: check it is not trivially small
    expect(expected).toBeGreaterThan(0.1);
    for (const c of f.linkClasses) if (c.name !== 'x+') expect(c.maxUtilisation).toBe(0);
    // only router 0 sends on a link
    expect(f.routers.utilisation[0]).toBeGreaterThan(0);
    expect(f.routers.utilisation.slice(1).every((u) => u === 0)).toBe(true);
    // every packet took one hop; the latency histogram holds every packet with the exact mean and max
    expect(f.hops.counts).toEqual([0, N]);
    expect(f.hops.mean).toBe(1);
    const lat = deliveries.map((d) => d.latencyPs / 1000);
    expect(f.latencyNs.samples).toBe(N);
    expect(f.latencyNs.counts.reduce((a, b) => a + b, 0)).toBe(N);
    expect(f.latencyNs.mean).toBeCloseTo(lat.reduce((a, b) => a + b, 0) / N, 3);
    expect(f.latencyNs.max).toBeCloseTo(Math.max(...lat), 3);
    const sorted = [...lat].sort((a, b) => a - b);
    const p50 = histogramQuantile(f.latencyNs, 0.5);
    expect(Math.abs(p50 - sorted[N / 2]!) / sorted[N / 2]!).toBeLessThan(0.26); // within one bin
  });

  it('is zero with no traffic, and counts nothing before enableMetrics or resetMetrics', () => {
    const m = machine('xe6', 16);
    expect(() => m.net.metricsCounters()).toThrow(/enableMetrics/);
    m.net.enableMetrics();
    const idle = collectFabricMetrics(m, 1e6);
    expect(idle.packets).toBe(0);
    expect(idle.linkClasses.every((c) => c.utilisation === 0 && c.creditStall === 0)).toBe(true);
    expect(idle.hops.samples).toBe(0);
    sinkRun(m, pattern(16, 64, 1000), 24);
    expect(collectFabricMetrics(m, m.engine.now).packets).toBe(64);
    m.net.resetMetrics();
    const after = collectFabricMetrics(m, 1e6);
    expect(after.packets).toBe(0);
    expect(after.linkClasses.every((c) => c.maxUtilisation === 0)).toBe(true);
    expect(() => collectFabricMetrics(m, 0)).toThrow(RangeError);
  });
});

describe('credit stall', () => {
  it('is zero on a lightly loaded network and appears under a hotspot', () => {
    const light = runTraffic(resolveMachine(machineSpec('xe6'), 32), { pattern: 'uniform', load: 0.05, windowUs: 4, warmupUs: 1, metrics: true });
    expect(light.metrics!.packets).toBeGreaterThan(200);
    for (const c of light.metrics!.linkClasses) expect(c.creditStall).toBe(0);
    const hot = runTraffic(resolveMachine(machineSpec('xe6'), 32), { pattern: 'hotspot', load: 0.5, windowUs: 4, warmupUs: 1, metrics: true });
    const stalls = hot.metrics!.linkClasses.map((c) => c.creditStall);
    expect(Math.max(...stalls)).toBeGreaterThan(0.05);
    for (const s of stalls) expect(s).toBeLessThanOrEqual(1);
  });
});

describe('hops and routing', () => {
  it('the hop histogram mean is the mean router distance of the delivered pairs under dimension order', () => {
    const m = machine('xe6', 64);
    m.net.enableMetrics();
    const { deliveries } = sinkRun(m, pattern(64, 2000, 2000), 24);
    const f = collectFabricMetrics(m, m.engine.now);
    const mean = deliveries.reduce((a, d) => a + m.hops(d.src, d.dst), 0) / deliveries.length;
    expect(f.packets).toBe(2000);
    expect(f.hops.mean).toBeCloseTo(mean, 5);
    expect(f.hops.max).toBe(Math.max(...deliveries.map((d) => m.hops(d.src, d.dst))));
    expect(f.routing).toBeNull(); // dimension order is always minimal
    expect(m.net.metricsCounters().nonMinimal).toBe(0);
  });

  it('xc30 (4 groups): every packet minimal under minimal routing though some minimal routes exceed the shortest path; a non-minimal share under valiant and adaptive', () => {
    const run = (routing: string): { m: Machine; deliveries: Delivery[] } => {
      const m = machine('xc30', 1536, { 'routing.algorithm': routing });
      m.net.enableMetrics();
      return { m, deliveries: sinkRun(m, pattern(1536, 6000, 20000), 24).deliveries };
    };
    const min = run('minimal');
    expect(min.m.net.metricsCounters().nonMinimal).toBe(0);
    const minimal = collectFabricMetrics(min.m, min.m.engine.now);
    expect(minimal.routing).toBeNull();
    expect(minimal.linkClasses.map((c) => c.name)).toEqual(['green', 'black', 'global']);
    // why the dragonfly is judged by its routing state: hops alone would call some minimal routes non-minimal
    expect(min.deliveries.some((d) => d.hops > min.m.hops(d.src, d.dst))).toBe(true);
    const val = run('valiant');
    const valiant = collectFabricMetrics(val.m, val.m.engine.now);
    expect(valiant.routing!.minimal + valiant.routing!.nonMinimal).toBe(6000);
    expect(valiant.routing!.nonMinimal / 6000).toBeGreaterThan(0.8);
    expect(valiant.hops.mean).toBeGreaterThan(minimal.hops.mean + 1);
    // a uniform load high enough for the adaptive routing to divert some packets
    const ad = machine('xc30', 1536, { 'routing.algorithm': 'adaptive' });
    ad.net.enableMetrics();
    sinkRun(ad, pattern(1536, 30000, 100), 24);
    const adaptive = collectFabricMetrics(ad, ad.engine.now);
    expect(adaptive.routing!.nonMinimal).toBeGreaterThan(0);
    expect(adaptive.routing!.nonMinimal).toBeLessThan(adaptive.routing!.minimal);
  });

  it('sc5832: shortest source routes are minimal by distance; multipath detours are not', () => {
    const short = machine('sc5832', 108);
    short.net.enableMetrics();
    sinkRun(short, pattern(108, 1000, 5000), 24);
    expect(short.net.metricsCounters().nonMinimal).toBe(0);
    const multi = machine('sc5832', 108, { 'routing.algorithm': 'multipath' });
    multi.net.enableMetrics();
    const { deliveries } = sinkRun(multi, pattern(108, 1000, 5000), 24);
    const longer = deliveries.filter((d) => d.hops > multi.hops(d.src, d.dst)).length;
    expect(longer).toBeGreaterThan(0);
    const f = collectFabricMetrics(multi, multi.engine.now);
    expect(f.routing).toEqual({ minimal: 1000 - longer, nonMinimal: longer });
    expect(f.linkClasses.map((c) => c.name)).toEqual(['out']); // the in ports are the far ends of the out links
    expect(f.routers.axes).toEqual(['index']);
  });
});

describe('router coordinates', () => {
  it('follow each topology', () => {
    const t = routerCoordinates(machine('xe6', 64).graph);
    expect(t.axes).toEqual(['x', 'y', 'z']);
    expect(t.coords[1]).toEqual([1, 0, 0]);
    expect(t.coords[4]).toEqual([0, 1, 0]);
    const d = routerCoordinates(machine('xc30', 1536).graph);
    expect(d.axes).toEqual(['group', 'chassis', 'slot']);
    expect(d.coords[96 + 16 + 3]).toEqual([1, 1, 3]);
    const c = routerCoordinates(machine('bw', 1024).graph);
    expect(c.axes).toEqual(['rank', 'index']);
    expect(c.coords[0]).toEqual([1, 0]);
    expect(c.coords[c.coords.length - 1]![0]).toBe(2);
  });
});

describe('determinism and cost', () => {
  it('the same seed gives the same metrics, another seed other ones', () => {
    const config = resolveMachine(machineSpec('xc30'), 384, { 'routing.algorithm': 'adaptive' });
    const opts = { pattern: 'uniform' as const, load: 0.4, windowUs: 0.5, warmupUs: 0.2, metrics: true };
    const a = runTraffic(config, opts).metrics;
    expect(runTraffic(config, opts).metrics).toEqual(a);
    expect(runTraffic(config, { ...opts, seed: 2 }).metrics).not.toEqual(a);
  });

  it('enabling metrics changes no packet: the same hops at the same times, the same deliveries', () => {
    for (const [preset, nodes] of [['xe6', 32], ['xc30', 384]] as const) {
      const sends = [...pattern(nodes, 3000, 3000), ...pattern(nodes, 600, 500, 3)];
      const off = machine(preset, nodes);
      const plain = sinkRun(off, sends, 24);
      const on = machine(preset, nodes);
      on.net.enableMetrics();
      const measured = sinkRun(on, sends, 24);
      expect(measured.trace).toEqual(plain.trace);
      expect(measured.deliveries).toEqual(plain.deliveries);
      expect(collectFabricMetrics(on, on.engine.now).linkClasses.some((c) => c.creditStall > 0)).toBe(true);
    }
    const config = resolveMachine(machineSpec('xc30'), 384);
    const opts = { pattern: 'uniform' as const, load: 0.5, windowUs: 0.5, warmupUs: 0.2 };
    const { metrics: _m, ...withMetrics } = runTraffic(config, { ...opts, metrics: true });
    expect(withMetrics).toEqual(runTraffic(config, opts));
  });
});

describe('phit traffic --metrics', () => {
  it('prints the link classes, hops, latency percentiles and the minimal share; --json holds the metrics', async () => {
    const args = ['traffic', '-m', 'xc30', '-n', '384', '--routing', 'valiant', '--load', '0.2', '--window', '1', '--warmup', '0.5', '--metrics'];
    const text = await phit(...args);
    expect(text.code).toBe(0);
    const out = text.out.join('\n');
    expect(out).toMatch(/class\s+links\s+util%\s+max%\s+creditStall%/);
    expect(out).toMatch(/^green\s+1440\s/m);
    expect(out).toMatch(/hops \(mean [\d.]+, max \d\): 0: /);
    expect(out).toMatch(/packet latency ns: mean [\d.]+, p50 [\d.]+, p90 [\d.]+, p99 [\d.]+/);
    expect(out).toMatch(/routing valiant: [\d.]+% of packets minimal \([1-9]\d* non-minimal\)/);
    const json = await phit(...args, '--json');
    const row = (JSON.parse(json.out.join('')) as { rows: { metrics: { packets: number; linkClasses: { name: string }[]; routing: unknown } }[] }).rows[0]!;
    expect(row.metrics.packets).toBeGreaterThan(0);
    expect(row.metrics.linkClasses.map((c) => c.name)).toEqual(['green', 'black']);
    expect(row.metrics.routing).not.toBeNull();
    const plain = await phit('traffic', '-m', 'xe6', '-n', '16', '--window', '1', '--warmup', '0.5', '--json');
    expect(JSON.stringify(JSON.parse(plain.out.join('')))).not.toMatch(/metrics/);
  });
});
