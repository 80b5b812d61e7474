import type { Engine } from '../../fabric/engine/engine.ts';
import type { Proc } from '../proc.ts';
import { ShmemWatch } from './watch.ts';

/** What the PEs of one SHMEM job share: what they wait on, and where each PE runs. */
export class ShmemJob {
  /** What the job's PEs wait on. */
  readonly watch: ShmemWatch;

  constructor(
    engine: Engine,
    /** The job's processes, by PE number. */
    private readonly procs: readonly Proc[],
  ) {
    this.watch = new ShmemWatch(engine, procs);
  }

  /** The node PE `pe` runs on. */
  nodeOf(pe: number): number {
    return this.procs[pe]!.node;
  }
}
