/**
 * What a run measured about itself when asked (`simulate({ metrics: true })`, `--report`): the
 * fabric's links and packets, and each rank's time and calls. Plain data, ready for JSON and for
 * the HTML report.
 */

export type { Histogram, LinkClassMetrics, LinkErrorMetrics, RouterLoad, FabricMetrics } from '../fabric/metrics.ts';
import type { FabricMetrics } from '../fabric/metrics.ts';

/** Where one rank's time went (us); the three add up to the rank's finish time. */
export interface RankTime {
  readonly rank: number;
  readonly node: number;
  /** Time in `ctx.compute`. */
  readonly computeUs: number;
  /** CPU time inside communication calls (overheads, copies, issuing). */
  readonly transferUs: number;
  /** Time blocked in MPI/SHMEM/DMAPP/uGNI waits. */
  readonly waitUs: number;
}

/** One API call name over all ranks. */
export interface CallStats {
  /** e.g. `MPI_Send`, `MPI_Allreduce`, `shmem_putmem`. */
  readonly name: string;
  readonly calls: number;
  /** Payload bytes the calls moved (sent or contributed). */
  readonly bytes: number;
  /** Time ranks spent inside the calls (us, summed over ranks). */
  readonly timeUs: number;
}

export interface RunMetrics {
  readonly fabric: FabricMetrics;
  readonly ranks: readonly RankTime[];
  readonly calls: readonly CallStats[];
}
