/**
 * The latency faults add, per link class, in `phit run --metrics`, `--json` (metrics.fabric) and
 * the HTML report: the replay time per packet that crossed a class with bit errors, and the hops
 * packets took off their topology's route around failed links.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { phit } from './helpers.ts';

interface FabricJson {
  packets: number;
  hops: { mean: number };
  linkErrors?: { name: string; packets: number; retransmissions: number; replayPs: number; replayNsPerPacket: number }[];
  faults?: { detours: number; masked: number; byClass: { name: string; links: number; detourHops: number }[] };
}

/** Runs alltoall (512 B blocks, sent directly) and returns metrics.fabric of its --json output. */
async function fabric(machine: string, nodes: number, set: Record<string, string>, extra: string[] = []): Promise<FabricJson> {
  const sets = Object.entries(set).flatMap(([k, v]) => ['--set', `${k}=${v}`]);
  const r = await phit('run', 'alltoall', '--machine', machine, '--nodes', String(nodes), '--param', 'minBytes=512', '--param', 'maxBytes=512', '--param', 'iterations=1', '--param', 'warmup=0', ...sets, '--metrics', '--json', ...extra);
  expect(r.code, r.err.join('\n')).toBe(0);
  return (JSON.parse(r.out.join('\n')) as { metrics: { fabric: FabricJson } }).metrics.fabric;
}

describe('added latency per link class', () => {
  it('sc5832, 36 nodes, links out of router 0 failed: the rerouted packets\' hops count as detour hops on the out links', async () => {
    const f = await fabric('sc5832', 36, { 'faults.links': '0:1,0:2' });
    expect(f.faults).toBeDefined();
    const out = f.faults!.byClass.find((c) => c.name === 'out')!;
    expect(out.links).toBe(108);
    // node 0 sends to 35 others with 2 of its 3 out-links down: every packet of 2/3 of its pairs (or more) is rerouted at the source
    expect(f.faults!.masked).toBeGreaterThan(0);
    expect(out.detourHops).toBeGreaterThanOrEqual(f.faults!.masked);
    // and no more than every hop of every packet
    expect(out.detourHops).toBeLessThan(f.packets * f.hops.mean);
  });

  it('no faults, no detour hops: the field is absent', async () => {
    const f = await fabric('sc5832', 36, {});
    expect(f.faults).toBeUndefined();
  });

  it('xt4 with link.ber: replay ns per packet is the class\'s replay time over its packets, 0 without errors, and the text and HTML report show both figures', async () => {
    const f = await fabric('xt4', 8, { 'link.ber': '1e-5', 'faults.links': '0:2' });
    const cls = f.linkErrors!.filter((c) => c.packets > 0);
    expect(cls.some((c) => c.retransmissions > 0)).toBe(true);
    for (const c of cls) {
      expect(c.replayNsPerPacket).toBeCloseTo(c.replayPs / c.packets / 1000, 4);
      if (c.retransmissions === 0) expect(c.replayNsPerPacket).toBe(0);
    }
    const text = await phit('run', 'alltoall', '--machine', 'xt4', '--nodes', '8', '--param', 'minBytes=512', '--param', 'maxBytes=512', '--param', 'iterations=1', '--param', 'warmup=0', '--set', 'link.ber=1e-5', '--set', 'faults.links=0:2', '--metrics');
    const out = text.out.join('\n');
    expect(out).toMatch(/replay ns\/packet/);
    expect(out).toMatch(/^detour hops per link class \(hops off the topology's route\): /m);
    const dir = mkdtempSync(join(tmpdir(), 'phit-fault-metrics-'));
    try {
      const file = join(dir, 'r.html');
      const r = await phit('run', 'alltoall', '--machine', 'xt4', '--nodes', '8', '--param', 'minBytes=512', '--param', 'maxBytes=512', '--param', 'iterations=1', '--param', 'warmup=0', '--set', 'link.ber=1e-5', '--set', 'faults.links=0:2', '--report', file);
      expect(r.code, r.err.join('\n')).toBe(0);
      const html = readFileSync(file, 'utf8');
      expect(html).toContain('Faults and link errors');
      expect(html).toContain('replay ns per packet');
      expect(html).toContain('detour hops');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
