import { describe, expect, it } from 'vitest';
import type { MpiError } from '../runtime/mpi/request.ts';
import { simulate } from '../runtime/simulate.ts';

const TIMEOUT_US = 20;
const DEATH_US = 100;
const N = 2 << 20;

/** Rank 1 receives 8 MiB from rank 0 (a rendezvous: rank 1's NIC gets it), and rank 0's node dies under the transfer. */
async function run(fidelity: string) {
  return simulate({
    machine: 'xe6',
    nodes: 2,
    set: { 'fabric.fidelity': fidelity, 'faults.nodes': `0@${DEATH_US}us`, 'nic.timeout': `${TIMEOUT_US}us` },
    program: async (ctx) => {
      const mpi = ctx.mpi;
      if (ctx.rank === 0) {
        await mpi.send(new Int32Array(N).fill(7), 1, 0);
        return null;
      }
      mpi.setErrhandler(mpi.ERRORS_RETURN);
      try {
        await mpi.recv(new Int32Array(N), 0, 0);
        return { cls: 'none', message: '', us: ctx.now() };
      } catch (e) {
        return { cls: (e as MpiError).errorClass, message: (e as Error).message, us: ctx.now() };
      }
    },
  });
}

describe('node failure at the flow level', () => {
  it('xe6: a block transfer carried as a flow whose data node dies under it fails by the NIC timeout, as the same transfer of packets does', async () => {
    const clean = await simulate({ machine: 'xe6', nodes: 2, set: { 'fabric.fidelity': 'flow' }, program: async (ctx) => {
      if (ctx.rank === 0) await ctx.mpi.send(new Int32Array(N), 1, 0);
      else await ctx.mpi.recv(new Int32Array(N), 0, 0);
      return ctx.now();
    } });
    // the transfer is still under way when the node dies
    expect(clean.rankResults[1]).toBeGreaterThan(2 * DEATH_US);
    for (const fidelity of ['packet', 'flow']) {
      const got = (await run(fidelity)).rankResults[1]!;
      expect(got.cls, fidelity).toBe('MPI_ERR_OTHER');
      expect(got.message, fidelity).toMatch(/Timeout|dead/);
      expect(got.us, fidelity).toBeGreaterThanOrEqual(DEATH_US + TIMEOUT_US);
    }
  });
});
