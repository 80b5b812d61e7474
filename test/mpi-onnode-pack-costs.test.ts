/**
 * Two parts of MPI's software cost that the public measurements of xc30 separate: the CPU cost
 * of the on-node path (`mpi.shmOverhead`, in place of the call overheads for two ranks of one
 * node) and the per-block cost of Bruck's alltoall, which MPICH packs and unpacks through an
 * indexed datatype at every step (`mpi.packBlock`). And the two ways the collective benchmarks
 * time their calls (`timing=loop|sync`), with IMB's average over the ranks beside the largest.
 */
import { describe, expect, it } from 'vitest';
import { appRows, num } from '../cli/validate/measure.ts';

/** 8-byte one-way latency (us) between ranks 0 and 1 on xc30. */
async function latency(nodes: number, ppn: number, set: Record<string, string>): Promise<number> {
  const rows = await appRows({ app: 'pingpong', machine: 'xc30', nodes, ppn, set, params: { minBytes: '8', maxBytes: '8', iterations: '4', peer: '1' } });
  return num(rows[0], 'latencyUs');
}

describe('on-node and packing costs', () => {
  it('mpi.shmOverhead is what a send and a receive of two ranks of one node cost; it leaves the network path alone', async () => {
    const a = await latency(1, 2, { 'mpi.shmOverhead': '100ns' });
    const b = await latency(1, 2, { 'mpi.shmOverhead': '600ns' });
    // one send and one receive per one-way trip: 2 x 500 ns more
    expect(b - a).toBeCloseTo(1, 2);
    const far = await latency(2, 1, { 'mpi.shmOverhead': '100ns' });
    expect(await latency(2, 1, { 'mpi.shmOverhead': '600ns' })).toBe(far);
    await expect(latency(1, 2, { 'mpi.shmOverhead': '-1ns' })).rejects.toThrow(/mpi\.shmOverhead/);
  });

  it("Bruck's alltoall pays mpi.packBlock for every block it packs and unpacks, and for each block of its last reorder", async () => {
    // 8 ranks: steps 1, 2 and 4 each move the 4 blocks whose index has that bit: 12 blocks, packed
    // and unpacked (24); then MPICH copies the 8 blocks back one MPIR_Localcopy each
    // (alltoall_intra_brucks.c, the loop after the last rotation): 32 blocks a rank
    const time = async (packBlock: string): Promise<number> => {
      const rows = await appRows({ app: 'alltoall', machine: 'xc30', nodes: 8, set: { 'mpi.packBlock': packBlock }, params: { minBytes: '8', maxBytes: '8', iterations: '2', algorithm: 'bruck', timing: 'sync' } });
      return num(rows[0], 'avgUs');
    };
    const d = (await time('1001ns')) - (await time('1ns'));
    expect(d).toBeGreaterThan(32 * 0.99);
    expect(d).toBeLessThan(32 * 1.05);
  });

  it('timing=sync times each call alone (IMB, OSU); avgUs is the mean over the ranks, timeUs the largest', async () => {
    const run = async (timing: string): Promise<{ max: number; avg: number }> => {
      const rows = await appRows({ app: 'alltoall', machine: 'xc30', nodes: 4, ppn: 6, params: { minBytes: '8', maxBytes: '8', iterations: '4', timing } });
      return { max: num(rows[0], 'timeUs'), avg: num(rows[0], 'avgUs') };
    };
    const sync = await run('sync');
    const loop = await run('loop');
    // Bruck's ranks on 4 nodes of 6 finish at different times: the mean is below the largest
    for (const r of [sync, loop]) {
      expect(r.avg).toBeGreaterThan(0);
      expect(r.avg).toBeLessThan(r.max);
    }
    // back to back, a rank that finished early starts its next call early and waits inside it
    expect(sync.max).not.toBe(loop.max);
  });
});
