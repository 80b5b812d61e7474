/** The HTML report: well-formed, self-contained pages from run data, and their charts drawn in headless Chromium. */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveParams, type AppResult } from '../apps/app.ts';
import { pingpong } from '../apps/pingpong.ts';
import { machineSpec, resolveMachine } from '../fabric/machine.ts';
import { simulate } from '../runtime/simulate.ts';
import type { Histogram, RankTime, RouterLoad, RunMetrics } from '../runtime/metrics.ts';
import { chartLibrary, escapeHtml, renderReport, scriptJson, type LineChart, type ReportDoc, type ReportSection } from '../cli/report.ts';
import { MAX_PLANES, MAX_RANK_BARS, resultCharts, runReport, utilisationMaps, type RunReportInput } from '../cli/run-report.ts';
import { browserRequired, chartsOf, checkPage, chromiumPath, chromiumWanted, launchBrowser } from './browser.ts';
import { phit } from './helpers.ts';

// ---------- synthetic fixtures: one router load per topology layout, deterministic values

function load(topology: string, axes: string[], coords: number[][]): RouterLoad {
  return { topology, axes, coords, utilisation: coords.map((_, r) => ((r * 37) % 101) / 200) };
}

function torusLoad(X: number, Y: number, Z: number): RouterLoad {
  const c: number[][] = [];
  for (let z = 0; z < Z; z++) for (let y = 0; y < Y; y++) for (let x = 0; x < X; x++) c.push([x, y, z]);
  return load('torus', ['x', 'y', 'z'], c);
}

const LOADS: Record<string, RouterLoad> = {
  torus: torusLoad(4, 3, 2),
  dragonfly: load('dragonfly', ['group', 'chassis', 'slot'], Array.from({ length: 3 * 2 * 4 }, (_, r) => [Math.floor(r / 8), Math.floor(r / 4) % 2, r % 4])),
  clos: load('clos', ['rank', 'index'], [...Array.from({ length: 8 }, (_, i) => [1, i]), ...Array.from({ length: 4 }, (_, i) => [2, i])]),
  kautz: load('kautz', ['index'], Array.from({ length: 12 }, (_, i) => [i])),
};

function histogram(unit: string, edges: number[], counts: number[]): Histogram {
  const samples = counts.reduce((a, b) => a + b, 0);
  const mean = counts.reduce((s, c, i) => s + c * (edges[i]! + edges[i + 1]!) / 2, 0) / samples;
  return { unit, edges, counts, samples, mean, max: edges[edges.length - 1]! };
}

function ranks(n: number): RankTime[] {
  return Array.from({ length: n }, (_, rank) => ({ rank, node: rank >> 1, computeUs: 10 + (rank % 5), transferUs: 2 + (rank % 3) / 2, waitUs: (rank * 7) % 11 }));
}

function metrics(routers: RouterLoad, nRanks = 8): RunMetrics {
  return {
    fabric: {
      durationPs: 42_000_000,
      packets: 1234,
      linkClasses: [
        { name: 'x', links: 24, utilisation: 0.12, maxUtilisation: 0.5, creditStall: 0.01 },
        { name: 'y', links: 24, utilisation: 0.08, maxUtilisation: 0.3, creditStall: 0 },
      ],
      routers,
      hops: histogram('hops', [0, 1, 2, 3, 4, 5], [0, 400, 500, 300, 34]),
      latencyNs: histogram('ns', [100, 200, 400, 800, 1600], [200, 700, 300, 34]),
      routing: { minimal: 1000, nonMinimal: 234 },
      flows: null,
    },
    ranks: ranks(nRanks),
    calls: [
      { name: 'MPI_Send', calls: 40, bytes: 40960, timeUs: 12.5 },
      { name: 'MPI_Recv', calls: 40, bytes: 40960, timeUs: 30.25 },
    ],
  };
}

const SWEEP = [8, 64, 512, 4096, 32768].map((bytes, i) => ({ bytes, latencyUs: 1.3 + i * i * 0.7, bandwidthGBs: bytes / (1.3 + i * i * 0.7) / 1000 }));

function input(topology: string, extra: Partial<RunReportInput> = {}): RunReportInput {
  const spec = machineSpec({ torus: 'xe6', dragonfly: 'xc30', clos: 'bw', kautz: 'sc5832' }[topology] ?? 'xe6');
  return {
    app: 'pingpong',
    params: { peer: 1 },
    spec,
    set: { 'mpi.eagerMaxBytes': '4KiB' },
    nodes: 8,
    ranks: 8,
    ppn: 1,
    placement: 'contiguous',
    seed: 1,
    simulatedTimeUs: 123.456,
    packets: 1234,
    result: { rows: SWEEP },
    metrics: metrics(LOADS[topology]!),
    ...extra,
  };
}

const doc = (title: string, sections: ReportSection[]): ReportDoc => ({ title, subtitle: 'synthetic fixture', sections });

/** The page minus the inlined library (which names a few XML namespaces and its licence). */
function ownPart(html: string): string {
  const lib = chartLibrary();
  expect(html.split(lib).length).toBe(2); // exactly one copy of the library
  return html.replace(lib, '');
}

describe('renderReport and runReport', () => {
  for (const topology of Object.keys(LOADS)) {
    it(`a ${topology} run gives a well-formed, self-contained page with its data`, () => {
      const inp = input(topology);
      const html = renderReport(doc(`pingpong on ${inp.spec.name}`, runReport(inp)));
      expect(html.startsWith('<!DOCTYPE html>')).toBe(true);
      expect(html.trimEnd().endsWith('</html>')).toBe(true);
      const own = ownPart(html);
      // no reference outside the file: no URL at all, no src/href attributes, no CSS url()
      expect(own).not.toMatch(/https?:|\/\/cdn|src=|href=|url\(|@import/i);
      // scripts: one data block, the library, the drawing script
      expect(own.match(/<script\b/g)?.length).toBe(3);
      expect(own.match(/<\/script>/g)?.length).toBe(3);
      const charts = chartsOf(html);
      const containers = own.match(/<div class="chart" id="chart-\d+"/g) ?? [];
      expect(containers.length).toBe(charts.length);
      // latency and bandwidth vs size, per-rank bars, heat map(s), two histograms
      expect(charts.map((c) => c.kind).sort()).toEqual(expect.arrayContaining(['line', 'line', 'bar', 'heatmap', 'histogram', 'histogram']));
      const line = charts.find((c) => c.title === 'Latency vs bytes') as unknown as { series: { points: number[][] }[] };
      expect(line.series[0]!.points).toEqual(SWEEP.map((r) => [r.bytes, r.latencyUs]));
      const heat = charts.filter((c) => c.kind === 'heatmap') as unknown as { values: (number | null)[][] }[];
      const cells = heat.flatMap((h) => h.values.flat()).filter((v) => v !== null).sort((a, b) => a! - b!);
      expect(cells).toEqual(LOADS[topology]!.utilisation.map((u) => Number((u * 100).toPrecision(6))).sort((a, b) => a - b));
      // tables: configuration with every machine parameter and its provenance, the override marked
      for (const [key, d] of Object.entries(inp.spec.params)) {
        if (key === 'mpi.eagerMaxBytes') continue;
        expect(own).toContain(`<td>${key}</td><td${typeof d.value === 'number' ? ' class="num"' : ''}>${escapeHtml(String(d.value))}</td><td>${escapeHtml(d.source)}</td>`);
      }
      const preset = inp.spec.params['mpi.eagerMaxBytes']!.value;
      expect(own).toContain(`<td>mpi.eagerMaxBytes</td><td>4KiB</td><td>set for this run (preset ${preset}: `);
      expect(own).toContain('<td>MPI_Recv</td>');
      expect(own).toContain('123.456');
    });
  }

  it('lays routers out by topology', () => {
    const t = utilisationMaps(LOADS.torus!);
    expect(t.maps.map((m) => m.title)).toEqual(['Plane z=0', 'Plane z=1']);
    expect(t.maps[1]!.values[2]![3]).toBe(Number((((23 * 37) % 101) / 2).toPrecision(6))); // router (3,2,1) is index 23
    const d = utilisationMaps(LOADS.dragonfly!).maps[0]!;
    expect([d.yLabels.length, d.xLabels.length]).toEqual([3, 8]);
    const c = utilisationMaps(LOADS.clos!).maps[0]!;
    expect(c.yLabels).toEqual(['R1', 'R2']);
    expect(c.values[1]!.slice(4)).toEqual([null, null, null, null]); // four R2 routers in a row of eight
    const k = utilisationMaps(LOADS.kautz!).maps[0]!;
    expect([k.yLabels.length, k.xLabels.length]).toEqual([3, 4]);
    const many = utilisationMaps(torusLoad(2, 2, MAX_PLANES + 4));
    expect(many.maps.length).toBe(MAX_PLANES + 1);
    expect(many.maps[0]!.yLabels.length).toBe(MAX_PLANES + 4);
    expect(many.note).toMatch(/20 planes/);
  });

  it('buckets many ranks and keeps each bucket a mean', () => {
    const sections = runReport(input('torus', { metrics: { ...metrics(LOADS.torus!), ranks: ranks(1000) } }));
    const bar = sections.flatMap((s) => s.items).find((i) => i.kind === 'bar');
    if (bar?.kind !== 'bar') throw new Error('no per-rank chart');
    expect(bar.categories.length).toBeLessThanOrEqual(MAX_RANK_BARS);
    expect(bar.categories[0]).toBe('0-15');
    const first16 = ranks(16);
    expect(bar.series[2]!.values[0]).toBeCloseTo(first16.reduce((s, r) => s + r.waitUs, 0) / 16, 5);
  });

  it('charts result rows only when they have a size key, and tables them always', () => {
    expect(resultCharts([{ step: 1, timeUs: 3 }, { step: 2, timeUs: 4 }])).toEqual([]);
    const two = resultCharts([...SWEEP.map((r) => ({ ...r, mode: 'a' })), ...SWEEP.map((r) => ({ ...r, mode: 'b' }))]);
    expect(two.map((c) => c.series.map((s) => s.name))).toEqual([['latencyUs a', 'latencyUs b'], ['bandwidthGBs a', 'bandwidthGBs b']]);
    expect(two[0]!.yLabel).toBe('latency (us)');
    const html = renderReport(doc('gups', runReport(input('torus', { result: { rows: [{ updates: 1000, GUPS: 0.25 }] }, metrics: undefined }))));
    expect(chartsOf(html)).toEqual([]);
    expect(html).toContain('<td class="num">0.25</td>');
    expect(html).toContain('made without metrics');
  });

  it('escapes data so it cannot end the script block or inject markup', () => {
    const evil = '</script><script>alert(1)</script><!--';
    const html = renderReport(
      doc(`title ${evil}`, [
        { title: evil, text: evil, items: [{ kind: 'table', rows: [{ [evil]: evil }] }, { kind: 'bar', title: evil, yLabel: 'y', categories: [evil], series: [{ name: evil, values: [1] }] }] },
      ]),
    );
    const own = ownPart(html);
    expect(own.match(/<\/script>/g)?.length).toBe(3);
    expect(own).not.toContain('<script>alert');
    expect(own).not.toContain('<!--');
    expect(chartsOf(html)[0]!.title).toBe(evil); // the data survive intact
    expect(JSON.parse(scriptJson({ s: evil }))).toEqual({ s: evil });
  });

  it('drops non-positive points from log axes and says so', () => {
    const html = renderReport(doc('log', [{ title: 's', items: [{ kind: 'line', title: 'l', xLabel: 'x', yLabel: 'y', logX: true, series: [{ name: 'a', points: [[0, 1], [2, 3], [4, 5]] }] }] }]));
    const [c] = chartsOf(html) as unknown as { series: { points: number[][] }[]; note: string }[];
    expect(c!.series[0]!.points).toEqual([[2, 3], [4, 5]]);
    expect(c!.note).toMatch(/1 point not positive/);
  });
});

// ---------- the pages in a real browser

const chromium = chromiumPath();
const haveBrowser = chromium !== null || browserRequired;
if (!haveBrowser) console.warn(`report browser test skipped: no Chromium at ${chromiumWanted} (set PHIT_CHROMIUM, or PHIT_REQUIRE_BROWSER=1 to fail instead)`);

/**
 * Coloured pixels a chart with data must have, by kind: thin lines give about 2,000, filled bars
 * and heat-map cells tens of thousands; an empty chart's legend (a few hundred) and a heat map's
 * colour scale (about 5,000) stay below.
 */
const MIN_COLOURED: Record<string, number> = { line: 1200, bar: 10_000, histogram: 10_000, heatmap: 10_000 };

describe.skipIf(!haveBrowser)('the report in headless Chromium', () => {
  let browser: Browser;
  let dir: string;
  beforeAll(async () => {
    if (chromium === null) throw new Error(`PHIT_REQUIRE_BROWSER=1 but no Chromium at ${chromiumWanted} (set PHIT_CHROMIUM)`);
    dir = mkdtempSync(join(tmpdir(), 'phit-report-'));
    browser = await launchBrowser(chromium);
  });
  afterAll(async () => {
    await browser?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  for (const topology of Object.keys(LOADS)) {
    it(`the ${topology} report loads with no error and draws every chart`, async () => {
      const html = renderReport(doc(`report ${topology} </script>`, runReport(input(topology))));
      const file = join(dir, `${topology}.html`);
      writeFileSync(file, html);
      const page = await checkPage(browser, file);
      expect(page.foreignRequests).toEqual([]);
      expect(page.errors).toEqual([]);
      const expected = chartsOf(html).length;
      expect(page.state).toEqual({ charts: expected, drawn: expected, errors: [] });
      expect(page.charts.length).toBe(expected);
      const kinds = chartsOf(html).map((c) => c.kind);
      for (const [i, c] of page.charts.entries()) {
        expect(c.canvas, c.id).toBe(true);
        expect(c.painted, `${c.id}: painted pixels`).toBeGreaterThan(c.pixels / 100);
        expect(c.coloured, `${c.id} (${kinds[i]}): coloured pixels`).toBeGreaterThan(MIN_COLOURED[kinds[i]!]!);
      }
    });
  }

  it('large layouts draw too: 20 torus planes, 30 dragonfly groups of 96 routers, 1,000 ranks', async () => {
    const df = load('dragonfly', ['group', 'chassis', 'slot'], Array.from({ length: 30 * 96 }, (_, r) => [Math.floor(r / 96), Math.floor(r / 16) % 6, r % 16]));
    for (const [name, routers] of [['big-torus', torusLoad(8, 8, MAX_PLANES + 4)], ['big-dragonfly', df]] as const) {
      const html = renderReport(doc(name, runReport(input('torus', { metrics: { ...metrics(routers), ranks: ranks(1000) } }))));
      const file = join(dir, `${name}.html`);
      writeFileSync(file, html);
      const page = await checkPage(browser, file);
      const kinds = chartsOf(html).map((c) => c.kind);
      expect(kinds.filter((k) => k === 'heatmap').length).toBe(name === 'big-torus' ? MAX_PLANES + 1 : 1);
      expect([page.foreignRequests, page.errors, page.state.errors]).toEqual([[], [], []]);
      page.charts.forEach((c, i) => expect(c.coloured, `${name} ${c.id}`).toBeGreaterThan(MIN_COLOURED[kinds[i]!]!));
    }
  });

  it('a real pingpong run on xe6 (without metrics) gives a report whose latency chart holds its rows', async () => {
    const spec = machineSpec('xe6');
    const params = resolveParams(pingpong, { minBytes: '8', maxBytes: '16KiB', iterations: '2' });
    const set = { 'mpi.eagerMaxBytes': '4KiB' };
    const r = await simulate({ machine: spec, nodes: 2, set, program: (ctx) => pingpong.main(ctx, params) });
    const rows = (r.result as AppResult).rows;
    const sections = runReport({ app: 'pingpong', params, spec, set, nodes: r.nodes, ranks: r.ranks, ppn: r.ppn, placement: r.placement, seed: 1, simulatedTimeUs: r.simulatedTimeUs, events: r.events, packets: r.packets, result: r.result, topology: resolveMachine(spec, 2, set).topologySummary });
    const html = renderReport(doc('pingpong on xe6', sections));
    const charts = chartsOf(html);
    expect(charts.map((c) => c.title)).toEqual(['Latency vs bytes', 'Bandwidth vs bytes']);
    expect((charts[0] as unknown as LineChart).series[0]!.points).toEqual(rows.map((x) => [x.bytes, x.latencyUs]));
    const file = join(dir, 'pingpong.html');
    writeFileSync(file, html);
    const page = await checkPage(browser, file);
    expect([page.foreignRequests, page.errors, page.state.errors]).toEqual([[], [], []]);
    expect(page.charts.map((c) => c.coloured > MIN_COLOURED.line!)).toEqual([true, true]);
  });

  it('phit run --report writes the report of a real run with metrics: every chart draws, the dragonfly heat map included', async () => {
    const file = join(dir, 'halo3d.html');
    const r = await phit('run', 'halo3d', '--machine', 'xc30', '--nodes', '8', '--param', 'iterations=2', '--report', file);
    expect(r.code, r.err.join('\n')).toBe(0);
    expect(r.out.at(-1)).toMatch(/^report: .*halo3d\.html \([0-9.]+ MB\)$/);
    // no --metrics: the tables stay off the terminal, the report has them
    expect(r.out.join('\n')).not.toMatch(/fabric over the run/);
    const titles = chartsOf(readFileSync(file, 'utf8')).map((c) => c.title);
    expect(titles).toContain('Routers by group');
    const page = await checkPage(browser, file);
    expect([page.foreignRequests, page.errors, page.state.errors]).toEqual([[], [], []]);
    expect(page.state.drawn).toBe(page.state.charts);
    expect(page.charts.length).toBeGreaterThanOrEqual(4);
    for (const c of page.charts) expect(c.painted, c.id).toBeGreaterThan(0);
  });

  it('phit run --report to a path that cannot be written fails before the run (exit 2)', async () => {
    const r = await phit('run', 'pingpong', '--machine', 'xe6', '--report', join(dir, 'no-such-dir', 'r.html'));
    expect(r.code).toBe(2);
    expect(r.err.join('\n')).toMatch(/--report .*cannot write it/);
  });

  it('the check sees charts without data, a chart that fails and a request to the network', async () => {
    const page0 = renderReport(
      doc('empty', [
        {
          title: 's',
          items: [
            { kind: 'line', title: 'no points', xLabel: 'x', yLabel: 'y', series: [{ name: 'a', points: [] }] },
            { kind: 'heatmap', title: 'no cells', xLabels: ['0'], yLabels: ['0'], values: [[null]], unit: '%' },
            { kind: 'bar', title: 'to break', yLabel: 'y', categories: ['a'], series: [{ name: 'a', values: [1] }] },
          ],
        },
      ]),
    );
    const file = join(dir, 'empty.html');
    writeFileSync(file, page0.replace('"kind":"bar"', '"kind":"nosuchkind"').replace('<main>', '<main><img src="https://example.invalid/x.png" alt="">'));
    const page = await checkPage(browser, file);
    expect(page.foreignRequests).toEqual(['https://example.invalid/x.png']);
    expect(page.charts[0]!.coloured).toBeLessThan(MIN_COLOURED.line!);
    expect(page.charts[1]!.coloured).toBeLessThan(MIN_COLOURED.heatmap!);
    expect(page.state.errors).toEqual([expect.stringContaining('to break')]);
    expect(page.errors.length).toBeGreaterThan(0);
  });
});
