/**
 * Measured curves a user brings to `phit calibrate`: the text the OSU micro-benchmarks print
 * (`# OSU MPI Latency Test v7.3`, a column line `# Size  Avg Latency(us)`, then `size value`
 * lines; osu_barrier prints a value without a size), or a CSV file with the columns
 * `benchmark,bytes,value` and optionally `nodes,ppn,unit`. Pure: the caller reads the file.
 * Every problem is one line naming the file, the line and what was expected.
 */
import { parseBandwidth, parseBytes, parseTimePs } from '../../fabric/units.ts';

/** The unit a measured value is kept in: latencies in us, bandwidths in MB/s (1e6 B/s, OSU's unit). */
export type MeasuredUnit = 'us' | 'MB/s';

/** One measured point of one curve. */
export interface MeasuredPoint {
  /** The file it came from, as given. */
  readonly file: string;
  readonly line: number;
  /** OSU's program name (`osu_latency`), or the header's title for a benchmark this reader does not know. */
  readonly benchmark: string;
  /** Message size; null for a benchmark without sizes (osu_barrier). */
  readonly bytes: number | null;
  readonly value: number;
  readonly unit: MeasuredUnit;
  /** Nodes and ranks per node when the file says (CSV columns); OSU text leaves them to the command line. */
  readonly nodes?: number;
  readonly ppn?: number;
  /** The curve the point belongs to: one OSU section, or one (benchmark, nodes, ppn) of a CSV file. */
  readonly curve: string;
}

/**
 * OSU titles (the text between `# OSU MPI` and `Test` in the header line) and the program that
 * prints each. A title missing here is kept as the benchmark's name.
 */
export const OSU_TITLES: Readonly<Record<string, string>> = {
  'Latency': 'osu_latency',
  'Bandwidth': 'osu_bw',
  'Bi-Directional Bandwidth': 'osu_bibw',
  'Multiple Bandwidth / Message Rate': 'osu_mbw_mr',
  'Multi Latency': 'osu_multi_lat',
  'Multi-threaded Latency': 'osu_latency_mt',
  'Allreduce Latency': 'osu_allreduce',
  'All-to-All Personalized Exchange Latency': 'osu_alltoall',
  'Broadcast Latency': 'osu_bcast',
  'Barrier Latency': 'osu_barrier',
  'Reduce Latency': 'osu_reduce',
  'Allgather Latency': 'osu_allgather',
  'Gather Latency': 'osu_gather',
  'Scatter Latency': 'osu_scatter',
  'Reduce_scatter Latency': 'osu_reduce_scatter',
};

/** The header line of one OSU benchmark: `# OSU MPI[-CUDA] <title> Test[ vX.Y | (Version X)]`. */
const OSU_HEADER = /^#\s*OSU\s+(\S+)\s+(.*?)\s+Test\b/i;

/** The column line of an OSU section: it names a latency or bandwidth column (`# Size  Bandwidth (MB/s)`). */
const COLUMNS = /latency|\(us\)|MB\/s|bandwidth/i;

/** A problem in a data file: `file:line: what`. */
function bad(file: string, line: number, what: string): RangeError {
  return new RangeError(`${file}:${line}: ${what}`);
}

/** Whether `text` holds CSV data: a `.csv` name, or a first line (blank and # lines aside) with a benchmark column. */
export function isCsv(text: string, file: string): boolean {
  if (/\.csv$/i.test(file)) return true;
  const first = text.split(/\r?\n/).find((l) => l.trim() !== '' && !l.trim().startsWith('#')) ?? '';
  return first.includes(',') && first.split(',').some((c) => /^\s*"?benchmark"?\s*$/i.test(c));
}

/** Reads OSU text output or CSV (see `isCsv`); throws a RangeError naming the file and line of the first problem. */
export function readMeasurements(text: string, file: string): MeasuredPoint[] {
  return isCsv(text, file) ? readCsv(text, file) : readOsu(text, file);
}

/** A number token: digits with an optional fraction and exponent. */
const NUMBER = /^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/;

/** An OSU section being read: its header, its column line and its points so far. */
interface Section {
  readonly benchmark: string;
  readonly line: number;
  columns: { readonly line: number; readonly hasSize: boolean; readonly unit: MeasuredUnit } | null;
  count: number;
  /** Data lines have ended (a line of other text came after them). */
  ended: boolean;
}

/**
 * OSU text output. Lines before the first header (launcher noise) are ignored; in a section, `#`
 * lines and other text before the column line are comments (`# Datatype: MPI_CHAR.`,
 * `# [ pairs: 1 ] [ window size: 64 ]`) or launcher noise, and the data lines follow it. Columns
 * after the first value (min, max, iterations, `Pass`) are ignored. Text after the data ends the
 * section; a section without data is an error (a truncated run).
 */
export function readOsu(text: string, file: string): MeasuredPoint[] {
  const lines = text.split(/\r?\n/);
  const points: MeasuredPoint[] = [];
  let section: Section | null = null;
  const finish = (): void => {
    if (section && section.count === 0) {
      const where = section.columns ? `after its column line (line ${section.columns.line})` : 'and no column line such as "# Size  Avg Latency(us)"';
      const want = section.columns?.hasSize === false ? '"<value>"' : '"<size> <value>"';
      throw bad(file, section.line, `the ${section.benchmark} output has no data lines ${where}; expected lines of ${want}`);
    }
  };
  for (let i = 0; i < lines.length; i++) {
    const n = i + 1;
    const l = lines[i]!.trim();
    const header = OSU_HEADER.exec(l);
    if (header) {
      finish();
      const lib = header[1]!;
      const title = header[2]!.replace(/\s+/g, ' ');
      const known = /^MPI$/i.test(lib) ? OSU_TITLES[title] : undefined;
      section = { benchmark: known ?? `OSU ${lib} ${title} Test`, line: n, columns: null, count: 0, ended: false };
      continue;
    }
    if (!section || l === '' || section.ended) continue;
    const tokens = l.replace(/^#/, '').trim().split(/\s+/);
    const numeric = NUMBER.test(tokens[0] ?? '');
    if (!numeric) {
      if (section.count > 0) section.ended = true;
      else if (section.columns === null && COLUMNS.test(l)) section.columns = { line: n, hasSize: /\bsize\b/i.test(l), unit: /MB\/s|bandwidth/i.test(l) ? 'MB/s' : 'us' };
      // other text before the data: a comment (# Datatype: MPI_CHAR.) or launcher noise
      continue;
    }
    if (l.startsWith('#')) continue;
    const cols = section.columns;
    if (cols === null) throw bad(file, n, `data before the column line of the ${section.benchmark} output (line ${section.line}); expected a line such as "# Size  Avg Latency(us)"`);
    const want = cols.hasSize ? '"<size> <value>"' : '"<value>"';
    let bytes: number | null = null;
    let valueText = tokens[0]!;
    if (cols.hasSize) {
      const size = Number(tokens[0]);
      if (!Number.isInteger(size) || size < 0) throw bad(file, n, `expected ${want} with a size in bytes, got "${l}"`);
      if (tokens.length < 2) throw bad(file, n, `expected ${want}, got only "${l}" (a truncated line?)`);
      bytes = size;
      valueText = tokens[1]!;
    }
    const value = Number(valueText);
    if (!NUMBER.test(valueText) || !(value > 0)) throw bad(file, n, `expected ${want} with a positive ${cols.unit === 'us' ? 'latency in us' : 'bandwidth in MB/s'}, got "${l}"`);
    section.count++;
    points.push({ file, line: n, benchmark: section.benchmark, bytes, value, unit: cols.unit, curve: `${file}:${section.line}` });
  }
  finish();
  if (points.length === 0) throw new RangeError(`${file}: no OSU benchmark output found; expected a header line such as "# OSU MPI Latency Test v7.3"`);
  return points;
}

/** The CSV columns: required, then optional. */
export const CSV_REQUIRED = ['benchmark', 'bytes', 'value'] as const;
export const CSV_OPTIONAL = ['nodes', 'ppn', 'unit'] as const;

/** The program name of a CSV benchmark: `osu_latency`, `osu-latency` and `latency` are the same. */
export function benchmarkName(text: string): string {
  const s = text.trim().toLowerCase().replace(/-/g, '_');
  return s.startsWith('osu_') ? s : `osu_${s}`;
}

/** `value` in `unit` as us or MB/s; null when the unit is neither a time nor a bandwidth. */
function inUnit(value: number, unit: string): { value: number; unit: MeasuredUnit } | null {
  try {
    return { value: (value * parseTimePs(`1${unit}`)) / 1e6, unit: 'us' };
  } catch {
    // not a time: a bandwidth?
  }
  try {
    return { value: (value * parseBandwidth(`1${unit}`) * 1e12) / 1e6, unit: 'MB/s' };
  } catch {
    return null;
  }
}

/** Bandwidth benchmarks: their CSV values default to MB/s, the others' to us. */
const BANDWIDTH = /_(bw|bibw|mbw_mr)$/;

/**
 * CSV: a header line naming the columns (any order, case ignored), then one point per line.
 * `bytes` may carry a unit (4KiB) and is empty for a benchmark without sizes; `unit` is a time
 * (us, ms, ns, s) or a bandwidth (MB/s, GB/s, ...), by default us, or MB/s for osu_bw, osu_bibw
 * and osu_mbw_mr. Blank lines and lines starting with # are skipped.
 */
export function readCsv(text: string, file: string): MeasuredPoint[] {
  const lines = text.split(/\r?\n/);
  const cells = (l: string): string[] => l.split(',').map((c) => c.trim().replace(/^"(.*)"$/, '$1').trim());
  let headerAt = -1;
  let columns: string[] = [];
  const points: MeasuredPoint[] = [];
  for (let i = 0; i < lines.length; i++) {
    const n = i + 1;
    const l = lines[i]!.trim();
    if (l === '' || l.startsWith('#')) continue;
    if (headerAt < 0) {
      headerAt = n;
      columns = cells(l).map((c) => c.toLowerCase());
      const known: readonly string[] = [...CSV_REQUIRED, ...CSV_OPTIONAL];
      const expected = `expected ${CSV_REQUIRED.join(', ')} and optionally ${CSV_OPTIONAL.join(', ')}`;
      for (const c of columns) if (!known.includes(c)) throw bad(file, n, `unknown column "${c}"; ${expected}`);
      for (const c of CSV_REQUIRED) if (!columns.includes(c)) throw bad(file, n, `no column "${c}" in the header; ${expected}`);
      const twice = columns.find((c, k) => columns.indexOf(c) !== k);
      if (twice !== undefined) throw bad(file, n, `column "${twice}" appears twice`);
      continue;
    }
    const row = cells(l);
    if (row.length !== columns.length) throw bad(file, n, `expected ${columns.length} values (${columns.join(',')}), got ${row.length}`);
    const get = (c: string): string => row[columns.indexOf(c)] ?? '';
    const benchText = get('benchmark');
    if (benchText === '') throw bad(file, n, 'empty benchmark; expected a name such as osu_latency');
    const benchmark = benchmarkName(benchText);
    const bytesText = get('bytes');
    let bytes: number | null = null;
    if (bytesText !== '') {
      try {
        bytes = parseBytes(bytesText);
      } catch {
        throw bad(file, n, `bytes "${bytesText}": expected a size such as 64 or 4KiB (empty for a benchmark without sizes)`);
      }
    }
    const valueText = get('value');
    const raw = Number(valueText);
    if (!NUMBER.test(valueText) || !(raw > 0)) throw bad(file, n, `value "${valueText}": expected a positive number`);
    const unitText = columns.includes('unit') ? get('unit') : '';
    const unit = unitText !== '' ? unitText : BANDWIDTH.test(benchmark) ? 'MB/s' : 'us';
    const v = inUnit(raw, unit);
    if (v === null) throw bad(file, n, `unit "${unit}": expected a time (us, ms, ns, s) or a bandwidth (MB/s, GB/s, KB/s, B/s)`);
    const count = (c: 'nodes' | 'ppn'): number | undefined => {
      const t = columns.includes(c) ? get(c) : '';
      if (t === '') return undefined;
      const k = Number(t);
      if (!Number.isInteger(k) || k < 1) throw bad(file, n, `${c} "${t}": expected a positive integer`);
      return k;
    };
    const nodes = count('nodes');
    const ppn = count('ppn');
    points.push({
      file,
      line: n,
      benchmark,
      bytes,
      ...v,
      ...(nodes !== undefined ? { nodes } : {}),
      ...(ppn !== undefined ? { ppn } : {}),
      curve: `${file}:${benchmark}:${nodes ?? ''}:${ppn ?? ''}`,
    });
  }
  if (headerAt < 0) throw new RangeError(`${file}: empty; expected a CSV header line such as "benchmark,bytes,value"`);
  if (points.length === 0) throw bad(file, headerAt, 'a header and no data lines; expected lines such as "osu_latency,8,1.2"');
  return points;
}
