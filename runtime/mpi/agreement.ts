import { DeadlockError } from '../../fabric/engine/engine.ts';
import type { Proc } from '../proc.ts';
import type { Op } from './ops.ts';
import { MpiError } from './request.ts';

/**
 * What one rank passes to a collective call that every rank of the communicator must pass alike
 * (MPI: the same root, op, element type and matching counts everywhere). Fields left out are
 * not compared.
 */
export interface CollCall {
  readonly call: string;
  readonly root?: number;
  readonly op?: Op;
  /** Element type (the typed array's constructor name). */
  readonly type?: string;
  /** Elements that must be the same on every rank, and what they are (`elements in buf`). */
  readonly count?: number;
  readonly countName?: string;
  /** A vector that must be the same on every rank (allgatherv's counts), and its name. */
  readonly counts?: ArrayLike<number>;
  readonly countsName?: string;
  /** Algorithm named by the call or the run (all ranks must run the same one). */
  readonly algorithm?: string;
  /**
   * Per-rank data checked against every other rank's (the v-collectives' counts must pair up):
   * `cross(mine, me, other, them)` returns what is wrong, or null.
   */
  readonly data?: unknown;
  readonly cross?: (mine: unknown, me: number, other: unknown, them: number) => CrossError | null;
}

/** What a `cross` check finds wrong: the text (class MPI_ERR_COUNT), or an error class and the text. */
export type CrossError = string | readonly [errorClass: string, why: string];

/** How a ledger's errors name its ranks when their ranks in the ledger would mislead (an intercommunicator names them by group). */
export interface RankNames {
  /** One rank: `rank 2 of group [3-7]`. */
  who(rank: number): string;
  /** Some ranks, in increasing order: `ranks 0-2 of group [0-2]`. */
  ranks(ranks: readonly number[]): string;
}

/** One collective call of a communicator that not every rank has entered yet. */
interface Pending {
  readonly seq: number;
  readonly first: CollCall;
  readonly firstRank: number;
  arrived: number;
  /** Each arrived rank's `data` (only for calls with a `cross` check). */
  readonly data: unknown[] | null;
}

/**
 * The collective calls of one communicator, as its ranks enter them (MPICH's collective error
 * checking, free in simulated time): the k-th collective each rank calls is compared with the
 * k-th call of the first rank that made it, so mismatched arguments raise an MPI error naming
 * both ranks instead of a hang or wrong data, and a call some ranks never make is named when
 * the run stops.
 */
export class CollLedger {
  /** Collective calls each communicator rank has entered. */
  private readonly calls: Int32Array;
  private readonly pending = new Map<number, Pending>();

  constructor(
    /** World rank of each communicator rank. */
    private readonly members: Int32Array,
    /** `MPI_COMM_WORLD` or `communicator (context 6, 4 ranks)`. */
    readonly label: string,
    /** How errors name ranks of the ledger (default: by rank, and by world rank if different). */
    private readonly names?: RankNames,
  ) {
    this.calls = new Int32Array(members.length);
  }

  /** Records that communicator rank `rank` enters collective `c`; throws MpiError if it disagrees with an earlier rank. */
  enter(rank: number, c: CollCall): void {
    const seq = this.calls[rank]!++;
    let p = this.pending.get(seq);
    if (!p) {
      p = { seq, first: c, firstRank: rank, arrived: 0, data: c.cross ? [] : null };
      this.pending.set(seq, p);
    } else {
      this.compare(p, rank, c);
    }
    if (p.data && c.cross) {
      for (const [them, other] of p.data.entries()) {
        if (other === undefined) continue;
        const why = c.cross(c.data, rank, other, them);
        if (why) throw typeof why === 'string' ? this.error('MPI_ERR_COUNT', c.call, seq, why) : this.error(why[0], c.call, seq, why[1]);
      }
      p.data[rank] = c.data;
    }
    if (++p.arrived === this.members.length) this.pending.delete(seq);
  }

  private compare(p: Pending, rank: number, c: CollCall): void {
    const f = p.first;
    // the texts are built only for an error (a call that agrees allocates nothing)
    if (f.call !== c.call) {
      throw this.error('MPI_ERR_OTHER', c.call, p.seq, `${this.who(rank)} calls ${c.call} where ${this.who(p.firstRank)} called ${f.call}: every rank must call the same collectives in the same order`);
    }
    if (f.root !== c.root) this.mismatch(p, rank, c, 'MPI_ERR_ROOT', `root=${c.root}`, `root=${f.root}`);
    if (f.op?.name !== c.op?.name) this.mismatch(p, rank, c, 'MPI_ERR_OP', `op ${c.op?.name}`, `op ${f.op?.name}`);
    if (f.type !== c.type) this.mismatch(p, rank, c, 'MPI_ERR_TYPE', `${c.type} data`, `${f.type} data`);
    if (f.count !== c.count) this.mismatch(p, rank, c, 'MPI_ERR_COUNT', `${c.count} ${c.countName ?? 'elements'}`, `${f.count}`);
    if (f.counts && c.counts) {
      if (f.counts.length !== c.counts.length) this.mismatch(p, rank, c, 'MPI_ERR_COUNT', `${c.counts.length} ${c.countsName ?? 'counts'}`, `${f.counts.length}`);
      for (let i = 0; i < f.counts.length; i++) {
        if (f.counts[i] !== c.counts[i]) this.mismatch(p, rank, c, 'MPI_ERR_COUNT', `${c.countsName ?? 'counts'}[${i}]=${c.counts[i]}`, `${f.counts[i]}`);
      }
    }
    if (f.algorithm !== c.algorithm) this.mismatch(p, rank, c, 'MPI_ERR_ARG', `algorithm ${c.algorithm ?? '(automatic)'}`, `${f.algorithm ?? '(automatic)'}`);
  }

  /** The error of rank `rank`'s call `c` that passes `mine` where the first rank of `p` passed `theirs`. */
  private mismatch(p: Pending, rank: number, c: CollCall, cls: string, mine: string, theirs: string): never {
    throw this.error(cls, c.call, p.seq, `${this.who(rank)} passes ${mine} but ${this.who(p.firstRank)} passed ${theirs}`);
  }

  /** `ranks 0-2, 5`. */
  private some(ranks: readonly number[]): string {
    return this.names ? this.names.ranks(ranks) : `${plural(ranks)} ${ranges(ranks)}`;
  }

  /** `rank 3` or `rank 3 (world rank 7)`. */
  private who(rank: number): string {
    if (this.names) return this.names.who(rank);
    const w = this.members[rank]!;
    return w === rank ? `rank ${rank}` : `rank ${rank} (world rank ${w})`;
  }

  private error(cls: string, call: string, seq: number, why: string): MpiError {
    return new MpiError(cls, `${call} (collective call ${seq + 1} on ${this.label}): ${why}`);
  }

  /**
   * What is wrong with the calls not every rank has entered, for the end of a run: the oldest
   * such call, the ranks in it and what each missing rank is doing; null if none is pending.
   */
  incomplete(procs: readonly Proc[]): string | null {
    let oldest: Pending | null = null;
    for (const p of this.pending.values()) if (!oldest || p.seq < oldest.seq) oldest = p;
    if (!oldest) return null;
    const inside: number[] = [];
    const missing: number[] = [];
    for (let r = 0; r < this.calls.length; r++) (this.calls[r]! > oldest.seq ? inside : missing).push(r);
    const doing = missing.slice(0, 8).map((r) => {
      const t = procs[this.members[r]!]!.thread;
      const state = t.done ? 'finished its program' : t.blocked ? `is blocked in ${typeof t.reason === 'function' ? t.reason() : t.reason}` : 'is running';
      return `${this.who(r)} ${state}`;
    });
    const more = missing.length > 8 ? `; and ${missing.length - 8} more` : '';
    return (
      `MPI_ERR_OTHER: ${oldest.first.call} (collective call ${oldest.seq + 1} on ${this.label}) was called by ${this.some(inside)} ` +
      `but not by ${this.some(missing)}: ${doing.join('; ')}${more}`
    );
  }
}

/** A run that stopped with a collective call some ranks never made. */
export class IncompleteCollectiveError extends DeadlockError {
  readonly errorClass = 'MPI_ERR_OTHER';
  constructor(why: string, timePs: number, blocked: readonly string[]) {
    super(timePs, blocked);
    this.name = 'IncompleteCollectiveError';
    this.message = blocked.length > 0 ? `${why}\n${this.message}` : why;
  }
}

function plural(ranks: readonly number[]): string {
  return ranks.length === 1 ? 'rank' : 'ranks';
}

/** `0-2, 5, 7-9` */
export function ranges(ranks: readonly number[]): string {
  const out: string[] = [];
  for (let i = 0; i < ranks.length; ) {
    let j = i;
    while (j + 1 < ranks.length && ranks[j + 1] === ranks[j]! + 1) j++;
    out.push(j > i ? `${ranks[i]}-${ranks[j]}` : `${ranks[i]}`);
    if (out.length === 12 && j + 1 < ranks.length) {
      out.push('...');
      break;
    }
    i = j + 1;
  }
  return out.join(', ');
}
