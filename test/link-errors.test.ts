import { describe, expect, it } from 'vitest';
import { errorProbability, linkEfficiency, meanReplayPs, parseBer, undetectedPerBlock, type LinkErrorParams } from '../fabric/link-errors.ts';
import { buildMachine, machineSpec, resolveMachine, type Machine } from '../fabric/machine.ts';
import { putRequestPhits } from '../fabric/nic/packet-format.ts';
import { runTraffic } from '../fabric/traffic.ts';
import { phit } from './helpers.ts';

/** What a stream of packets from node 0 to node 1 showed. */
interface Stream {
  /** Sequence numbers in the order they were delivered. */
  readonly order: number[];
  /** Time of the last delivery (ps). */
  readonly lastPs: number;
  /** The errors of the link the stream crossed, its hardware packets' serialization there (ps) and the network's counters. */
  readonly errors: LinkErrorParams | undefined;
  readonly unitSerPs: number;
  readonly retransmissions: number;
  readonly controlErrors: number;
  readonly linkHops: number;
}

/**
 * `n` full packets (or coarse packets of `units` each) injected at once from node 0 to node 1,
 * one router-to-router hop apart, straight into the network (no NIC): the link is the slowest
 * stage, so the stream saturates it.
 */
function stream(machine: string, nodes: number, set: Record<string, string>, n: number, units = 1): Stream {
  const m: Machine = buildMachine(resolveMachine(machineSpec(machine), nodes, set), 7);
  const pk = m.net.pkts;
  const f = m.config.nic.format;
  const full = putRequestPhits(f, f.maxPayloadBytes);
  const order: number[] = [];
  let lastPs = 0;
  let cls = -1;
  const g = m.graph;
  m.net.onHop = (p, chan) => {
    if (chan < g.routers * g.radix && g.peerRouter[chan]! >= 0) cls = g.portClass[chan]!;
  };
  m.net.attach(1, {
    deliver: (p) => {
      order.push(pk.offset[p]!);
      lastPs = m.engine.now;
      m.net.ejectCredit(1, pk.vc[p]!, pk.phits[p]!, m.engine.now);
      pk.free(p);
    },
  });
  for (let i = 0; i < n; i++) {
    const p = pk.alloc();
    pk.src[p] = 0;
    pk.dst[p] = 1;
    pk.phits[p] = full * units;
    pk.units[p] = units;
    pk.vcClass[p] = 0;
    pk.bytes[p] = 0;
    pk.offset[p] = i;
    pk.ordered[p] = 1;
    m.net.inject(0, p);
  }
  m.engine.drain();
  const link = m.net.params.links[cls]!;
  const sum = (a: Float64Array | undefined): number => (a === undefined ? 0 : a.reduce((x, y) => x + y, 0));
  return {
    order,
    lastPs,
    errors: link.errors,
    unitSerPs: (full + link.overheadPhits) * link.phitPs,
    retransmissions: sum(m.net.retry?.counters.retransmissions),
    controlErrors: sum(m.net.retry?.counters.controlErrors),
    linkHops: m.net.linkHops,
  };
}

/** Checks a stream with errors against the same stream without: order, count, retransmissions and throughput against the closed form. */
function checkAgainstClosedForm(clean: Stream, noisy: Stream, n: number, units: number): void {
  // nothing lost, duplicated or reordered
  expect(noisy.order).toEqual(Array.from({ length: n }, (_, i) => i));
  expect(clean.linkHops).toBe(n);
  const e = noisy.errors!;
  expect(e).toBeDefined();
  // every hardware packet errs with q = 1 - (1 - ber)^bits and is sent 1 / (1 - q) times on average
  const q = errorProbability(e.ber, noisy.unitSerPs * e.wireBitsPerPs);
  const expected = (n * units * q) / (1 - q);
  const sd = Math.sqrt(n * units * q) / (1 - q);
  expect(Math.abs(noisy.retransmissions - expected)).toBeLessThan(4 * sd);
  // throughput: the clean stream over the noisy one, against (1 - q) / (1 - q + W q), W = mean replay / serialization
  const measured = clean.lastPs / noisy.lastPs;
  const predicted = linkEfficiency(e, noisy.unitSerPs);
  // the noise of the replays' total time: 4 standard deviations of the error count, each a mean replay
  const tolerance = (4 * sd * meanReplayPs(e, noisy.unitSerPs)) / noisy.lastPs + 0.005;
  expect(Math.abs(measured - predicted) / predicted).toBeLessThan(tolerance);
  expect(tolerance).toBeLessThan(0.08);
}

describe('link.ber and the retry parameters', () => {
  it('reads one rate, or class=rate items after an optional default', () => {
    expect(parseBer('0')).toEqual({ all: 0, byClass: {} });
    expect(parseBer('1e-12,global=1e-9')).toEqual({ all: 1e-12, byClass: { global: 1e-9 } });
    expect(parseBer('x=1e-7, y+=2e-7')).toEqual({ all: 0, byClass: { x: 1e-7, 'y+': 2e-7 } });
    expect(() => parseBer('2e-3')).toThrow(/"2e-3" is not a bit-error rate from 0 to 0.001/);
    expect(() => parseBer('x=1e-9,1e-9')).toThrow(/only the first item/);
    expect(() => parseBer('x=1,x=2')).toThrow(/class x/);
    expect(() => parseBer('global=1e-9,global=1e-8')).toThrow(/given twice/);
  });

  it('refuses bad values and classes the topology lacks, naming the key', () => {
    const spec = machineSpec('xt4');
    expect(() => resolveMachine(spec, 8, { 'link.ber': 'abc' })).toThrow(/link.ber: "abc" is not a bit-error rate/);
    expect(() => resolveMachine(spec, 8, { 'link.retry': 'selective' })).toThrow(/link.retry: "selective" is not one of go-back-n, per-hop/);
    expect(() => buildMachine(resolveMachine(spec, 8, { 'link.ber': 'global=1e-9' }))).toThrow(/link.ber: "global" is not a link class of this torus; classes: x, y, z, x\+, x-/);
    expect(() => buildMachine(resolveMachine(machineSpec('xc30'), 8, { 'link.ber': 'x=1e-9' }))).toThrow(/classes: green, black, global/);
    // a send buffer shorter than the round trip is refused only where links err
    expect(() => buildMachine(resolveMachine(spec, 8, { 'link.sendBuffer': '20' }))).not.toThrow();
    expect(() => buildMachine(resolveMachine(spec, 8, { 'link.sendBuffer': '20', 'link.ber': '1e-9' }))).toThrow(/link.sendBuffer: 20 phits do not cover the round trip/);
  });

  it('costs nothing where no class errs: the network has no retry state', () => {
    expect(buildMachine(resolveMachine(machineSpec('xe6'), 8)).net.retry).toBeNull();
    expect(buildMachine(resolveMachine(machineSpec('xe6'), 8, { 'link.ber': '0' })).net.retry).toBeNull();
    expect(buildMachine(resolveMachine(machineSpec('xe6'), 8, { 'link.ber': '1e-12' })).net.retry).not.toBeNull();
  });

  it('the undetected-error probability sums the binomial tail from the CRC distance, times 2^-crcBits', () => {
    const n = 40;
    const ber = 0.01;
    let exact = 0;
    let choose = 1;
    for (let k = 0; k <= n; k++) {
      if (k >= 3) exact += choose * ber ** k * (1 - ber) ** (n - k);
      choose = (choose * (n - k)) / (k + 1);
    }
    expect(undetectedPerBlock(ber, n, 8, 3)).toBeCloseTo(exact / 256, 15);
    expect(undetectedPerBlock(0, n, 8, 3)).toBe(0);
  });
});

describe('go-back-N on a link: a stream of 20,000 full packets (xt4, 2 nodes, one link)', () => {
  const n = 20_000;
  const clean = stream('xt4', 2, {}, n);
  for (const ber of ['2e-5', '1e-4']) {
    it(`at BER ${ber} delivers every packet once, in order, replays as often as its bits predict and slows as the closed form says`, () => {
      checkAgainstClosedForm(clean, stream('xt4', 2, { 'link.ber': ber }, n), n, 1);
    });
  }

  it('a coarse packet replays each hardware packet it stands for (coarse packets of 8)', () => {
    const cleanCoarse = stream('xt4', 2, {}, n / 8, 8);
    checkAgainstClosedForm(cleanCoarse, stream('xt4', 2, { 'link.ber': '1e-4' }, n / 8, 8), n / 8, 8);
  });

  it('is deterministic for a seed and leaves the run without errors as it was', () => {
    const a = stream('xt4', 2, { 'link.ber': '1e-4' }, 2000);
    const b = stream('xt4', 2, { 'link.ber': '1e-4' }, 2000);
    expect(a.lastPs).toBe(b.lastPs);
    expect(a.retransmissions).toBe(b.retransmissions);
    expect(stream('xt4', 2, { 'link.ber': '0' }, 2000).lastPs).toBe(stream('xt4', 2, {}, 2000).lastPs);
  });
});

describe('per-hop retry on a SiCortex link (sc5832, 4 nodes, one hop)', () => {
  it('waits for the control packet that carries the error, past corrupted ones, and replays after the short packet', () => {
    const n = 10_000;
    const clean = stream('sc5832', 4, {}, n);
    const noisy = stream('sc5832', 4, { 'link.ber': '1e-4' }, n);
    expect(noisy.errors!.protocol).toBe('per-hop');
    expect(noisy.errors!.controlPs).toBe(75_000); // 15 bytes at 2 Gb/s with 8b/10b (seed 002 §3.3)
    checkAgainstClosedForm(clean, noisy, n, 1);
    // a control packet of 150 bits on the wire is corrupted with probability 1 - (1 - ber)^150: each error waits for one or more
    const qc = errorProbability(1e-4, 150);
    const expected = (noisy.retransmissions * qc) / (1 - qc);
    expect(noisy.controlErrors).toBeGreaterThan(0);
    expect(Math.abs(noisy.controlErrors - expected)).toBeLessThan(4 * Math.sqrt(expected) + 1);
  });
});

describe('errors per link class', () => {
  it('a rate for one torus dimension corrupts only its links, and the metrics count them per class', () => {
    const c = resolveMachine(machineSpec('xt4'), 4, { 'torus.dims': '2,2,1', 'link.ber': 'x=1e-4' });
    const row = runTraffic(c, { pattern: 'uniform', load: 0.5, warmupUs: 2, windowUs: 20, metrics: true });
    const byClass = Object.fromEntries(row.metrics!.linkErrors!.map((e) => [e.name, e]));
    expect(byClass['x+']!.ber).toBe(1e-4);
    expect(byClass['y+']!.ber).toBe(0);
    expect(byClass['x+']!.retransmissions + byClass['x-']!.retransmissions).toBeGreaterThan(0);
    expect(byClass['y+']!.retransmissions + byClass['y-']!.retransmissions).toBe(0);
    expect(byClass['y+']!.packets).toBe(0); // classes without errors are not drawn for
    expect(byClass['x+']!.replayShare).toBeGreaterThan(0);
    // without a rate the metrics have no link-error part
    expect(runTraffic(resolveMachine(machineSpec('xt4'), 4, { 'torus.dims': '2,2,1' }), { pattern: 'uniform', load: 0.5, warmupUs: 2, windowUs: 5, metrics: true }).metrics!.linkErrors).toBeUndefined();
  });
});

describe('phit traffic --ber', () => {
  /**
   * Two xt4 nodes send to each other over their one link at their NICs' peak, more than it carries: the link is
   * saturated with each message's full packet and the other node's one-flit response. A packet
   * of serialization s errs with q = 1 - (1 - ber)^bits and takes (s + q R) / (1 - q) of link
   * time on average (R: the NACK's round trip), so the accepted load falls to
   * sum(s) / sum((s + q R) / (1 - q)) of the clean figure: for one size, (1 - q) / (1 - q + W q)
   * with W = 1 + R / s.
   */
  it('accepted load falls with BER as the go-back-N closed form predicts (xt4, 2 nodes, saturated link)', async () => {
    const windowUs = 300;
    // the NIC as fast as before xt4's was fitted to SeaStar 2.1's 2.0 GB/s (nic.packetCycles 16):
    // faster than the link, so that the link, not the NIC, is what the errors slow down
    const fastNic = 'nic.packetCycles=6';
    const r = await phit('traffic', '-m', 'xt4', '-n', '2', '--set', fastNic, '--pattern', 'neighbor', '--load', '1', '--window', String(windowUs), '--warmup', '5', '--ber', '0,3e-5,1e-4', '--json');
    expect(r.code).toBe(0);
    const out = JSON.parse(r.out.join('\n')) as { rows: { ber: number; acceptedFraction: number; packets: number }[] };
    expect(out.rows.map((row) => row.ber)).toEqual([0, 3e-5, 1e-4]);
    const c = resolveMachine(machineSpec('xt4'), 2, { 'nic.packetCycles': '6' });
    const link = c.links.link;
    const f = c.nic.format;
    const sizes = [putRequestPhits(f, f.maxPayloadBytes), f.responsePhits].map((phits) => (phits + link.overheadPhits) * link.phitPs);
    const roundTrip = 2 * link.latencyPs + c.linkErrors.nackPs;
    const bitsPerPs = (c.rawLinkGBs.link * 8) / 1000;
    const clean = out.rows[0]!.acceptedFraction;
    for (const row of out.rows.slice(1)) {
      const qs = sizes.map((s) => errorProbability(row.ber, s * bitsPerPs));
      const busy = sizes.reduce((a, s, i) => a + (s + qs[i]! * roundTrip) / (1 - qs[i]!), 0);
      const predicted = sizes.reduce((a, s) => a + s, 0) / busy;
      // the errors are random: 4 standard deviations of the replays' time in the window, plus 1 % for its edges
      const errors = row.packets * qs.reduce((a, q) => a + q / (1 - q), 0);
      const tolerance = (4 * Math.sqrt(errors) * (sizes[0]! + roundTrip)) / (windowUs * 1e6) + 0.01;
      expect(tolerance).toBeLessThan(0.12);
      expect(Math.abs(row.acceptedFraction / clean - predicted) / predicted).toBeLessThan(tolerance);
    }
    expect(out.rows[2]!.acceptedFraction).toBeLessThan(out.rows[1]!.acceptedFraction);
  });

  it('refuses a rate out of range, naming the flag and the value (exit 2)', async () => {
    const bad = await phit('traffic', '-m', 'xt4', '-n', '2', '--ber', '0,2');
    expect(bad.code).toBe(2);
    expect(bad.err.join('\n')).toMatch(/--ber 0,2: "2" is not a bit-error rate from 0 to 0.001/);
  });
});
