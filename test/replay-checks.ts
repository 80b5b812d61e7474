/** What the replay tests of every trace format share: the ring of ring.c written as a phit program, and the check of a replay's calls and bytes. */
import { expect } from 'vitest';
import type { RankReplay } from '../replay/replay.ts';
import type { Request } from '../runtime/mpi/mpi.ts';
import { simulate, type SimulateResult } from '../runtime/simulate.ts';

/** The flow level: the tests' traces move MiB messages. */
export const FLOW = { 'fabric.fidelity': 'flow' };

/** ring.c, line by line: 10 iterations of 8 B, 4 KiB and 1 MiB to the right neighbour on 16 xe6 ranks, then a barrier. */
export function writtenRing(): Promise<SimulateResult<void>> {
  return simulate({
    machine: 'xe6',
    nodes: 16,
    skeleton: true,
    set: FLOW,
    program: async (ctx) => {
      const { mpi } = ctx;
      const left = (ctx.rank + ctx.size - 1) % ctx.size;
      const right = (ctx.rank + 1) % ctx.size;
      const out = ctx.alloc(Uint8Array, 1 << 20);
      const inb = ctx.alloc(Uint8Array, 1 << 20);
      for (const bytes of [8, 4096, 1 << 20]) {
        for (let it = 0; it < 10; it++) {
          const reqs: Request[] = [mpi.irecv(inb.subarray(0, bytes), left, 1), mpi.isend(out.subarray(0, bytes), right, 1)];
          await mpi.waitAll(reqs);
        }
      }
      await mpi.barrier();
    },
  });
}

/**
 * The replay `r` issued exactly the calls `want` counts (the tool's own count), with the bytes
 * `bytes` names, and found no unsupported call. A wait on a request the replay already completed
 * (MPI_REQUEST_NULL, a test that succeeded) issues nothing; a request the trace left pending is
 * waited for at the end.
 */
export function expectTracedCalls(r: SimulateResult<unknown>, want: Record<string, number>, bytes: Readonly<Record<string, number>>): void {
  const ranks = r.rankResults as RankReplay[];
  const done = ranks.reduce((a, x) => a + x.doneRequests, 0);
  if (done > 0) want.MPI_Wait = want.MPI_Wait! - done;
  const leftover = ranks.filter((x) => x.leftPending > 0).length;
  if (leftover > 0) want.MPI_Waitall = (want.MPI_Waitall ?? 0) + leftover;
  const got = Object.fromEntries(r.metrics!.calls.map((c) => [c.name, c.calls]));
  expect(got).toEqual(want);
  for (const [name, b] of Object.entries(bytes)) expect(r.metrics!.calls.find((c) => c.name === name)!.bytes, name).toBe(b);
  expect(ranks.every((x) => Object.keys(x.unsupported).length === 0)).toBe(true);
}
