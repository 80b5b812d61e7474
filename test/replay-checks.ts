/** What the replay tests of every trace format share: the ring of ring.c written as a phit program, and the check of a replay's calls and bytes. */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
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

/** The formats whose traces CI builds afresh with the real tools (DUMPI's library comes from GitHub, which CI cannot reach). */
export type FreshFormat = 'simgrid' | 'otf2';

/**
 * The trace folders a format's tests replay: the committed traces, and a set that
 * scripts/make-traces.sh built in this run with the real tools, when `PHIT_FRESH_TRACES` names
 * its output folder (CI does). `PHIT_REQUIRE_FRESH_TRACES=1` makes a missing set a failure
 * rather than a skip.
 */
export function traceDirs(format: FreshFormat): { label: string; dir: string }[] {
  const sets = [{ label: 'committed', dir: `test/fixtures/traces/${format}` }];
  const fresh = freshTraceDir(format);
  if (fresh) sets.push({ label: 'built in this run', dir: fresh });
  return sets;
}

/** The folder of the freshly built traces of `format`, or null when this run built none. */
export function freshTraceDir(format: FreshFormat): string | null {
  const root = process.env.PHIT_FRESH_TRACES;
  const dir = root ? join(root, format) : null;
  if (dir && existsSync(dir)) return dir;
  if (process.env.PHIT_REQUIRE_FRESH_TRACES === '1') throw new Error(`PHIT_REQUIRE_FRESH_TRACES=1 but ${dir ?? 'PHIT_FRESH_TRACES'} holds no ${format} traces`);
  return null;
}

/** Bytes of the SMPI datatypes the programs use (0 double, 1 int, 5 float, 6 byte). */
const SMPI_BYTES: Record<string, number> = { '0': 8, '1': 4, '5': 4, '6': 1 };
/** MPI names of SimGrid's traced actions. */
const SMPI_NAME: Record<string, string> = {
  send: 'MPI_Send', isend: 'MPI_Isend', ssend: 'MPI_Ssend', recv: 'MPI_Recv', irecv: 'MPI_Irecv', wait: 'MPI_Wait', waitall: 'MPI_Waitall', test: 'MPI_Test',
  sendrecv: 'MPI_Sendrecv', barrier: 'MPI_Barrier', bcast: 'MPI_Bcast', reduce: 'MPI_Reduce', allreduce: 'MPI_Allreduce', scan: 'MPI_Scan',
  alltoall: 'MPI_Alltoall', alltoallv: 'MPI_Alltoallv', allgather: 'MPI_Allgather', allgatherv: 'MPI_Allgatherv', gather: 'MPI_Gather',
  gatherv: 'MPI_Gatherv', scatter: 'MPI_Scatter', scatterv: 'MPI_Scatterv', reducescatter: 'MPI_Reduce_scatter',
};

/** Counts the actions of a SimGrid trace straight from its text: calls by MPI name, and the bytes of sends and allreduces. */
export function tallySimgrid(list: string): { calls: Record<string, number>; bytes: Record<string, number> } {
  const calls: Record<string, number> = {};
  const bytes: Record<string, number> = {};
  for (const f of readFileSync(list, 'utf8').split('\n').filter((l) => l.trim() !== '')) {
    for (const line of readFileSync(join(dirname(list), f), 'utf8').split('\n')) {
      const t = line.trim().split(/\s+/);
      const name = SMPI_NAME[(t[1] ?? '').toLowerCase()];
      if (!name) continue;
      calls[name] = (calls[name] ?? 0) + 1;
      if (name === 'MPI_Send' || name === 'MPI_Isend' || name === 'MPI_Ssend') bytes[name] = (bytes[name] ?? 0) + Number(t[4]) * SMPI_BYTES[t[5]!]!;
      if (name === 'MPI_Allreduce') bytes[name] = (bytes[name] ?? 0) + Number(t[2]) * SMPI_BYTES[t[4]!]!;
    }
  }
  return { calls, bytes };
}

/** Regions entered in an OTF2 trace, by name, as otf2-print counted them (the trace's `.enters` file, written by scripts/make-traces.sh). */
export function otf2Enters(dir: string, prog: string): Record<string, number> {
  const out: Record<string, number> = {};
  for (const line of readFileSync(`${dir}/${prog}/${prog}.enters`, 'utf8').split('\n')) {
    const [name, n] = line.trim().split(' ');
    if (name && n) out[name] = Number(n);
  }
  return out;
}
