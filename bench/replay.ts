/**
 * Replay speed: a synthetic SimGrid time-independent trace of a 2-D halo exchange (each rank
 * posts four irecvs and four isends to its grid neighbours and waits for all, an 8-byte allreduce
 * every tenth iteration), written to a temporary folder, replayed on xe6 as `phit replay` does
 * it. Reports the traced MPI calls replayed per minute of wall time (issue 25: at least 1 M on
 * xe6 at 256 ranks).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { openTrace } from '../replay/open.ts';
import { replayProgram, type RankReplay } from '../replay/replay.ts';
import { simulate } from '../runtime/simulate.ts';

/** Options of the replay benchmark. */
export interface ReplayBenchOptions {
  /** Ranks: a square number (a side x side grid of ranks). */
  readonly ranks: number;
  readonly iterations: number;
  /** Bytes of one face. */
  readonly faceBytes: number;
  readonly machine: string;
  /** Machine parameters (`{'fabric.fidelity': 'flow'}`). */
  readonly set?: Readonly<Record<string, string>>;
}

/** Result of the replay benchmark. */
export interface ReplayBenchResult {
  readonly ranks: number;
  /** MPI calls the replay issued (the trace's calls less init and finalize). */
  readonly calls: number;
  readonly seconds: number;
  /** CPU time of this process (user + system) during the replay: on a shared host, the wall time overstates. */
  readonly cpuSeconds: number;
  readonly simulatedUs: number;
  readonly callsPerMinute: number;
  readonly callsPerCpuMinute: number;
}

/** Writes the halo trace: a list file naming one file per rank. Returns the list file. */
export function writeHaloTrace(dir: string, o: ReplayBenchOptions): string {
  const side = Math.round(Math.sqrt(o.ranks));
  if (side * side !== o.ranks) throw new RangeError(`ranks must be a square number, got ${o.ranks}`);
  const names: string[] = [];
  for (let r = 0; r < o.ranks; r++) {
    const x = r % side;
    const y = Math.floor(r / side);
    const nb = [y * side + ((x + side - 1) % side), y * side + ((x + 1) % side), ((y + side - 1) % side) * side + x, ((y + 1) % side) * side + x];
    const lines: string[] = [`${r} init`];
    for (let it = 0; it < o.iterations; it++) {
      for (let d = 0; d < 4; d++) lines.push(`${r} irecv ${nb[d]} ${d ^ 1} ${o.faceBytes} 2`);
      for (let d = 0; d < 4; d++) lines.push(`${r} isend ${nb[d]} ${d} ${o.faceBytes} 2`);
      lines.push(`${r} waitall`);
      lines.push(`${r} compute 100000`);
      if (it % 10 === 9) lines.push(`${r} allreduce 1 1 0`);
    }
    lines.push(`${r} finalize`);
    const name = `rank-${r}.txt`;
    writeFileSync(join(dir, name), `${lines.join('\n')}\n`);
    names.push(name);
  }
  const list = join(dir, 'halo.trace');
  writeFileSync(list, `${names.join('\n')}\n`);
  return list;
}

/** Writes the trace to a temporary folder, replays it, removes the folder. */
export async function benchReplay(o: ReplayBenchOptions): Promise<ReplayBenchResult> {
  const dir = mkdtempSync(join(tmpdir(), 'phit-bench-replay-'));
  try {
    const list = writeHaloTrace(dir, o);
    const source = openTrace(list);
    const t0 = performance.now();
    const c0 = process.cpuUsage();
    const r = await simulate({ machine: o.machine, nodes: o.ranks, skeleton: true, set: { ...o.set }, program: replayProgram(source) });
    const seconds = (performance.now() - t0) / 1e3;
    const cpu = process.cpuUsage(c0);
    const cpuSeconds = (cpu.user + cpu.system) / 1e6;
    const calls = (r.rankResults as RankReplay[]).reduce((a, x) => a + x.issued, 0);
    return { ranks: o.ranks, calls, seconds, cpuSeconds, simulatedUs: r.simulatedTimeUs, callsPerMinute: (calls / seconds) * 60, callsPerCpuMinute: (calls / cpuSeconds) * 60 };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
