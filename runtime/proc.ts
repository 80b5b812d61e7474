import type { Engine, Thread, WaitReason } from '../fabric/engine/engine.ts';
import type { Machine } from '../fabric/machine.ts';
import type { Nic } from '../fabric/nic/nic.ts';
import type { Detours } from './noise.ts';

/**
 * A process (rank) as the runtime layers see it: its thread, its node and NIC, and the CPU-time
 * helpers every API face uses to charge simulated time for its own work.
 */
export class Proc {
  /**
   * The process's own clock (ps). Calls that cost CPU time without blocking (an isend) move it
   * ahead of the engine's time; the next blocking call first catches up to it.
   */
  private clock = 0;

  /** CPU time (ps) spent in `cpu(ps, 'compute')`, i.e. the program's own modelled computation. */
  computePs = 0;

  constructor(
    readonly rank: number,
    /** Node the process runs on. */
    readonly node: number,
    /** Index of the process among those of its node (its NIC instance / mailbox). */
    readonly inst: number,
    readonly thread: Thread,
    readonly machine: Machine,
    /** Extra time of a rank on a socket without the NIC: per send posted and per wait returned (ps). */
    readonly crossPs = 0,
    /** The OS detours of the rank's core, or null for a quiet core. */
    readonly noise: Detours | null = null,
  ) {}

  get engine(): Engine {
    return this.machine.engine;
  }

  get nic(): Nic {
    return this.machine.nics[this.node]!;
  }

  /** The process's time (ps): the engine's time, or later while it owes CPU time. */
  time(): number {
    return Math.max(this.clock, this.engine.now);
  }

  /** Charges `ps` of CPU time without yielding; returns the time the work ends. */
  charge(ps: number): number {
    this.clock = this.noise ? this.noise.run(this.time(), ps) : this.time() + ps;
    return this.clock;
  }

  /** Spends `ps` of this process's CPU time (its clock advances, others run meanwhile). */
  cpu(ps: number, reason: WaitReason = 'compute'): Promise<void> {
    const from = this.time();
    const to = this.charge(ps);
    if (reason === 'compute') this.computePs += to - from;
    return this.catchUp(reason);
  }

  /** Blocks until something calls `engine.wake(this.thread)`, after any CPU time it owes. */
  async block(reason: WaitReason): Promise<void> {
    await this.catchUp(reason);
    await this.engine.suspend(this.thread, reason);
    if (this.noise || this.crossPs > 0) {
      // the completion crosses to this rank's socket, and a core in an OS detour resumes after it
      const now = this.engine.now;
      const resume = this.noise ? this.noise.run(now, this.crossPs) : now + this.crossPs;
      if (resume > now) await this.engine.sleep(this.thread, resume - now, reason);
    }
  }

  private catchUp(reason: WaitReason): Promise<void> {
    const ahead = this.clock - this.engine.now;
    return ahead > 0 ? this.engine.sleep(this.thread, ahead, reason) : Promise.resolve();
  }

  /** Wakes this process if it is blocked. */
  wake(): void {
    this.engine.wake(this.thread);
  }
}
