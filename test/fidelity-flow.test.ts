/**
 * The flow fidelity level (fabric.fidelity=flow): block transfers of at least fabric.flowBytes
 * are flows sharing link, NIC and host-interface bandwidth max-min fairly over the machine's own
 * routes (a pool of flows over the routes an adaptive routing spreads a transfer over); smaller
 * bulk transfers travel as at the coarse level, small messages as packets. Checked against the
 * packet level (the reference) with real data.
 */
import { describe, expect, it } from 'vitest';
import { findApp } from '../apps/index.ts';
import { resolveParams, type Row } from '../apps/app.ts';
import { simulate } from '../runtime/simulate.ts';
import { buildMachine, machineSpec, resolveMachine } from '../fabric/machine.ts';

async function run(app: string, machine: string, nodes: number, params: Record<string, string>, set: Record<string, string> = {}) {
  const a = findApp(app);
  const p = resolveParams(a, params);
  const r = await simulate({ machine, nodes, set, program: (ctx) => a.main(ctx, p) });
  return { rows: (r.result as { rows: Row[] }).rows, packets: r.packets, simUs: r.simulatedTimeUs };
}

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

const FLOW = { 'fabric.fidelity': 'flow' };

describe('flow fidelity against packet', () => {
  // ping-pong from 64 KiB (flows) to 1 MiB between nodes one or more hops apart
  const cases: [string, number, number, number][] = [
    ['xe6', 4, 2, 0.02],
    ['xc30', 8, 4, 0.05],
    ['xt4', 8, 5, 0.04],
    ['sc5832', 12, 7, 0.01],
    ['bw', 64, 40, 0.01],
  ];
  for (const [machine, nodes, peer, tol] of cases) {
    it(`${machine}: ping-pong 64 KiB to 1 MiB within ${tol * 100} % of the packet level, with a tenth of the packets`, async () => {
      const params = { peer: String(peer), minBytes: '64KiB', maxBytes: '1MiB', iterations: '2' };
      const packet = await run('pingpong', machine, nodes, params);
      const flow = await run('pingpong', machine, nodes, params, FLOW);
      expect(worst(packet.rows, flow.rows, 'latencyUs')).toBeLessThan(tol);
      expect(flow.packets).toBeLessThan(packet.packets / 10);
    });
  }

  it('xe6: a 256 KiB allreduce on 16 ranks is within 3 % (flows share the torus links, both ways round a ring), and its data checks pass', async () => {
    const params = { minBytes: '64KiB', maxBytes: '256KiB', iterations: '2' };
    const packet = await run('allreduce', 'xe6', 16, params);
    const flow = await run('allreduce', 'xe6', 16, params, FLOW);
    // 1.6 % at 64 KiB; with 4 route samples instead of 8 a flow to a node half a ring away went
    // one way round 3 times in 4 (+5.3 % at 256 KiB, once a BTE channel's get rate bounded each
    // rendezvous pull, xe6 bte.getBandwidth)
    expect(worst(packet.rows, flow.rows, 'latencyUs')).toBeLessThan(0.03);
  });

  it('xc30: a transfer spreads over non-minimal routes as adaptive routing does (one green link alone would halve the bandwidth)', async () => {
    const params = { peer: '4', minBytes: '1MiB', maxBytes: '1MiB', iterations: '2' };
    const flow = await run('pingpong', 'xc30', 8, params, FLOW);
    const minimal = await run('pingpong', 'xc30', 8, params, { ...FLOW, 'routing.algorithm': 'minimal' });
    expect(flow.rows[0]!.bandwidthGBs as number).toBeGreaterThan(1.5 * (minimal.rows[0]!.bandwidthGBs as number));
  });

  it('messages below fabric.coarseBytes are untouched: eager ping-pong is identical', async () => {
    const params = { minBytes: '8', maxBytes: '2KiB', iterations: '2' };
    const packet = await run('pingpong', 'xe6', 2, params);
    const flow = await run('pingpong', 'xe6', 2, params, FLOW);
    expect(flow.rows).toEqual(packet.rows);
  });

  it('symmetric block transfers are bound by the host interface carrying both the writes and the read requests, as packets are (seed 004 §V.A)', () => {
    // seed 004 §V.A: "a 12-byte read request followed by a 76-byte posted write for every 64-byte
    // data packet"; symmetric BTE traffic peaks at 7 GB/s each way. With a NIC pipeline fast enough
    // (3 cycles a packet) that the host interface binds, nodes 0 and 2 each run 4 transfers of
    // 512 KiB to the other at once: the flows must charge the data sender's read requests too
    // (without them: 8.0 GB/s each way, 17 % over the packets' 6.8)
    const bytes = 512 * 1024;
    const gbs = (fidelity: string, op: 'get' | 'put'): number => {
      const m = buildMachine(resolveMachine(machineSpec('xe6'), 4, { 'fabric.fidelity': fidelity, 'nic.packetCycles': '3', 'bte.getBandwidth': 'nic' }));
      let end = 0;
      for (const [a, b] of [[0, 2], [2, 0]] as const) {
        const h = m.nics[b]!.register(new Uint8Array(4 * bytes));
        for (let k = 0; k < 4; k++) m.nics[a]!.post({ op, mode: 'bte', local: new Uint8Array(bytes), remoteNode: b, remoteHandle: h, remoteOffset: k * bytes, onComplete: () => (end = m.engine.now) });
      }
      m.engine.drain();
      return (4 * bytes) / (end / 1000);
    };
    for (const op of ['get', 'put'] as const) {
      const packet = gbs('packet', op);
      const flow = gbs('flow', op);
      expect(packet).toBeLessThan(7.2);
      expect(Math.abs(flow - packet) / packet).toBeLessThan(0.03);
    }
  });

  it('xe6: ranks exchanging 256 KiB both ways at once (two nodes, and four pairs over one ring of 8) are within 3 % of packets', async () => {
    // each rank sends to and receives from the rank half the job away, at once (rendezvous pulls
    // both ways through each NIC); the flow level was 29 % fast on two nodes and 31 % slow on 8
    // before a node's get requests had a channel of their own and flows charged the data
    // sender's read requests
    const swapUs = async (nodes: number, set: Record<string, string>): Promise<number> => {
      const r = await simulate({
        machine: 'xe6',
        nodes,
        set,
        program: async (ctx) => {
          const { mpi } = ctx;
          const n = 32768;
          const peer = (mpi.rank + mpi.size / 2) % mpi.size;
          const got = new Float64Array(n);
          await mpi.barrier();
          const t0 = ctx.now();
          await mpi.sendrecv(new Float64Array(n).fill(mpi.rank + 1), peer, 0, got, peer, 0);
          const t = ctx.now() - t0;
          expect(got.every((x) => x === peer + 1)).toBe(true);
          const most = new Float64Array(1);
          await mpi.allreduce(Float64Array.of(t), most, mpi.MAX);
          return most[0]!;
        },
      });
      return r.result as number;
    };
    for (const nodes of [2, 8]) {
      const packet = await swapUs(nodes, {});
      const flow = await swapUs(nodes, FLOW);
      expect(Math.abs(flow - packet) / packet, `${nodes} nodes: flow ${flow} us, packet ${packet} us`).toBeLessThan(0.03);
    }
  });

  it('puts and gets carried as flows move real data (SHMEM put and get of 128 KiB, checked)', async () => {
    const r = await simulate({
      machine: 'xe6',
      nodes: 2,
      set: FLOW,
      program: async ({ shmem }) => {
        const n = 16384;
        const dest = await shmem.malloc(n * 8);
        const src = new Float64Array(n).map((_, i) => i * 3 + shmem.myPe());
        const peer = 1 - shmem.myPe();
        await shmem.putmem(dest, src, n * 8, peer);
        await shmem.quiet();
        await shmem.barrierAll();
        // the peer put its own values here; fetch them back from the peer: this PE's values
        const back = new Float64Array(n);
        await shmem.getmem(back, dest, n * 8, peer);
        for (let i = 0; i < n; i += 997) if (back[i] !== i * 3 + shmem.myPe()) return `element ${i}: ${back[i]}`;
        return 'ok';
      },
    });
    expect(r.rankResults).toEqual(['ok', 'ok']);
  });
});
