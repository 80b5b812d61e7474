import { ShmemCollectives, SYNC_VALUE, type Group } from './collectives.ts';
import { DMAPP_OF_SIZE } from './elements.ts';
import { fold, type ReduceElemType, type ReduceOp } from './reduce-ops.ts';
import { ShmemError, Symmetric } from './symmetric.ts';

/**
 * The collectives of a group of PEs (a team or an active set), over DMAPP as the world ones are:
 * every data movement is a get or a put of the NIC between two synchronisations of the group
 * (`disseminate`), which also keep a PE from overwriting what a slower one still reads. The
 * arguments are checked by the callers; these only move data.
 */
export class ShmemGroupCollectives extends ShmemCollectives {
  /**
   * Copies `nbytes` of `source` on the group's PE `root` into `dest` on every PE: a sync, a get
   * from the root, a sync. `rootToo` copies it on the root as well (OpenSHMEM 1.5; the 1.4
   * active-set broadcast leaves the root's `dest` alone).
   */
  protected async groupBroadcast(call: string, g: Group, dest: Symmetric, source: Symmetric, nbytes: number, root: number, rootToo: boolean): Promise<void> {
    await this.disseminate(call, g);
    // with nothing to copy, dest and source may be anything (OpenSHMEM Annex C)
    if (nbytes === 0) {
      // nothing moves
    } else if (g.me === root) {
      const same = dest.segment === source.segment && dest.offset === source.offset;
      if (rootToo && !same && this.moves(dest.local, source.local)) dest.local.set(source.local.subarray(0, nbytes));
    } else {
      await this.nic(call, this.dmapp.get(g.pes.pe(root), source.segment, source.offset, dest.local.subarray(0, nbytes)));
    }
    await this.disseminate(call, g);
  }

  /** Concatenates every PE's `nbytes` of `source` into `dest` on every PE, in group order: a sync, a put to every PE, quiet, a sync. */
  protected async groupFcollect(call: string, g: Group, dest: Symmetric, source: Symmetric, nbytes: number): Promise<void> {
    await this.disseminate(call, g);
    if (nbytes > 0) await this.putToGroup(call, g.pes, g.me, dest.segment, dest.offset + g.me * nbytes, this.copyOf(source.local.subarray(0, nbytes)));
    await this.nic(call, this.dmapp.gsyncWait());
    await this.disseminate(call, g);
  }

  /**
   * Concatenates every PE's `nbytes` of `source` (which may differ between PEs) into `dest` on
   * every PE, in group order. Each PE writes its size into its scratch word, then a sync; each
   * gets the others' sizes, puts its block at the sum of the sizes before its own on every PE,
   * quiet, a sync. Too small a `dest` fails on every PE after that sync, before any data moves.
   * A pSync's size word is back to SYNC_VALUE at the end.
   */
  protected async groupCollect(call: string, g: Group, dest: Symmetric, source: Symmetric, nbytes: number): Promise<void> {
    const n = g.pes.size;
    const seg = g.seg;
    const view = new DataView(seg.local.buffer, seg.local.byteOffset, seg.local.byteLength);
    // a PE that gives nothing may pass any source (OpenSHMEM Annex C)
    const block = nbytes > 0 ? this.copyOf(source.local.subarray(0, nbytes)) : new Uint8Array(0);
    view.setBigInt64(g.scratch, BigInt(nbytes), true);
    await this.disseminate(call, g);
    const sizes = new BigInt64Array(n);
    for (let i = 0; i < n; i++) {
      if (i === g.me) sizes[i] = BigInt(nbytes);
      else await this.nic(call, this.dmapp.getNbi(g.pes.pe(i), seg, g.scratch, new Uint8Array(sizes.buffer, 8 * i, 8)));
    }
    await this.nic(call, this.dmapp.gsyncWait());
    let before = 0;
    let total = 0;
    for (let i = 0; i < n; i++) {
      if (i < g.me) before += Number(sizes[i]);
      total += Number(sizes[i]);
    }
    // dest is checked against the total: when nothing is collected it may be anything (Annex C)
    const why =
      total === 0
        ? null
        : !(dest instanceof Symmetric)
          ? `dest is not a symmetric address of PE ${this.dmapp.pe}, and the ${n} PEs contribute ${total} bytes`
          : total > dest.bytes
            ? `the ${n} PEs contribute ${total} bytes in all (this PE ${nbytes}), more than the ${dest.bytes} bytes at dest (byte offset ${dest.offset} of its symmetric object)`
            : null;
    if (why !== null) {
      await this.disseminate(call, g);
      if (g.nextEpoch === null) view.setBigInt64(g.scratch, SYNC_VALUE, true);
      throw new ShmemError(`${call}: ${why}`);
    }
    if (nbytes > 0) await this.putToGroup(call, g.pes, g.me, dest.segment, dest.offset + before, block);
    await this.nic(call, this.dmapp.gsyncWait());
    await this.disseminate(call, g);
    // every PE got this size word before it entered the last sync
    if (g.nextEpoch === null) view.setBigInt64(g.scratch, SYNC_VALUE, true);
  }

  /** Block j of `source` (`nbytes` each) to block `me` of `dest` on the group's PE j, for every j: a sync, the puts, quiet, a sync. */
  protected async groupAlltoall(call: string, g: Group, dest: Symmetric, source: Symmetric, nbytes: number): Promise<void> {
    const n = g.pes.size;
    await this.disseminate(call, g);
    if (nbytes > 0) {
      for (let i = 0; i < n; i++) {
        const j = (g.me + i) % n;
        const block = this.copyOf(source.local.subarray(j * nbytes, (j + 1) * nbytes));
        if (j !== g.me) await this.nic(call, this.dmapp.putNbi(g.pes.pe(j), dest.segment, dest.offset + g.me * nbytes, block));
        else if (this.moves(dest.local, block)) dest.local.set(block, g.me * nbytes);
      }
      await this.nic(call, this.dmapp.gsyncWait());
    }
    await this.disseminate(call, g);
  }

  /**
   * Strided all-to-all of `nelems` elements of `e` bytes: on the group's PE j, element k of block
   * `me` of `dest` (at element (me * nelems + k) * dst) gets element (j * nelems + k) * sst of
   * this PE's `source`. One strided put (an FMA put per element) to each PE between two syncs;
   * of 2-byte elements, which DMAPP has no type for, one put per element.
   */
  protected async groupAlltoalls(call: string, g: Group, dest: Symmetric, source: Symmetric, dst: number, sst: number, nelems: number, e: number): Promise<void> {
    const n = g.pes.size;
    await this.disseminate(call, g);
    if (nelems > 0) {
      const span = ((nelems - 1) * sst + 1) * e;
      for (let i = 0; i < n; i++) {
        const j = (g.me + i) % n;
        const from = j * nelems * sst * e;
        const block = this.copyOf(source.local.subarray(from, from + span));
        const at = dest.offset + g.me * nelems * dst * e;
        const t = DMAPP_OF_SIZE[e];
        if (j !== g.me && t !== undefined) {
          await this.nic(call, this.dmapp.iputNbi(g.pes.pe(j), dest.segment, at, block, t, dst, sst, nelems));
        } else if (j !== g.me) {
          for (let k = 0; k < nelems; k++) await this.nic(call, this.dmapp.putNbi(g.pes.pe(j), dest.segment, at + k * dst * e, block.subarray(k * sst * e, k * sst * e + e)));
        } else if (this.moves(dest.local, block)) {
          for (let k = 0; k < nelems; k++) dest.segment.local.set(block.subarray(k * sst * e, k * sst * e + e), at + k * dst * e);
        }
      }
      await this.nic(call, this.dmapp.gsyncWait());
    }
    await this.disseminate(call, g);
  }

  /**
   * Element-wise `op` over the group of `count` elements of `type`: a sync, a get of every other
   * PE's `source` (all outstanding at once, then quiet), a sync (so no PE overwrites a source,
   * `dest` included, that another still reads), then the fold in group order on every PE.
   */
  protected async groupReduce(call: string, g: Group, op: ReduceOp, type: ReduceElemType, dest: Symmetric, source: Symmetric, count: number, e: number): Promise<void> {
    const n = g.pes.size;
    const block = count * e;
    const all = new Uint8Array(n * block);
    await this.disseminate(call, g);
    if (block > 0) {
      for (let i = 0; i < n; i++) {
        if (i === g.me) {
          if (this.moves(all, source.local)) all.set(source.local.subarray(0, block), i * block);
        } else {
          await this.nic(call, this.dmapp.getNbi(g.pes.pe(i), source.segment, source.offset, all.subarray(i * block, (i + 1) * block)));
        }
      }
      await this.nic(call, this.dmapp.gsyncWait());
    }
    await this.disseminate(call, g);
    // skeleton data is not folded; its time is charged all the same
    if (block > 0 && this.moves(dest.local, source.local)) fold(op, type, all, n, count, dest.local);
    await this.proc.cpu(Math.ceil((n * count) / this.proc.machine.config.cpu.flopsPerPs), `shmem.${call}`);
  }
}
