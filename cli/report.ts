import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Histogram } from '../runtime/metrics.ts';

/**
 * The self-contained HTML report: one file with the charting library, the data as JSON and a
 * small script that draws the charts on load. Nothing in the page refers to the network.
 */

/** Lines of [x, y] points; log axes drop points that are not positive (the chart says how many). */
export interface LineChart {
  readonly kind: 'line';
  readonly title: string;
  readonly xLabel: string;
  readonly yLabel: string;
  readonly logX?: boolean;
  readonly logY?: boolean;
  readonly series: readonly { readonly name: string; readonly points: readonly (readonly [number, number])[] }[];
}

/** Bars by category, one bar per series, optionally stacked. */
export interface BarChart {
  readonly kind: 'bar';
  readonly title: string;
  readonly xLabel?: string;
  readonly yLabel: string;
  readonly categories: readonly string[];
  readonly stacked?: boolean;
  readonly series: readonly { readonly name: string; readonly values: readonly number[] }[];
}

/** A grid of values, `values[row][column]`; null leaves a cell empty. */
export interface HeatmapChart {
  readonly kind: 'heatmap';
  readonly title: string;
  readonly xLabel?: string;
  readonly yLabel?: string;
  readonly xLabels: readonly string[];
  readonly yLabels: readonly string[];
  readonly values: readonly (readonly (number | null)[])[];
  /** Unit of the colour scale (`%`). */
  readonly unit: string;
  /** Colour scale bounds (default: the data's minimum and maximum). */
  readonly min?: number;
  readonly max?: number;
}

/** Counts in bins, drawn as bars labelled by their lower edge. */
export interface HistogramChart {
  readonly kind: 'histogram';
  readonly title: string;
  readonly histogram: Histogram;
  readonly xLabel?: string;
}

/** Rows of records; columns are the union of the rows' keys unless given. */
export interface TableItem {
  readonly kind: 'table';
  readonly title?: string;
  readonly columns?: readonly string[];
  readonly rows: readonly Readonly<Record<string, unknown>>[];
}

/** A few headline figures shown large. */
export interface FiguresItem {
  readonly kind: 'figures';
  readonly figures: readonly { readonly label: string; readonly value: string | number }[];
}

/** The items drawn as charts. */
export type ReportChart = LineChart | BarChart | HeatmapChart | HistogramChart;
/** Anything a section can hold. */
export type ReportItem = ReportChart | TableItem | FiguresItem;

/** One section of a report: a heading, optional prose, then charts and tables in order. */
export interface ReportSection {
  readonly title: string;
  readonly text?: string;
  readonly items: readonly ReportItem[];
}

/** A whole report. */
export interface ReportDoc {
  readonly title: string;
  readonly subtitle?: string;
  readonly sections: readonly ReportSection[];
}

/** Global the page sets once every chart has drawn: `{ charts, drawn, errors }`. */
export const READY_FLAG = 'phitReport';

/** The charting library's minified build, read from the installed package. */
export function chartLibrary(): string {
  const file = createRequire(import.meta.url).resolve('echarts/dist/echarts.min.js');
  const text = readFileSync(file, 'utf8');
  // the library goes inside a <script> element: it must not be able to end it
  if (/<\/script|<!--/i.test(text)) throw new Error(`${file} contains a script end tag or comment opener and cannot be inlined`);
  return text;
}

/** JSON for a `<script type="application/json">` block: no `<` survives, so data cannot end the block. */
export function scriptJson(value: unknown): string {
  return JSON.stringify(value).replace(/</g, '\\u003c').replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029');
}

/** Escapes text for HTML content and attribute values. */
export function escapeHtml(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
}

function cellText(v: unknown): string {
  if (v === null || v === undefined) return '';
  if (typeof v === 'number') return Number.isInteger(v) ? String(v) : String(Number(v.toPrecision(6)));
  if (typeof v === 'string') return v;
  if (typeof v === 'boolean') return v ? 'yes' : 'no';
  return JSON.stringify(v);
}

function renderTable(t: TableItem): string {
  const columns = t.columns ?? [...new Set(t.rows.flatMap((r) => Object.keys(r)))];
  const head = columns.map((c) => `<th>${escapeHtml(c)}</th>`).join('');
  const body = t.rows
    .map((r) => `<tr>${columns.map((c) => `<td${typeof r[c] === 'number' ? ' class="num"' : ''}>${escapeHtml(cellText(r[c]))}</td>`).join('')}</tr>`)
    .join('\n');
  const caption = t.title ? `<caption>${escapeHtml(t.title)}</caption>` : '';
  return `<div class="table-wrap"><table>${caption}<thead><tr>${head}</tr></thead><tbody>\n${body}\n</tbody></table></div>`;
}

function renderFigures(f: FiguresItem): string {
  const cells = f.figures.map((x) => `<div class="figure"><div class="value">${escapeHtml(cellText(x.value))}</div><div class="label">${escapeHtml(x.label)}</div></div>`);
  return `<div class="figures">${cells.join('')}</div>`;
}

/** A chart as the page's script receives it: log axes hold only positive values. */
function chartData(c: ReportChart): ReportChart & { note?: string } {
  if (c.kind !== 'line' || (!c.logX && !c.logY)) return c;
  let dropped = 0;
  const series = c.series.map((s) => ({
    name: s.name,
    points: s.points.filter(([x, y]) => {
      const ok = (!c.logX || x > 0) && (!c.logY || y > 0);
      if (!ok) dropped++;
      return ok;
    }),
  }));
  return dropped ? { ...c, series, note: `${dropped} point${dropped > 1 ? 's' : ''} not positive, not shown on the log axis` } : { ...c, series };
}

function chartHeight(c: ReportChart): number {
  if (c.kind !== 'heatmap') return 340;
  return Math.min(900, Math.max(220, 130 + 20 * c.yLabels.length));
}

/** Renders a report as one self-contained HTML page (about 1.1 MB: the charting library is inlined once). */
export function renderReport(doc: ReportDoc): string {
  const charts: ReportChart[] = [];
  const parts: string[] = [];
  for (const section of doc.sections) {
    parts.push(`<section>\n<h2>${escapeHtml(section.title)}</h2>`);
    if (section.text) parts.push(`<p>${escapeHtml(section.text)}</p>`);
    for (const item of section.items) {
      if (item.kind === 'table') parts.push(renderTable(item));
      else if (item.kind === 'figures') parts.push(renderFigures(item));
      else {
        const i = charts.length;
        charts.push(chartData(item));
        parts.push(`<div class="chart" id="chart-${i}" data-chart="${i}" style="height:${chartHeight(item)}px"></div>`);
      }
    }
    parts.push('</section>');
  }
  const subtitle = doc.subtitle ? `<p class="subtitle">${escapeHtml(doc.subtitle)}</p>` : '';
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(doc.title)}</title>
<style>${STYLE}</style>
</head>
<body>
<header><h1>${escapeHtml(doc.title)}</h1>${subtitle}</header>
<main>
${parts.join('\n')}
</main>
<script type="application/json" id="phit-charts">${scriptJson(charts)}</script>
<script>${chartLibrary()}</script>
<script>${DRAW}</script>
</body>
</html>
`;
}

const STYLE = `
body { font-family: system-ui, sans-serif; margin: 0; color: #1d2330; background: #f6f7f9; }
header { padding: 16px 24px; background: #1d2330; color: #fff; }
header h1 { margin: 0; font-size: 22px; }
.subtitle { margin: 4px 0 0; color: #c9d0dc; }
main { max-width: 1100px; margin: 0 auto; padding: 8px 24px 40px; }
section { background: #fff; border-radius: 6px; padding: 12px 18px; margin: 16px 0; box-shadow: 0 1px 2px rgba(0,0,0,.08); }
h2 { font-size: 18px; margin: 4px 0 10px; }
.chart { width: 100%; margin: 8px 0 16px; }
.chart-error { color: #b00020; }
.table-wrap { overflow-x: auto; max-height: 640px; overflow-y: auto; margin: 8px 0 16px; }
table { border-collapse: collapse; font-size: 13px; }
caption { text-align: left; font-weight: 600; padding: 4px 0; }
th, td { padding: 3px 10px; border-bottom: 1px solid #e3e6eb; text-align: left; vertical-align: top; }
th { position: sticky; top: 0; background: #eef1f5; }
td.num { text-align: right; font-variant-numeric: tabular-nums; }
.figures { display: flex; flex-wrap: wrap; gap: 12px; }
.figure { border: 1px solid #e3e6eb; border-radius: 6px; padding: 8px 14px; min-width: 120px; }
.figure .value { font-size: 20px; font-weight: 600; }
.figure .label { color: #5a6272; font-size: 12px; }
`;

/** The page's drawing script (plain browser JavaScript, no modules, no network). */
const DRAW = `
(function () {
  'use strict';
  var charts = JSON.parse(document.getElementById('phit-charts').textContent);
  var state = { charts: charts.length, drawn: 0, errors: [] };
  function fmt(v) { return typeof v === 'number' && !Number.isInteger(v) ? Number(v.toPrecision(4)) : v; }
  function title(c) { return { text: c.title, subtext: c.note || '', left: 'center', textStyle: { fontSize: 14 } }; }
  function axis(type, name, extra) {
    var a = { type: type, name: name || '', nameLocation: 'middle', nameGap: type === 'category' ? 30 : 36 };
    if (type === 'log') a.logBase = 2;
    for (var k in extra || {}) a[k] = extra[k];
    return a;
  }
  var build = {
    line: function (c) {
      return {
        title: title(c), tooltip: { trigger: 'axis', valueFormatter: fmt }, legend: { top: c.note ? 42 : 24 },
        grid: { top: c.note ? 72 : 58, left: 72, right: 28, bottom: 52 },
        xAxis: axis(c.logX ? 'log' : 'value', c.xLabel, c.logX ? { min: 'dataMin', max: 'dataMax' } : { scale: true }),
        yAxis: axis(c.logY ? 'log' : 'value', c.yLabel, { nameGap: 52 }),
        series: c.series.map(function (s) { return { type: 'line', name: s.name, data: s.points, symbolSize: 5 }; })
      };
    },
    bar: function (c) {
      return {
        title: title(c), tooltip: { trigger: 'axis', valueFormatter: fmt }, legend: { top: 24 },
        grid: { top: 58, left: 72, right: 28, bottom: 52 },
        xAxis: axis('category', c.xLabel, { data: c.categories }),
        yAxis: axis('value', c.yLabel, { nameGap: 52 }),
        series: c.series.map(function (s) { return { type: 'bar', name: s.name, data: s.values, stack: c.stacked ? 'all' : undefined }; })
      };
    },
    heatmap: function (c) {
      var data = [], lo = Infinity, hi = -Infinity;
      c.values.forEach(function (row, y) {
        row.forEach(function (v, x) {
          if (v === null || v === undefined) return;
          data.push([x, y, v]); if (v < lo) lo = v; if (v > hi) hi = v;
        });
      });
      var min = c.min !== undefined ? c.min : (data.length ? lo : 0);
      var max = c.max !== undefined ? c.max : (data.length ? hi : 1);
      if (!(max > min)) max = min + 1;
      return {
        title: title(c),
        tooltip: { formatter: function (p) { return c.yLabels[p.value[1]] + ', ' + c.xLabels[p.value[0]] + ': ' + fmt(p.value[2]) + ' ' + c.unit; } },
        grid: { top: 40, left: 90, right: 28, bottom: 96 },
        xAxis: axis('category', c.xLabel, { data: c.xLabels, splitArea: { show: true } }),
        yAxis: axis('category', c.yLabel, { data: c.yLabels, splitArea: { show: true }, nameGap: 70, inverse: true }),
        visualMap: { min: min, max: max, orient: 'horizontal', left: 'center', bottom: 6, itemHeight: 240,
          text: [fmt(max) + ' ' + c.unit, fmt(min) + ' ' + c.unit], inRange: { color: ['#ffffcc', '#fed976', '#fd8d3c', '#e31a1c', '#800026'] } },
        series: [{ type: 'heatmap', data: data, emphasis: { itemStyle: { borderColor: '#333', borderWidth: 1 } } }]
      };
    },
    histogram: function (c) {
      var h = c.histogram, cats = [];
      for (var i = 0; i < h.counts.length; i++) cats.push(String(fmt(h.edges[i])));
      return {
        title: { text: c.title, subtext: h.samples + ' samples, mean ' + fmt(h.mean) + ' ' + h.unit + ', max ' + fmt(h.max) + ' ' + h.unit, left: 'center', textStyle: { fontSize: 14 } },
        tooltip: { trigger: 'axis', formatter: function (ps) { var i = ps[0].dataIndex; return '[' + fmt(h.edges[i]) + ', ' + fmt(h.edges[i + 1]) + ') ' + h.unit + ': ' + h.counts[i]; } },
        grid: { top: 62, left: 72, right: 28, bottom: 52 },
        xAxis: axis('category', c.xLabel || h.unit, { data: cats }),
        yAxis: axis('value', 'count', { nameGap: 52 }),
        series: [{ type: 'bar', data: h.counts, barCategoryGap: '8%' }]
      };
    }
  };
  function done() {
    state.drawn++;
    if (state.drawn + state.errors.length === state.charts) window.${READY_FLAG} = state;
  }
  charts.forEach(function (c, i) {
    var el = document.getElementById('chart-' + i);
    try {
      var chart = echarts.init(el, null, { renderer: 'canvas' });
      var finished = false;
      chart.on('finished', function () { if (!finished) { finished = true; done(); } });
      var opt = build[c.kind](c);
      opt.animation = false;
      chart.setOption(opt);
      window.addEventListener('resize', function () { chart.resize(); });
    } catch (e) {
      state.errors.push(c.title + ': ' + e);
      el.className += ' chart-error';
      el.textContent = 'chart "' + c.title + '" could not be drawn: ' + e;
      console.error(e);
      if (state.drawn + state.errors.length === state.charts) window.${READY_FLAG} = state;
    }
  });
  if (charts.length === 0) window.${READY_FLAG} = state;
})();
`;
