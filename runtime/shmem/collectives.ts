import type { SymmetricSegment } from '../dmapp/dmapp.ts';
import { PeSet } from './pe-set.ts';
import { ShmemError, TYPES, type ReduceType, type Symmetric } from './symmetric.ts';
import { ShmemWait } from './wait.ts';

const REDUCE_TYPES: readonly ReduceType[] = ['float64', 'int32', 'int64'];

/** Dissemination rounds of the world barrier's counters, 8 bytes each at the start of the internal synchronisation segment. */
const SYNC_ROUNDS = 64;

/**
 * Team slots after the world counters (as SOS's pSync pool of SHMEM_TEAMS_MAX, src/shmem_team.c):
 * slot 0 holds TEAM_WORLD's scratch words, slot 1 is TEAM_SHARED's, the others go to the teams
 * that splits make, at most TEAM_SLOTS - 2 of them at once.
 */
export const TEAM_SLOTS = 16;
/** Scratch words of a slot, after its counters: [0] a collect's size, [1] a team split's word. */
const SLOT_WORDS = 2;

/** `SYNC_VALUE`: what every element of an active-set call's pSync holds between calls (-1 as in SGI's SHMEM and Open MPI's). */
export const SYNC_VALUE = -1n;
/** What one signal adds to a pSync counter: a count in the upper half, so a pSync never reset (0) is told from one signalled. */
export const PSYNC_SIGNAL = 1n << 32n;

/**
 * The PEs a collective runs over and where they synchronise: TEAM_WORLD, a team, or the active
 * set of an OpenSHMEM 1.4 call. Its dissemination counters (one 8-byte word per round) and
 * scratch words are at the same place on every member.
 */
export interface Group {
  /** What messages call it: `TEAM_WORLD`, `team TEAM_WORLD/0 (4 PEs)`, `the active set PE_start=0, ...`. */
  readonly label: string;
  readonly pes: PeSet;
  /** This PE's number in the group. */
  readonly me: number;
  readonly seg: SymmetricSegment;
  /** Byte offset in `seg` of the round counters. */
  readonly counters: number;
  /** Byte offset in `seg` of the scratch words. */
  readonly scratch: number;
  /**
   * Counters that count up: advances this PE's count of the group's syncs and returns it (a
   * round is done when its counter reaches it). null: pSync counters, each signal consumed as it
   * is seen, so that the pSync is back to SYNC_VALUE at the end.
   */
  readonly nextEpoch: (() => number) | null;
}

/** Collectives over all PEs (OpenSHMEM 1.5 §9.9): the barrier, broadcast, collects and reductions. */
export class ShmemCollectives extends ShmemWait {
  /** The internal synchronisation segment: the world counters, then the team slots. */
  protected syncSegment: SymmetricSegment | null = null;
  protected scratch: SymmetricSegment | null = null;
  /** Every PE's contribution to the current `collectmem`, 8 bytes per PE. */
  protected sizes: SymmetricSegment | null = null;
  protected barriers = 0;
  /** Dissemination rounds a team slot has counters for: enough for a team of every PE. */
  protected readonly slotRounds = Math.max(1, Math.ceil(Math.log2(this.dmapp.npes)));


  /**
   * Barrier over all PEs (shmem_barrier_all): `quiet`, then a dissemination barrier: in round k
   * each PE adds one (an AMO) to round k's counter on PE (me + 2^k) mod n and waits, as
   * `waitUntil` does, until its own counter has been signalled as many times as barriers were
   * entered.
   */
  async barrierAll(): Promise<void> {
    this.ready();
    await this.quiet();
    await this.disseminate('barrierAll', this.worldGroup());
  }

  /**
   * Records this PE's entry into the world collective `call` with `args`, which every PE must
   * pass alike: the record of TEAM_WORLD's team collectives, so a world call and a team call on
   * TEAM_WORLD are ordered alike, and PEs that disagree fail with one line naming both (as
   * ShmemTeams.teamGroup does; `args` as the team form of the same call records them).
   */
  protected agreeWorld(call: string, args: Readonly<Record<string, number | string>>): void {
    this.job.agreement.enter('TEAM_WORLD', 'TEAM_WORLD', PeSet.strided(0, 1, this.dmapp.npes), this.dmapp.pe, { call, args });
  }

  /** TEAM_WORLD as a group: the world counters, counting the syncs `barrierAll` counts too. */
  protected worldGroup(): Group {
    const sync = this.ready();
    return {
      label: 'TEAM_WORLD',
      pes: PeSet.strided(0, 1, this.dmapp.npes),
      me: this.dmapp.pe,
      seg: sync,
      counters: 0,
      scratch: this.slotAt(0) + 8 * this.slotRounds,
      nextEpoch: () => ++this.barriers,
    };
  }

  /** Byte offset of team slot `slot` in the synchronisation segment: its counters, then its scratch words. */
  protected slotAt(slot: number): number {
    return SYNC_ROUNDS * 8 + slot * 8 * (this.slotRounds + SLOT_WORDS);
  }

  /**
   * Synchronises the PEs of `g` without completing anything (a dissemination barrier): in round
   * k each PE signals (an AMO add) round k's counter on PE (me + 2^k) mod n of the group and
   * waits, as `waitUntil` does, until its own counter shows the signal of PE (me - 2^k) mod n.
   */
  protected async disseminate(call: string, g: Group): Promise<void> {
    const n = g.pes.size;
    const me = g.me;
    const epoch = g.nextEpoch ? BigInt(g.nextEpoch()) : null;
    const seg = g.seg;
    const view = new DataView(seg.local.buffer, seg.local.byteOffset, seg.local.byteLength);
    const world = g.label === 'TEAM_WORLD';
    for (let k = 0, d = 1; d < n; k++, d *= 2) {
      const at = g.counters + k * 8;
      await this.signal(call, g.pes.pe((me + d) % n), seg, at, epoch === null ? PSYNC_SIGNAL : 1n);
      const from = g.pes.pe((me - d + n) % n);
      await this.poll(
        () => (epoch === null ? view.getBigInt64(at, true) - SYNC_VALUE >= PSYNC_SIGNAL : view.getBigUint64(at, true) >= epoch),
        () => `${call}${epoch === null ? '' : ` #${epoch}`} on PE ${this.dmapp.pe}${world ? '' : ` in ${g.label}`}: round ${k} never heard from PE ${from} (has every PE${world ? '' : ` of ${g.label}`} called ${call}?)`,
        seg.local,
        at,
        8,
      );
      // a pSync counter is consumed: the pSync is back to SYNC_VALUE once every round is done
      if (epoch === null) view.setBigInt64(at, view.getBigInt64(at, true) - PSYNC_SIGNAL, true);
    }
  }

  /**
   * Copies `nbytes` of `source` on PE `root` into `dest` on every PE, root included
   * (shmem_broadcastmem, OpenSHMEM 1.5 team semantics): a barrier, a get from the root, a barrier.
   */
  async broadcastmem(dest: Symmetric, source: Symmetric, nbytes: number, root: number): Promise<void> {
    const call = 'broadcastmem';
    this.checkSym(call, 'dest', dest);
    this.checkSym(call, 'source', source);
    this.checkCount(call, 'nbytes', nbytes);
    this.checkPe(call, 'root', root);
    this.checkRange(call, 'dest', dest, nbytes);
    this.checkRange(call, 'source', source, nbytes);
    this.agreeWorld(call, { root, nbytes, type: 'bytes' });
    await this.barrierAll();
    if (this.myPe() === root) {
      if ((dest.segment !== source.segment || dest.offset !== source.offset) && this.moves(dest.local, source.local)) dest.local.set(source.local.subarray(0, nbytes));
    } else if (nbytes > 0) {
      await this.nic(call, this.dmapp.get(root, source.segment, source.offset, dest.local.subarray(0, nbytes)));
    }
    await this.barrierAll();
  }

  /**
   * Concatenates every PE's `nbytes` of `source` into `dest` on every PE, PE i's block at byte
   * i * nbytes (shmem_fcollectmem): a barrier, a put of this PE's block to every PE, a barrier.
   */
  async fcollectmem(dest: Symmetric, source: Symmetric, nbytes: number): Promise<void> {
    const call = 'fcollectmem';
    this.checkSym(call, 'dest', dest);
    this.checkSym(call, 'source', source);
    this.checkCount(call, 'nbytes', nbytes);
    this.checkRange(call, 'dest', dest, nbytes * this.nPes());
    this.checkRange(call, 'source', source, nbytes);
    this.agreeWorld(call, { nbytes, type: 'bytes' });
    await this.barrierAll();
    await this.putToAll(call, dest.segment, dest.offset + this.myPe() * nbytes, this.copyOf(source.local.subarray(0, nbytes)));
    await this.barrierAll();
  }

  /**
   * Concatenates every PE's `nbytes` of `source`, which may differ between PEs (0 included), into
   * `dest` on every PE in PE order (shmem_collectmem). Each PE puts its size to every PE, then a
   * barrier; each PE sums the sizes before its own (an exclusive prefix sum) to find its offset
   * in `dest` and puts its block there on every PE; a barrier. `dest` must hold the total: too
   * small a `dest` fails on every PE (they all see the same sizes) after that last barrier and
   * before any data moves.
   */
  async collectmem(dest: Symmetric, source: Symmetric, nbytes: number): Promise<void> {
    const call = 'collectmem';
    this.checkSym(call, 'dest', dest);
    this.checkSym(call, 'source', source);
    this.checkCount(call, 'nbytes', nbytes);
    this.checkRange(call, 'source', source, nbytes);
    // the sizes may differ between PEs: only the call itself must agree
    this.agreeWorld(call, { type: 'bytes' });
    const n = this.nPes();
    const me = this.myPe();
    const block = this.copyOf(source.local.subarray(0, nbytes));
    // a PE's slot is rewritten only after every PE has left the previous collectmem's last
    // barrier, having read it: no barrier is needed before the sizes go out, except after the
    // first call's allocation (every PE makes it at the same call)
    if (!this.sizes) {
      this.ready();
      this.sizes = this.dmapp.malloc(8 * n);
      await this.barrierAll();
    }
    const sizes = this.sizes;
    await this.putToAll(call, sizes, 8 * me, new Uint8Array(new BigUint64Array([BigInt(nbytes)]).buffer));
    // the barrier also guarantees every PE has entered, so no PE still reads its old dest
    await this.barrierAll();
    const all = new BigUint64Array(sizes.local.buffer, sizes.local.byteOffset, n);
    let before = 0;
    let total = 0;
    for (let p = 0; p < n; p++) {
      const b = Number(all[p]!);
      if (p < me) before += b;
      total += b;
    }
    if (total > dest.bytes) {
      // the last barrier all the same, so no PE's next collectmem overwrites sizes not yet read
      await this.barrierAll();
      throw new ShmemError(`${call}: the ${n} PEs contribute ${total} bytes in all (this PE ${nbytes}), more than the ${dest.bytes} bytes at dest (byte offset ${dest.offset} of its symmetric object)`);
    }
    await this.putToAll(call, dest.segment, dest.offset + before, block);
    await this.barrierAll();
  }

  /** Element-wise sum over all PEs of `nreduce` elements of `source` into `dest` on every PE (shmem_TYPE_sum_to_all). */
  async sumToAll(dest: Symmetric, source: Symmetric, nreduce: number, type: ReduceType): Promise<void> {
    return this.reduce('sumToAll', 'sum', dest, source, nreduce, type);
  }
  /** Element-wise minimum over all PEs (shmem_TYPE_min_to_all). */
  async minToAll(dest: Symmetric, source: Symmetric, nreduce: number, type: ReduceType): Promise<void> {
    return this.reduce('minToAll', 'min', dest, source, nreduce, type);
  }
  /** Element-wise maximum over all PEs (shmem_TYPE_max_to_all). */
  async maxToAll(dest: Symmetric, source: Symmetric, nreduce: number, type: ReduceType): Promise<void> {
    return this.reduce('maxToAll', 'max', dest, source, nreduce, type);
  }

  /**
   * Sets up the internal synchronisation segment on first use (the same point on every PE): the
   * world barrier's counters and the team slots, zeroed.
   */
  protected ready(): SymmetricSegment {
    if (this.syncSegment) return this.syncSegment;
    this.syncSegment = this.dmapp.malloc(this.slotAt(TEAM_SLOTS));
    this.watch.start(this.myPe(), this.proc.time());
    return this.syncSegment;
  }

  /**
   * Adds `amount` to a counter on PE `to` for `call`. A peer that has not made its first SHMEM
   * call has no synchronisation segment yet: like the launcher's bootstrap barrier, wait until it
   * has (then notice it with one poll), however long that takes.
   */
  protected async signal(call: string, to: number, seg: SymmetricSegment, offset: number, amount: bigint): Promise<void> {
    if (!this.watch.hasStarted(to)) {
      await this.watch.untilStarted(this.proc, to, () => `${call} on PE ${this.myPe()}: PE ${to} has not made its first SHMEM call (has every PE called ${call}?)`);
      await this.proc.cpu(this.proc.machine.config.mpi.testOverheadPs, 'shmem bootstrap');
    }
    await this.nic(call, this.dmapp.amo(call, 'add', false, 'nbi', to, seg, offset, amount));
  }

  /**
   * Waits until `ok()`, which reads `bytes` bytes at `offset` of this PE's `mem`: each read costs
   * a poll's CPU time; while it is false the PE sleeps until remote data lands on those bytes

  /** Puts `block` to byte `at` of `seg` on every PE, this one by a local copy (nbi; completes at the next quiet). */
  protected async putToAll(call: string, seg: SymmetricSegment, at: number, block: Uint8Array): Promise<void> {
    await this.putToGroup(call, PeSet.strided(0, 1, this.dmapp.npes), this.dmapp.pe, seg, at, block);
  }

  /** Puts `block` to byte `at` of `seg` on every PE of `pes` (this one, number `me` there, by a local copy); nbi. */
  protected async putToGroup(call: string, pes: PeSet, me: number, seg: SymmetricSegment, at: number, block: Uint8Array): Promise<void> {
    const n = pes.size;
    if (block.length === 0) return;
    if (this.moves(seg.local, block)) seg.local.set(block, at);
    for (let i = 1; i < n; i++) {
      await this.nic(call, this.dmapp.putNbi(pes.pe((me + i) % n), seg, at, block));
    }
  }

  protected async reduce(call: string, op: 'sum' | 'min' | 'max', dest: Symmetric, source: Symmetric, nreduce: number, type: ReduceType): Promise<void> {
    if (!REDUCE_TYPES.includes(type)) throw new ShmemError(`${call}: type=${String(type)}; valid: ${REDUCE_TYPES.join(', ')}`);
    this.checkSym(call, 'dest', dest);
    this.checkSym(call, 'source', source);
    this.checkCount(call, 'nreduce', nreduce);
    const e = TYPES[type].bytes;
    this.checkRange(call, 'dest', dest, nreduce * e);
    this.checkRange(call, 'source', source, nreduce * e);
    if (dest.offset % e !== 0) throw new ShmemError(`${call}: dest is at byte offset ${dest.offset}, not aligned to the ${e}-byte ${type}`);
    if (source.offset % e !== 0) throw new ShmemError(`${call}: source is at byte offset ${source.offset}, not aligned to the ${e}-byte ${type}`);
    this.agreeWorld(call, { nreduce, type });
    const n = this.nPes();
    const block = nreduce * e;
    // every PE asks for the same size, so every PE grows its scratch at the same call; a skeleton
    // source (symmetric: on every PE) gets a skeleton scratch
    const skeleton = this.proc.isSkeleton(source.local);
    if (!this.scratch || this.scratch.local.length < n * block || this.proc.isSkeleton(this.scratch.local) !== skeleton) {
      if (this.scratch) this.dmapp.free(this.scratch);
      this.ready();
      this.scratch = this.dmapp.malloc(Math.max(n * block, 64), { skeleton });
    }
    const scratch = this.scratch;
    // the barrier also guarantees no PE still reads its scratch from the previous reduction
    await this.barrierAll();
    await this.putToAll(call, scratch, this.myPe() * block, this.copyOf(source.local.subarray(0, block)));
    await this.barrierAll();
    // skeleton data is not folded; its time is charged all the same
    if (!this.moves(dest.local, scratch.local)) {
      await this.proc.cpu(Math.ceil((n * nreduce) / this.proc.machine.config.cpu.flopsPerPs), `shmem.${call}`);
      return;
    }
    // fold the blocks in PE order on every PE, so every PE gets bit-identical results
    const buf = scratch.local.buffer;
    const base = scratch.local.byteOffset;
    if (type === 'int64') {
      const out = new BigInt64Array(dest.segment.local.buffer, dest.segment.local.byteOffset + dest.offset, nreduce);
      const all = new BigInt64Array(buf, base, n * nreduce);
      for (let j = 0; j < nreduce; j++) {
        let acc = all[j]!;
        for (let p = 1; p < n; p++) {
          const v = all[p * nreduce + j]!;
          acc = op === 'sum' ? BigInt.asIntN(64, acc + v) : op === 'min' ? (v < acc ? v : acc) : v > acc ? v : acc;
        }
        out[j] = acc;
      }
    } else {
      const view = (b: ArrayBufferLike, at: number, len: number): Float64Array | Int32Array => (type === 'float64' ? new Float64Array(b, at, len) : new Int32Array(b, at, len));
      const out = view(dest.segment.local.buffer, dest.segment.local.byteOffset + dest.offset, nreduce);
      const all = view(buf, base, n * nreduce);
      for (let j = 0; j < nreduce; j++) {
        let acc = all[j]!;
        for (let p = 1; p < n; p++) {
          const v = all[p * nreduce + j]!;
          acc = op === 'sum' ? (type === 'int32' ? (acc + v) | 0 : acc + v) : op === 'min' ? Math.min(acc, v) : Math.max(acc, v);
        }
        out[j] = acc;
      }
    }
    // the local fold's CPU time: one operation per element and PE
    await this.proc.cpu(Math.ceil((n * nreduce) / this.proc.machine.config.cpu.flopsPerPs), `shmem.${call}`);
  }
}
