/**
 * A link that fails under packets (faults.links with a time): a packet on the link when it fails,
 * or granted it afterwards, is sent again over a parallel link still up; with none left it is
 * lost, and its transaction fails at the initiating NIC by the NIC timeout (MPI_ERR_OTHER under
 * ERRORS_RETURN); transfers started after the failure take the routes left with their data.
 */
import { describe, expect, it } from 'vitest';
import { buildMachine, machineSpec, resolveMachine } from '../fabric/machine.ts';
import type { MpiError } from '../runtime/mpi/mpi.ts';
import { simulate } from '../runtime/simulate.ts';

/** The NIC timeout of these runs (nic.timeout) and when the links fail, in us. */
const TIMEOUT_US = 100;
const FAIL_US = 30;

/** Every link from router 0 of a 16-node xe6 to router 1 (port numbers read off the graph). */
function links01(): string[] {
  const g = buildMachine(resolveMachine(machineSpec('xe6'), 16, {})).graph;
  const out: string[] = [];
  for (let q = 0; q < g.radix; q++) if (g.peerRouter[q] === 1) out.push(`0:${q}`);
  return out;
}

/** Rank 0 (router 0) sends 4 MiB to rank 2 (router 1), then 64 KiB after the failure; what each send gave. */
async function run(faultLinks: string) {
  return simulate({
    machine: 'xe6',
    nodes: 16,
    metrics: true,
    set: { 'faults.links': faultLinks, 'nic.timeout': `${TIMEOUT_US}us` },
    program: async (ctx) => {
      const mpi = ctx.mpi;
      mpi.setErrhandler(mpi.ERRORS_RETURN);
      const out: { ok: boolean; message: string; us: number }[] = [];
      const big = 1 << 20;
      for (const n of [big, 16_384]) {
        if (ctx.rank === 0) {
          try {
            await mpi.send(new Int32Array(n).fill(n), 2, 0);
            out.push({ ok: true, message: '', us: ctx.now() });
          } catch (e) {
            out.push({ ok: false, message: `${(e as MpiError).errorClass} ${(e as Error).message}`, us: ctx.now() });
          }
        } else if (ctx.rank === 2) {
          const buf = new Int32Array(n);
          try {
            await mpi.recv(buf, 0, 0);
            out.push({ ok: buf.every((v) => v === n), message: '', us: ctx.now() });
          } catch (e) {
            out.push({ ok: false, message: `${(e as MpiError).errorClass} ${(e as Error).message}`, us: ctx.now() });
          }
        }
        // the second transfer starts after the failure
        if (ctx.now() < FAIL_US + 1) await ctx.compute((FAIL_US + 1 - ctx.now()) * 1e6);
      }
      return out;
    },
  });
}

describe('a link failing under packets', () => {
  it('xe6: every link between routers 0 and 1 fails 30 us into a 4 MiB rendezvous: its packets on them are lost, the transfer fails by the NIC timeout; the next one detours with its data', async () => {
    const all = links01();
    const r = await run(all.map((l) => `${l}@${FAIL_US}us`).join(','));
    const recv = r.rankResults[2]!;
    // the rendezvous get (the receiver's BTE transaction) lost packets on the failing links
    expect(recv[0]!.ok).toBe(false);
    expect(recv[0]!.message).toMatch(/^MPI_ERR_OTHER .*failed with NIC status Timeout/);
    expect(recv[0]!.us).toBeGreaterThanOrEqual(FAIL_US + TIMEOUT_US);
    // the next transfer, after the failure, goes round them with its data intact
    expect(recv[1]!.ok).toBe(true);
    expect(r.rankResults[0]![1]!.ok).toBe(true);
    // --metrics counts them: lost, none sent again (no link of the group was left)
    const f = r.metrics!.fabric.faults!;
    expect(f.lost).toBeGreaterThan(0);
    expect(f.resent).toBe(0);
  });

  it('xe6: every link between routers 0 and 1 but one fails 30 us into it: the packets on them go again over the link left, and both transfers arrive intact, the first later', async () => {
    const all = links01();
    expect(all.length).toBeGreaterThan(1);
    const clean = (await run('none')).rankResults[2]!;
    const r = await run(all.slice(1).map((l) => `${l}@${FAIL_US}us`).join(','));
    const recv = r.rankResults[2]!;
    // --metrics counts them: sent again over the link left, none lost
    expect(r.metrics!.fabric.faults!.resent).toBeGreaterThan(0);
    expect(r.metrics!.fabric.faults!.lost).toBe(0);
    expect(recv.map((x) => x.message)).toEqual(['', '']);
    expect(recv.map((x) => x.ok)).toEqual([true, true]);
    // one link instead of several for the rest of the 4 MiB
    expect(recv[0]!.us).toBeGreaterThan(1.5 * clean[0]!.us);
  });

  it('xe6: without the failure both arrive intact, the 4 MiB still under way at 30 us (the failure above hit it in flight)', async () => {
    const r = await run('none');
    const recv = r.rankResults[2]!;
    expect(recv.map((x) => x.ok)).toEqual([true, true]);
    expect(recv[0]!.us).toBeGreaterThan(2 * FAIL_US);
  });
});
