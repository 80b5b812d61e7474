import { checkOpType, OP_TYPES, REDUCE_ALIGN, REDUCE_BYTES, type ReduceElemType, type ReduceOp } from './reduce-ops.ts';
import { ELEM_BYTES, ShmemError, type ElemType, type Symmetric } from './symmetric.ts';
import { ShmemTeam } from './team.ts';
import { ShmemTeams } from './teams.ts';

/** Element types of the typed team collectives: every ElemType and the 16-byte `longdouble` (see ReduceElemType). */
export type CollElemType = ElemType | 'longdouble';

const COLL_BYTES: Readonly<Record<CollElemType, 1 | 2 | 4 | 8 | 16>> = { ...ELEM_BYTES, longdouble: 16 };

/** Bytes per element of a typed collective's `type`, or a ShmemError naming `call` and the valid types. */
function collBytes(call: string, type: CollElemType): 1 | 2 | 4 | 8 | 16 {
  if (typeof type !== 'string' || !Object.hasOwn(COLL_BYTES, type)) throw new ShmemError(`${call}: type=${String(type)}; valid: ${Object.keys(COLL_BYTES).join(', ')}`);
  return COLL_BYTES[type];
}

/**
 * The collectives of OpenSHMEM 1.5 on a team (§9.9): broadcast, collects, all-to-alls and the
 * reductions, in `...mem` (bytes) and typed (`type`, elements) forms, run by the team's PEs only
 * over the team's own counters (see ShmemGroupCollectives for how data moves). Every PE of the
 * team passes the same arguments (the root, counts, strides, type), checked as the calls are
 * entered; a mismatch is an error naming both PEs. `broadcastmem`, `collectmem` and
 * `fcollectmem` without a team are the world calls of ShmemCollectives, unchanged. A count of 0
 * lets `dest` and `source` be anything (OpenSHMEM Annex C).
 *
 * The typed forms take every standard RMA type (CollElemType: int8, uint8, int16, uint16, int32,
 * uint32, int64, uint64, float32, float64, each standing for the C types of its size and kind,
 * and `longdouble`, 16 bytes an element as the reductions lay it out).
 * Reductions take those as OpenSHMEM 1.5 Table 10 lists them: `sumReduce` and `prodReduce` every
 * one and the complex types (`complexf`, `complexd`), `minReduce` and `maxReduce` the real ones,
 * `andReduce`, `orReduce`, `xorReduce` the integers. They fold every PE's block in team order,
 * so every PE gets bit-identical results; each step wraps or rounds to the type as C's does.
 */
export class ShmemTeamCollectives extends ShmemTeams {
  /** Copies `nbytes` of `source` on PE `root` into `dest` on every PE (shmem_broadcastmem); without a team, over all PEs. */
  override broadcastmem(dest: Symmetric, source: Symmetric, nbytes: number, root: number): Promise<void>;
  override broadcastmem(team: ShmemTeam | null, dest: Symmetric, source: Symmetric, nbytes: number, root: number): Promise<void>;
  override async broadcastmem(...a: unknown[]): Promise<void> {
    if (!isTeam(a[0])) return super.broadcastmem(a[0] as Symmetric, a[1] as Symmetric, a[2] as number, a[3] as number);
    const [team, dest, source, nbytes, root] = a as [ShmemTeam | null, Symmetric, Symmetric, number, number];
    return this.broadcastBytes('broadcastmem', team, dest, source, nbytes, root, 1);
  }

  /** Copies `nelems` elements of `type` of `source` on team PE `root` into `dest` on every PE of `team` (shmem_TYPE_broadcast). */
  async broadcast(team: ShmemTeam | null, dest: Symmetric, source: Symmetric, nelems: number, root: number, type: CollElemType): Promise<void> {
    const e = collBytes('broadcast', type);
    this.checkCount('broadcast', 'nelems', nelems);
    return this.broadcastBytes('broadcast', team, dest, source, nelems * e, root, e, type);
  }

  /** Concatenates every PE's `nbytes` of `source` (sizes may differ) into `dest` on every PE, in PE order (shmem_collectmem). */
  override collectmem(dest: Symmetric, source: Symmetric, nbytes: number): Promise<void>;
  override collectmem(team: ShmemTeam | null, dest: Symmetric, source: Symmetric, nbytes: number): Promise<void>;
  override async collectmem(...a: unknown[]): Promise<void> {
    if (!isTeam(a[0])) return super.collectmem(a[0] as Symmetric, a[1] as Symmetric, a[2] as number);
    const [team, dest, source, nbytes] = a as [ShmemTeam | null, Symmetric, Symmetric, number];
    return this.collectBytes('collectmem', team, dest, source, nbytes, 1);
  }

  /** Concatenates every PE's `nelems` elements of `type` (counts may differ) into `dest` on every PE of `team` (shmem_TYPE_collect). */
  async collect(team: ShmemTeam | null, dest: Symmetric, source: Symmetric, nelems: number, type: CollElemType): Promise<void> {
    const e = collBytes('collect', type);
    this.checkCount('collect', 'nelems', nelems);
    return this.collectBytes('collect', team, dest, source, nelems * e, e, type);
  }

  /** Concatenates every PE's `nbytes` of `source` into `dest` on every PE, PE i's block at byte i * nbytes (shmem_fcollectmem). */
  override fcollectmem(dest: Symmetric, source: Symmetric, nbytes: number): Promise<void>;
  override fcollectmem(team: ShmemTeam | null, dest: Symmetric, source: Symmetric, nbytes: number): Promise<void>;
  override async fcollectmem(...a: unknown[]): Promise<void> {
    if (!isTeam(a[0])) return super.fcollectmem(a[0] as Symmetric, a[1] as Symmetric, a[2] as number);
    const [team, dest, source, nbytes] = a as [ShmemTeam | null, Symmetric, Symmetric, number];
    return this.fcollectBytes('fcollectmem', team, dest, source, nbytes, 1);
  }

  /** Concatenates every PE's `nelems` elements of `type` into `dest` on every PE of `team` (shmem_TYPE_fcollect). */
  async fcollect(team: ShmemTeam | null, dest: Symmetric, source: Symmetric, nelems: number, type: CollElemType): Promise<void> {
    const e = collBytes('fcollect', type);
    this.checkCount('fcollect', 'nelems', nelems);
    return this.fcollectBytes('fcollect', team, dest, source, nelems * e, e, type);
  }

  /** Block j (`nbytes`) of `source` to block `me` of `dest` on team PE j, for every j (shmem_alltoallmem). */
  async alltoallmem(team: ShmemTeam | null, dest: Symmetric, source: Symmetric, nbytes: number): Promise<void> {
    return this.alltoallBytes('alltoallmem', team, dest, source, nbytes, 1);
  }

  /** Block j (`nelems` elements of `type`) of `source` to block `me` of `dest` on team PE j (shmem_TYPE_alltoall). */
  async alltoall(team: ShmemTeam | null, dest: Symmetric, source: Symmetric, nelems: number, type: CollElemType): Promise<void> {
    const e = collBytes('alltoall', type);
    this.checkCount('alltoall', 'nelems', nelems);
    return this.alltoallBytes('alltoall', team, dest, source, nelems * e, e, type);
  }

  /**
   * Strided all-to-all of bytes (shmem_alltoallsmem): on team PE j, byte (me * nelems + k) * dst
   * of `dest` gets byte (j * nelems + k) * sst of this PE's `source`, k < nelems.
   */
  async alltoallsmem(team: ShmemTeam | null, dest: Symmetric, source: Symmetric, dst: number, sst: number, nelems: number): Promise<void> {
    return this.alltoallsElems('alltoallsmem', team, dest, source, dst, sst, nelems, 1);
  }

  /** Strided all-to-all of `nelems` elements of `type` per PE pair, strides in elements (shmem_TYPE_alltoalls). */
  async alltoalls(team: ShmemTeam | null, dest: Symmetric, source: Symmetric, dst: number, sst: number, nelems: number, type: CollElemType): Promise<void> {
    return this.alltoallsElems('alltoalls', team, dest, source, dst, sst, nelems, collBytes('alltoalls', type), type);
  }

  /** Element-wise sum over `team` of `nreduce` elements of `type` of `source` into `dest` on every PE (shmem_TYPE_sum_reduce). */
  async sumReduce(team: ShmemTeam | null, dest: Symmetric, source: Symmetric, nreduce: number, type: ReduceElemType): Promise<void> {
    return this.teamReduce('sumReduce', 'sum', team, dest, source, nreduce, type);
  }
  /** Element-wise product (shmem_TYPE_prod_reduce). */
  async prodReduce(team: ShmemTeam | null, dest: Symmetric, source: Symmetric, nreduce: number, type: ReduceElemType): Promise<void> {
    return this.teamReduce('prodReduce', 'prod', team, dest, source, nreduce, type);
  }
  /** Element-wise minimum (shmem_TYPE_min_reduce). */
  async minReduce(team: ShmemTeam | null, dest: Symmetric, source: Symmetric, nreduce: number, type: ReduceElemType): Promise<void> {
    return this.teamReduce('minReduce', 'min', team, dest, source, nreduce, type);
  }
  /** Element-wise maximum (shmem_TYPE_max_reduce). */
  async maxReduce(team: ShmemTeam | null, dest: Symmetric, source: Symmetric, nreduce: number, type: ReduceElemType): Promise<void> {
    return this.teamReduce('maxReduce', 'max', team, dest, source, nreduce, type);
  }
  /** Element-wise bitwise and, integer types only (shmem_TYPE_and_reduce). */
  async andReduce(team: ShmemTeam | null, dest: Symmetric, source: Symmetric, nreduce: number, type: ReduceElemType): Promise<void> {
    return this.teamReduce('andReduce', 'and', team, dest, source, nreduce, type);
  }
  /** Element-wise bitwise or (shmem_TYPE_or_reduce). */
  async orReduce(team: ShmemTeam | null, dest: Symmetric, source: Symmetric, nreduce: number, type: ReduceElemType): Promise<void> {
    return this.teamReduce('orReduce', 'or', team, dest, source, nreduce, type);
  }
  /** Element-wise bitwise exclusive or (shmem_TYPE_xor_reduce). */
  async xorReduce(team: ShmemTeam | null, dest: Symmetric, source: Symmetric, nreduce: number, type: ReduceElemType): Promise<void> {
    return this.teamReduce('xorReduce', 'xor', team, dest, source, nreduce, type);
  }

  private async broadcastBytes(call: string, team: ShmemTeam | null, dest: Symmetric, source: Symmetric, nbytes: number, root: number, e: number, type = 'bytes'): Promise<void> {
    const t = this.checkTeam(call, 'team', team);
    this.checkCount(call, 'nbytes', nbytes);
    if (!Number.isInteger(root) || root < 0 || root >= t.pes.size) throw new ShmemError(`${call}: root=${root} is not a PE of ${t.label} (0..${t.pes.size - 1})`);
    this.checkBlock(call, 'dest', dest, nbytes, e, type);
    this.checkBlock(call, 'source', source, nbytes, e, type);
    await this.groupBroadcast(call, this.teamGroup(call, t, { root, ...counted(nbytes, e, type), type }), dest, source, nbytes, root, true);
  }

  private async collectBytes(call: string, team: ShmemTeam | null, dest: Symmetric, source: Symmetric, nbytes: number, e: number, type = 'bytes'): Promise<void> {
    const t = this.checkTeam(call, 'team', team);
    this.checkCount(call, 'nbytes', nbytes);
    this.checkBlock(call, 'source', source, nbytes, e, type);
    // the total is known only once the sizes are in: dest is checked against it then (a null
    // dest is fine when every PE gives nothing, OpenSHMEM Annex C)
    if (dest !== null) {
      this.checkSym(call, 'dest', dest);
      if (dest.offset % e !== 0) throw new ShmemError(`${call}: dest is at byte offset ${dest.offset}, not aligned to the ${e}-byte ${type}`);
    }
    await this.groupCollect(call, this.teamGroup(call, t, { type }), dest, source, nbytes);
  }

  private async fcollectBytes(call: string, team: ShmemTeam | null, dest: Symmetric, source: Symmetric, nbytes: number, e: number, type = 'bytes'): Promise<void> {
    const t = this.checkTeam(call, 'team', team);
    this.checkCount(call, 'nbytes', nbytes);
    this.checkBlock(call, 'dest', dest, nbytes * t.pes.size, e, type);
    this.checkBlock(call, 'source', source, nbytes, e, type);
    await this.groupFcollect(call, this.teamGroup(call, t, { ...counted(nbytes, e, type), type }), dest, source, nbytes);
  }

  private async alltoallBytes(call: string, team: ShmemTeam | null, dest: Symmetric, source: Symmetric, nbytes: number, e: number, type = 'bytes'): Promise<void> {
    const t = this.checkTeam(call, 'team', team);
    this.checkCount(call, 'nbytes', nbytes);
    this.checkBlock(call, 'dest', dest, nbytes * t.pes.size, e, type);
    this.checkBlock(call, 'source', source, nbytes * t.pes.size, e, type);
    await this.groupAlltoall(call, this.teamGroup(call, t, { ...counted(nbytes, e, type), type }), dest, source, nbytes);
  }

  private async alltoallsElems(call: string, team: ShmemTeam | null, dest: Symmetric, source: Symmetric, dst: number, sst: number, nelems: number, e: number, type = 'bytes'): Promise<void> {
    const t = this.checkTeam(call, 'team', team);
    this.checkStride(call, dst, sst, nelems);
    const n = t.pes.size;
    // the last element each side touches: block n-1, element nelems-1
    const span = (s: number): number => (nelems === 0 ? 0 : ((n * nelems - 1) * s + 1) * e);
    this.checkBlock(call, 'dest', dest, span(dst), e, type);
    this.checkBlock(call, 'source', source, span(sst), e, type);
    await this.groupAlltoalls(call, this.teamGroup(call, t, { dst, sst, nelems, type }), dest, source, dst, sst, nelems, e);
  }

  private async teamReduce(call: string, op: ReduceOp, team: ShmemTeam | null, dest: Symmetric, source: Symmetric, nreduce: number, type: ReduceElemType): Promise<void> {
    const t = this.checkTeam(call, 'team', team);
    if (typeof type !== 'string' || !Object.hasOwn(REDUCE_BYTES, type)) throw new ShmemError(`${call}: type=${String(type)}; valid: ${OP_TYPES[op].join(', ')}`);
    checkOpType(call, op, type);
    const e = REDUCE_BYTES[type];
    this.checkCount(call, 'nreduce', nreduce);
    this.checkBlock(call, 'dest', dest, nreduce * e, REDUCE_ALIGN[type], type);
    this.checkBlock(call, 'source', source, nreduce * e, REDUCE_ALIGN[type], type);
    await this.groupReduce(call, this.teamGroup(call, t, { nreduce, type }), op, type, dest, source, nreduce, e);
  }

  /**
   * Checks `bytes` bytes at a symmetric `s` for `call`, aligned to `align` bytes, the alignment
   * of `type` (its size, but a complex type's part's); a block of 0 bytes may be any address (Annex C).
   */
  protected checkBlock(call: string, arg: string, s: Symmetric, bytes: number, align: number, type: string): void {
    if (bytes === 0) return;
    this.checkSym(call, arg, s);
    this.checkRange(call, arg, s, bytes);
    if (s.offset % align !== 0) {
      const what = type.startsWith('complex') ? `the ${align}-byte alignment of ${type}` : `the ${align}-byte ${type}`;
      throw new ShmemError(`${call}: ${arg} is at byte offset ${s.offset}, not aligned to ${what}`);
    }
  }
}

/** The count every PE must pass alike, as the call takes it: `nbytes` of a `...mem` call, `nelems` of a typed one (so a mismatch names the value passed). */
function counted(nbytes: number, e: number, type: string): { nbytes: number } | { nelems: number } {
  return type === 'bytes' ? { nbytes } : { nelems: nbytes / e };
}

/** Whether the first argument of an overloaded collective is a team (or TEAM_INVALID), not a symmetric address. */
function isTeam(x: unknown): boolean {
  return x === null || x instanceof ShmemTeam;
}
