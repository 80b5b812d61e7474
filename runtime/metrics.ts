/**
 * What a run measured about itself when asked (`simulate({ metrics: true })`, `--report`): the
 * fabric's links and packets, and each rank's time and calls. Plain data, ready for JSON and for
 * the HTML report.
 */

/** Counts in bins: `counts[i]` samples fell in [edges[i], edges[i + 1]). */
export interface Histogram {
  readonly unit: string;
  readonly edges: readonly number[];
  readonly counts: readonly number[];
  readonly samples: number;
  readonly mean: number;
  readonly max: number;
}

/** Router-to-router links of one class (torus dimension, green/black/global, Clos rank, ...). */
export interface LinkClassMetrics {
  readonly name: string;
  readonly links: number;
  /** Mean over the class's links of the fraction of the run each was busy sending. */
  readonly utilisation: number;
  readonly maxUtilisation: number;
  /** Mean fraction of the run a link had a packet waiting for it that could not go for lack of credits. */
  readonly creditStall: number;
}

/**
 * Load per router, for a heat map laid out by the topology: `axes` names each coordinate
 * (torus: x, y, z; dragonfly: group, chassis, slot; Clos: rank, index; Kautz: index) and
 * `coords[r]` places router r.
 */
export interface RouterLoad {
  readonly topology: string;
  readonly axes: readonly string[];
  readonly coords: readonly (readonly number[])[];
  /** Mean utilisation of router r's outgoing router-to-router links. */
  readonly utilisation: readonly number[];
}

export interface FabricMetrics {
  /** Simulated time the figures cover (ps). */
  readonly durationPs: number;
  readonly packets: number;
  readonly linkClasses: readonly LinkClassMetrics[];
  readonly routers: RouterLoad;
  /** Router-to-router hops per delivered packet. */
  readonly hops: Histogram;
  /** Injection to delivery of each packet (ns). */
  readonly latencyNs: Histogram;
  /** Packets routed minimally and non-minimally, for adaptive and Valiant routing; null otherwise. */
  readonly routing: { readonly minimal: number; readonly nonMinimal: number } | null;
}

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
