/** Formats rows as an aligned text table (columns from the union of keys, numbers right-aligned). */
export function formatTable(rows: readonly Record<string, unknown>[]): string {
  if (rows.length === 0) return '(no rows)';
  const cols: string[] = [];
  for (const r of rows) for (const k of Object.keys(r)) if (!cols.includes(k)) cols.push(k);
  const cells = rows.map((r) => cols.map((c) => (r[c] === undefined ? '' : String(r[c]))));
  const width = cols.map((c, i) => Math.max(c.length, ...cells.map((row) => row[i]!.length)));
  const numeric = cols.map((_, i) => rows.every((r) => typeof r[cols[i]!] === 'number' || r[cols[i]!] === undefined));
  const line = (vals: string[]): string =>
    vals.map((v, i) => (numeric[i] ? v.padStart(width[i]!) : v.padEnd(width[i]!))).join('  ').trimEnd();
  return [line(cols), line(width.map((w) => '-'.repeat(w))), ...cells.map(line)].join('\n');
}
