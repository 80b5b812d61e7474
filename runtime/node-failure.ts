import { DeadlockError } from '../fabric/engine/engine.ts';
import type { Machine } from '../fabric/machine.ts';
import type { MpiWorld } from './mpi/core.ts';
import type { Proc } from './proc.ts';

/**
 * A run in which nodes died ended with live ranks still waiting (on a dead rank through a
 * collective or a one-sided synchronisation, or on each other: a receive from any source that a
 * live rank could still satisfy but never does): a deadlock report, as every other (a
 * DeadlockError), that names the dead nodes first. Each blocked rank is listed with what it waits in.
 */
export class NodeFailureError extends DeadlockError {
  constructor(
    timePs: number,
    readonly deadNodes: readonly { readonly node: number; readonly atPs: number }[],
    blocked: readonly string[],
  ) {
    super(timePs, blocked);
    const dead = deadNodes.map((d) => `node ${d.node} (dead since ${(d.atPs / 1e6).toFixed(3)} us)`).join(', ');
    this.message = `node failure: ${dead} never answered, and at ${(timePs / 1e6).toFixed(3)} us no event is pending and ${blocked.length} live rank(s) are blocked (on it, or on each other):\n  ${blocked.join('\n  ')}`;
    this.name = 'NodeFailureError';
  }
}

/**
 * Stops the ranks of each node of `machine` that dies, at its death (those dead from the start
 * never run), and tells MPI, which fails receives from them once the NIC timeout has run out.
 */
export function watchNodeDeaths(machine: Machine, procs: readonly Proc[], world: MpiWorld): void {
  const faults = machine.faults;
  if (!faults.any) return;
  const timeoutPs = faults.config.timeoutPs;
  const stop = (node: number, atPs: number): void => {
    for (const p of procs) {
      if (p.node !== node) continue;
      machine.engine.kill(p.thread, `node ${node} died at ${(atPs / 1e6).toFixed(3)} us`);
      world.peerDied(p.rank, node, atPs, atPs + timeoutPs);
    }
  };
  // ranks of a node dead from the start never run; the others stop when their node dies
  for (const d of faults.config.deaths) if (d.atPs === 0) stop(d.node, 0);
  faults.onDeath((node, atPs) => {
    if (atPs > 0) stop(node, atPs);
  });
  // with no event left, a receive from any source that only finished or dead ranks could satisfy fails
  machine.engine.onStall = () => world.failStalledReceives();
}

/** A deadlock of a run in which nodes died, reported as their failure (other errors as they are). */
export function asNodeFailure(machine: Machine, e: unknown): unknown {
  if (!(e instanceof DeadlockError) || !machine.faults.any) return e;
  const dead = machine.faults.config.deaths.filter((d) => d.atPs <= e.timePs);
  return dead.length > 0 ? new NodeFailureError(e.timePs, dead, e.blocked) : e;
}
