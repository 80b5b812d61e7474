/**
 * `phit validate`: every figure id of SEED-FIGURES.md that is measured or structural has a check
 * or a stated reason for having none; every row states its kind (a fitted one names the machine
 * parameters fitted to its figure) and gives a reason for a tolerance of its own; the verdict of
 * each relation; and one machine's quick set through the command line.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { machineSpec } from '../fabric/machine.ts';
import { presets } from '../fabric/machines/index.ts';
import { judge, KINDS, seedTolerance, type Check, type Kind, type PaperValue } from '../cli/validate/check.ts';
import { countRows, formatValidate, publicTier, selectChecks, type ValidateResult } from '../cli/validate.ts';
import { CHECKS, NOT_COVERED, SEED_CHECKS } from '../cli/validate/figures.ts';
import { skippedResult, type CheckResult } from '../cli/validate/run.ts';
import { chartsOf } from './browser.ts';
import { phit } from './helpers.ts';

/**
 * The ids of SEED-FIGURES.md and what each is: measured (the model must reproduce it), structural
 * (a parameter or structure the model must use or derive), or report (shown without a verdict).
 */
const FIGURES: Readonly<Record<string, 'measured' | 'structural' | 'report'>> = {
  ...Object.fromEntries(Array.from({ length: 13 }, (_, i) => [`S${i + 1}`, 'structural'])),
  S11: 'measured',
  S12: 'report',
  ...Object.fromEntries(Array.from({ length: 28 }, (_, i) => [`A${i + 1}`, i + 1 >= 21 && i + 1 <= 27 ? 'measured' : 'structural'])),
  ...Object.fromEntries(Array.from({ length: 18 }, (_, i) => [`K${i + 1}`, [11, 12, 13, 16, 17].includes(i + 1) ? 'measured' : 'structural'])),
  K18: 'report',
  ...Object.fromEntries(Array.from({ length: 8 }, (_, i) => [`B${i + 1}`, 'structural'])),
  ...Object.fromEntries(Array.from({ length: 14 }, (_, i) => [`G${i + 1}`, [4, 10, 11].includes(i + 1) ? 'measured' : 'structural'])),
};

/** The figures file beside the project (as DESIGN.md places the seeds), when it is there. */
const FIGURES_FILE = new URL('../../shared/SEED-FIGURES.md', import.meta.url);

describe('validate registry against SEED-FIGURES.md', () => {
  const covered = new Set(SEED_CHECKS.map((c) => c.id));

  it('covers every measured and structural id, or names why not (a short list)', () => {
    const missing = Object.entries(FIGURES).filter(([id, kind]) => kind !== 'report' && !covered.has(id) && !(id in NOT_COVERED));
    expect(missing).toEqual([]);
    expect(Object.keys(NOT_COVERED).length).toBeLessThanOrEqual(8);
    // an id is either checked or excused, not both, and every excuse names a real id and its machine
    for (const [id, n] of Object.entries(NOT_COVERED)) {
      expect(covered.has(id), id).toBe(false);
      expect(FIGURES[id], id).toBeDefined();
      expect(n.reason.length).toBeGreaterThan(10);
    }
  });

  it('registers only real ids, each on the machine of its seed, with a quantity and a section', () => {
    const machineOf: Record<string, string> = { S: 'xt4', A: 'xc30', K: 'sc5832', B: 'bw', G: 'xe6' };
    for (const c of SEED_CHECKS) {
      expect(FIGURES[c.id], c.id).toBeDefined();
      expect(c.machine, c.id).toBe(machineOf[c.id[0]!]);
      expect(c.quantity.length, c.id).toBeGreaterThan(5);
      expect(c.source, c.id).toMatch(/^00[0-4]/);
      // report-only ids are shown without a verdict
      if (FIGURES[c.id] === 'report') expect(c.report, c.id).toBe(true);
    }
    // the report-only rows of SEED-FIGURES.md are shown
    for (const [id, kind] of Object.entries(FIGURES)) if (kind === 'report') expect(covered.has(id), id).toBe(true);
  });

  it.skipIf(!existsSync(FIGURES_FILE))('lists the same ids as the figures file', () => {
    const ids = [...readFileSync(FIGURES_FILE, 'utf8').matchAll(/^\| ([SAKBG]\d+) \|/gm)].map((m) => m[1]!);
    expect(ids.sort()).toEqual(Object.keys(FIGURES).sort());
  });
});

/** Rows whose kind is not one of the four, or whose fitted parameters are missing or not in their machine's spec. */
function kindProblems(checks: readonly Check[]): string[] {
  const out: string[] = [];
  for (const c of checks) {
    const where = `${c.id} ${c.quantity}`;
    if (!(KINDS as readonly string[]).includes(c.kind)) out.push(`${where}: kind ${String(c.kind)}`);
    // read as plain data: the rows under test may break what the type promises
    const params = (c as { readonly fittedParams?: readonly string[] }).fittedParams;
    if (c.kind === 'fitted') {
      if (!Array.isArray(params) || params.length === 0) out.push(`${where}: fitted without parameters`);
      for (const p of params ?? []) if (!(p in machineSpec(c.machine).params)) out.push(`${where}: ${p} is not a ${c.machine} parameter`);
    } else if (params !== undefined) out.push(`${where}: ${c.kind} with fitted parameters`);
  }
  return out;
}

/** Rows that set a tolerance other than SEED-FIGURES.md's without a reason, or a reason without one. */
function toleranceProblems(checks: readonly Check[]): string[] {
  const out: string[] = [];
  for (const c of checks) {
    const where = `${c.id} ${c.quantity}`;
    const own = c.tolerance !== undefined && c.tolerance !== seedTolerance(c.paper.relation);
    if (own && (c.toleranceWhy === undefined || c.toleranceWhy.trim().length < 20)) out.push(`${where}: tolerance ${c.tolerance} without a reason`);
    if (!own && c.toleranceWhy !== undefined) out.push(`${where}: a reason without a tolerance of its own`);
    if (c.tolerance !== undefined && seedTolerance(c.paper.relation) === undefined) out.push(`${where}: a tolerance on ${c.paper.relation}, which takes none`);
  }
  return out;
}

describe('kinds and tolerances of the rows', () => {
  const row = CHECKS[0]!;

  it('every row has one of the four kinds; a fitted row names parameters of its machine, no other row does', () => {
    expect(kindProblems(CHECKS)).toEqual([]);
    for (const k of KINDS) expect(CHECKS.some((c) => c.kind === k), k).toBe(true);
    // the check can fail: a bad kind, a fitted row without parameters or with one the machine lacks
    const bad = [
      { ...row, kind: 'measured' as Kind } as Check,
      { ...row, kind: 'fitted', fittedParams: [] as unknown as [string] } as Check,
      { ...row, kind: 'fitted', fittedParams: ['nic.noSuchDelay'] } as Check,
      { ...row, kind: 'structure', fittedParams: ['router.latency'] } as unknown as Check,
    ];
    expect(kindProblems(bad)).toHaveLength(4);
  });

  it('a parameter whose source says it was fitted or calibrated to a figure id is named by a fitted row of that id', () => {
    const missing: string[] = [];
    let fits = 0;
    for (const machine of Object.keys(presets)) {
      for (const [key, def] of Object.entries(machineSpec(machine).params)) {
        const id = /\b(?:fitted|calibrated|so that)\b.*?\b([SAKBG]\d+)\b/.exec(def.source)?.[1];
        if (id === undefined) continue;
        fits++;
        if (!CHECKS.some((c) => c.machine === machine && c.id === id && c.kind === 'fitted' && c.fittedParams.includes(key))) missing.push(`${machine} ${key} (${id})`);
      }
    }
    expect(fits).toBeGreaterThanOrEqual(4);
    expect(missing).toEqual([]);
  });

  it('a row holds its figure to the tolerance of SEED-FIGURES.md, or says why not', () => {
    expect(toleranceProblems(CHECKS)).toEqual([]);
    expect(CHECKS.filter((c) => c.toleranceWhy !== undefined).length).toBeGreaterThan(0);
    const about = { ...row, paper: { relation: 'about', value: 1, unit: '' } } as Check;
    const bad = [
      { ...about, tolerance: 0.25 } as unknown as Check,
      { ...about, tolerance: 0.25, toleranceWhy: '' } as Check,
      { ...about, toleranceWhy: 'held to 15 % as SEED-FIGURES.md says' } as unknown as Check,
      { ...row, paper: { relation: 'atMost', value: 1, unit: '' }, tolerance: 0.1, toleranceWhy: 'a bound has no tolerance, this row pretends otherwise' } as Check,
    ];
    expect(toleranceProblems(bad)).toHaveLength(4);
    expect(toleranceProblems([{ ...about, tolerance: 0.15 } as unknown as Check, { ...about, tolerance: 0.25, toleranceWhy: 'a reason that is long enough to read' } as Check])).toEqual([]);
  });

  it('counts the rows of each kind and their verdicts, and the summary line says the same', () => {
    // every row, with verdicts spread over them
    const statuses: CheckResult['status'][] = ['pass', 'pass', 'fail', 'report', 'skipped', 'error', 'pass'];
    const rows = CHECKS.map((_, i) => ({ ...skippedResult(i, 'not run'), status: statuses[i % statuses.length]! }));
    const { counts, kinds } = countRows(rows);
    let total = 0;
    for (const k of KINDS) {
      const mine = rows.filter((r) => r.kind === k);
      total += kinds[k].rows;
      expect(kinds[k].rows, k).toBe(mine.length);
      expect(kinds[k].pass, k).toBe(mine.filter((r) => r.status === 'pass').length);
      expect(kinds[k].fail + kinds[k].error, k).toBe(mine.filter((r) => r.status === 'fail' || r.status === 'error').length);
    }
    expect(total).toBe(CHECKS.length);
    expect(counts.pass).toBe(rows.filter((r) => r.status === 'pass').length);
    const text = formatValidate({ rows, counts, kinds, public: publicTier(rows), seconds: 0 } satisfies ValidateResult);
    const line = text.split('\n').find((l) => l.startsWith('kinds: '))!;
    for (const k of KINDS) {
      const m = new RegExp(`(\\d+) ${k} \\((\\d+) pass`).exec(line);
      expect(m, `${k} in ${line}`).not.toBeNull();
      expect(Number(m![1])).toBe(kinds[k].rows);
      expect(Number(m![2])).toBe(kinds[k].pass);
    }
    // the table has a kind column, and each machine names the parameters fitted to its figures
    expect(text).toMatch(/^id +quantity +seed +kind +paper/m);
    expect(text).toMatch(/^parameters fitted to these figures: .*K12 nic\.smsgAckDelay, nic\.smsgWindow; K13 mpi\.railThreshold$/m);
  });
});

describe('verdicts of each relation', () => {
  const p = (relation: PaperValue['relation'], value: number | string, high?: number): PaperValue => ({ relation, value, unit: 'us', ...(high === undefined ? {} : { high }) });

  it.each([
    // relation, paper, high, model, tolerance, ok, deviation
    ['about', 10, undefined, 11.4, undefined, true, 0.14],
    ['about', 10, undefined, 8.4, undefined, false, -0.16],
    ['about', 10, undefined, 8.4, 0.25, true, -0.16],
    ['atMost', 1.5, undefined, 1.5, undefined, true, 0],
    ['atMost', 1.5, undefined, 1.51, undefined, false, 0.00667],
    ['under', 0.7, undefined, 0.7, undefined, false, 0],
    ['under', 0.7, undefined, 0.63, undefined, true, -0.1],
    ['atLeast', 5, undefined, 5, undefined, true, 0],
    ['over', 45, undefined, 45, undefined, false, 0],
    ['over', 45, undefined, 50, undefined, true, 0.111],
    ['range', 50, 120, 119, undefined, true, 0],
    ['range', 50, 120, 45, undefined, false, -0.1],
    ['range', 50, 120, 45, 0.15, true, -0.1],
    ['range', 50, 120, 140, 0.15, false, 0.1667],
    ['exact', 9.375, undefined, 4 * 2.34375, undefined, true, 0],
    ['exact', 96, undefined, 97, undefined, false, 0.0104],
  ] as const)('%s %s (to %s): model %s, tolerance %s -> %s', (relation, value, high, model, tolerance, ok, deviation) => {
    const r = judge(p(relation, value, high), model, tolerance);
    expect(r.ok).toBe(ok);
    expect(r.deviation).toBeCloseTo(deviation, 3);
  });

  it('compares text exactly, without a deviation, and refuses text under another relation', () => {
    expect(judge(p('exact', '8/4/8'), '8/4/8')).toEqual({ deviation: null, ok: true });
    expect(judge(p('exact', '8/4/8'), '8/2/8')).toEqual({ deviation: null, ok: false });
    expect(() => judge(p('about', '8/4/8'), '8/4/8')).toThrow(RangeError);
    expect(() => judge(p('range', 5), 5)).toThrow(/high/);
  });
});

describe('phit validate', () => {
  it('runs the xt4 quick set: every quick row passes or is report-only, with the paper and model values; the long rows are skipped', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'phit-validate-'));
    const file = join(dir, 'validate.html');
    const r = await phit('validate', '--machine', 'xt4', '--json', '--report', file);
    expect(r.err).toEqual([]);
    expect(r.code).toBe(0);
    const out = JSON.parse(r.out[0]!) as {
      counts: { pass: number; report: number };
      kinds: Record<Kind, { rows: number; pass: number }>;
      rows: { id: string; machine: string; kind: Kind; fittedParams?: string[]; status: string; model: unknown; paperText: string; deviationPct: number | null }[];
    };
    const ids = new Set(out.rows.map((x) => x.id));
    for (const id of ['S1', 'S2', 'S9', 'S11', 'S12', 'S13']) expect(ids.has(id), id).toBe(true);
    const long = new Set(CHECKS.filter((c) => c.machine === 'xt4' && c.tier === 'long').map((c) => c.id));
    for (const row of out.rows) {
      expect(row.machine).toBe('xt4');
      if (long.has(row.id)) {
        // a long check (a public measurement of many ranks) is listed, not run, without --all
        expect(row.status, row.id).toBe('skipped');
        expect(row.deviationPct, row.id).toBeNull();
        continue;
      }
      expect(['pass', 'report']).toContain(row.status);
      expect(row.model).not.toBeNull();
      expect(row.paperText.length).toBeGreaterThan(0);
    }
    expect(out.rows.find((x) => x.id === 'S12')!.status).toBe('report');
    // S11: node 6 gets about half of the link into node 7
    const s11 = out.rows.find((x) => x.id === 'S11')!;
    expect(Math.abs(s11.model as number - 0.5)).toBeLessThan(0.05);
    expect(out.counts.pass + out.counts.report).toBe(out.rows.filter((x) => !long.has(x.id)).length);
    // every row has its kind, and the counts per kind are the rows'
    for (const k of KINDS) {
      expect(out.kinds[k].rows, k).toBe(out.rows.filter((x) => x.kind === k).length);
      expect(out.kinds[k].pass, k).toBe(out.rows.filter((x) => x.kind === k && x.status === 'pass').length);
    }
    expect(out.rows.every((x) => (KINDS as readonly string[]).includes(x.kind))).toBe(true);
    expect(out.rows.find((x) => x.id === 'S1')!.kind).toBe('structure');
    expect(out.rows.find((x) => x.id === 'S10')).toMatchObject({ kind: 'fitted', fittedParams: ['router.latency', 'link.latency'] });
    // --report: the same rows in a page, and a bar per row with a deviation
    const html = readFileSync(file, 'utf8');
    rmSync(dir, { recursive: true, force: true });
    const bars = chartsOf(html).filter((c) => c.kind === 'bar') as unknown as { categories: string[] }[];
    expect(bars).toHaveLength(1);
    expect(bars[0]!.categories).toHaveLength(out.rows.filter((x) => x.deviationPct !== null).length);
    for (const row of out.rows) expect(html).toContain(row.paperText.replace(/&/g, '&amp;').replace(/</g, '&lt;'));
    expect(html).toContain('<th>kind</th>');
    expect(html).toContain('<td>fitted: router.latency, link.latency</td>');
  });

  it('refuses a report path it cannot write before running anything (exit 2)', async () => {
    const r = await phit('validate', '--machine', 'xt4', '--report', join(tmpdir(), 'no-such-dir-phit', 'v.html'));
    expect(r.code).toBe(2);
    expect(r.err.join('\n')).toMatch(/--report .*cannot write it/);
  });

  it('skips the long checks without --all, runs them with it, and runs a named id with its long checks', () => {
    const ids = (list: readonly number[]): string[] => [...new Set(list.map((i) => CHECKS[i]!.id))];
    const quick = selectChecks({ machine: 'sc5832' });
    expect(ids(quick.skip)).toEqual(['K12', 'K13', 'K16', 'K17']);
    expect(ids(quick.run)).not.toContain('K13');
    expect(selectChecks({ machine: 'sc5832', all: true }).skip).toEqual([]);
    const named = selectChecks({ ids: ['K13', 'K1'] });
    expect(ids(named.run)).toEqual(['K1', 'K13']);
    expect(named.skip).toEqual([]);
  });

  it('refuses an unknown machine or id, and an id it does not check, with exit code 2', async () => {
    const machine = await phit('validate', '--machine', 'cray1');
    expect(machine.code).toBe(2);
    expect(machine.err.join('\n')).toMatch(/--machine cray1: valid: xt4, xe6, xc30, sc5832, bw/);
    const id = await phit('validate', '--id', 'A21,Z9');
    expect(id.code).toBe(2);
    expect(id.err.join('\n')).toMatch(/--id Z9: unknown figure id; valid: S1, .*G13/);
    const excused = await phit('validate', '--id', 'G14');
    expect(excused.code).toBe(2);
    expect(excused.err.join('\n')).toMatch(/--id G14: not checked \(network addresses/);
    const level = await phit('validate', '--id', 'A21', '--fidelity', 'exact');
    expect(level.code).toBe(2);
    expect(level.err.join('\n')).toMatch(/--fidelity exact: valid: packet, coarse, flow/);
  });

  it('--fidelity runs every measurement at that level: a bulk-data figure changes, a latency figure does not', async () => {
    const run = async (level: string): Promise<{ model: number; quantity: string }[]> => {
      const r = await phit('validate', '--id', 'A21,A23', '--fidelity', level, '--json');
      expect(r.code === 0 || r.code === 1).toBe(true);
      return (JSON.parse(r.out.join('\n')) as { rows: { model: number; quantity: string }[] }).rows;
    };
    const [packet, coarse] = [await run('packet'), await run('coarse')];
    const latency = (rows: { model: number; quantity: string }[]): number => rows.find((x) => /8-byte put, one green hop/.test(x.quantity))!.model;
    const bulk = (rows: { model: number; quantity: string }[]): number => rows.find((x) => /1 MiB puts to the green neighbour/.test(x.quantity))!.model;
    expect(latency(coarse)).toBe(latency(packet));
    expect(bulk(coarse)).not.toBe(bulk(packet));
  });
});
