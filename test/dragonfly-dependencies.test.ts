/**
 * The dragonfly's channel dependency graph (seed 001, "Cray XC Routing"; SEED-FIGURES A11):
 * acyclic for every algorithm together, and the check can fail.
 */
import { describe, expect, it } from 'vitest';
import { Prng } from '../fabric/engine/prng.ts';
import { PacketPool } from '../fabric/packet.ts';
import { DRAGONFLY_VCS } from '../fabric/routing/dragonfly-routing.ts';
import type { LoadView } from '../fabric/routing/routing.ts';
import { buildDragonfly, type DragonflyGraph } from '../fabric/topology/dragonfly.ts';
import { sortDependencies, type Hop } from './helpers.ts';
import { IDLE, MULTI, SMALL, routeOf, walk, type DfRoute } from './dragonfly-helpers.ts';

interface Router {
  route: DfRoute;
  /** Load view per walk (called once before each walk). */
  load: () => LoadView;
  /** Salts per (src, dst, class). */
  salts: number;
}

/**
 * Channel dependency graph of the union of `routers` over every (src, dst) pair and both VC
 * classes. Channels are (global port, vc), the ejection ports included; every port of a parallel
 * group counts, since the router may pick any. Returns the number of channels left after a
 * topological sort (0 = acyclic), the channel and edge counts, and how many walks were non-minimal.
 */
function dependencyCycles(g: DragonflyGraph, routers: Router[], seed: number): { cyclic: number; channels: number; edges: number; nonMinimal: number; walks: number } {
  const pool = new PacketPool(8, 16);
  const rng = new Prng(seed);
  const nv = DRAGONFLY_VCS;
  const succ = new Map<number, Set<number>>();
  const addEdge = (a: number, b: number): void => {
    let s = succ.get(a);
    if (!s) succ.set(a, (s = new Set()));
    s.add(b);
  };
  const channelsOf = (h: Hop): number[] => {
    const out: number[] = [];
    for (let j = 0; j < h.count; j++) out.push((h.router * g.radix + h.port + j) * nv + h.vc);
    return out;
  };
  let nonMinimal = 0;
  let walks = 0;
  for (const rt of routers) {
    for (let cls = 0; cls < 2; cls++) {
      for (let s = 0; s < g.nodes; s++) {
        for (let d = 0; d < g.nodes; d++) {
          for (let k = 0; k < rt.salts; k++) {
            const w = walk(g, rt.route, pool, s, d, cls, { salt: rng.nextU32(), load: rt.load() });
            walks++;
            if (w.inter !== -1) nonMinimal++;
            const seq = [...w.hops, w.eject];
            for (let i = 0; i + 1 < seq.length; i++) {
              for (const a of channelsOf(seq[i]!)) for (const b of channelsOf(seq[i + 1]!)) addEdge(a, b);
            }
          }
        }
      }
    }
  }
  return { ...sortDependencies(succ), nonMinimal, walks };
}

/** A load view returning pseudo-random loads 0-7 (both minimal and non-minimal adaptive choices occur). */
function randomLoads(seed: number): () => LoadView {
  const rng = new Prng(seed);
  const view: LoadView = { groupLoad: () => rng.nextU32() % 8 };
  return () => view;
}

/** The same routing with the VC stages ignored: every hop on VC 4 * class. */
const flatVc =
  (fn: DfRoute): DfRoute =>
  (g, router, pkts, p, out, load) => {
    fn(g, router, pkts, p, out, load);
    out.vc = 4 * pkts.vcClass[p]!;
  };

describe('dragonfly channel dependency graph', () => {
  it.each(SMALL)('is acyclic for minimal + valiant + adaptive (random loads) + hash together on $name', ({ cfg }) => {
    const g = buildDragonfly(cfg);
    const idle = (): LoadView => IDLE;
    const r = dependencyCycles(
      g,
      [
        { route: routeOf('minimal'), load: idle, salts: 4 },
        { route: routeOf('valiant'), load: idle, salts: 8 },
        { route: routeOf('adaptive'), load: randomLoads(cfg.groups), salts: 8 },
        { route: routeOf('hash'), load: idle, salts: 1 },
      ],
      42,
    );
    expect(r.edges).toBeGreaterThan(0);
    expect(r.nonMinimal).toBeGreaterThan(0);
    expect(r.nonMinimal).toBeLessThan(r.walks);
    expect(r.cyclic).toBe(0);
  });

  it('adaptive with random loads makes both minimal and non-minimal choices', () => {
    const g = buildDragonfly(SMALL[0]!.cfg);
    const r = dependencyCycles(g, [{ route: routeOf('adaptive'), load: randomLoads(5), salts: 2 }], 5);
    expect(r.nonMinimal).toBeGreaterThan(r.walks / 20);
    expect(r.nonMinimal).toBeLessThan(r.walks - r.walks / 20);
    expect(r.cyclic).toBe(0);
  });

  it.each(MULTI.slice(0, 3))('the check can fail: every hop on VC 4 * class (stages ignored) has a cycle on $name', ({ cfg }) => {
    const g = buildDragonfly(cfg);
    const idle = (): LoadView => IDLE;
    const r = dependencyCycles(
      g,
      [
        { route: flatVc(routeOf('minimal')), load: idle, salts: 2 },
        { route: flatVc(routeOf('valiant')), load: idle, salts: 2 },
        { route: flatVc(routeOf('adaptive')), load: randomLoads(3), salts: 2 },
      ],
      43,
    );
    expect(r.cyclic).toBeGreaterThan(0);
  });
});
