import type { Endpoint } from './endpoint.ts';
import { ANY_SOURCE, type Posted } from './message.ts';
import { MpiError } from './request.ts';

/** A dead rank as MPI learns of it: its node, when it died, and when the NIC timeout told the others. */
interface DeadRank {
  readonly node: number;
  readonly deathPs: number;
  readonly knownPs: number;
}

/** The words that name a dead peer in an error: `rank 3 (node 1, dead since 2.000 us)`. */
export function deadPeerText(rank: number, node: number, deathPs: number): string {
  return `rank ${rank} (node ${node}, dead since ${(deathPs / 1e6).toFixed(3)} us)`;
}

/**
 * The ranks MPI knows are dead (their node died, and the NIC timeout has run out since): a
 * receive from one of them cannot be satisfied, and fails with MPI_ERR_OTHER naming it, as a
 * fault-aware MPI reports a failed peer instead of waiting for ever (ULFM's MPI_ERR_PROC_FAILED,
 * reported here as MPI_ERR_OTHER). A message the rank sent before it died is still received.
 */
export class PeerFailures {
  private readonly dead = new Map<number, DeadRank>();

  /** Rank `rank` on `node` died at `deathPs`; the others know it from `knownPs`. */
  add(rank: number, node: number, deathPs: number, knownPs: number): void {
    this.dead.set(rank, { node, deathPs, knownPs });
  }

  /** Whether any rank has died. */
  get any(): boolean {
    return this.dead.size > 0;
  }

  /**
   * The error of a receive from `source` at time `nowPs`, or null when `source` is not known dead
   * then. An ANY_SOURCE receive of rank `self` (world rank) fails when every other member of its
   * communicator (`worldSize` ranks in the world) is known dead: only a dead rank could satisfy it.
   */
  errorFor(p: Posted, nowPs: number, self = -1, worldSize = 0): MpiError | null {
    if (p.source === ANY_SOURCE) return this.anySourceError(p, nowPs, self, worldSize);
    const d = this.dead.get(p.source);
    if (d === undefined || d.knownPs > nowPs) return null;
    return new MpiError('MPI_ERR_OTHER', `${p.req.what}: ${deadPeerText(p.source, d.node, d.deathPs)} will never send; its node did not answer within the NIC timeout`);
  }

  /** The error of ANY_SOURCE receive p of world rank `self` when every other member of its communicator is known dead at `nowPs`, else null. */
  private anySourceError(p: Posted, nowPs: number, self: number, worldSize: number): MpiError | null {
    if (self < 0 || this.dead.size === 0) return null;
    const named: string[] = [];
    for (let w = 0; w < worldSize; w++) {
      if (w === self || (p.inv !== null && !(p.inv[w]! >= 0))) continue;
      const d = this.dead.get(w);
      if (d === undefined || d.knownPs > nowPs) return null;
      named.push(deadPeerText(w, d.node, d.deathPs));
    }
    if (named.length === 0) return null;
    return new MpiError('MPI_ERR_OTHER', `${p.req.what}: receive from any source, but every other rank of the communicator is dead: ${named.join(', ')}; their nodes did not answer within the NIC timeout`);
  }

  /** Fails, at `nowPs`, every receive posted on a live endpoint of `eps` from a rank known dead then. */
  failPosted(eps: readonly Endpoint[], nowPs: number): void {
    for (const me of eps) {
      if (me.proc.thread.done) continue;
      const posted = me.posted.items();
      for (let k = posted.length - 1; k >= 0; k--) {
        const p = posted[k]!;
        const e = this.errorFor(p, nowPs, me.proc.rank, eps.length);
        if (!e || p.req.done) continue;
        me.posted.remove(p);
        p.req.fail(e);
      }
    }
  }

  /** The text naming a dead destination `rank` of a failed transfer, or null when it lives. */
  describe(rank: number): string | null {
    const d = this.dead.get(rank);
    return d === undefined ? null : deadPeerText(rank, d.node, d.deathPs);
  }
}
