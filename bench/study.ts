/**
 * The studies users run, as `npm run bench` measures them: each in a process of its own, so that
 * its wall time and peak memory (the process's largest resident set) are its alone.
 *
 * - `latency`: the latency-bound study, `iterations` 8-byte `MPI_Allreduce` calls on every rank
 *   (software: xe6 has no collective engine), reported as MPI messages per second through the
 *   whole stack;
 * - `bandwidth`: the bandwidth-bound study, `iterations` 8-byte and then `iterations` 1 MiB
 *   `MPI_Allreduce` calls, at a fidelity level;
 * - `app`: one app run (the scale runs: allreduce and halo3d on the largest machines);
 * - `build`: the machine alone (routers, links, NICs, routing), for memory per router.
 */
import { performance } from 'node:perf_hooks';
import { resolveParams, type Row } from '../apps/app.ts';
import { findApp } from '../apps/index.ts';
import { buildMachine, machineSpec, resolveMachine } from '../fabric/machine.ts';
import type { RankContext } from '../runtime/rank.ts';
import { simulate } from '../runtime/simulate.ts';

/** What one study runs. */
export type StudySpec =
  | { readonly kind: 'latency'; readonly machine: string; readonly nodes: number; readonly iterations: number }
  | { readonly kind: 'bandwidth'; readonly machine: string; readonly nodes: number; readonly iterations: number; readonly bigBytes: number; readonly fidelity: string; readonly set?: Readonly<Record<string, string>> }
  | { readonly kind: 'app'; readonly app: string; readonly machine: string; readonly nodes: number; readonly params: Readonly<Record<string, string>>; readonly set?: Readonly<Record<string, string>>; readonly skeleton?: boolean }
  | { readonly kind: 'build'; readonly machine: string; readonly nodes: number };

/** What a study measured. */
export interface StudyResult {
  readonly seconds: number;
  /** Largest resident set of the study's process (MB). */
  readonly peakMB: number;
  readonly nodes: number;
  /** Routers of the machine, `build` only. */
  readonly routers?: number;
  readonly simulatedUs?: number;
  readonly events?: number;
  readonly packets?: number;
  readonly packetHops?: number;
  readonly mpiMessages?: number;
  /** Per size of the bandwidth study: the mean time per call (us), rank 0's. */
  readonly perCallUs?: Readonly<Record<string, number>>;
  readonly row?: Row;
  /** Heap in use once the machine is built and collected (MB), `build` only. */
  readonly heapMB?: number;
}

/** `iterations` allreduce calls of each size (bytes, doubles) on every rank; rank 0 returns the mean time per call of each size. */
async function allreduces(ctx: RankContext, sizes: readonly number[], iterations: number): Promise<Record<string, number>> {
  const { mpi } = ctx;
  const out: Record<string, number> = {};
  for (const bytes of sizes) {
    const n = Math.max(1, bytes >> 3);
    const send = ctx.alloc(Float64Array, n);
    const recv = ctx.alloc(Float64Array, n);
    await mpi.barrier();
    const t0 = ctx.now();
    for (let i = 0; i < iterations; i++) await mpi.allreduce(send, recv, mpi.SUM);
    out[String(bytes)] = (ctx.now() - t0) / iterations;
  }
  return out;
}

/** Runs one study in this process. */
export async function runStudy(s: StudySpec): Promise<Omit<StudyResult, 'peakMB'>> {
  const t0 = performance.now();
  if (s.kind === 'build') {
    const m = buildMachine(resolveMachine(machineSpec(s.machine), s.nodes, {}), 1);
    const g = (globalThis as { gc?: () => void }).gc;
    g?.();
    const heapMB = process.memoryUsage().heapUsed / 2 ** 20;
    return { seconds: (performance.now() - t0) / 1000, routers: m.graph.routers, nodes: m.graph.nodes, heapMB };
  }
  const common = { machine: s.machine, nodes: s.nodes };
  let perCallUs: Record<string, number> | undefined;
  let row: Row | undefined;
  let r;
  if (s.kind === 'app') {
    const app = findApp(s.app);
    const params = resolveParams(app, s.params);
    r = await simulate({ ...common, ...(s.set ? { set: s.set } : {}), skeleton: s.skeleton === true, program: (ctx) => app.main(ctx, params) });
    const rows = r.result?.rows ?? [];
    row = rows[rows.length - 1];
  } else {
    const sizes = s.kind === 'latency' ? [8] : [8, s.bigBytes];
    const set: Record<string, string> = s.kind === 'bandwidth' ? { 'fabric.fidelity': s.fidelity, ...s.set } : {};
    const run = await simulate({ ...common, set, skeleton: true, program: (ctx) => allreduces(ctx, sizes, s.iterations) });
    perCallUs = run.result;
    r = run;
  }
  const seconds = (performance.now() - t0) / 1000;
  return {
    seconds,
    nodes: s.nodes,
    simulatedUs: r.simulatedTimeUs,
    events: r.events,
    packets: r.packets,
    packetHops: r.packetHops,
    mpiMessages: r.mpiMessages,
    ...(perCallUs ? { perCallUs } : {}),
    ...(row ? { row } : {}),
  };
}
