import type { SymmetricSegment } from '../dmapp/dmapp.ts';
import { ShmemError, TYPES, type ReduceType, type Symmetric } from './symmetric.ts';
import { ShmemWait } from './wait.ts';

const REDUCE_TYPES: readonly ReduceType[] = ['float64', 'int32', 'int64'];

/** Bytes of the internal synchronisation segment: one 8-byte barrier counter per dissemination round. */
const SYNC_ROUNDS = 64;

/** Collectives over all PEs (OpenSHMEM 1.5 §9.9): the barrier, broadcast, collects and reductions. */
export class ShmemCollectives extends ShmemWait {
  protected sync: SymmetricSegment | null = null;
  protected scratch: SymmetricSegment | null = null;
  /** Every PE's contribution to the current `collectmem`, 8 bytes per PE. */
  protected sizes: SymmetricSegment | null = null;
  protected barriers = 0;


  /**
   * Barrier over all PEs (shmem_barrier_all): `quiet`, then a dissemination barrier: in round k
   * each PE adds one (an AMO) to round k's counter on PE (me + 2^k) mod n and waits, as
   * `waitUntil` does, until its own counter has been signalled as many times as barriers were
   * entered.
   */
  async barrierAll(): Promise<void> {
    this.ready();
    await this.quiet();
    const n = this.nPes();
    const me = this.myPe();
    const epoch = BigInt(++this.barriers);
    const sync = this.sync!;
    const view = new DataView(sync.local.buffer, sync.local.byteOffset, sync.local.byteLength);
    for (let k = 0, d = 1; d < n; k++, d *= 2) {
      const to = (me + d) % n;
      await this.signal(to, sync, k * 8);
      const from = (me - d + n) % n;
      await this.poll(
        () => view.getBigUint64(k * 8, true) >= epoch,
        () => `barrierAll #${epoch} on PE ${me}: round ${k} never heard from PE ${from} (has every PE called barrierAll?)`,
        sync.local,
        k * 8,
        8,
      );
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

  /** Sets up the internal synchronisation segment on first use (the same point on every PE). */
  protected ready(): void {
    if (this.sync) return;
    this.sync = this.dmapp.malloc(SYNC_ROUNDS * 8);
    this.watch.start(this.myPe(), this.proc.time());
  }

  /**
   * Adds one to a barrier counter on PE `to`. A peer that has not made its first SHMEM call has
   * no synchronisation segment yet: like the launcher's bootstrap barrier, wait until it has
   * (then notice it with one poll), however long that takes.
   */
  protected async signal(to: number, sync: SymmetricSegment, offset: number): Promise<void> {
    if (!this.watch.hasStarted(to)) {
      await this.watch.untilStarted(this.proc, to, () => `barrierAll on PE ${this.myPe()}: PE ${to} has not made its first SHMEM call (has every PE called barrierAll?)`);
      await this.proc.cpu(this.proc.machine.config.mpi.testOverheadPs, 'shmem bootstrap');
    }
    await this.nic('barrierAll', this.dmapp.amo('barrierAll', 'add', false, 'nbi', to, sync, offset, 1n));
  }

  /**
   * Waits until `ok()`, which reads `bytes` bytes at `offset` of this PE's `mem`: each read costs
   * a poll's CPU time; while it is false the PE sleeps until remote data lands on those bytes

  /** Puts `block` to byte `at` of `seg` on every PE, this one by a local copy (nbi; completes at the next quiet). */
  protected async putToAll(call: string, seg: SymmetricSegment, at: number, block: Uint8Array): Promise<void> {
    const n = this.nPes();
    const me = this.myPe();
    if (block.length === 0) return;
    if (this.moves(seg.local, block)) seg.local.set(block, at);
    for (let i = 1; i < n; i++) {
      const pe = (me + i) % n;
      await this.nic(call, this.dmapp.putNbi(pe, seg, at, block));
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
