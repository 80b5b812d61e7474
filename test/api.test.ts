import { describe, expect, it } from 'vitest';
import * as phit from '../index.ts';
import { phit as cli } from './helpers.ts';

describe('the programmatic API (index.ts) does what the command line does', () => {
  it('has a function for every command: run, compare, sweep, topo, traffic, machines show, reports', () => {
    for (const f of ['simulate', 'compare', 'parseSweep', 'planSweep', 'runSweep', 'machineTopology', 'runTraffic', 'machineToYaml', 'parseMachineFile', 'renderReport', 'runReport', 'collectFabricMetrics']) {
      expect(typeof (phit as unknown as Record<string, unknown>)[f], f).toBe('function');
    }
  });

  it('machineTopology gives what `phit topo --json` prints (K9: the 108-node Kautz graph has diameter 4)', async () => {
    const t = phit.machineTopology(phit.machineSpec('sc5832'), { set: { 'kautz.diameter': '4' } });
    expect(t.nodes).toBe(108);
    expect(t.diameter).toBe(4);
    const r = await cli('topo', 'sc5832', '--diameter', '4', '--json');
    expect(r.code).toBe(0);
    const { deadlock, ...json } = t;
    expect(deadlock).toBeNull();
    expect(JSON.parse(r.out)).toEqual(JSON.parse(JSON.stringify(json)));
  });

  it('compare runs one app on two machines as `phit compare` does', async () => {
    const r = await phit.compare({ app: 'pingpong', machines: ['xe6', 'xc30'], nodes: 2, params: { minBytes: '8', maxBytes: '8', iterations: '2' } });
    expect(r.rows.map((x) => x.machine)).toEqual(['xe6', 'xc30']);
    for (const row of r.rows) expect(row.error ?? null).toBeNull();
  });
});
