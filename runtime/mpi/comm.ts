import { balancedDims } from '../../fabric/topology/torus.ts';
import type { Proc } from '../proc.ts';
import { PROC_NULL, type MpiWorld } from './core.ts';
import { CollComm } from './comm-coll.ts';
import type { CommShape, RankState } from './comm-base.ts';
import { describe, UNDEFINED } from './constants.ts';
import { Group } from './group.ts';
import { MpiError } from './request.ts';
import { allocateShared, checkDispUnit, checkSize, makeWindow, type AllocatedWin } from './rma/create.ts';
import { viewBytes, type Win, type WinHost } from './rma/window.ts';

export { CommBase, RankState, type CommShape } from './comm-base.ts';
export { CollComm } from './comm-coll.ts';
export { BSEND_OVERHEAD, describe, IN_PLACE, TAG_UB, UNDEFINED, type CollOptions } from './constants.ts';
export { Group } from './group.ts';

/**
 * A communicator as one rank sees it (MPI_Comm): point-to-point calls, communicator management
 * and Cartesian topologies. Ranks, sources and destinations are ranks of this communicator;
 * messages of different communicators never match each other, and the library's collective
 * traffic never matches user messages.
 */
export class Comm extends CollComm {
  /** Communicators made from this one so far: all members make them in the same order. */
  private children = 0;

  // ---------------------------------------------------------------- communicators

  /** A copy with the same ranks and new contexts (MPI_Comm_dup; collective). */
  async dup(): Promise<Comm> {
    const key = this.childKey('dup');
    this.agree({ call: 'dup' });
    await this.barrier();
    return new Comm(this.world, this.proc, this.state, { ...this.shape, ctx: this.world.contextFor(key) });
  }

  /**
   * Splits the communicator by `color` (MPI_Comm_split; collective): ranks with the same color
   * form a new communicator, ordered by `key` then by rank here. Color UNDEFINED gives null.
   */
  async split(color: number, key = 0): Promise<Comm | null> {
    if (!Number.isInteger(color) || (color < 0 && color !== UNDEFINED)) throw new MpiError('MPI_ERR_ARG', `split: color=${color} must be a non-negative integer or mpi.UNDEFINED`);
    if (!Number.isInteger(key)) throw new MpiError('MPI_ERR_ARG', `split: key=${key} must be an integer`);
    const base = this.childKey('split');
    this.agree({ call: 'split' });
    // every rank's (color, key)
    const all = new Int32Array(2 * this.size);
    await this.allgather(Int32Array.of(color, key), all);
    if (color === UNDEFINED) return null;
    const order: number[] = [];
    for (let r = 0; r < this.size; r++) if (all[2 * r] === color) order.push(r);
    order.sort((a, b) => all[2 * a + 1]! - all[2 * b + 1]! || a - b);
    return this.sub(order.map((r) => this.shape.members[r]!), `${base}:${color}`);
  }

  /**
   * A communicator of the ranks of `group` (MPI_Comm_create; collective over this one); null for
   * ranks outside it. As MPI 2.2 allows, ranks may pass different, disjoint groups (odd ranks the
   * odd group, even ranks the even one): each group becomes a communicator of its own. The members
   * of one group must pass the same group (MPI_ERR_GROUP names both versions otherwise).
   */
  async create(group: Group): Promise<Comm | null> {
    if (!(group instanceof Group)) throw new MpiError('MPI_ERR_GROUP', `create: expected a Group, got ${describe(group)}`);
    const inv = this.shape.inv;
    group.ranks.forEach((w) => {
      if (!(inv ? inv[w]! >= 0 : w < this.size)) throw new MpiError('MPI_ERR_GROUP', `create: world rank ${w} of the group is not in this communicator`);
    });
    const base = this.childKey('create');
    this.agree({ call: 'create' });
    await this.barrier();
    if (!group.ranks.includes(this.proc.rank)) return null;
    // disjoint groups have distinct least members: one communicator per group
    const key = `${base}:${Math.min(...group.ranks)}`;
    const first = this.world.memo(`${key}:group`, () => ({ ranks: group.ranks.slice(), by: this.rank }));
    if (first.ranks.length !== group.ranks.length || first.ranks.some((w, i) => w !== group.ranks[i])) {
      throw new MpiError('MPI_ERR_GROUP', `create: rank ${this.rank} passes the group of world ranks [${group.ranks.join(', ')}], but rank ${first.by}, a member too, passed [${first.ranks.join(', ')}]`);
    }
    return this.sub(group.ranks, key);
  }

  /**
   * A Cartesian communicator (MPI_Cart_create; collective): ranks are laid out row-major (the last
   * dimension varies fastest) on `dims`; ranks beyond the grid get null. `reorder` is accepted
   * and ignored (ranks keep their order).
   */
  async cartCreate(dims: readonly number[], periods: readonly boolean[], reorder = false): Promise<CartComm | null> {
    void reorder;
    if (!Array.isArray(dims) || dims.length === 0 || dims.some((d) => !Number.isInteger(d) || d < 1)) throw new MpiError('MPI_ERR_DIMS', `cartCreate: dims=${JSON.stringify(dims)} must be positive integers`);
    if (!Array.isArray(periods) || periods.length !== dims.length) throw new MpiError('MPI_ERR_ARG', `cartCreate: periods must have one entry per dimension (${dims.length}), got ${JSON.stringify(periods)}`);
    const n = dims.reduce((a, b) => a * b, 1);
    if (n > this.size) throw new MpiError('MPI_ERR_DIMS', `cartCreate: the grid ${dims.join('x')} has ${n} ranks, more than the communicator's ${this.size}`);
    const key = this.childKey('cart');
    this.agree({ call: 'cartCreate', counts: dims, countsName: 'dims' });
    await this.barrier();
    if (this.rank >= n) return null;
    const members = this.shape.members.slice(0, n);
    return new CartComm(this.world, this.proc, this.state, this.shapeOf(members, key), dims, periods.map(Boolean));
  }

  // ---------------------------------------------------------------- one-sided windows (rma/)

  /** A window over `buf` (MPI_Win_create; collective); `dispUnit` defaults to the size of buf's elements. */
  async winCreate(buf: ArrayBufferView, dispUnit?: number): Promise<Win> {
    const mem = viewBytes('winCreate', buf);
    const unit = dispUnit ?? ('BYTES_PER_ELEMENT' in buf ? (buf as unknown as { BYTES_PER_ELEMENT: number }).BYTES_PER_ELEMENT : 1);
    checkDispUnit('winCreate', unit);
    return makeWindow(await this.winHost('winCreate'), 'create', mem, unit, 4096);
  }

  /** A window over `bytes` of memory the library allocates (MPI_Win_allocate; collective): `{ win, buf }`. */
  async winAllocate(bytes: number, dispUnit = 1): Promise<AllocatedWin> {
    checkSize('winAllocate', bytes);
    checkDispUnit('winAllocate', dispUnit);
    const buf = new Uint8Array(bytes);
    const win = await makeWindow(await this.winHost('winAllocate'), 'allocate', buf, dispUnit, this.proc.machine.config.dmapp.heapPageBytes);
    return { win, buf };
  }

  /**
   * A window over memory that the communicator's ranks, all on one node, share (MPI_Win_allocate_shared;
   * collective): `{ win, buf }`; `win.sharedQuery(r)` gives rank r's segment to load and store.
   */
  async winAllocateShared(bytes: number, dispUnit = 1): Promise<AllocatedWin> {
    checkSize('winAllocateShared', bytes);
    checkDispUnit('winAllocateShared', dispUnit);
    const node = this.proc.node;
    if (!this.shape.members.every((w) => this.world.procs[w]!.node === node)) {
      throw new MpiError('MPI_ERR_RMA_SHARED', `winAllocateShared: the communicator's ${this.size} ranks are not all on one node (split it by node first)`);
    }
    return allocateShared(await this.winHost('winAllocateShared'), bytes, dispUnit);
  }

  /** A window without memory, to which each rank attaches its own (MPI_Win_create_dynamic; collective). */
  async winCreateDynamic(): Promise<Win> {
    return makeWindow(await this.winHost('winCreateDynamic'), 'dynamic', null, 1, 4096);
  }

  /** What a new window is made on: a duplicate of this communicator, for its own collectives. */
  private async winHost(call: string): Promise<WinHost> {
    this.agree({ call });
    const comm = await this.dup();
    return { world: this.world, proc: this.proc, comm, key: `win:${comm.shape.ctx}` };
  }

  /** Key naming this rank's next communicator made from this one (the same on every member). */
  protected childKey(what: string): string {
    return `${this.shape.ctx}/${this.children++}/${what}`;
  }

  /** The shape of a communicator of `members` (world ranks) with the context named `key`. */
  protected shapeOf(members: ArrayLike<number>, key: string): CommShape {
    const c = this.world.commFor(key, members);
    return { ...c, rank: c.inv[this.proc.rank]! };
  }

  protected sub(members: readonly number[], key: string): Comm {
    return new Comm(this.world, this.proc, this.state, this.shapeOf(members, key));
  }
}

/**
 * A communicator with a Cartesian topology (MPI_Cart_*): row-major rank order, the last
 * dimension varying fastest.
 */
export class CartComm extends Comm {
  /** This rank's coordinates. */
  readonly coords: readonly number[];

  constructor(
    world: MpiWorld,
    proc: Proc,
    state: RankState,
    shape: CommShape,
    readonly dims: readonly number[],
    readonly periods: readonly boolean[],
  ) {
    super(world, proc, state, shape);
    this.coords = this.cartCoords(shape.rank);
  }

  /** Coordinates of rank `rank` (MPI_Cart_coords). */
  cartCoords(rank: number): number[] {
    if (!Number.isInteger(rank) || rank < 0 || rank >= this.size) throw new MpiError('MPI_ERR_RANK', `cartCoords: rank=${rank} is not a rank of the grid (0..${this.size - 1})`);
    const c = new Array<number>(this.dims.length);
    let r = rank;
    for (let d = this.dims.length - 1; d >= 0; d--) {
      c[d] = r % this.dims[d]!;
      r = Math.floor(r / this.dims[d]!);
    }
    return c;
  }

  /** Rank at `coords` (MPI_Cart_rank): periodic dimensions wrap, others must be in range. */
  cartRank(coords: readonly number[]): number {
    if (!Array.isArray(coords) || coords.length !== this.dims.length) throw new MpiError('MPI_ERR_ARG', `cartRank: coords must have ${this.dims.length} entries, got ${JSON.stringify(coords)}`);
    let r = 0;
    for (let d = 0; d < this.dims.length; d++) {
      const n = this.dims[d]!;
      let c = coords[d]!;
      if (!Number.isInteger(c)) throw new MpiError('MPI_ERR_ARG', `cartRank: coords[${d}]=${c} is not an integer`);
      if (this.periods[d]) c = ((c % n) + n) % n;
      else if (c < 0 || c >= n) throw new MpiError('MPI_ERR_ARG', `cartRank: coords[${d}]=${c} is outside the non-periodic dimension 0..${n - 1}`);
      r = r * n + c;
    }
    return r;
  }

  /**
   * Neighbours along `direction` at distance `disp` (MPI_Cart_shift): `dest` is the rank `disp`
   * ahead, `source` the one `disp` behind; PROC_NULL off the edge of a non-periodic dimension.
   */
  cartShift(direction: number, disp: number): { source: number; dest: number } {
    if (!Number.isInteger(direction) || direction < 0 || direction >= this.dims.length) throw new MpiError('MPI_ERR_DIMS', `cartShift: direction=${direction} must be 0..${this.dims.length - 1}`);
    if (!Number.isInteger(disp)) throw new MpiError('MPI_ERR_ARG', `cartShift: disp=${disp} must be an integer`);
    const at = (delta: number): number => {
      const c = [...this.coords];
      c[direction]! += delta;
      const n = this.dims[direction]!;
      if (!this.periods[direction] && (c[direction]! < 0 || c[direction]! >= n)) return PROC_NULL;
      return this.cartRank(c);
    };
    return { source: at(-disp), dest: at(disp) };
  }

  /**
   * Sub-grids keeping the dimensions where `remainDims` is true (MPI_Cart_sub; collective): the
   * ranks that share their coordinates in the dropped dimensions form one new CartComm.
   */
  async cartSub(remainDims: readonly boolean[]): Promise<CartComm> {
    if (!Array.isArray(remainDims) || remainDims.length !== this.dims.length) throw new MpiError('MPI_ERR_ARG', `cartSub: remainDims must have ${this.dims.length} entries, got ${JSON.stringify(remainDims)}`);
    const key = this.childKey('cartSub');
    this.agree({ call: 'cartSub', counts: remainDims.map(Number), countsName: 'remainDims' });
    await this.barrier();
    const keep = (d: number): boolean => Boolean(remainDims[d]);
    // the sub-grid's ranks in row-major order of the kept dimensions, the others fixed at mine
    const members: number[] = [];
    const c = [...this.coords];
    const walk = (d: number): void => {
      if (d === this.dims.length) {
        members.push(this.worldRank(this.cartRank(c)));
        return;
      }
      if (!keep(d)) return walk(d + 1);
      for (let x = 0; x < this.dims[d]!; x++) {
        c[d] = x;
        walk(d + 1);
      }
      c[d] = this.coords[d]!;
    };
    walk(0);
    const color = this.coords.map((x, d) => (keep(d) ? '*' : String(x))).join(',');
    const dims = this.dims.filter((_, d) => keep(d));
    const periods = this.periods.filter((_, d) => keep(d));
    return new CartComm(this.world, this.proc, this.state, this.shapeOf(members, `${key}:${color}`), dims.length > 0 ? dims : [1], periods.length > 0 ? periods : [false]);
  }
}

/**
 * Balanced dimensions for `nnodes` ranks (MPI_Dims_create): entries of `dims` that are 0 are
 * filled, as close to each other as possible and in non-increasing order; non-zero entries stay.
 */
export function dimsCreate(nnodes: number, dims: readonly number[]): number[] {
  if (!Number.isInteger(nnodes) || nnodes < 1) throw new MpiError('MPI_ERR_ARG', `dimsCreate: nnodes=${nnodes} must be a positive integer`);
  if (!Array.isArray(dims) || dims.length === 0 || dims.some((d) => !Number.isInteger(d) || d < 0)) throw new MpiError('MPI_ERR_DIMS', `dimsCreate: dims=${JSON.stringify(dims)} must be non-negative integers`);
  const fixed = dims.filter((d) => d > 0).reduce((a, b) => a * b, 1);
  if (nnodes % fixed !== 0) throw new MpiError('MPI_ERR_DIMS', `dimsCreate: the fixed dimensions (product ${fixed}) do not divide nnodes=${nnodes}`);
  const free = dims.filter((d) => d === 0).length;
  if (free === 0) {
    if (fixed !== nnodes) throw new MpiError('MPI_ERR_DIMS', `dimsCreate: dims ${dims.join('x')} give ${fixed} ranks, not ${nnodes}`);
    return [...dims];
  }
  const fill = balancedDims(nnodes / fixed, free);
  let k = 0;
  return dims.map((d) => (d > 0 ? d : fill[k++]!));
}

