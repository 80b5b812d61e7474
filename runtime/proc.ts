import type { Engine, Thread, WaitReason } from '../fabric/engine/engine.ts';
import type { Machine } from '../fabric/machine.ts';
import type { Nic } from '../fabric/nic/nic.ts';

/**
 * A process (rank) as the runtime layers see it: its thread, its node and NIC, and the CPU-time
 * helpers every API face uses to charge simulated time for its own work.
 */
export class Proc {
  constructor(
    readonly rank: number,
    /** Node the process runs on. */
    readonly node: number,
    /** Index of the process among those of its node (its NIC instance / mailbox). */
    readonly inst: number,
    readonly thread: Thread,
    readonly machine: Machine,
  ) {}

  get engine(): Engine {
    return this.machine.engine;
  }

  get nic(): Nic {
    return this.machine.nics[this.node]!;
  }

  /** Spends `ps` of this process's CPU time (its clock advances, others run meanwhile). */
  cpu(ps: number, reason: WaitReason = 'compute'): Promise<void> {
    return ps > 0 ? this.engine.sleep(this.thread, ps, reason) : Promise.resolve();
  }

  /** Blocks until something calls `engine.wake(this.thread)`. */
  block(reason: WaitReason): Promise<void> {
    return this.engine.suspend(this.thread, reason);
  }

  /** Wakes this process if it is blocked. */
  wake(): void {
    this.engine.wake(this.thread);
  }
}
