import { performance } from 'node:perf_hooks';
import { resolveParams, type Row } from '../apps/app.ts';
import { findApp } from '../apps/index.ts';
import { simulate } from '../runtime/simulate.ts';

/** Options of the MPI (whole-stack) benchmark: one app run, as `phit run` does it. */
export interface MpiBenchOptions {
  readonly app: string;
  readonly machine: string;
  readonly nodes: number;
  readonly ppn: number;
  /** The app's parameters, as on the command line (`{bytes: '64KiB'}`). */
  readonly params: Readonly<Record<string, string>>;
}

/** Result of the MPI benchmark. */
export interface MpiBenchResult {
  readonly seconds: number;
  readonly simulatedUs: number;
  readonly events: number;
  readonly packets: number;
  readonly packetHops: number;
  readonly eventsPerSec: number;
  readonly packetHopsPerSec: number;
  /** Packets delivered per second of wall time (NIC and MPI work included). */
  readonly packetsPerSec: number;
  /** The app's last result row, so that a change in what is simulated shows beside the speed. */
  readonly row: Row | undefined;
}

/**
 * Runs one app on a machine, ranks, MPI, NICs and fabric together, and reports what a user
 * waits for: wall time per simulated packet and event. Unlike the fabric benchmark's light
 * uniform load, a communication-bound app keeps the network congested (most packets wait for an
 * output or for credits), the regime of the long validation runs.
 */
export async function benchMpi(o: MpiBenchOptions): Promise<MpiBenchResult> {
  const app = findApp(o.app);
  const params = resolveParams(app, o.params);
  const t0 = performance.now();
  const r = await simulate({ machine: o.machine, nodes: o.nodes, ppn: o.ppn, program: (ctx) => app.main(ctx, params) });
  const seconds = (performance.now() - t0) / 1000;
  const rows = r.result?.rows ?? [];
  return {
    seconds,
    simulatedUs: r.simulatedTimeUs,
    events: r.events,
    packets: r.packets,
    packetHops: r.packetHops,
    eventsPerSec: r.events / seconds,
    packetHopsPerSec: r.packetHops / seconds,
    packetsPerSec: r.packets / seconds,
    row: rows[rows.length - 1],
  };
}
