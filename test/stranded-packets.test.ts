/**
 * Packets that a failure during the run leaves with no route (kautz-fault-routes.ts,
 * clos-fault-routes.ts, fault-routing.ts): a Kautz packet that meets a failed link on a VC number
 * too low for any route left, a BlackWidow packet already climbed to a router whose way down
 * failed, an up*\/down* detour that a new fault set leaves in its down phase with no way down.
 * They go on to the failed link and are lost there, as packets on a link when it fails: counted
 * as lost, their transactions failing by the NIC timeout (MPI_ERR_OTHER), never ending the run.
 */
import { describe, expect, it } from 'vitest';
import { Prng } from '../fabric/engine/prng.ts';
import { buildMachine, machineSpec, resolveMachine, type Machine } from '../fabric/machine.ts';
import { PacketPool } from '../fabric/packet.ts';
import { closRouting } from '../fabric/routing/clos-routing.ts';
import { ClosFaultRoutes } from '../fabric/routing/clos-fault-routes.ts';
import { FaultRouting } from '../fabric/routing/fault-routing.ts';
import { KautzFaultRoutes } from '../fabric/routing/kautz-fault-routes.ts';
import { kautzRouting } from '../fabric/routing/kautz-routing.ts';
import { bindRoute, pickRouting, type RouteChoice } from '../fabric/routing/routing.ts';
import { buildClos, type ClosGraph } from '../fabric/topology/clos.ts';
import { buildKautz, type KautzGraph } from '../fabric/topology/kautz.ts';
import { PORT_NODE, type PortGraph } from '../fabric/topology/port-graph.ts';
import type { MpiError } from '../runtime/mpi/mpi.ts';
import { simulate } from '../runtime/simulate.ts';

/** Per global port 1 where a link of `links` (router:port items) is down, both directions. */
function downOf(g: PortGraph, links: readonly string[]): Uint8Array {
  const d = new Uint8Array(g.routers * g.radix);
  for (const l of links) {
    const [r, q] = l.split(':').map(Number) as [number, number];
    const gp = r * g.radix + q;
    d[gp] = 1;
    d[g.peerRouter[gp]! * g.radix + g.peerPort[gp]!] = 1;
  }
  return d;
}

/**
 * Walks a packet from node `src` to node `dst` under routing `fr`, the fault sets of `sets`
 * taking effect before the hops `at` gives; how it ends: at its node, or on a link down then.
 */
function walk(g: PortGraph, fr: FaultRouting, pool: PacketPool, src: number, dst: number, salt: number, sets: readonly Uint8Array[], at: readonly number[]): { end: 'node' | 'lost' | 'wrong node'; stranded: boolean; rerouted: boolean } {
  const out: RouteChoice = { port: 0, count: 1, vc: 0 };
  const idle = { groupLoad: () => 0 };
  const none = new Uint8Array(g.routers);
  fr.setDown(new Uint8Array(g.routers * g.radix), none);
  const p = pool.alloc();
  pool.src[p] = src;
  pool.dst[p] = dst;
  pool.vcClass[p] = 0;
  pool.vc[p] = 0;
  pool.ordered[p] = 0;
  pool.path[p] = 0xff;
  pool.hops[p] = 0;
  pool.startRoute(p, salt);
  let r = g.nodeRouter[src]!;
  pool.at[p] = r * g.radix + g.nodePort[src]!;
  let down: Uint8Array = new Uint8Array(g.routers * g.radix);
  const before = fr.stranded;
  const masked = fr.masked;
  try {
    for (let hop = 0; hop < 4 * g.routers; hop++) {
      const k = at.indexOf(hop);
      if (k >= 0) {
        down = sets[k]!;
        fr.setDown(down, none);
      }
      fr.route(r, pool, p, out, idle);
      const gp = r * g.radix + out.port;
      if (g.portClass[gp] === PORT_NODE) return { end: r === g.nodeRouter[dst] ? 'node' : 'wrong node', stranded: fr.stranded > before, rerouted: fr.masked > masked };
      // the network takes any port of a group: one down is lost
      for (let c = gp; c < gp + out.count; c++) if (down[c]) return { end: 'lost', stranded: fr.stranded > before, rerouted: fr.masked > masked };
      pool.vc[p] = out.vc;
      pool.hops[p]++;
      r = g.peerRouter[gp]!;
      pool.at[p] = r * g.radix + g.peerPort[gp]!;
    }
    throw new Error(`${src} -> ${dst}: no end`);
  } finally {
    pool.free(p);
  }
}

/** Every link of Kautz digraph g (router:port of its out-link). */
function linksOf(g: KautzGraph): string[] {
  const out: string[] = [];
  for (let r = 0; r < g.routers; r++) for (let j = 0; j < g.degree; j++) out.push(`${r}:${g.outBase + j}`);
  return out;
}

describe('packets left with no route by a failure during the run', () => {
  it('Kautz (36 routers): a packet that meets a link failed mid-route, or a second failure on the route it took round a first, goes on to a failed link if no route is left within its VC numbers; every other packet arrives', () => {
    const g = buildKautz({ degree: 3, diameter: 3, nodes: 36 });
    const route = bindRoute(g, pickRouting(kautzRouting, 'kautz', 'shortest'));
    const links = linksOf(g);
    expect(links).toHaveLength(108);
    const pool = new PacketPool(8, 4);
    let stranded = 0;
    let strandedAfterDetour = 0;
    const problems: string[] = [];
    // fault sets: one link, then a second one (those that keep every pair routable)
    for (let i = 0; i < links.length; i += 7) {
      const first = [links[i]!];
      const second = [links[i]!, links[(i * 13 + 5) % links.length]!];
      const fr = new FaultRouting(g, route, kautzRouting.vcs, true, new KautzFaultRoutes(g, route, kautzRouting.vcs));
      let ok = true;
      for (const set of [first, second]) {
        fr.setDown(downOf(g, set), new Uint8Array(g.routers));
        try {
          fr.checkRoutes('x');
        } catch {
          ok = false;
        }
      }
      if (!ok) continue;
      const sets = [downOf(g, first), downOf(g, second)];
      for (let s = 0; s < 36; s++) {
        for (let d = 0; d < 36; d++) {
          if (s === d) continue;
          for (const at of [[1, 2], [2, 3], [0, 2]]) {
            const r = walk(g, fr, pool, s, d, s * 36 + d, sets, at);
            if (r.end === 'wrong node' || (r.end === 'lost') !== r.stranded) problems.push(`${first} then ${second[1]}, ${s} -> ${d} at hops ${at}: ${r.end}${r.stranded ? ', stranded' : ''}`);
            if (r.stranded) {
              stranded++;
              if (r.rerouted) strandedAfterDetour++;
            }
          }
        }
      }
    }
    expect(problems.slice(0, 5)).toEqual([]);
    expect(stranded).toBeGreaterThan(0);
    // packets routed round the first failure from their source (another route), stranded by the second
    expect(strandedAfterDetour).toBeGreaterThan(0);
  });

  it('BlackWidow (rank 2, 512 processors): a packet that climbed to an R2 whose links down to its R1 failed behind it goes on to a failed link; every other packet arrives', () => {
    const g = buildClos({ processors: 512 }) as ClosGraph;
    const problems: string[] = [];
    let stranded = 0;
    for (const alg of ['adaptive', 'hash']) {
      const route = bindRoute(g, pickRouting(closRouting, 'clos', alg));
      const fr = new FaultRouting(g, route, closRouting.vcs, false, new ClosFaultRoutes(g, route));
      const pool = new PacketPool(8, 4);
      // R1 3's uplinks of slice 0 and R1 9's of slices 0 and 2 fail once packets have climbed
      const set: string[] = [];
      for (let j = 0; j < 32; j++) set.push(`3:${g.r1UpBase + j}`, `9:${g.r1UpBase + j}`, `9:${g.r1UpBase + 2 * g.blockPorts + j}`);
      const down = downOf(g, set);
      fr.setDown(down, new Uint8Array(g.routers));
      fr.checkRoutes('x');
      for (let a = 0; a < g.r1Count; a++) {
        for (const b of [3, 9]) {
          for (let k = 0; k < 16; k++) {
            const r = walk(g, fr, pool, a * 32 + k, b * 32 + 31 - k, k * 977 + a, [down], [1]);
            if (r.end === 'wrong node' || (r.end === 'lost') !== r.stranded) problems.push(`${alg}: ${a * 32 + k} -> ${b * 32 + 31 - k}: ${r.end}${r.stranded ? ', stranded' : ''}`);
            if (r.stranded) stranded++;
          }
        }
      }
    }
    expect(problems.slice(0, 5)).toEqual([]);
    expect(stranded).toBeGreaterThan(0);
  });
});

/**
 * Streams `count` packets from node `src` to node `dst` of machine m from time 0; every packet
 * either arrives or is lost. Returns how many of each, the packets that crossed a failed link
 * after it failed, and the fault routing's stranded count.
 */
function stream(m: Machine, src: number, dst: number, count: number, failAtPs: number, failed: Uint8Array): { delivered: number; lost: number; crossed: number; stranded: number } {
  const pk = m.net.pkts;
  const g = m.graph;
  let delivered = 0;
  let lost = 0;
  let crossed = 0;
  m.net.onHop = (_p, c, t) => {
    if (c < g.routers * g.radix && failed[c] && t >= failAtPs) crossed++;
  };
  m.net.attach(dst, {
    deliver: (p) => {
      delivered++;
      m.net.ejectCredit(dst, pk.vc[p]!, pk.phits[p]!, m.engine.now);
      pk.free(p);
    },
    lose: (p) => {
      lost++;
      pk.free(p);
    },
  });
  for (let i = 0; i < count; i++) {
    const p = pk.alloc();
    pk.src[p] = src;
    pk.dst[p] = dst;
    pk.phits[p] = 20;
    pk.vcClass[p] = 0;
    pk.bytes[p] = 0;
    pk.txn[p] = i;
    m.net.inject(src, p);
  }
  m.engine.drain();
  return { delivered, lost, crossed, stranded: m.net.faults!.routing.stranded };
}

describe('stranded packets on a running network', () => {
  it('sc5832, 36 nodes: link 0:1 fails while node 12\'s packets to node 9 (route 12 -> 18 -> 0 -> 1 -> 9, a peak at 18) stream: those between 12 and router 0 are stranded and lost; the rest arrive', () => {
    // links of 2 us hold a dozen packets each, so many are between router 12 and router 0 when 0:1 fails
    const m = buildMachine(resolveMachine(machineSpec('sc5832'), 36, { 'link.latency': '2us', 'faults.links': '0:1@5us', 'faults.quiescePause': '1us' }));
    const r = stream(m, 12, 9, 600, 5e6, downOf(m.graph, ['0:1']));
    expect(r.stranded).toBeGreaterThan(0);
    expect(r.lost).toBeGreaterThanOrEqual(r.stranded);
    expect(r.delivered + r.lost).toBe(600);
    expect(r.delivered).toBeGreaterThan(r.lost);
    // a lost packet is counted as such in the metrics' source
    expect(m.net.faultCounters()!.lost).toBe(r.lost);
  });

  it('bw, 64 processors at rank 2: R1 1\'s uplinks of slice 0 fail while node 0\'s packets to node 32 stream: those climbed to an R2 of slice 0 are stranded and lost (no link of that slice is left from the R2 to R1 1); the rest arrive', () => {
    const m = buildMachine(resolveMachine(machineSpec('bw'), 64, { 'clos.rank': '2', 'faults.links': [...Array(32).keys()].map((j) => `1:${32 + j}@2us`).join(','), 'faults.quiescePause': '1us' }));
    const g = m.graph as ClosGraph;
    expect(g.r1UpBase).toBe(32);
    const failed = downOf(g, [...Array(32).keys()].map((j) => `1:${32 + j}`));
    const r = stream(m, 0, 32, 2000, 2e6, failed);
    expect(r.stranded).toBeGreaterThan(0);
    expect(r.lost).toBeGreaterThanOrEqual(r.stranded);
    expect(r.delivered + r.lost).toBe(2000);
    expect(r.delivered).toBeGreaterThan(r.lost);
    // lost, not sent again over the same R2's link to R1 1 in another slice (slices are separate networks)
    expect(m.net.faultCounters()!.resent).toBe(0);
  });
});

/** A 256 KiB rendezvous from rank `src` to rank `dst`, then 16 KiB after the failure, under ERRORS_RETURN: what each receive gave. */
async function transfers(machine: string, nodes: number, src: number, dst: number, set: Record<string, string>) {
  const r = await simulate({
    machine,
    nodes,
    metrics: true,
    set: { 'nic.timeout': '100us', 'faults.quiescePause': '1us', ...set },
    program: async (ctx) => {
      const mpi = ctx.mpi;
      mpi.setErrhandler(mpi.ERRORS_RETURN);
      const out: string[] = [];
      for (const n of [1 << 16, 4096]) {
        try {
          if (ctx.rank === src) await mpi.send(new Int32Array(n).fill(n), dst, 0);
          if (ctx.rank === dst) {
            const b = new Int32Array(n);
            await mpi.recv(b, src, 0);
            out.push(b.every((v) => v === n) ? 'intact' : 'corrupt');
          }
        } catch (e) {
          out.push(`${(e as MpiError).errorClass} ${(e as Error).message}`);
        }
        if (ctx.now() < 40) await ctx.compute((40 - ctx.now()) * 1e6);
      }
      return out;
    },
  });
  return { recv: r.rankResults[dst]!, faults: r.metrics!.fabric.faults! };
}

describe('MPI over stranded packets', () => {
  it('sc5832: the transfer whose packets were stranded fails with MPI_ERR_OTHER by the NIC timeout; the next one goes round with its data', async () => {
    const r = await transfers('sc5832', 36, 12, 9, { 'faults.links': '0:1@10us' });
    expect(r.recv[0]).toMatch(/^MPI_ERR_OTHER .*rendezvous get from rank 12 failed with NIC status Timeout/);
    expect(r.recv[1]).toBe('intact');
    expect(r.faults.lost).toBeGreaterThan(0);
  });

  it('bw at rank 2: likewise', async () => {
    const links = [...Array(32).keys()].map((j) => `1:${32 + j}@10us`).join(',');
    const r = await transfers('bw', 64, 0, 32, { 'clos.rank': '2', 'faults.links': links });
    expect(r.recv[0]).toMatch(/^MPI_ERR_OTHER .*rendezvous get from rank 0 failed with NIC status Timeout/);
    expect(r.recv[1]).toBe('intact');
    expect(r.faults.lost).toBeGreaterThan(0);
    expect(r.faults.resent).toBe(0);
  });
});

describe('detours stranded by a later fault set', () => {
  it('xt4, 64 nodes, 6 links failing at 2 us and 6 more at 4 us under random traffic: a packet the second set leaves in its up*/down* down phase with no way down goes on down the first set\'s way; every packet arrives or is lost', () => {
    const links = '42:1@2us,42:4@2us,56:3@2us,53:2@2us,23:4@2us,39:4@2us,9:5@4us,6:6@4us,7:6@4us,11:2@4us,31:3@4us,11:1@4us';
    let stranded = 0;
    // a few packets a run meet it: traffic of 8 seeds, each its own run
    for (let seed = 1; seed <= 8; seed++) {
      const m = buildMachine(resolveMachine(machineSpec('xt4'), 64, { 'faults.links': links, 'faults.quiescePause': '100ns' }), 5);
      const pk = m.net.pkts;
      let delivered = 0;
      let lost = 0;
      for (let n = 0; n < 64; n++) {
        m.net.attach(n, {
          deliver: (p) => {
            if (pk.dst[p] === n) delivered++;
            m.net.ejectCredit(n, pk.vc[p]!, pk.phits[p]!, m.engine.now);
            pk.free(p);
          },
          lose: (p) => {
            lost++;
            pk.free(p);
          },
        });
      }
      const rng = new Prng(seed);
      for (let i = 0; i < 300; i++) {
        for (let s = 0; s < 64; s++) {
          const p = pk.alloc();
          pk.src[p] = s;
          pk.dst[p] = (s + 1 + rng.int(63)) % 64;
          pk.phits[p] = 20;
          pk.vcClass[p] = 0;
          pk.bytes[p] = 0;
          m.net.inject(s, p);
        }
      }
      m.engine.drain();
      stranded += m.net.faults!.routing.stranded;
      expect(delivered + lost).toBe(300 * 64);
      expect(lost).toBeGreaterThan(0);
      expect(m.net.faultCounters()!.lost).toBe(lost);
    }
    expect(stranded).toBeGreaterThan(0);
  });
});
