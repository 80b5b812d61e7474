import { describe, expect, it } from 'vitest';
import { planRuns } from '../cli/calibrate/benchmarks.ts';
import { holdOutStride, summarise } from '../cli/calibrate/calibration.ts';
import { fitParam } from '../cli/calibrate/fit-params.ts';
import { machineSpec } from '../fabric/machine.ts';
import { checkParam } from '../fabric/machines/schema.ts';
import { formatBandwidth, formatBytes, formatHz, formatTimePs, parseBandwidth, parseBytes, parseHz, parseTimePs } from '../fabric/units.ts';

const xe6 = machineSpec('xe6');

describe('unit formatters: what the parsers read back', () => {
  it('times are exact to the picosecond in the largest unit that keeps the number at least 1', () => {
    expect([700000, 1234567, 999, 1000, 1.5e9, 12e12].map(formatTimePs)).toEqual(['700ns', '1.234567us', '999ps', '1ns', '1.5ms', '12s']);
    for (const ps of [1, 17, 700001, 123456789012]) expect(parseTimePs(formatTimePs(ps))).toBe(ps);
  });

  it('sizes, bandwidths and frequencies', () => {
    expect([8192, 1000, 12, 3 * 1048576].map(formatBytes)).toEqual(['8KiB', '1000B', '12B', '3MiB']);
    for (const b of [1, 1000, 8192, 1536]) expect(parseBytes(formatBytes(b))).toBe(b);
    expect(formatBandwidth(parseBandwidth('9.6GB/s'))).toBe('9.6GB/s');
    expect(formatBandwidth(parseBandwidth('123.456789MB/s'))).toBe('123.457MB/s');
    expect(formatBandwidth(parseBandwidth('12B/s'))).toBe('12B/s');
    expect(formatHz(650e6)).toBe('650MHz');
    expect(parseHz(formatHz(1.23456789e9))).toBeCloseTo(1.23457e9, -1);
  });
});

describe('fitted parameters', () => {
  it('a time, a bandwidth, a size, a frequency, a count and a bounded number: start, writing and reading back', () => {
    const send = fitParam(xe6, 'mpi.sendOverhead');
    expect(send.startText).toBe('400ns');
    expect(send.start).toBe(400000);
    expect(send.format(700000.4)).toBe('700ns');
    expect(send.read('700.5ns')).toBe(700500);
    const copy = fitParam(xe6, 'mpi.copyBandwidth');
    expect(copy.start).toBeCloseTo(5e9 / 1e12, 15);
    expect(copy.format(copy.start * 1.5)).toBe('7.5GB/s');
    expect(fitParam(xe6, 'mpi.eagerMaxBytes').format(4096.2)).toBe('4KiB');
    expect(checkParam('nic.clock', fitParam(xe6, 'nic.clock').format(7.5e8))).toBeNull();
    expect(fitParam(xe6, 'router.inputBuffer').format(10.6)).toBe('11');
    const eff = fitParam(xe6, 'link.efficiency');
    expect(eff.max).toBe(1);
    expect(eff.format(1.7)).toBe('1');
    // every written value passes the machine schema
    for (const [k, v] of [['mpi.sendOverhead', 1234.5], ['mpi.copyBandwidth', 0.0123], ['mpi.eagerMaxBytes', 3000], ['router.inputBuffer', 3]] as const) {
      expect(checkParam(k, fitParam(xe6, k).format(v))).toBeNull();
    }
  });

  it('--set gives the start', () => {
    expect(fitParam(xe6, 'mpi.sendOverhead', { 'mpi.sendOverhead': '1.5us' }).start).toBe(1500000);
  });

  it('an unknown key, a key of another topology, a non-number and a zero start are refused with the key named', () => {
    expect(() => fitParam(xe6, 'mpi.sendOverheat')).toThrow(/^--fit: unknown parameter "mpi.sendOverheat" for machine xe6; did you mean mpi.sendOverhead\?$/);
    expect(() => fitParam(xe6, 'dragonfly.groups')).toThrow(/belongs to dragonfly machines/);
    expect(() => fitParam(xe6, 'mpi.asyncProgress')).toThrow(/^--fit mpi.asyncProgress: its value is yes or no, not a number/);
    expect(() => fitParam(xe6, 'torus.dims')).toThrow(/^--fit torus.dims: .* not a number/);
    expect(() => fitParam(xe6, 'mpi.railThreshold')).toThrow(/^--fit mpi.railThreshold: starts from "0" on xe6; .* --set mpi.railThreshold=<value>$/);
    // xt4's BTE get rate is the word "nic" (xe6's is now a fitted 4.2 GB/s)
    expect(() => fitParam(machineSpec('xt4'), 'bte.getBandwidth')).toThrow(/starts from "nic"/);
  });
});

describe('hold-out, run plans and error summaries', () => {
  it('every k-th point for a fraction; 0 holds none; outside 0..0.5 is refused', () => {
    expect([0, 0.25, 0.3, 0.5, 0.1].map(holdOutStride)).toEqual([0, 4, 3, 2, 10]);
    for (const bad of [0.6, -0.1, NaN]) expect(() => holdOutStride(bad)).toThrow(/^--hold-out .*: expected a fraction from 0 to 0\.5$/);
  });

  it('one run per doubling chain of sizes, per benchmark, nodes and ppn', () => {
    const need = (benchmark: string, nodes: number, ppn: number, sizes: number[]): { benchmark: string; nodes: number; ppn: number; bytes: number }[] => sizes.map((bytes) => ({ benchmark, nodes, ppn, bytes }));
    const plans = planRuns([...need('osu_latency', 2, 1, [8, 1, 4096, 64, 8]), ...need('osu_allreduce', 8, 1, [1000, 3000, 2000, 4000]), ...need('osu_allreduce', 4, 2, [4])]);
    expect(plans).toEqual([
      { benchmark: 'osu_allreduce', nodes: 4, ppn: 2, sizes: [4] },
      { benchmark: 'osu_allreduce', nodes: 8, ppn: 1, sizes: [1000, 2000, 4000] },
      { benchmark: 'osu_allreduce', nodes: 8, ppn: 1, sizes: [3000] },
      { benchmark: 'osu_latency', nodes: 2, ppn: 1, sizes: [1, 8, 64, 4096] },
    ]);
  });

  it('median and largest absolute error', () => {
    expect(summarise([0.1, -0.3, 0.2])).toEqual({ points: 3, median: 0.2, max: 0.3 });
    const even = summarise([-0.1, 0.3, 0.2, 0]);
    expect(even.points).toBe(4);
    expect(even.median).toBeCloseTo(0.15, 12);
    expect(even.max).toBe(0.3);
    expect(summarise([])).toEqual({ points: 0, median: 0, max: 0 });
  });
});
