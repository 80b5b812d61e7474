/**
 * The coarse fidelity level (fabric.fidelity=coarse): bulk transfers travel as packets of
 * fabric.coarseBytes through the same routers, links, credits and arbitration, every hardware
 * packet inside still paying its header and link-layer overhead. Checked against the packet
 * level (the reference) on every machine, with real data.
 */
import { describe, expect, it } from 'vitest';
import { findApp } from '../apps/index.ts';
import { resolveParams, type Row } from '../apps/app.ts';
import { machineSpec, resolveMachine } from '../fabric/machine.ts';
import { simulate } from '../runtime/simulate.ts';

async function run(app: string, machine: string, nodes: number, params: Record<string, string>, set: Record<string, string> = {}) {
  const a = findApp(app);
  const p = resolveParams(a, params);
  const r = await simulate({ machine, nodes, set, program: (ctx) => a.main(ctx, p) });
  return { rows: (r.result as { rows: Row[] }).rows, packets: r.packets, simUs: r.simulatedTimeUs };
}

/** Largest relative difference of `key` between two row lists, row by row. */
function worst(a: readonly Row[], b: readonly Row[], key: string): number {
  expect(b.length).toBe(a.length);
  let w = 0;
  a.forEach((r, i) => {
    const x = r[key] as number;
    const y = b[i]![key] as number;
    expect(x).toBeGreaterThan(0);
    w = Math.max(w, Math.abs(y - x) / x);
  });
  return w;
}

describe('coarse fidelity against packet', () => {
  // ping-pong latency from 16 KiB (rendezvous everywhere) to 1 MiB; peers one or more hops apart
  const cases: [string, number, number, number][] = [
    ['xe6', 4, 2, 0.03],
    // Aries: a coarse packet is larger than a router buffer, which skews adaptive routing's
    // load reading; 4.6 % at 1 MiB, 10.4 % at 64 KiB (the README's accuracy table)
    ['xc30', 8, 4, 0.11],
    ['xt4', 8, 5, 0.04],
    ['sc5832', 12, 7, 0.02],
    ['bw', 64, 40, 0.04],
  ];
  for (const [machine, nodes, peer, tol] of cases) {
    it(`${machine}: ping-pong 16 KiB to 1 MiB within ${tol * 100} % of the packet level, with a quarter of the packets or fewer`, async () => {
      const params = { peer: String(peer), minBytes: '16KiB', maxBytes: '1MiB', iterations: '2' };
      const packet = await run('pingpong', machine, nodes, params);
      const coarse = await run('pingpong', machine, nodes, params, { 'fabric.fidelity': 'coarse' });
      expect(worst(packet.rows, coarse.rows, 'latencyUs')).toBeLessThan(tol);
      expect(coarse.packets).toBeLessThan(packet.packets / 4);
    });
  }

  it('eager short messages of 4 and 8 KiB are coarse too, unless an acknowledgement window paces their packets (sc5832)', async () => {
    const params = { peer: '2', minBytes: '4KiB', maxBytes: '8KiB', iterations: '2' };
    const packet = await run('pingpong', 'xe6', 4, params);
    const coarse = await run('pingpong', 'xe6', 4, params, { 'fabric.fidelity': 'coarse' });
    expect(worst(packet.rows, coarse.rows, 'latencyUs')).toBeLessThan(0.03);
    expect(coarse.packets).toBeLessThan(packet.packets / 3);
    // sc5832 sends a short message's packets one round trip apart (nic.smsgWindow=1): kept as
    // packets (its eager limit raised so that 4 and 8 KiB are short messages)
    const eager = { 'mpi.eagerMaxBytes': '8KiB' };
    const wPacket = await run('pingpong', 'sc5832', 4, params, eager);
    const wCoarse = await run('pingpong', 'sc5832', 4, params, { ...eager, 'fabric.fidelity': 'coarse' });
    expect(wCoarse.packets).toBe(wPacket.packets);
    expect(wCoarse.rows).toEqual(wPacket.rows);
  });

  it('xe6: a 256 KiB allreduce on 16 ranks (Rabenseifner, rendezvous) is within 6 %, and its data checks pass', async () => {
    const params = { minBytes: '64KiB', maxBytes: '256KiB', iterations: '2' };
    const packet = await run('allreduce', 'xe6', 16, params);
    const coarse = await run('allreduce', 'xe6', 16, params, { 'fabric.fidelity': 'coarse' });
    expect(worst(packet.rows, coarse.rows, 'latencyUs')).toBeLessThan(0.06);
  });

  it('a smaller coarse packet is closer to the packet level (xc30 ping-pong, 1 KiB coarse packets)', async () => {
    const params = { peer: '4', minBytes: '16KiB', maxBytes: '256KiB', iterations: '2' };
    const packet = await run('pingpong', 'xc30', 8, params);
    const fine = await run('pingpong', 'xc30', 8, params, { 'fabric.fidelity': 'coarse', 'fabric.coarseBytes': '1KiB' });
    expect(worst(packet.rows, fine.rows, 'latencyUs')).toBeLessThan(0.01);
  });

  it('messages below fabric.coarseBytes are untouched: eager ping-pong is identical', async () => {
    const params = { minBytes: '8', maxBytes: '2KiB', iterations: '2' };
    const packet = await run('pingpong', 'xe6', 2, params);
    const coarse = await run('pingpong', 'xe6', 2, params, { 'fabric.fidelity': 'coarse' });
    expect(coarse.rows).toEqual(packet.rows);
    expect(coarse.packets).toBe(packet.packets);
  });

  it('refuses a coarse packet that is not a whole number of hardware packets, and an unknown level', () => {
    expect(() => resolveMachine(machineSpec('xe6'), 4, { 'fabric.coarseBytes': '100B' })).toThrow(/fabric.coarseBytes: 100 bytes is not a whole number of 64-byte packets/);
    expect(() => resolveMachine(machineSpec('xe6'), 4, { 'fabric.fidelity': 'exact' })).toThrow(/fabric.fidelity/);
  });
});
