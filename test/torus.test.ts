import { describe, expect, it } from 'vitest';
import { PORT_NODE, PORT_UNUSED, routerDistances } from '../fabric/topology/port-graph.ts';
import { balancedDims, buildTorus, torusDistance, torusGroupPorts, type TorusConfig, type TorusGraph } from '../fabric/topology/torus.ts';

const CONFIGS: { name: string; cfg: TorusConfig }[] = [
  { name: 'Gemini-like 4x4x2, links 8,4,8, 2 nodes/router', cfg: { dims: [4, 4, 2], links: [8, 4, 8], nodesPerRouter: 2 } },
  { name: '3x5x1, 1 link, 1 node/router', cfg: { dims: [3, 5, 1], links: [1, 1, 1], nodesPerRouter: 1 } },
  { name: '2x2x2, links 2,1,3, 2 nodes/router', cfg: { dims: [2, 2, 2], links: [2, 1, 3], nodesPerRouter: 2 } },
  { name: '4x3 mesh (no wrap), links 2,1', cfg: { dims: [4, 3], links: [2, 1], wrap: [false, false], nodesPerRouter: 1 } },
  { name: '5x4 mixed wrap [true,false]', cfg: { dims: [5, 4], links: [1, 2], wrap: [true, false], nodesPerRouter: 3 } },
  { name: '1-D ring of 5', cfg: { dims: [5], links: [1], nodesPerRouter: 1 } },
  { name: '1-D ring of 6 with 3 links, partially populated', cfg: { dims: [6], links: [3], nodesPerRouter: 2, nodes: 9 } },
  { name: '3x3x3 with 13 of 27 nodes', cfg: { dims: [3, 3, 3], links: [1, 1, 1], nodesPerRouter: 1, nodes: 13 } },
];

/** Router-to-router ports the config should wire, counted from first principles. */
function expectedWiredPorts(cfg: TorusConfig): number {
  const routers = cfg.dims.reduce((a, b) => a * b, 1);
  let wired = 0;
  cfg.dims.forEach((k, d) => {
    if (k === 1) return;
    const wrap = cfg.wrap?.[d] ?? true;
    // along each ring of k routers: 2k directed link groups with wrap, 2(k-1) without
    const groupsPerRing = wrap ? 2 * k : 2 * (k - 1);
    wired += (routers / k) * groupsPerRing * cfg.links[d]!;
  });
  return wired;
}

/** Coordinates of router r, computed independently of g.coords (x varies fastest). */
function coordsOf(cfg: TorusConfig, r: number): number[] {
  const out: number[] = [];
  let rest = r;
  for (const k of cfg.dims) {
    out.push(rest % k);
    rest = Math.floor(rest / k);
  }
  return out;
}

describe.each(CONFIGS)('buildTorus: $name', ({ cfg }) => {
  const g: TorusGraph = buildTorus(cfg);
  const n = cfg.dims.length;
  const routers = cfg.dims.reduce((a, b) => a * b, 1);
  const nodes = cfg.nodes ?? routers * cfg.nodesPerRouter;

  it('has the documented sizes: routers, radix = nodesPerRouter + 2 * sum(links), nodes, classNames', () => {
    expect(g.topology).toBe('torus');
    expect(g.routers).toBe(routers);
    expect(g.radix).toBe(cfg.nodesPerRouter + 2 * cfg.links.reduce((a, b) => a + b, 0));
    expect(g.nodes).toBe(nodes);
    expect(g.peerRouter).toHaveLength(routers * g.radix);
    expect(g.peerPort).toHaveLength(routers * g.radix);
    expect(g.portNode).toHaveLength(routers * g.radix);
    expect(g.portClass).toHaveLength(routers * g.radix);
    expect(g.classNames).toHaveLength(2 + 2 * n);
    expect(g.classNames.slice(0, 4)).toEqual(['node', 'unused', 'x+', 'x-']);
    expect(g.groupPort).toEqual(torusGroupPorts(cfg.nodesPerRouter, cfg.links));
    expect(g.wrap).toEqual(cfg.wrap ?? cfg.dims.map(() => true));
  });

  it('router coordinates enumerate the grid with x varying fastest', () => {
    for (let r = 0; r < routers; r++) {
      expect(Array.from(g.coords.subarray(r * n, r * n + n))).toEqual(coordsOf(cfg, r));
    }
  });

  it('is symmetric: the peer of a peer is the port itself, with paired classes d+ <-> d-', () => {
    let wired = 0;
    for (let gp = 0; gp < routers * g.radix; gp++) {
      const peer = g.peerRouter[gp]!;
      if (peer < 0) {
        expect(g.peerPort[gp]).toBe(-1);
        continue;
      }
      wired++;
      const r = Math.floor(gp / g.radix);
      const back = peer * g.radix + g.peerPort[gp]!;
      expect(peer).not.toBe(r);
      expect(g.peerRouter[back]).toBe(r);
      expect(g.peerPort[back]).toBe(gp % g.radix);
      const cls = g.portClass[gp]!;
      expect(cls).toBeGreaterThanOrEqual(2);
      const d = (cls - 2) >> 1;
      const s = (cls - 2) & 1;
      expect(g.portClass[back]).toBe(2 + 2 * d + (1 - s));
      expect(g.portNode[gp]).toBe(-1);
      // the link really goes one step along dimension d in direction s (mod k), nowhere else
      const a = coordsOf(cfg, r);
      const b = coordsOf(cfg, peer);
      for (let e = 0; e < n; e++) {
        const k = cfg.dims[e]!;
        if (e === d) expect(b[e]).toBe((a[e]! + (s === 0 ? 1 : k - 1)) % k);
        else expect(b[e]).toBe(a[e]);
      }
      // and it sits in the group of its class, at the same index as its peer port in the paired group
      const local = gp % g.radix;
      const first = g.groupPort[2 * d + s]!;
      expect(local).toBeGreaterThanOrEqual(first);
      expect(local).toBeLessThan(first + cfg.links[d]!);
      expect(g.peerPort[gp]! - g.groupPort[2 * d + (1 - s)]!).toBe(local - first);
    }
    expect(wired).toBe(expectedWiredPorts(cfg));
  });

  it('attaches every node to exactly one node port, and labels other ports unused', () => {
    const seen = new Array<number>(nodes).fill(0);
    for (let gp = 0; gp < routers * g.radix; gp++) {
      const node = g.portNode[gp]!;
      const cls = g.portClass[gp]!;
      if (node >= 0) {
        expect(node).toBeLessThan(nodes);
        seen[node]!++;
        expect(cls).toBe(PORT_NODE);
        expect(g.peerRouter[gp]).toBe(-1);
        expect(gp % g.radix).toBeLessThan(cfg.nodesPerRouter);
        expect(g.nodeRouter[node]).toBe(Math.floor(gp / g.radix));
        expect(g.nodePort[node]).toBe(gp % g.radix);
      } else if (g.peerRouter[gp]! < 0) {
        expect(cls).toBe(PORT_UNUSED);
      }
    }
    expect(seen.every((c) => c === 1)).toBe(true);
    expect(g.nodeRouter).toHaveLength(nodes);
    expect(g.nodePort).toHaveLength(nodes);
  });

  it('torusDistance equals the BFS router distance for every router pair', () => {
    for (let a = 0; a < routers; a++) {
      const bfs = routerDistances(g, a);
      for (let b = 0; b < routers; b++) {
        expect(bfs[b]).toBeGreaterThanOrEqual(0);
        expect(torusDistance(g, a, b)).toBe(bfs[b]);
      }
    }
  });
});

describe('torusDistance', () => {
  it('uses the shorter way round a ring and ignores wrap on mesh dimensions', () => {
    const ring = buildTorus({ dims: [8], links: [1], nodesPerRouter: 1 });
    expect(torusDistance(ring, 0, 7)).toBe(1);
    expect(torusDistance(ring, 1, 5)).toBe(4);
    expect(torusDistance(ring, 6, 1)).toBe(3);
    const line = buildTorus({ dims: [8], links: [1], wrap: [false], nodesPerRouter: 1 });
    expect(torusDistance(line, 0, 7)).toBe(7);
    expect(torusDistance(line, 6, 1)).toBe(5);
  });
});

describe('balancedDims', () => {
  it.each([
    [32, [4, 4, 2]],
    [64, [4, 4, 4]],
    [7, [7, 1, 1]],
    [1, [1, 1, 1]],
    [8, [2, 2, 2]],
    [12, [3, 2, 2]],
    [24, [4, 3, 2]],
    [100, [5, 5, 4]],
    [128, [8, 4, 4]],
    [512, [8, 8, 8]],
  ])('balancedDims(%i) = %j', (routers, want) => {
    expect(balancedDims(routers)).toEqual(want);
  });

  it('supports other dimension counts', () => {
    expect(balancedDims(12, 2)).toEqual([4, 3]);
    expect(balancedDims(64, 2)).toEqual([8, 8]);
    expect(balancedDims(30, 1)).toEqual([30]);
    expect(balancedDims(16, 4)).toEqual([2, 2, 2, 2]);
  });

  it('returns a descending factorization whose product is the input (1..1000, 3 dims)', () => {
    for (let r = 1; r <= 1000; r++) {
      const d = balancedDims(r);
      expect(d).toHaveLength(3);
      expect(d[0]! * d[1]! * d[2]!).toBe(r);
      expect(d[0]).toBeGreaterThanOrEqual(d[1]!);
      expect(d[1]).toBeGreaterThanOrEqual(d[2]!);
    }
  });

  it('is as cubic as possible (smallest largest side) for every router count up to 2000', () => {
    // brute force: the smallest achievable largest dimension over all 3-factorizations
    const bestMax = (r: number): number => {
      let best = r;
      for (let a = 1; a <= r; a++) {
        if (r % a !== 0) continue;
        for (let b = 1; b <= r / a; b++) {
          if ((r / a) % b !== 0) continue;
          best = Math.min(best, Math.max(a, b, r / a / b));
        }
      }
      return best;
    };
    for (let r = 1; r <= 2000; r++) expect(balancedDims(r)[0], `routers=${r}`).toBe(bestMax(r));
  });
});

describe('buildTorus input validation', () => {
  const ok: TorusConfig = { dims: [4, 4, 2], links: [8, 4, 8], nodesPerRouter: 2 };
  it.each<[string, TorusConfig, RegExp]>([
    ['dims with a 0', { ...ok, dims: [4, 0, 2] }, /torus\.dims\[1\]/],
    ['dims with a non-integer', { ...ok, dims: [4, 2.5, 2] }, /torus\.dims\[1\]/],
    ['no dims', { ...ok, dims: [], links: [] }, /torus\.dims/],
    ['too many dims', { ...ok, dims: [2, 2, 2, 2, 2, 2, 2], links: [1, 1, 1, 1, 1, 1, 1] }, /torus\.dims/],
    ['links length mismatch', { ...ok, links: [8, 4] }, /torus\.links/],
    ['links with a 0', { ...ok, links: [8, 0, 8] }, /torus\.links\[1\]/],
    ['wrap length mismatch', { ...ok, wrap: [true, true] }, /torus\.wrap/],
    ['nodesPerRouter 0', { ...ok, nodesPerRouter: 0 }, /torus\.nodesPerRouter/],
    ['too many nodes', { ...ok, nodes: 65 }, /torus\.nodes must be .* 64/],
    ['zero nodes', { ...ok, nodes: 0 }, /torus\.nodes/],
  ])('rejects %s with a RangeError naming the field', (_what, cfg, re) => {
    expect(() => buildTorus(cfg)).toThrow(RangeError);
    expect(() => buildTorus(cfg)).toThrow(re);
  });

  it('accepts the largest valid node count', () => {
    expect(buildTorus({ ...ok, nodes: 64 }).nodes).toBe(64);
  });
});
