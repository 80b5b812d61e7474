/** `phit run --metrics` and `--trace` output: the per-rank and per-call tables, rank lists, trace files. */
import { closeSync, writeSync } from 'node:fs';
import { histogramQuantile } from '../fabric/metrics.ts';
import type { CallStats, FabricMetrics, RankTime } from '../runtime/metrics.ts';
import { traceChunks, type Trace } from '../runtime/trace.ts';
import { formatTable } from './table.ts';

const r3 = (v: number): number => Number(v.toFixed(3));

/** Min/mean/max over ranks of compute, transfer and wait, then the calls, most time first. */
export function formatMetrics(m: { readonly ranks: readonly RankTime[]; readonly calls: readonly CallStats[] }): string {
  const split = (['computeUs', 'transferUs', 'waitUs'] as const).map((k) => {
    const v = m.ranks.map((r) => r[k]);
    return { time: k.replace('Us', ''), minUs: r3(Math.min(...v)), meanUs: r3(v.reduce((a, b) => a + b, 0) / v.length), maxUs: r3(Math.max(...v)) };
  });
  const calls = m.calls.map((c) => ({ call: c.name, calls: c.calls, bytes: c.bytes, timeUs: r3(c.timeUs), meanUs: r3(c.timeUs / c.calls) }));
  return [
    `time per rank (${m.ranks.length} ranks; compute + transfer + wait = the rank's finish time):`,
    formatTable(split),
    'API calls (all ranks; time is summed over ranks):',
    calls.length > 0 ? formatTable(calls) : '(no calls)',
  ].join('\n');
}

/** Ranks of a list like `0-7,12` among `size` ranks, ascending; throws RangeError naming the bad item. */
export function parseRankList(text: string, size: number): number[] {
  const out = new Set<number>();
  for (const item of text.split(',')) {
    const m = /^\s*(\d+)\s*(?:-\s*(\d+)\s*)?$/.exec(item);
    const lo = m ? Number(m[1]) : NaN;
    const hi = m ? Number(m[2] ?? m[1]) : NaN;
    if (!m || hi < lo || hi >= size) {
      throw new RangeError(`--trace-ranks ${text}: '${item}' is not a rank or range of ranks 0..${size - 1} (e.g. 0-7,12)`);
    }
    for (let r = lo; r <= hi; r++) out.add(r);
  }
  return [...out].sort((a, b) => a - b);
}

/** Writes `trace` to the open file `fd` piece by piece and closes it; returns the bytes written. */
export function writeTrace(fd: number, trace: Trace): number {
  let bytes = 0;
  try {
    for (const chunk of traceChunks(trace)) bytes += writeSync(fd, chunk);
  } finally {
    closeSync(fd);
  }
  return bytes;
}

/** Text lines of a fabric's metrics: link classes, hop histogram, latency percentiles, minimal share, and link errors when a class has a bit-error rate. */
export function formatFabricMetrics(f: FabricMetrics, routing: string): string[] {
  const pct = (x: number): number => Number((100 * x).toFixed(2));
  const lines = [
    `over ${f.durationPs / 1e6} us, ${f.packets} packets delivered`,
    formatTable(f.linkClasses.map((c) => ({ class: c.name, links: c.links, 'util%': pct(c.utilisation), 'max%': pct(c.maxUtilisation), 'creditStall%': pct(c.creditStall) }))),
  ];
  const h = f.hops;
  const total = h.samples || 1;
  lines.push(`hops (mean ${h.mean}, max ${h.max}): ${h.counts.map((n, i) => `${h.edges[i]}: ${pct(n / total)}%`).join(', ') || 'none'}`);
  const l = f.latencyNs;
  const q = (x: number): number => Number(histogramQuantile(l, x).toFixed(1));
  lines.push(`packet latency ns: mean ${Number(l.mean.toFixed(1))}, p50 ${q(0.5)}, p90 ${q(0.9)}, p99 ${q(0.99)}, max ${Number(l.max.toFixed(1))} (percentiles within their log bin, about 26 % wide)`);
  lines.push(
    f.routing === null
      ? `routing ${routing}: minimal only`
      : `routing ${routing}: ${pct(f.routing.minimal / (f.routing.minimal + f.routing.nonMinimal || 1))}% of packets minimal (${f.routing.nonMinimal} non-minimal)`,
  );
  if (f.faults) {
    const x = f.faults;
    lines.push(`faults: ${x.detours} packets detoured around failed links or routers, ${x.masked} routing choices masked a failed link, ${x.quiesces} network pauses to compute new routes (${x.quiesceUs} us), ${x.resent} packets on a failing link sent again over a parallel one, ${x.lost} lost with it`);
    const off = x.byClass.filter((c) => c.detourHops > 0);
    lines.push(`detour hops per link class (hops off the topology's route): ${off.map((c) => `${c.name} ${c.detourHops}`).join(', ') || 'none'}`);
  }
  if (f.flows !== null) lines.push(`flows: ${f.flows.transfers} block transfers carried as flows (${f.flows.bytes} bytes, in the link utilisation above), rates solved ${f.flows.solves} times`);
  if (f.linkErrors) {
    const perHop = f.linkErrors.some((c) => c.controlErrors > 0);
    lines.push('link errors (retransmissions: packets the receiving CRC rejected; replay: time their replays held the links, summed, and its share of the links\' time; replay ns/packet: that time per packet that crossed the class, the latency replays added):');
    lines.push(
      formatTable(
        f.linkErrors.map((c) => ({
          class: c.name,
          ber: c.ber,
          packets: c.packets,
          retransmissions: c.retransmissions,
          'per 1e6': c.packets > 0 ? Number(((1e6 * c.retransmissions) / c.packets).toFixed(1)) : 0,
          replayUs: Number((c.replayPs / 1e6).toFixed(3)),
          'replay%': pct(c.replayShare),
          'replay ns/packet': c.replayNsPerPacket,
          ...(perHop ? { controlErrors: c.controlErrors } : {}),
        })),
      ),
    );
  }
  const nf = f.nodeFaults;
  if (nf) {
    const dead = nf.dead.map((d) => `${d.node} (at ${d.atUs} us)`).join(', ') || 'none yet';
    lines.push(`dead nodes: ${dead}; their NICs dropped ${nf.droppedPackets} packets, ${nf.timeouts} transactions to them timed out after ${nf.timeoutUs} us each`);
  }
  return lines;
}
