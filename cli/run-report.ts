import type { MachineSpec } from '../fabric/machines/spec.ts';
import type { Histogram, RankTime, RouterLoad, RunMetrics } from '../runtime/metrics.ts';
import type { HeatmapChart, LineChart, ReportItem, ReportSection } from './report.ts';

/** One run, as plain data (JSON-able, so a worker thread can send it), for `runReport`. */
export interface RunReportInput {
  readonly app: string;
  /** The app's resolved parameters. */
  readonly params?: Readonly<Record<string, string | number>>;
  /** The machine preset (or loaded machine file) the run used. */
  readonly spec: MachineSpec;
  /** Machine parameter overrides (`--set`), key -> value with units. */
  readonly set?: Readonly<Record<string, string>>;
  /** Collective algorithms chosen for the run (`--coll`). */
  readonly algorithms?: Readonly<Record<string, string>>;
  /** Whose rules chose the other collectives' algorithms (`--coll-selector` or `mpi.collSelector`). */
  readonly collSelector?: string;
  /** One line describing the topology (`MachineConfig.topologySummary`). */
  readonly topology?: string;
  readonly nodes: number;
  readonly ranks: number;
  readonly ppn: number;
  readonly placement?: string;
  readonly seed?: number;
  /** A skeleton run (sizes only, no bytes). */
  readonly skeleton?: boolean;
  readonly simulatedTimeUs: number;
  readonly events?: number;
  readonly packets?: number;
  /** What rank 0 returned: an app result with `rows`, or any JSON value. */
  readonly result?: unknown;
  readonly metrics?: RunMetrics;
}

/** Ranks drawn one bar each; above this they are bucketed. */
export const MAX_RANK_BARS = 64;
/** Torus z planes drawn one heat map each; above this only a summary and the first planes. */
export const MAX_PLANES = 16;

const SIZE_KEYS = ['bytes', 'size', 'sizeBytes', 'messageBytes', 'msgBytes'];

/** Unit of a result key from its suffix (`latencyUs` -> us, `bandwidthGBs` -> GB/s). */
export function unitOfKey(key: string): string {
  const units: [RegExp, string][] = [
    [/Us$/, 'us'],
    [/Ns$/, 'ns'],
    [/Ms$/, 'ms'],
    [/Ps$/, 'ps'],
    [/GBs$/, 'GB/s'],
    [/MBs$/, 'MB/s'],
    [/Mps$/, 'M/s'],
    [/Bytes$|^bytes$/, 'B'],
  ];
  for (const [re, u] of units) if (re.test(key)) return u;
  return '';
}

function label(key: string): string {
  const u = unitOfKey(key);
  return u ? `${key} (${u})` : key;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Line charts of latency* and bandwidth* keys against the size key, when the rows have both. */
export function resultCharts(rows: readonly Readonly<Record<string, unknown>>[]): LineChart[] {
  if (rows.length < 2) return [];
  const keys = [...new Set(rows.flatMap((r) => Object.keys(r)))];
  const numeric = (k: string) => rows.every((r) => r[k] === undefined || typeof r[k] === 'number');
  const size = SIZE_KEYS.find((k) => keys.includes(k) && numeric(k));
  if (!size) return [];
  // rows with the same size more than once belong to series told apart by their string columns
  const groupKeys = keys.filter((k) => rows.some((r) => typeof r[k] === 'string'));
  const group = (r: Readonly<Record<string, unknown>>) => groupKeys.map((k) => String(r[k] ?? '')).join(' ');
  const charts: LineChart[] = [];
  for (const [family, re] of [['Latency', /^latency/i], ['Bandwidth', /^bandwidth/i]] as const) {
    const ys = keys.filter((k) => re.test(k) && numeric(k));
    if (ys.length === 0) continue;
    const units = [...new Set(ys.map(unitOfKey))];
    const series: { name: string; points: [number, number][] }[] = [];
    for (const y of ys) {
      const byGroup = new Map<string, [number, number][]>();
      for (const r of rows) {
        const x = r[size];
        const v = r[y];
        if (typeof x !== 'number' || typeof v !== 'number') continue;
        const g = group(r);
        if (!byGroup.has(g)) byGroup.set(g, []);
        byGroup.get(g)!.push([x, v]);
      }
      for (const [g, points] of byGroup) series.push({ name: [y, g].filter(Boolean).join(' '), points });
    }
    charts.push({
      kind: 'line',
      title: `${family} vs ${size}`,
      xLabel: label(size),
      yLabel: units.length === 1 && units[0] ? `${family.toLowerCase()} (${units[0]})` : family.toLowerCase(),
      logX: true,
      logY: family === 'Latency',
      series,
    });
  }
  return charts;
}

function resultSection(result: unknown): ReportSection {
  const rows = isRecord(result) && Array.isArray(result.rows) ? (result.rows as unknown[]).filter(isRecord) : null;
  if (rows && rows.length > 0) {
    const items: ReportItem[] = [...resultCharts(rows), { kind: 'table', title: 'Result rows', rows }];
    const extra = Object.fromEntries(Object.entries(result as Record<string, unknown>).filter(([k]) => k !== 'rows'));
    if (Object.keys(extra).length > 0) items.push({ kind: 'table', title: 'Other results', rows: Object.entries(extra).map(([key, value]) => ({ key, value })) });
    return { title: 'Results', items };
  }
  if (result === undefined || result === null) return { title: 'Results', text: 'The program returned nothing.', items: [] };
  const rows2 = isRecord(result) ? Object.entries(result).map(([key, value]) => ({ key, value })) : [{ key: 'result', value: result }];
  return { title: 'Results', items: [{ kind: 'table', rows: rows2 }] };
}

/** Per-rank stacked bars; many ranks are grouped into consecutive buckets (means per bucket). */
export function rankSection(ranks: readonly RankTime[]): ReportSection {
  const sorted = [...ranks].sort((a, b) => a.rank - b.rank);
  const per = Math.max(1, Math.ceil(sorted.length / MAX_RANK_BARS));
  const categories: string[] = [];
  const compute: number[] = [];
  const transfer: number[] = [];
  const wait: number[] = [];
  for (let i = 0; i < sorted.length; i += per) {
    const b = sorted.slice(i, i + per);
    const mean = (f: (r: RankTime) => number) => round(b.reduce((s, r) => s + f(r), 0) / b.length);
    categories.push(b.length === 1 ? String(b[0]!.rank) : `${b[0]!.rank}-${b[b.length - 1]!.rank}`);
    compute.push(mean((r) => r.computeUs));
    transfer.push(mean((r) => r.transferUs));
    wait.push(mean((r) => r.waitUs));
  }
  const text =
    per > 1
      ? `${sorted.length} ranks in ${categories.length} buckets of ${per} consecutive ranks; each bar is the bucket's mean.`
      : 'Where each rank spent its time: computing, in communication calls, and blocked waiting.';
  return {
    title: 'Time per rank',
    text,
    items: [
      {
        kind: 'bar',
        title: 'Time per rank',
        xLabel: per > 1 ? 'ranks' : 'rank',
        yLabel: 'time (us)',
        categories,
        stacked: true,
        series: [
          { name: 'compute', values: compute },
          { name: 'transfer', values: transfer },
          { name: 'wait', values: wait },
        ],
      },
    ],
  };
}

function round(v: number): number {
  return Number(v.toPrecision(6));
}

function pct(v: number): number {
  return round(v * 100);
}

function grid(rows: number, cols: number): (number | null)[][] {
  return Array.from({ length: rows }, () => new Array<number | null>(cols).fill(null));
}

/** Link utilisation heat maps laid out by the topology (torus planes, dragonfly groups, Clos ranks, square grid otherwise). */
export function utilisationMaps(load: RouterLoad): { maps: HeatmapChart[]; note?: string } {
  const n = load.utilisation.length;
  const util = load.utilisation.map(pct);
  const max = util.reduce((a, b) => Math.max(a, b), 1e-9);
  const base = { kind: 'heatmap' as const, unit: '%', min: 0, max };
  const coord = (r: number, i: number) => load.coords[r]?.[i] ?? 0;
  const span = (i: number) => {
    let m = 0;
    for (let r = 0; r < n; r++) m = Math.max(m, coord(r, i));
    return m + 1;
  };
  const range = (k: number, f: (i: number) => string = String) => Array.from({ length: k }, (_, i) => f(i));

  if (load.topology === 'torus' && load.axes.length >= 2) {
    const [ax, ay] = [load.axes[0]!, load.axes[1]!];
    const X = span(0);
    const Y = span(1);
    const planeAxes = load.axes.slice(2);
    const planes = new Map<string, (number | null)[][]>();
    for (let r = 0; r < n; r++) {
      const key = planeAxes.map((a, i) => `${a}=${coord(r, i + 2)}`).join(' ');
      if (!planes.has(key)) planes.set(key, grid(Y, X));
      planes.get(key)![coord(r, 1)]![coord(r, 0)] = util[r]!;
    }
    const keys = [...planes.keys()].sort((a, b) => a.localeCompare(b, 'en', { numeric: true }));
    const maps: HeatmapChart[] = [];
    let note: string | undefined;
    if (keys.length > MAX_PLANES) {
      // every plane in one map: the busiest router of each (x, plane) column
      const summary = grid(keys.length, X);
      keys.forEach((k, p) => {
        const g = planes.get(k)!;
        for (let x = 0; x < X; x++) summary[p]![x] = g.reduce((a, row) => Math.max(a, row[x] ?? 0), 0);
      });
      maps.push({ ...base, title: `Busiest router over ${ay}, each plane`, xLabel: ax, yLabel: planeAxes.join(','), xLabels: range(X), yLabels: keys, values: summary });
      note = `${keys.length} planes: the first map shows every plane (maximum over ${ay}), then the first ${MAX_PLANES} planes.`;
    }
    for (const k of keys.slice(0, MAX_PLANES)) {
      maps.push({ ...base, title: k ? `Plane ${k}` : 'Routers', xLabel: ax, yLabel: ay, xLabels: range(X), yLabels: range(Y), values: planes.get(k)! });
    }
    return note ? { maps, note } : { maps };
  }
  if (load.topology === 'dragonfly' && load.axes.length >= 3) {
    const G = span(0);
    const C = span(1);
    const S = span(2);
    const values = grid(G, C * S);
    for (let r = 0; r < n; r++) values[coord(r, 0)]![coord(r, 1) * S + coord(r, 2)] = util[r]!;
    return {
      maps: [{ ...base, title: 'Routers by group', xLabel: `${load.axes[1]}.${load.axes[2]}`, yLabel: load.axes[0]!, xLabels: range(C * S, (i) => `${Math.floor(i / S)}.${i % S}`), yLabels: range(G, (g) => `group ${g}`), values }],
    };
  }
  if (load.topology === 'clos' && load.axes.length >= 2) {
    const levels = [...new Set(load.coords.map((c) => c[0] ?? 0))].sort((a, b) => a - b);
    const W = span(1);
    const values = grid(levels.length, W);
    for (let r = 0; r < n; r++) values[levels.indexOf(coord(r, 0))]![coord(r, 1)] = util[r]!;
    return {
      maps: [{ ...base, title: 'Routers by rank', xLabel: load.axes[1], yLabel: load.axes[0], xLabels: range(W), yLabels: levels.map((l) => `R${l}`), values }],
    };
  }
  // Kautz and anything else: routers in index order on a square grid
  const side = Math.max(1, Math.ceil(Math.sqrt(n)));
  const values = grid(Math.ceil(n / side), side);
  for (let r = 0; r < n; r++) values[Math.floor(r / side)]![r % side] = util[r]!;
  return {
    maps: [{ ...base, title: 'Routers by index', xLabel: `index mod ${side}`, yLabel: `index / ${side}`, xLabels: range(side), yLabels: range(Math.ceil(n / side), (i) => String(i * side)), values }],
  };
}

function histogramOrNote(title: string, h: Histogram, xLabel: string): ReportItem {
  if (h.samples === 0) return { kind: 'table', title: `${title}: no samples`, rows: [] };
  return { kind: 'histogram', title, histogram: h, xLabel };
}

/** Link errors and failures per link class: retransmissions, replay time, the latency replays added per packet, detour hops; none when the run had neither. */
function faultSection(f: RunMetrics['fabric']): ReportSection[] {
  if (!f.linkErrors && !f.faults) return [];
  const names = (f.linkErrors ?? []).map((c) => c.name);
  for (const c of f.faults?.byClass ?? []) if (!names.includes(c.name)) names.push(c.name);
  const rows = names.map((name) => {
    const e = f.linkErrors?.find((c) => c.name === name);
    const d = f.faults?.byClass.find((c) => c.name === name);
    return {
      class: name,
      ...(f.linkErrors ? { retransmissions: e?.retransmissions ?? 0, 'replay us': round((e?.replayPs ?? 0) / 1e6), 'replay ns per packet': e?.replayNsPerPacket ?? 0 } : {}),
      ...(f.faults ? { 'detour hops': d?.detourHops ?? 0 } : {}),
    };
  });
  const x = f.faults;
  const text = x
    ? `${x.detours} packets detoured around failed links or routers, ${x.masked} routing choices masked a failed link, ${x.quiesces} network pauses to compute new routes (${x.quiesceUs} us).`
    : 'Link errors and their replays.';
  return [{ title: 'Faults and link errors', text, items: [{ kind: 'table', title: 'Per link class: added latency from replays and detours', rows }] }];
}

function fabricSections(m: RunMetrics): ReportSection[] {
  const f = m.fabric;
  const { maps, note } = utilisationMaps(f.routers);
  const links: ReportItem = {
    kind: 'table',
    title: 'Router-to-router links by class',
    rows: f.linkClasses.map((c) => ({ class: c.name, links: c.links, 'utilisation %': pct(c.utilisation), 'max %': pct(c.maxUtilisation), 'credit stall %': pct(c.creditStall) })),
  };
  const routing: ReportItem[] = f.routing
    ? [{ kind: 'figures', figures: [{ label: 'minimal packets', value: f.routing.minimal }, { label: 'non-minimal packets', value: f.routing.nonMinimal }, { label: 'non-minimal share', value: `${pct(f.routing.nonMinimal / Math.max(1, f.routing.minimal + f.routing.nonMinimal))} %` }] }]
    : [];
  const faults = faultSection(f);
  return [
    ...faults,
    {
      title: 'Link utilisation',
      text: `Mean utilisation of each router's outgoing router-to-router links over ${round(f.durationPs / 1e6)} us, laid out by the ${f.routers.topology} topology.${note ? ' ' + note : ''}`,
      items: [...maps, links],
    },
    {
      title: 'Packets',
      text: `${f.packets} packets delivered.`,
      items: [...routing, histogramOrNote('Router-to-router hops per packet', f.hops, 'hops'), histogramOrNote('Packet latency, injection to delivery', f.latencyNs, f.latencyNs.unit)],
    },
  ];
}

/** Every machine parameter with its value and provenance; overridden ones say so. */
export function configRows(spec: MachineSpec, set: Readonly<Record<string, string>> = {}): Record<string, string | number>[] {
  return Object.entries(spec.params).map(([key, d]) => {
    const over = set[key];
    return over === undefined
      ? { key, value: d.value, source: d.source, help: d.help }
      : { key, value: over, source: `set for this run (preset ${d.value}: ${d.source})`, help: d.help };
  });
}

/** Turns one run into report sections: header, results, per-rank time, fabric, calls, configuration. */
export function runReport(input: RunReportInput): ReportSection[] {
  const m = input.metrics;
  const figures = [
    { label: 'machine', value: input.spec.name },
    { label: 'nodes', value: input.nodes },
    { label: 'ranks', value: input.ranks },
    { label: 'simulated time (us)', value: round(input.simulatedTimeUs) },
    ...(input.packets !== undefined ? [{ label: 'packets', value: input.packets }] : []),
  ];
  const sections: ReportSection[] = [
    { title: 'Run', text: `${input.app} on ${input.spec.name}, ${input.spec.title}${input.topology ? `: ${input.topology}` : ''}.`, items: [{ kind: 'figures', figures }] },
    resultSection(input.result),
  ];
  if (m) {
    sections.push(rankSection(m.ranks), ...fabricSections(m));
    sections.push({
      title: 'Calls',
      items: [
        {
          kind: 'table',
          rows: [...m.calls].sort((a, b) => b.timeUs - a.timeUs).map((c) => ({ call: c.name, calls: c.calls, bytes: c.bytes, 'time (us, all ranks)': round(c.timeUs), 'mean (us)': round(c.timeUs / Math.max(1, c.calls)) })),
        },
      ],
    });
  } else {
    sections.push({ title: 'Metrics', text: 'This run was made without metrics: no per-rank times, link loads or histograms.', items: [] });
  }
  const run: Record<string, unknown>[] = [
    { key: 'app', value: input.app },
    ...Object.entries(input.params ?? {}).map(([k, v]) => ({ key: `param ${k}`, value: v })),
    { key: 'machine', value: input.spec.name },
    { key: 'seed file', value: input.spec.seed },
    { key: 'nodes', value: input.nodes },
    { key: 'ranks per node', value: input.ppn },
    ...(input.placement ? [{ key: 'placement', value: input.placement }] : []),
    ...(input.seed !== undefined ? [{ key: 'seed', value: input.seed }] : []),
    ...(input.skeleton ? [{ key: 'skeleton run', value: 'sizes only: bytes not moved, data checks skipped' }] : []),
    ...(input.collSelector !== undefined ? [{ key: 'collective selector', value: input.collSelector }] : []),
    ...Object.entries(input.algorithms ?? {}).map(([k, v]) => ({ key: `collective ${k}`, value: v })),
    ...(input.events !== undefined ? [{ key: 'engine events', value: input.events }] : []),
  ];
  sections.push({
    title: 'Configuration',
    text: `The run's settings, then every parameter of machine ${input.spec.name} with where its value comes from.`,
    items: [
      { kind: 'table', title: 'Run', rows: run },
      { kind: 'table', title: 'Machine parameters', columns: ['key', 'value', 'source', 'help'], rows: configRows(input.spec, input.set) },
    ],
  });
  return sections;
}
