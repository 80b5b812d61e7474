/**
 * Unit parsing at the configuration edge. Inside phit, time is integer picoseconds and sizes are
 * bytes; nothing below the config layer sees a unit string.
 */

const TIME_PS: Record<string, number> = { ps: 1, ns: 1e3, us: 1e6, ms: 1e9, s: 1e12 };
const SIZE_B: Record<string, number> = { B: 1, KB: 1e3, MB: 1e6, GB: 1e9, KiB: 1024, MiB: 1048576, GiB: 1073741824 };
const FREQ_HZ: Record<string, number> = { Hz: 1, kHz: 1e3, MHz: 1e6, GHz: 1e9 };

function split(text: string, what: string): [number, string] {
  const m = /^\s*([0-9]*\.?[0-9]+(?:e[-+]?[0-9]+)?)\s*([A-Za-z/]*)\s*$/.exec(text);
  if (!m) throw new RangeError(`cannot read ${what} "${text}": expected a number and a unit`);
  return [Number(m[1]), m[2] ?? ''];
}

/** "105ns" -> 105000 (ps). */
export function parseTimePs(text: string): number {
  const [v, u] = split(text, 'a time');
  const f = Object.hasOwn(TIME_PS, u) ? TIME_PS[u] : undefined;
  if (f === undefined) throw new RangeError(`unknown time unit in "${text}"; use one of ${Object.keys(TIME_PS).join(', ')}`);
  return Math.round(v * f);
}

/** "4MiB" -> 4194304 (bytes). */
export function parseBytes(text: string): number {
  const [v, u] = split(text, 'a size');
  const f = Object.hasOwn(SIZE_B, u === '' ? 'B' : u) ? SIZE_B[u === '' ? 'B' : u] : undefined;
  if (f === undefined) throw new RangeError(`unknown size unit in "${text}"; use one of ${Object.keys(SIZE_B).join(', ')}`);
  return Math.round(v * f);
}

/** "650MHz" -> 650e6 (Hz). */
export function parseHz(text: string): number {
  const [v, u] = split(text, 'a frequency');
  const f = Object.hasOwn(FREQ_HZ, u) ? FREQ_HZ[u] : undefined;
  if (f === undefined) throw new RangeError(`unknown frequency unit in "${text}"; use one of ${Object.keys(FREQ_HZ).join(', ')}`);
  return v * f;
}

/** "9.6GB/s" -> bytes per ps. */
export function parseBandwidth(text: string): number {
  const [v, u] = split(text, 'a bandwidth');
  const m = /^(B|KB|MB|GB|Gb|Mb)\/s$/.exec(u);
  if (!m) throw new RangeError(`unknown bandwidth unit in "${text}"; use B/s, KB/s, MB/s, GB/s, Mb/s or Gb/s`);
  const perSecond: Record<string, number> = { B: 1, KB: 1e3, MB: 1e6, GB: 1e9, Mb: 1e6 / 8, Gb: 1e9 / 8 };
  return (v * perSecond[m[1]!]!) / 1e12;
}

/** Picoseconds of one cycle at `hz`. */
export function cyclePs(hz: number): number {
  return 1e12 / hz;
}

/** `v` with at most `digits` significant digits and no trailing zeros ("1.5", "700"). */
function trimmed(v: number, digits: number): string {
  return String(Number(v.toPrecision(digits)));
}

/** 700000 (ps) -> "700ns": the largest unit that keeps the number at least 1, exact to the picosecond. */
export function formatTimePs(ps: number): string {
  const whole = Math.round(ps);
  const units: [string, number][] = [['s', 1e12], ['ms', 1e9], ['us', 1e6], ['ns', 1e3]];
  for (const [u, f] of units) if (whole >= f) return `${Number((whole / f).toFixed(Math.log10(f)))}${u}`;
  return `${whole}ps`;
}

/** 8192 -> "8KiB", 1000 -> "1000B": a binary unit when it divides the size exactly, else bytes. */
export function formatBytes(bytes: number): string {
  const whole = Math.round(bytes);
  const units: [string, number][] = [['GiB', 1073741824], ['MiB', 1048576], ['KiB', 1024]];
  for (const [u, f] of units) if (whole >= f && whole % f === 0) return `${whole / f}${u}`;
  return `${whole}B`;
}

/** Bytes per ps -> "5.25GB/s" (decimal units, `digits` significant digits; 6 by default). */
export function formatBandwidth(bytesPerPs: number, digits = 6): string {
  const perSecond = bytesPerPs * 1e12;
  const units: [string, number][] = [['GB/s', 1e9], ['MB/s', 1e6], ['KB/s', 1e3]];
  for (const [u, f] of units) if (perSecond >= f) return `${trimmed(perSecond / f, digits)}${u}`;
  return `${trimmed(perSecond, digits)}B/s`;
}

/** 650e6 -> "650MHz" (`digits` significant digits; 6 by default). */
export function formatHz(hz: number, digits = 6): string {
  const units: [string, number][] = [['GHz', 1e9], ['MHz', 1e6], ['kHz', 1e3]];
  for (const [u, f] of units) if (hz >= f) return `${trimmed(hz / f, digits)}${u}`;
  return `${trimmed(hz, digits)}Hz`;
}
