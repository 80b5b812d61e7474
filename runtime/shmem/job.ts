import type { Engine } from '../../fabric/engine/engine.ts';
import type { Proc } from '../proc.ts';
import { CollAgreement } from './agreement.ts';
import { ShmemWatch } from './watch.ts';

/** What the PEs of one SHMEM job share: what they wait on, the record of their collective calls, and where each PE runs. */
export class ShmemJob {
  /** What the job's PEs wait on. */
  readonly watch: ShmemWatch;
  /** The collective calls of teams and active sets as the PEs enter them. */
  readonly agreement = new CollAgreement();

  constructor(
    engine: Engine,
    /** The job's processes, by PE number. */
    private readonly procs: readonly Proc[],
  ) {
    this.watch = new ShmemWatch(engine, procs);
    this.memory = procs.map(() => new Map());
  }

  /** Per PE: its live symmetric segments' memory, by segment id (for `shmem.ptr` on the PEs of a node). */
  readonly memory: Map<number, Uint8Array>[];

  private byNode: Map<number, number[]> | null = null;

  /** The node PE `pe` runs on. */
  nodeOf(pe: number): number {
    return this.procs[pe]!.node;
  }

  /** The PEs that run on `node`, in increasing order. */
  pesOn(node: number): readonly number[] {
    if (!this.byNode) {
      this.byNode = new Map();
      for (const p of this.procs) {
        let list = this.byNode.get(p.node);
        if (!list) this.byNode.set(p.node, (list = []));
        list.push(p.rank);
      }
    }
    return this.byNode.get(node) ?? [];
  }
}
