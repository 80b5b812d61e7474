import { ShmemError } from './symmetric.ts';

/** What one PE passes to a collective call that every PE of the team or active set must pass alike. */
export interface CollCall {
  readonly call: string;
  /** The arguments compared between PEs, by name, in the order a message lists them. */
  readonly args: Readonly<Record<string, number | string>>;
}

/** The job PEs of a team or active set. */
export interface Members {
  readonly size: number;
  has(pe: number): boolean;
}

/** One collective call that not every PE of its set has entered yet. */
interface Entry {
  /** 1-based number of the call on its key, for messages. */
  readonly seq: number;
  readonly first: CollCall;
  readonly firstPe: number;
  /** The job PEs that must enter it, as the first PE's arguments define them. */
  readonly members: Members;
  readonly entered: Set<number>;
}

/**
 * The collective calls of a SHMEM job's teams and active sets as their PEs enter them, free in
 * simulated time: the approach of the MPI layer's CollLedger (runtime/mpi/agreement.ts), so that
 * mismatched arguments are an error naming both PEs and their values instead of a hang or
 * silently wrong data. Calls are matched per key (a team, or the pSync array of an active-set
 * call): a PE's call joins the oldest open call on that key whose PEs include it and which it
 * has not entered yet, or opens a new one whose PEs the call's own arguments define.
 */
export class CollAgreement {
  private readonly open = new Map<string, Entry[]>();
  private readonly opened = new Map<string, number>();

  /**
   * Records that job PE `pe` enters `c` on `key` (described as `label` in messages), a call of the
   * job PEs `members`; throws a ShmemError naming both PEs if `c` differs from the call it joins.
   */
  enter(key: string, label: string, members: Members, pe: number, c: CollCall): void {
    let list = this.open.get(key);
    if (!list) this.open.set(key, (list = []));
    let e = list.find((x) => x.members.has(pe) && !x.entered.has(pe));
    if (!e) {
      const seq = (this.opened.get(key) ?? 0) + 1;
      this.opened.set(key, seq);
      e = { seq, first: c, firstPe: pe, members, entered: new Set() };
      list.push(e);
    } else {
      const why = differ(e.first, c);
      if (why) {
        throw new ShmemError(`${c.call}: PE ${pe} passes ${why.mine} but PE ${e.firstPe} passed ${why.theirs} (collective call ${e.seq} on ${label})`);
      }
    }
    e.entered.add(pe);
    if (e.entered.size === e.members.size) list.splice(list.indexOf(e), 1);
  }
}

/** The arguments in which `c` differs from `first`, as `name=value` lists; null if none. */
function differ(first: CollCall, c: CollCall): { mine: string; theirs: string } | null {
  if (first.call !== c.call) return { mine: `a call of ${c.call}`, theirs: `a call of ${first.call} (every PE must call the same collectives in the same order)` };
  const mine: string[] = [];
  const theirs: string[] = [];
  for (const k of new Set([...Object.keys(first.args), ...Object.keys(c.args)])) {
    if (first.args[k] !== c.args[k]) {
      mine.push(`${k}=${String(c.args[k])}`);
      theirs.push(`${k}=${String(first.args[k])}`);
    }
  }
  return mine.length > 0 ? { mine: mine.join(', '), theirs: theirs.join(', ') } : null;
}
