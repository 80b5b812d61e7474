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
   * communicator (`worldSize` ranks in the world) is known dead: only a dead rank could satisfy it;
   * or, given `finished` (the run has no event left: no message is on its way), when each is
   * known dead or has finished, one of them dead.
   */
  errorFor(p: Posted, nowPs: number, self = -1, worldSize = 0, finished?: (rank: number) => boolean): MpiError | null {
    if (p.source === ANY_SOURCE) return this.anySourceError(p, nowPs, self, worldSize, finished);
    const d = this.dead.get(p.source);
    if (d === undefined || d.knownPs > nowPs) return null;
    return new MpiError('MPI_ERR_OTHER', `${p.req.what}: ${deadPeerText(p.source, d.node, d.deathPs)} will never send; its node did not answer within the NIC timeout`);
  }

  /**
   * The error of ANY_SOURCE receive p of world rank `self` when every other member of its
   * communicator is known dead at `nowPs` (or, with `finished`, dead or finished, one dead), else null.
   */
  private anySourceError(p: Posted, nowPs: number, self: number, worldSize: number, finished?: (rank: number) => boolean): MpiError | null {
    if (self < 0 || this.dead.size === 0) return null;
    const named: string[] = [];
    const ended: number[] = [];
    for (let w = 0; w < worldSize; w++) {
      if (w === self || (p.inv !== null && !(p.inv[w]! >= 0))) continue;
      const d = this.dead.get(w);
      if (d !== undefined && d.knownPs <= nowPs) named.push(deadPeerText(w, d.node, d.deathPs));
      else if (finished?.(w) === true) ended.push(w);
      else return null;
    }
    if (named.length === 0) return null;
    if (ended.length === 0) {
      return new MpiError('MPI_ERR_OTHER', `${p.req.what}: receive from any source, but every other rank of the communicator is dead: ${named.join(', ')}; their nodes did not answer within the NIC timeout`);
    }
    const rest = `rank${ended.length === 1 ? '' : 's'} ${ended.join(', ')} finished without sending it`;
    return new MpiError('MPI_ERR_OTHER', `${p.req.what}: receive from any source, but no other rank of the communicator can send: ${rest}, and ${named.join(', ')} did not answer within the NIC timeout`);
  }

  /**
   * Fails, at `nowPs`, every receive posted on a live endpoint of `eps` from a rank known dead
   * then (`stalled`: the run has no event left, so a rank that has finished will never send).
   */
  failPosted(eps: readonly Endpoint[], nowPs: number, stalled = false): void {
    const finished = stalled ? (w: number): boolean => eps[w]!.proc.thread.done : undefined;
    for (const me of eps) {
      if (me.proc.thread.done) continue;
      const posted = me.posted.items();
      for (let k = posted.length - 1; k >= 0; k--) {
        const p = posted[k]!;
        const e = this.errorFor(p, nowPs, me.proc.rank, eps.length, finished);
        if (!e || p.req.done) continue;
        me.posted.remove(p);
        p.req.fail(e);
      }
    }
  }

  /**
   * Why a collective-engine reduction over world ranks `members` failed: the members known dead;
   * with none, the tree timed out on live node `deadNode`, whose packet to its neighbour in the
   * tree (a partial result up, or the result down) was lost on a link that failed.
   */
  ceFailure(members: ArrayLike<number>, deadNode: number): string {
    const named: string[] = [];
    for (let i = 0; i < members.length; i++) {
      const t = this.describe(members[i]!);
      if (t !== null) named.push(t);
    }
    if (named.length === 0) return `the network reduction failed: a packet of its tree from node ${deadNode} was lost on a failed link, and the NIC timeout ran out`;
    return `the network reduction failed: ${named.join(', ')} did not answer within the NIC timeout`;
  }

  /** The text naming a dead destination `rank` of a failed transfer, or null when it lives. */
  describe(rank: number): string | null {
    const d = this.dead.get(rank);
    return d === undefined ? null : deadPeerText(rank, d.node, d.deathPs);
  }
}
