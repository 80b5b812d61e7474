/** The fabric's metrics at the flow level: what flows carry counts in the links' utilisation, and the flows are counted. */
import { describe, expect, it } from 'vitest';
import { simulate } from '../runtime/simulate.ts';
import type { FabricMetrics } from '../fabric/metrics.ts';

/** Every rank sends 256 KiB to the rank four away on a 1 x 8 xe6 line (rendezvous: BTE gets, flows at the flow level). */
async function shift(fidelity: 'packet' | 'flow'): Promise<FabricMetrics> {
  const r = await simulate({
    machine: 'xe6',
    nodes: 8,
    set: { 'fabric.fidelity': fidelity },
    metrics: true,
    program: async ({ mpi }) => {
      const n = 1 << 15;
      const out = new Float64Array(n).fill(mpi.rank);
      const into = new Float64Array(n);
      await mpi.sendrecv(out, (mpi.rank + 4) % mpi.size, 0, into, (mpi.rank + 4) % mpi.size, 0);
      if (into[n - 1] !== (mpi.rank + 4) % mpi.size) throw new Error(`rank ${mpi.rank}: wrong data`);
    },
  });
  return r.metrics!.fabric;
}

describe('flow-level metrics', () => {
  it('count the flows and put their link time in the utilisation, near what packets give', async () => {
    const packet = await shift('packet');
    const flow = await shift('flow');
    expect(packet.flows).toBeNull();
    // eight 256 KiB rendezvous pulls: eight flows of 256 KiB
    expect(flow.flows).not.toBeNull();
    expect(flow.flows!.transfers).toBe(8);
    expect(flow.flows!.bytes).toBe(8 * 8 * (1 << 15));
    expect(flow.flows!.solves).toBeGreaterThan(0);
    // the bulk moved as flows, so far fewer packets, yet the links spent as long sending: the
    // same bytes over the same routes (link time summed over links, utilisation x links x run)
    expect(flow.packets).toBeLessThan(packet.packets / 10);
    const linkTimePs = (f: FabricMetrics): number => f.linkClasses.reduce((s, c) => s + c.utilisation * c.links * f.durationPs, 0);
    expect(linkTimePs(packet)).toBeGreaterThan(0);
    expect(Math.abs(linkTimePs(flow) / linkTimePs(packet) - 1)).toBeLessThan(0.02);
  });
});
