/**
 * `phit topo` figures against the seeds: the Cray XC configuration tables of seed
 * 001_68348b17bd328203.txt (ids A9, A16-A20) and the xe6 torus.
 */
import { describe, expect, it } from 'vitest';
import { main } from '../cli/main.ts';

interface Topo {
  routers: number;
  nodes: number;
  linksPerClass: Record<string, number>;
  diameter: number;
  diameterWithNodeLinks: number;
  averageHops: number;
  bisectionLinks: number;
  bisectionUnit: string;
  bisectionGBs: number;
  bisectionIsBound: boolean;
  globalCables: number | null;
  globalGBsPerNode: number | null;
}

async function topo(...argv: string[]): Promise<Topo> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(['topo', ...argv, '--json'], { out: (s) => out.push(s), err: (s) => err.push(s) });
  if (code !== 0) throw new Error(`phit topo ${argv.join(' ')} exited ${code}: ${err.join('\n')}`);
  return JSON.parse(out[0]!) as Topo;
}

const SEED = 'seed 001_68348b17bd328203.txt';

describe(`xc30 configurations (${SEED}, "Cray XC Series Configuration")`, () => {
  it.each([
    // Table 3: groups, cables per pair, total cables (Table 2 for the partial ones), crossing the bisection, GB/s
    { groups: 6, cables: 12, total: 180, crossing: 108, gbs: 4050 },
    { groups: 6, cables: 48, total: 720, crossing: 432, gbs: 16200 },
    { groups: 8, cables: 12, total: 336, crossing: 192, gbs: 7200 },
    { groups: 8, cables: 34, total: 952, crossing: 544, gbs: 20400 },
  ])('A17/A18: $groups groups x $cables cables: $total cables, $crossing cross the bisection, $gbs GB/s', async (c) => {
    const t = await topo('xc30', '--groups', String(c.groups), '--cables-per-pair', String(c.cables));
    expect(t.globalCables).toBe(c.total);
    expect(t.bisectionUnit).toBe('cables');
    expect(t.bisectionLinks).toBe(c.crossing);
    expect(t.bisectionGBs).toBeCloseTo(c.gbs, 6);
    expect(t.bisectionIsBound).toBe(false);
    expect(t.linksPerClass.global).toBe(c.total * 4);
  });

  it('A16: without --cables-per-pair a system gets the most cables per pair (6 groups: 48, 8 groups: 34)', async () => {
    expect((await topo('xc30', '--groups', '6')).globalCables).toBe(720);
    expect((await topo('xc30', '--groups', '8')).globalCables).toBe(952);
  });

  it('A16: more cables per pair than a group can hold is refused', async () => {
    const err: string[] = [];
    const code = await main(['topo', 'xc30', '--groups', '6', '--cables-per-pair', '49'], { out: () => {}, err: (s) => err.push(s) });
    expect(code).toBe(2);
    expect(err.join('\n')).toMatch(/cablesPerPair.*1 to 48.*49/);
  });

  it('A20: a full network has a peak global bandwidth of 11.7 GB/s per node', async () => {
    const t = await topo('xc30', '--groups', '6');
    expect(Math.abs(t.globalGBsPerNode! - 11.7) / 11.7).toBeLessThan(0.01);
  });

  it('A9: a full 6-group system has minimal paths of at most 3 router hops', async () => {
    const full = await topo('xc30', '--groups', '6');
    expect(full.diameter).toBe(3);
    // with fewer cables some routers lack a direct link to a group: longer paths appear
    const partial = await topo('xc30', '--groups', '6', '--cables-per-pair', '12');
    expect(partial.diameter).toBeGreaterThan(3);
    expect(partial.diameter).toBeLessThanOrEqual(5);
  });

  it('A1/A3/A19: one group is 96 Aries and 384 nodes; 384 green links cross its bisection: 4032 GB/s', async () => {
    const t = await topo('xc30', '--groups', '1');
    expect(t.routers).toBe(96);
    expect(t.nodes).toBe(384);
    expect(t.linksPerClass.green).toBe(96 * 15 / 2);
    expect(t.linksPerClass.black).toBe(96 * 15 / 2);
    expect(t.bisectionLinks).toBe(384);
    expect(t.bisectionGBs).toBeCloseTo(4032, 6);
    expect(t.diameter).toBe(2); // one green and one black hop
  });
});

describe('xe6 torus structure (seed 004_c566599512f7712a.txt, G2)', () => {
  it('an 8x8x8 torus: 8/4/8 links per direction, diameter 12, bisection across x or z', async () => {
    const t = await topo('xe6', '--dims', '8x8x8');
    expect(t.routers).toBe(512);
    expect(t.nodes).toBe(1024);
    expect(t.linksPerClass).toEqual({ x: 512 * 8, y: 512 * 4, z: 512 * 8 });
    expect(t.diameter).toBe(12);
    // uniform average over a ring of 8 is 2 hops per dimension (counting the node pairs on one router)
    expect(t.averageHops).toBeGreaterThan(5.9);
    expect(t.averageHops).toBeLessThan(6.1);
    // cutting y (4 links per direction) is cheapest: 2 x 64 lines x 4 links, each 2.34 GB/s per direction
    expect(t.bisectionLinks).toBe(512);
    expect(t.bisectionGBs).toBeCloseTo(512 * 2 * 2.34375, 3);
    expect(t.bisectionIsBound).toBe(false);
  });

  it('an odd torus reports its bisection as a bound', async () => {
    const t = await topo('xe6', '--dims', '5x5x5');
    expect(t.bisectionIsBound).toBe(true);
  });
});

describe('sc5832 Kautz structure (seed 002_d5d3150c0192c56e.txt, Table 1, K2, K9)', () => {
  it.each([
    { k: 4, nodes: 108, bound: 40 },
    { k: 5, nodes: 324, bound: 97 },
    { k: 6, nodes: 972, bound: 243 },
  ])('K9: diameter $k for $nodes nodes, bisection lower bound $bound links', async ({ k, nodes, bound }) => {
    const t = await topo('sc5832', '--diameter', String(k));
    expect(t.nodes).toBe(nodes);
    expect(t.diameter).toBe(k);
    expect(t.bisectionLinks).toBe(bound);
    expect(t.bisectionIsBound).toBe(true);
    expect(t.linksPerClass.out).toBe(3 * nodes); // K2: 3 one-way links out of every node
  });

  it('K15: the average path of the 972-node fabric is about 5 hops', async () => {
    const t = await topo('sc5832', '--diameter', '6');
    expect(Math.abs(t.averageHops - 5) / 5).toBeLessThan(0.15);
  });
});

describe('bw folded-Clos structure (seed 003_ad7045ffbf8f1bf9.txt, B6, B8)', () => {
  it('B8: 32K processors have a worst-case diameter of 7 hops counting the processor links, 5 between routers', async () => {
    const t = await topo('bw', '--nodes', '32768');
    expect(t.nodes).toBe(32768);
    expect(t.diameter).toBe(5);
    expect(t.diameterWithNodeLinks).toBe(7);
    // 4 slices of 1,024 R1, 2,048 R2 and 2,048 R3 routers, stacked per position
    expect(t.routers).toBe(1024 + 2048 + 2048);
  });

  it.each([
    { nodes: 32, diameter: 0 },
    { nodes: 288, diameter: 1 },
    { nodes: 1024, diameter: 2 },
    { nodes: 4608, diameter: 3 },
    { nodes: 16384, diameter: 4 },
  ])('B6: $nodes processors have a diameter of $diameter router hops', async ({ nodes, diameter }) => {
    const t = await topo('bw', '--nodes', String(nodes));
    expect(t.diameter).toBe(diameter);
  });

  it('a full rank-2 fat tree has full bisection: half the processors x 4 slices links, exact', async () => {
    const t = await topo('bw', '--nodes', '1024');
    expect(t.bisectionLinks).toBe(512 * 4);
    expect(t.bisectionIsBound).toBe(false);
    // 18.75 Gb/s per link each way (B1)
    expect(t.bisectionGBs).toBeCloseTo(2 * 2048 * 2.34375, 3);
  });

  it('sidelinks give less: 9 R1 subtrees with 4 links per pair cut 20 x 4 = 80 links per slice (bound)', async () => {
    const t = await topo('bw', '--nodes', '288');
    expect(t.bisectionLinks).toBe(80 * 4);
    expect(t.bisectionIsBound).toBe(true);
  });
});
