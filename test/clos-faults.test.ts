/**
 * BlackWidow around failed links (clos-fault-routes.ts): R1 sidelinks (64 processors, rank 1.5),
 * R1-R2 links (512, rank 2) and R2-R3 links (544 processors at rank 3: two R2 subtrees under one
 * R3 subtree) fail; the up choices and the slice drawn at the source leave out every port whose
 * way down has failed, so every route of every pair of R1 routers avoids the failed links on the
 * topology's one VC per class, the channel dependency graph stays acyclic, and packets and data
 * arrive, ordered traffic in order.
 */
import { describe, expect, it } from 'vitest';
import { checkDeadlockFreedom } from '../fabric/deadlock.ts';
import { Prng } from '../fabric/engine/prng.ts';
import { setupFaults } from '../fabric/fault-setup.ts';
import { downAt, parseFaults } from '../fabric/faults.ts';
import { buildMachine, machineSpec, resolveMachine } from '../fabric/machine.ts';
import { PacketPool } from '../fabric/packet.ts';
import { closRouting } from '../fabric/routing/clos-routing.ts';
import { bindRoute, pickRouting, type LoadView, type RouteChoice } from '../fabric/routing/routing.ts';
import { buildClos, type ClosGraph, type ClosRank } from '../fabric/topology/clos.ts';
import { PORT_NODE } from '../fabric/topology/port-graph.ts';
import { simulate } from '../runtime/simulate.ts';
import { phit } from './helpers.ts';

/** Uplink j of R1 i in slice s, as a faults.links item. */
function r1Up(g: ClosGraph, i: number, s: number, j: number): string {
  return `${i}:${g.r1UpBase + s * g.blockPorts + j}`;
}

/** The link from R2 router j of subtree t down to R1 i (of that subtree) in slice s. */
function r2Down(g: ClosGraph, t: number, j: number, i: number, s: number): string {
  return `${g.r2Base + t * 32 + j}:${s * g.blockPorts + (i - t * g.r1sPerR2Subtree)}`;
}

/** Uplink u of R2 router j of subtree t in slice s (to R3 router (j, u) of its R3 subtree). */
function r2Up(g: ClosGraph, t: number, j: number, s: number, u: number): string {
  return `${g.r2Base + t * 32 + j}:${s * g.blockPorts + g.r1sPerR2Subtree + u}`;
}

/** The cases: processors, rank, the failed links and what they exercise. */
function cases(): { name: string; processors: number; rank: ClosRank; links: string[] }[] {
  const out: { name: string; processors: number; rank: ClosRank; links: string[] }[] = [];
  const g64 = buildClos({ processors: 64 });
  // every sidelink of slice 1 between the two R1s, and all but one of slice 0
  const side: string[] = [];
  for (let m = 0; m < 32; m++) side.push(r1Up(g64, 0, 1, m));
  for (let m = 1; m < 32; m++) side.push(r1Up(g64, 0, 0, m));
  out.push({ name: '64 processors (rank 1.5): 63 of the 128 sidelinks between the two R1s', processors: 64, rank: 1.5, links: side });
  const g512 = buildClos({ processors: 512 });
  // every uplink of R1 0 in slice 0 (the source must take another slice, and so must every packet to R1 0),
  // R2 5's way down to R1 3 in slice 1 and R2 7's to R1 9 in slice 2 (up choices must leave those R2s out)
  const up: string[] = [];
  for (let j = 0; j < 32; j++) up.push(r1Up(g512, 0, 0, j));
  up.push(r2Down(g512, 0, 5, 3, 1), r2Down(g512, 0, 7, 9, 2));
  out.push({ name: '512 processors (rank 2): R1-R2 links', processors: 512, rank: 2, links: up });
  const g544 = buildClos({ processors: 544, rank: 3 });
  // R2 0 of subtree 0 loses all but one uplink in slice 0; R3 (1, 0)'s way down to subtree 1 fails in slice 0;
  // every uplink of R2 2 of subtree 1 in slice 3; and an R1-R2 link of the second subtree
  const r3: string[] = [];
  for (let u = 1; u < 16; u++) r3.push(r2Up(g544, 0, 0, 0, u));
  r3.push(`${g544.r3Base + 1 * 16 + 0}:${0 * g544.blockPorts + 1}`);
  for (let u = 0; u < 16; u++) r3.push(r2Up(g544, 1, 2, 3, u));
  r3.push(r1Up(g544, 16, 0, 4));
  out.push({ name: '544 processors at rank 3: R2-R3 links', processors: 544, rank: 3, links: r3 });
  return out;
}

describe('BlackWidow routes around failed R1 sidelinks, R1-R2 and R2-R3 links', () => {
  for (const c of cases()) {
    for (const alg of ['adaptive', 'hash']) {
      it(`${c.name}, ${alg} routing: accepted; every route of every R1 pair avoids them; the dependency graph is acyclic`, () => {
        const g = buildClos({ processors: c.processors, rank: c.rank });
        const route = bindRoute(g, pickRouting(closRouting, 'clos', alg));
        // a BlackWidow has virtual output queues: no room for escape VCs (as the machine build decides)
        const s = setupFaults({ links: c.links.join(','), routers: 'none', lanes: 'none', quiescePausePs: 0 }, g, route, closRouting.vcs, g.classNames.map(() => 3), 'bw', true);
        expect(s).not.toBeNull();
        expect(s!.vcs).toBe(closRouting.vcs);
        const down = downAt(parseFaults({ links: c.links.join(','), routers: 'none', lanes: 'none' }, g, g.classNames.map(() => 3), 0), g, 0).ports;
        const fr = s!.faults.routing;
        fr.setDown(down, new Uint8Array(g.routers));
        const rng = new Prng(5);
        const loads: LoadView[] = [{ groupLoad: () => 0 }, { groupLoad: () => rng.int(8) }];
        const pool = new PacketPool(8, 4);
        const out: RouteChoice = { port: 0, count: 1, vc: 0 };
        const problems: string[] = [];
        let crossings = 0;
        for (let a = 0; a < g.r1Count; a++) {
          for (let b = 0; b < g.r1Count; b++) {
            for (let k = 0; k < 8; k++) {
              const p = pool.alloc();
              pool.src[p] = a * 32 + (k % 4);
              pool.dst[p] = Math.min(b * 32 + 31 - k, c.processors - 1);
              pool.vcClass[p] = k & 1;
              pool.vc[p] = k & 1;
              pool.ordered[p] = k >> 2 === 1 ? 1 : 0;
              pool.startRoute(p, rng.nextU32());
              let r = a;
              pool.at[p] = r * g.radix + g.nodePort[pool.src[p]!]!;
              for (let hop = 0; ; hop++) {
                fr.route(r, pool, p, out, loads[k % 2]!);
                if (g.portClass[r * g.radix + out.port] === PORT_NODE) {
                  if (r !== b) problems.push(`${a} -> ${b}: ejected at router ${r}`);
                  break;
                }
                // the network picks any port of a group: each must be up
                for (let q = out.port; q < out.port + out.count; q++) {
                  if (down[r * g.radix + q]) problems.push(`${a} -> ${b}: offered failed link ${r}:${q}`);
                  crossings++;
                }
                if (out.vc !== (k & 1)) problems.push(`${a} -> ${b}: VC ${out.vc}`);
                if (hop > 8) {
                  problems.push(`${a} -> ${b}: no arrival`);
                  break;
                }
                const gp = r * g.radix + out.port;
                pool.vc[p] = out.vc;
                r = g.peerRouter[gp]!;
                pool.at[p] = r * g.radix + g.peerPort[gp]!;
              }
              pool.free(p);
            }
          }
        }
        expect(problems.slice(0, 5)).toEqual([]);
        expect(crossings).toBeGreaterThan(0);
        expect(fr.masked).toBeGreaterThan(0);
        expect(fr.detours).toBe(0);
        const dl = checkDeadlockFreedom(g, fr.route, fr.vcs, { salts: 4 });
        expect(dl.cycle).toBeNull();
      });
    }
  }

  it('544 processors at rank 3 with the R2-R3 failures: ordered packets of every R1 pair arrive in order, none over a failed link', () => {
    const c = cases()[2]!;
    const m = buildMachine(resolveMachine(machineSpec('bw'), c.processors, { 'clos.rank': '3', 'faults.links': c.links.join(',') }));
    const g = m.graph;
    const pk = m.net.pkts;
    const down = downAt(parseFaults({ links: c.links.join(','), routers: 'none', lanes: 'none' }, g, g.classNames.map(() => 3), 0), g, 0).ports;
    const R1 = (g as ClosGraph).r1Count;
    const next = new Int32Array(R1 * R1);
    const bad: string[] = [];
    let arrived = 0;
    m.net.onHop = (p, ch) => {
      if (ch < g.routers * g.radix && down[ch]) bad.push(`${pk.src[p]} -> ${pk.dst[p]} over failed link ${Math.floor(ch / g.radix)}:${ch % g.radix}`);
    };
    const nodeOf = (r: number): number => Math.min(r * 32 + 5, c.processors - 1);
    for (let r = 0; r < R1; r++) {
      const n = nodeOf(r);
      m.net.attach(n, {
        deliver: (p) => {
          const pair = Math.floor(pk.src[p]! / 32) * R1 + r;
          if (pk.txn[p] !== next[pair]) bad.push(`pair ${pk.src[p]} -> ${n}: packet ${pk.txn[p]} when ${next[pair]} was due`);
          next[pair] = pk.txn[p]! + 1;
          arrived++;
          m.net.ejectCredit(n, pk.vc[p]!, pk.phits[p]!, m.engine.now);
          pk.free(p);
        },
      });
    }
    for (let i = 0; i < 6; i++) {
      for (let a = 0; a < R1; a++) {
        for (let b = 0; b < R1; b++) {
          if (a === b) continue;
          const p = pk.alloc();
          pk.src[p] = nodeOf(a);
          pk.dst[p] = nodeOf(b);
          pk.phits[p] = 24;
          pk.vcClass[p] = 0;
          pk.bytes[p] = 0;
          pk.ordered[p] = 1;
          pk.txn[p] = i;
          m.net.inject(nodeOf(a), p);
        }
      }
    }
    m.engine.drain();
    expect(bad.slice(0, 5)).toEqual([]);
    expect(arrived).toBe(6 * R1 * (R1 - 1));
    expect(m.net.faultCounters()!.masked).toBeGreaterThan(0);
  });

  for (const [name, set] of [
    ['64 processors, sidelinks', { 'faults.links': cases()[0]!.links.join(',') }],
    ['64 processors at rank 2, every uplink of R1 0 in slices 0 and 1', { 'clos.rank': '2', 'faults.links': [0, 1].flatMap((s) => Array.from({ length: 32 }, (_, j) => `0:${32 + 32 * s + j}`)).join(',') }],
  ] as const) {
    it(`alltoall on bw, ${name}: every element checked`, async () => {
      const sets = Object.entries(set).flatMap(([k, v]) => ['--set', `${k}=${v}`]);
      const r = await phit('run', 'alltoall', '--machine', 'bw', '--nodes', '64', '--param', 'minBytes=512', '--param', 'maxBytes=512', '--param', 'iterations=1', '--param', 'warmup=0', ...sets, '--metrics');
      const text = r.out.join('\n');
      expect(r.code, r.err.join('\n') + text).toBe(0);
      expect(text).toMatch(/^\s+512\s+64\s+\w+/m);
      const f = /faults: (\d+) packets detoured.* (\d+) routing choices masked/.exec(text);
      expect(Number(f![2])).toBeGreaterThan(0);
    });
  }
});

/**
 * 96 processors at rank 2 (R1 routers 0, 1, 2 under 32 R2s): R1 0 loses its uplinks to R2s 0..15
 * and R1 1 its uplinks to R2s 16..31, in the slices given. In a slice where both lost theirs, R1 0
 * and R1 1 share no R2, and are joined only through R1 2, going down to it and up again.
 */
function apart(slices: readonly number[]): string {
  return slices.flatMap((s) => Array.from({ length: 32 }, (_, j) => `${j < 16 ? 0 : 1}:${32 + 32 * s + j}`)).join(',');
}

describe('BlackWidow: a pair of R1 routers no slice joins up*/down*', () => {
  it('refused from the command line with exit 2 and one line naming the pair, the failed links on its routes, and why the links left cannot carry it', async () => {
    const r = await phit('run', 'pingpong', '--machine', 'bw', '--nodes', '96', '--set', 'clos.rank=2', '--set', `faults.links=${apart([0, 1, 2, 3])}`, '--param', 'maxBytes=8');
    expect(r.code).toBe(2);
    expect(r.err.join('\n').trim().split('\n')).toHaveLength(1);
    expect(r.err[0]).toMatch(/no BlackWidow route from R1 router 0 to R1 router 1 avoids the failed links in any slice: failed links on its up\*\/down\* routes 0:32, 0:33, .* and 120 more; the links left join them only by routes that go down and up again, and a YARC has no VC to spare/);
  });

  it('with one slice left that joins them, accepted: each packet of the pair takes that slice from its source, and the data arrives', async () => {
    const r = await simulate({
      machine: 'bw',
      nodes: 96,
      metrics: true,
      set: { 'clos.rank': '2', 'faults.links': apart([0, 1, 2]) },
      program: async (ctx) => {
        if (ctx.rank === 0) await ctx.mpi.send(new Int32Array(4096).fill(7), 32, 0);
        if (ctx.rank !== 32) return true;
        const b = new Int32Array(4096);
        await ctx.mpi.recv(b, 0, 0);
        return b.every((v) => v === 7);
      },
    });
    expect(r.rankResults[32]).toBe(true);
    expect(r.metrics!.fabric.faults!.masked).toBeGreaterThan(0);
  });
});
