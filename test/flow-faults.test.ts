/**
 * Flows and faults (`--fidelity flow`): flows take the routes the fault-aware routing gives for
 * the faults from the start (no flow over a failed link), and a link with lanes lost counts at
 * its share of lanes in the max-min solve; a transfer squeezed through one such link takes as
 * long as flow as at packet level, within the flow level's ping-pong accuracy; a flow under way
 * when links it crosses fail re-routes the rest of its bytes.
 */
import { describe, expect, it } from 'vitest';
import { downAt, parseFaults } from '../fabric/faults.ts';
import { buildMachine, machineSpec, resolveMachine } from '../fabric/machine.ts';
import { phit } from './helpers.ts';

/** Every link from router 0 of a 16-node xe6 to router 1 (port numbers read off the graph). */
function links01(): string[] {
  const g = buildMachine(resolveMachine(machineSpec('xe6'), 16, {})).graph;
  const out: string[] = [];
  for (let q = 0; q < g.radix; q++) if (g.peerRouter[q] === 1) out.push(`0:${q}`);
  return out;
}

/** The 1 MiB ping-pong time (us) between rank 0 (router 0) and rank 2 (router 1) of a 16-node xe6. */
async function pingpong(fidelity: string, set: Record<string, string>): Promise<number> {
  const sets = Object.entries(set).flatMap(([k, v]) => ['--set', `${k}=${v}`]);
  const r = await phit('run', 'pingpong', '--machine', 'xe6', '--nodes', '16', '--param', 'minBytes=1MiB', '--param', 'maxBytes=1MiB', '--param', 'peer=2', '--param', 'iterations=2', '--fidelity', fidelity, ...sets);
  const text = r.out.join('\n');
  expect(r.code, r.err.join('\n') + text).toBe(0);
  const row = /^\s*1048576\s+([\d.]+)/m.exec(text);
  expect(row).not.toBeNull();
  return Number(row![1]);
}

describe('flows around failed links and lost lanes', () => {
  it('xe6: every link between routers 0 and 1 failed but one, which lost 2 of its 3 lanes: a 1 MiB ping-pong as flows takes what it takes as packets', async () => {
    const all = links01();
    expect(all.length).toBeGreaterThan(1);
    const faults = { 'faults.links': all.slice(1).join(','), 'faults.lanes': `${all[0]}/2` };
    const clean = await pingpong('flow', {});
    const packet = await pingpong('packet', faults);
    const flow = await pingpong('flow', faults);
    // one link at a third of its lanes instead of many full ones: the transfer slows severalfold
    expect(packet).toBeGreaterThan(3 * clean);
    // the flow level's ping-pong accuracy on xe6 (README, Fidelity levels: within 1.7 %)
    expect(Math.abs(flow / packet - 1)).toBeLessThan(0.03);
  });

  it('xe6: the same link losing its lanes 50 us into the run re-solves the flow crossing it: flows and packets agree again', async () => {
    const all = links01();
    const faults = { 'faults.links': all.slice(1).join(','), 'faults.lanes': `${all[0]}/2@50us` };
    const whole = await pingpong('flow', { 'faults.links': all.slice(1).join(',') });
    const packet = await pingpong('packet', faults);
    const flow = await pingpong('flow', faults);
    expect(flow).toBeGreaterThan(1.5 * whole);
    expect(Math.abs(flow / packet - 1)).toBeLessThan(0.03);
  });

  it('xe6: every link between routers 0 and 1 but one failing 50 us into the run, under a flow: the rest of it re-routes onto the link left, flows and packets agree', async () => {
    const all = links01();
    const late = all.slice(1).map((l) => `${l}@50us`).join(',');
    const clean = await pingpong('flow', {});
    const packet = await pingpong('packet', { 'faults.links': late });
    const flow = await pingpong('flow', { 'faults.links': late });
    // the first transfer loses the failed links' bandwidth mid-way, the later ones have one link
    expect(packet).toBeGreaterThan(1.5 * clean);
    expect(Math.abs(flow / packet - 1)).toBeLessThan(0.03);
  });

  it('xe6: every link between routers 2 and 3 failing 50 us into the run cuts them apart: the whole network quiesces for faults.quiescePause, the flow between routers 0 and 1 pauses as its packets do', async () => {
    const g = buildMachine(resolveMachine(machineSpec('xe6'), 16, {})).graph;
    const cut: string[] = [];
    for (let q = 0; q < g.radix; q++) if (g.peerRouter[2 * g.radix + q] === 3) cut.push(`2:${q}@50us`);
    expect(cut.length).toBeGreaterThan(1);
    const all = cut.join(',');
    const noPause = await pingpong('flow', { 'faults.links': all, 'faults.quiescePause': '0us' });
    const packet = await pingpong('packet', { 'faults.links': all, 'faults.quiescePause': '200us' });
    const flow = await pingpong('flow', { 'faults.links': all, 'faults.quiescePause': '200us' });
    // the pause stops the transfer under way (200 us over the 4 one-way times the row averages): the flows take it as the packets do
    expect(flow).toBeGreaterThan(noPause + 40);
    expect(Math.abs(flow / packet - 1)).toBeLessThan(0.03);
  });

  for (const [name, nodes, set] of [
    ['xe6', 16, { 'faults.links': '0:2,0:3,3:4,5:6' }],
    ['sc5832', 36, { 'faults.links': '0:1,0:2,1:3' }],
    ['bw', 64, { 'faults.links': Array.from({ length: 31 }, (_, m) => `0:${33 + m}`).join(',') }],
  ] as const) {
    it(`${name}: no flow route of any pair crosses a failed link`, () => {
      const m = buildMachine(resolveMachine(machineSpec(name), nodes, { ...set, 'fabric.fidelity': 'flow' }));
      const g = m.graph;
      const down = downAt(parseFaults({ links: set['faults.links'], routers: 'none', lanes: 'none' }, g, g.classNames.map(() => 3), 0), g, 0).ports;
      expect(m.flows).not.toBeNull();
      let hops = 0;
      const bad: string[] = [];
      for (let s = 0; s < nodes; s++) {
        for (let d = 0; d < nodes; d++) {
          if (s === d) continue;
          for (const cls of [0, 1]) {
            for (const rt of m.flows!.routesOf(s, d, cls)) {
              for (const h of rt.hops) {
                for (let c = h.channel; c < h.channel + h.count; c++) {
                  hops++;
                  if (c < down.length && down[c]) bad.push(`${s} -> ${d}: channel ${c}`);
                }
              }
            }
          }
        }
      }
      expect(bad.slice(0, 5)).toEqual([]);
      expect(hops).toBeGreaterThan(nodes * nodes);
    });
  }
});
