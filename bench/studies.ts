/**
 * The studies section of `npm run bench`: the latency-bound study (MPI messages per second
 * through the whole stack), the bandwidth-bound study at each fidelity level, and the scale runs
 * on the largest machines with memory per router and per rank. Each study runs in a process of
 * its own (`study-child.mjs`), one after another, so its wall time and peak memory are its own.
 */
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { StudyResult, StudySpec } from './study.ts';

const CHILD = fileURLToPath(new URL('./study-child.mjs', import.meta.url));
/** `x` rounded to `digits` decimals, for the report. */
export const round = (x: number, digits = 0): number => Math.round(x * 10 ** digits) / 10 ** digits;

/** Runs one study in a fresh Node process (heap up to 22 GB, garbage collection callable). */
export function studyInChild(spec: StudySpec): Promise<StudyResult> {
  return new Promise((resolve, reject) => {
    execFile(process.execPath, ['--expose-gc', '--max-old-space-size=22000', CHILD, JSON.stringify(spec)], { maxBuffer: 1 << 24 }, (err, stdout, stderr) => {
      if (err) reject(new Error(`bench: study ${JSON.stringify(spec)} failed: ${stderr.trim().split('\n').pop() ?? err.message}`));
      else resolve(JSON.parse(stdout) as StudyResult);
    });
  });
}

const say = (s: string): boolean => process.stderr.write(`bench: ${s}\n`);

/** The latency-bound study: xe6, 8-byte allreduce on every rank. */
export async function benchLatencyStudy(quick: boolean): Promise<Record<string, unknown>> {
  const spec = { kind: 'latency', machine: 'xe6', nodes: quick ? 64 : 1024, iterations: quick ? 10 : 100 } as const;
  say(`latency-bound study: ${spec.iterations} x 8-byte MPI_Allreduce on ${spec.nodes} ranks of ${spec.machine}...`);
  const r = await studyInChild(spec);
  const msgs = r.mpiMessages ?? 0;
  say(`latency-bound study: ${r.seconds.toFixed(1)} s, ${r.peakMB.toFixed(0)} MB, ${msgs} MPI messages, ${(msgs / r.seconds / 1e3).toFixed(0)} k messages/s`);
  return {
    study: `${spec.iterations} x 8-byte MPI_Allreduce, ${spec.nodes} ranks, ${spec.machine}, packet`,
    seconds: round(r.seconds, 2),
    peakMB: round(r.peakMB),
    mpiMessages: msgs,
    mpiMessagesPerSec: round(msgs / r.seconds),
    events: r.events,
    simulatedUs: round(r.simulatedUs ?? 0, 3),
    allreduceUs: round(r.perCallUs?.['8'] ?? 0, 3),
  };
}

/** The bandwidth-bound study at each fidelity level: xe6, 8-byte and 1 MiB allreduce. */
export async function benchBandwidthStudy(quick: boolean, levels: readonly string[]): Promise<Record<string, unknown>> {
  const base = { kind: 'bandwidth', machine: 'xe6', nodes: quick ? 16 : 256, iterations: quick ? 2 : 10, bigBytes: quick ? 256 * 1024 : 1 << 20 } as const;
  const out: Record<string, unknown> = { study: `${base.iterations} x 8-byte and ${base.iterations} x ${base.bigBytes / 1024} KiB MPI_Allreduce, ${base.nodes} ranks, ${base.machine}` };
  let ref: StudyResult | undefined;
  for (const fidelity of levels) {
    say(`bandwidth-bound study at ${fidelity}: ${out.study as string}...`);
    const r = await studyInChild({ ...base, fidelity });
    if (fidelity === 'packet') ref = r;
    const big = r.perCallUs?.[String(base.bigBytes)] ?? 0;
    const dev = (a: number | undefined, b: number | undefined): number | null => (a && b ? round((100 * (a - b)) / b, 1) : null);
    out[fidelity] = {
      seconds: round(r.seconds, 2),
      peakMB: round(r.peakMB),
      simulatedUs: round(r.simulatedUs ?? 0, 1),
      bigAllreduceUs: round(big, 1),
      packets: r.packets,
      ...(ref && fidelity !== 'packet' ? { simulatedVsPacketPct: dev(r.simulatedUs, ref.simulatedUs), bigAllreduceVsPacketPct: dev(big, ref.perCallUs?.[String(base.bigBytes)]) } : {}),
    };
    say(`bandwidth-bound study at ${fidelity}: ${r.seconds.toFixed(1)} s, ${r.peakMB.toFixed(0)} MB, simulated ${(r.simulatedUs ?? 0).toFixed(1)} us`);
  }
  return out;
}

/** Memory per router and per rank on xc30 at growing sizes, and the runs on the largest machines. */
export async function benchScale(quick: boolean): Promise<Record<string, unknown>> {
  const memory: Record<string, unknown>[] = [];
  for (const nodes of quick ? [1024] : [1024, 8192, 92544]) {
    say(`scale: xc30 with ${nodes} nodes: the machine alone, then an 8-byte allreduce on the collective engine...`);
    const b = await studyInChild({ kind: 'build', machine: 'xc30', nodes });
    const r = await studyInChild({ kind: 'app', app: 'allreduce', machine: 'xc30', nodes, params: { minBytes: '8', maxBytes: '8', iterations: '1', warmup: '0', algorithm: 'collectiveEngine' } });
    memory.push({
      machine: 'xc30',
      nodes,
      routers: b.routers,
      buildSeconds: round(b.seconds, 2),
      heapPerRouterKB: round(((b.heapMB ?? 0) * 1024) / (b.routers ?? 1), 1),
      runPeakMB: round(r.peakMB),
      // what a run adds beyond the built machine (ranks, MPI, NIC state), per rank
      perRankKB: round(((r.peakMB - b.peakMB) * 1024) / nodes, 1),
      runSeconds: round(r.seconds, 2),
    });
    say(`scale: xc30 ${nodes} nodes: ${b.routers} routers, ${(b.heapMB ?? 0).toFixed(0)} MB heap built, run ${r.seconds.toFixed(1)} s at ${r.peakMB.toFixed(0)} MB peak`);
  }
  const big = quick ? { xc: 1024, torus: 1024, clos: 1024 } : { xc: 92544, torus: 32768, clos: 32768 };
  const runs: [string, StudySpec][] = [
    [`8-byte allreduce, collective engine, xc30 ${big.xc} nodes`, { kind: 'app', app: 'allreduce', machine: 'xc30', nodes: big.xc, params: { minBytes: '8', maxBytes: '8', iterations: '1', warmup: '0', algorithm: 'collectiveEngine' } }],
    [`8-byte allreduce, software (recursive doubling), xc30 ${big.xc} nodes`, { kind: 'app', app: 'allreduce', machine: 'xc30', nodes: big.xc, params: { minBytes: '8', maxBytes: '8', iterations: '1', warmup: '0', algorithm: 'recursiveDoubling' } }],
    ...(['xc30', 'xe6', 'bw'] as const).map((machine): [string, StudySpec] => {
      const nodes = machine === 'xc30' ? big.xc : machine === 'xe6' ? big.torus : big.clos;
      // 64^3 cells per rank: 32 KiB faces, rendezvous block transfers, carried at the coarse level
      return [`halo3d, one iteration of 64^3 cells per rank (skeleton, coarse), ${machine} ${nodes} nodes`, { kind: 'app', app: 'halo3d', machine, nodes, skeleton: true, set: { 'fabric.fidelity': 'coarse' }, params: { iterations: '1', nx: '64', ny: '64', nz: '64' } }];
    }),
  ];
  const out: Record<string, unknown>[] = [];
  for (const [what, spec] of runs) {
    say(`scale: ${what}...`);
    const r = await studyInChild(spec);
    out.push({ run: what, seconds: round(r.seconds, 1), peakMB: round(r.peakMB), simulatedUs: round(r.simulatedUs ?? 0, 3), events: r.events, packetHops: r.packetHops });
    say(`scale: ${what}: ${r.seconds.toFixed(1)} s, ${r.peakMB.toFixed(0)} MB peak, simulated ${(r.simulatedUs ?? 0).toFixed(2)} us`);
  }
  return { memory, runs: out };
}
