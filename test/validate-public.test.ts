/**
 * The public tier of `phit validate` (cli/validate/measured.ts): published measurements of the
 * real machines, none a seed figure, each run through the same benchmark on the preset.
 */
import { describe, expect, it } from 'vitest';
import { formatPublicTier, publicTier } from '../cli/validate.ts';
import { benchmarkRun, loadMeasurements, MAX_RANKS, measuredChecks, medianAbs, MEASURED_MACHINES, type Measurement } from '../cli/validate/measured.ts';
import { skippedResult } from '../cli/validate/run.ts';
import { CHECKS, SEED_CHECKS } from '../cli/validate/figures.ts';

describe('public measurements', () => {
  it('every record has a source, a configuration, a value and a benchmark phit runs', () => {
    for (const m of MEASURED_MACHINES) {
      const data = loadMeasurements(m);
      expect(data.length, m).toBeGreaterThan(0);
      expect(new Set(data.map((x) => x.id)).size, `${m}: ids are unique`).toBe(data.length);
      for (const x of data) {
        expect(x.source.length, x.id).toBeGreaterThan(20);
        expect(['us', 'MB/s', 'GB/s', 'x'], x.id).toContain(x.unit);
        expect(benchmarkRun(x), x.id).not.toBeNull();
      }
    }
  });

  it('a bad record is refused naming its file and id', () => {
    const good = loadMeasurements('xc30')[0]!;
    expect(benchmarkRun({ ...good, benchmark: 'IMB Exchange' } as Measurement)).toBeNull();
    expect(() => loadMeasurements('nosuch')).toThrow();
  });

  it('the rows follow the seed checks, one per record up to the rank limit, predicted unless fitted to', () => {
    const rows = measuredChecks();
    expect(CHECKS.slice(SEED_CHECKS.length).map((c) => c.id)).toEqual(rows.map((c) => c.id));
    let n = 0;
    for (const m of MEASURED_MACHINES) {
      const data = loadMeasurements(m).filter((x) => x.nodes * x.ppn <= MAX_RANKS);
      n += data.length;
      for (const x of data) {
        const c = rows.find((r) => r.id === `P:${x.id}`)!;
        expect(c.machine).toBe(m);
        expect(c.kind).toBe(x.use === 'fit' ? 'fitted' : 'predicted');
        expect(c.paper.value).toBe(x.value);
      }
    }
    expect(rows).toHaveLength(n);
  });

  it('the summary gives the median and the largest absolute deviation per machine', () => {
    expect(medianAbs([-10, 30, 20])).toBe(20);
    expect(medianAbs([-10, 40, 20, 5])).toBe(15);
    expect(medianAbs([])).toBeNull();
    const i = SEED_CHECKS.length;
    const rows = [0, 1, 2].map((k) => ({ ...skippedResult(i + k, 'x'), status: 'pass' as const, deviationPct: [-10, 30, 20][k]! }));
    const t = publicTier(rows);
    expect(t).toHaveLength(1);
    expect(t[0]!.medianAbsPct).toBe(20);
    expect(t[0]!.maxAbsPct).toBe(30);
    expect(formatPublicTier(t)[0]).toMatch(/median \|dev\| 20\.0 %, largest 30\.0 %/);
  });

  it('runs a record through its benchmark: the xc30 2-node osu_latency within 20 % of the published 1.09 us', async () => {
    const c = CHECKS.find((x) => x.id === 'P:daint-sarus-osu_latency-8B')!;
    const v = (await c.measure(async (_k, f) => f())) as number;
    expect(Math.abs(v - 1.09) / 1.09).toBeLessThan(0.2);
  });

  it('the held-out Hopper ping-pong bandwidth (3.6 GB/s) comes within 20 % with the BTE get rate fitted to the pingping record', async () => {
    const fit = loadMeasurements('xe6').find((x) => x.id === 'hopper-worley-pingping')!;
    expect(fit.use).toBe('fit');
    expect(fit.fitted).toEqual(['bte.getBandwidth']);
    const held = loadMeasurements('xe6').find((x) => x.id === 'hopper-kerbyson-pt2pt-bw-large')!;
    expect(held.use).toBe('check');
    const c = CHECKS.find((x) => x.id === 'P:hopper-kerbyson-pt2pt-bw-large')!;
    expect(c.kind).toBe('predicted');
    const v = (await c.measure(async (_k, f) => f())) as number;
    expect(Math.abs(v - 3.6) / 3.6).toBeLessThan(0.2);
  });
});
