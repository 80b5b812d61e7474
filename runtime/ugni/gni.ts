import type { Proc } from '../proc.ts';

/** State shared by the uGNI faces of one job (what PMI gives a real job: every rank's address). */
export class GniJob {
  constructor(readonly procs: readonly Proc[]) {}
}

/** The uGNI face over the NIC (DESIGN.md: uGNI over the NIC), one per process. */
export class Gni {
  constructor(
    private readonly proc: Proc,
    private readonly job: GniJob,
  ) {}

  /** This process's rank in the job. */
  get rank(): number {
    return this.proc.rank;
  }

  /** Ranks in the job. */
  get size(): number {
    return this.job.procs.length;
  }
}
