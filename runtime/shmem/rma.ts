import { ShmemBase } from './base.ts';
import { DMAPP_OF_SIZE, ELEMS, elemCopy, elemView, type ElemKind } from './elements.ts';
import type { Symmetric } from './symmetric.ts';

/**
 * Remote memory access (OpenSHMEM 1.5 §9.6) and its completion (§9.10): the contiguous `...mem`
 * puts and gets, `quiet`, `fence`, and what the typed, sized, single-element and strided forms
 * (ShmemTypedRma) are made of.
 */
export class ShmemRma extends ShmemBase {
  // --- contiguous puts and gets

  /** Puts `nbytes` of `source` to `dest` on `pe` (shmem_putmem); completes at `quiet`. */
  async putmem(dest: Symmetric, source: ArrayBufferView, nbytes: number, pe: number): Promise<void> {
    // the bounce-buffer copy: `source` may be reused as soon as this returns
    const src = this.copyOf(this.bytesArg('putmem', 'source', source, nbytes));
    await this.putBytes('putmem', dest, src, pe, true);
  }

  /** Gets `nbytes` from `source` on `pe` into `dest` (shmem_getmem); returns with the data. */
  async getmem(dest: ArrayBufferView, source: Symmetric, nbytes: number, pe: number): Promise<void> {
    const dst = this.bytesArg('getmem', 'dest', dest, nbytes);
    await this.getBytes('getmem', dst, source, pe, true);
  }

  /** Non-blocking put (shmem_putmem_nbi): `source` must stay unchanged until `quiet`. */
  async putmemNbi(dest: Symmetric, source: ArrayBufferView, nbytes: number, pe: number): Promise<void> {
    const src = this.bytesArg('putmemNbi', 'source', source, nbytes);
    await this.putBytes('putmemNbi', dest, src, pe, false);
  }

  /** Non-blocking get (shmem_getmem_nbi): `dest` holds the data after `quiet`. */
  async getmemNbi(dest: ArrayBufferView, source: Symmetric, nbytes: number, pe: number): Promise<void> {
    const dst = this.bytesArg('getmemNbi', 'dest', dest, nbytes);
    await this.getBytes('getmemNbi', dst, source, pe, false);
  }

  // --- ordering and completion

  /** Waits until every put, get and AMO this PE issued has completed (shmem_quiet). */
  async quiet(): Promise<void> {
    await this.nic('quiet', this.dmapp.gsyncWait());
  }

  /**
   * Orders this PE's puts and non-blocking atomics to each PE (shmem_fence). Implemented as
   * `quiet`, which is stronger than OpenSHMEM requires (it waits for completion, not only for
   * ordering).
   */
  async fence(): Promise<void> {
    await this.nic('fence', this.dmapp.gsyncWait());
  }

  /** A typed put of `kind`: blocking ones copy `source` (a typed array of `kind` or plain values) into a bounce buffer, `nbi` ones send it as it is. */
  protected async putElems(call: string, kind: ElemKind, dest: Symmetric, source: unknown, nelems: number, pe: number, nbi: boolean): Promise<void> {
    const src = nbi || (ArrayBuffer.isView(source) && this.proc.isSkeleton(source)) ? elemView(call, kind, 'source', source, nelems) : elemCopy(call, kind, source, nelems);
    await this.putBytes(call, dest, src, pe, !nbi);
  }

  /** A typed get of `kind` into `dest`, a typed array of `kind`. */
  protected async getElems(call: string, kind: ElemKind, dest: unknown, source: Symmetric, nelems: number, pe: number, nbi: boolean): Promise<void> {
    await this.getBytes(call, elemView(call, kind, 'dest', dest, nelems), source, pe, !nbi);
  }

  /** Gets one element of `kind`. */
  protected async gElem(call: string, kind: ElemKind, source: Symmetric, pe: number): Promise<number | bigint> {
    const v = new ELEMS[kind].array(1);
    await this.getBytes(call, new Uint8Array(v.buffer), source, pe, true);
    return v[0]!;
  }

  /** A put of `nelems` `size`-byte elements from the bytes of any private buffer. */
  protected async putSized(call: string, size: number, dest: Symmetric, source: ArrayBufferView, nelems: number, pe: number, nbi: boolean): Promise<void> {
    this.checkCount(call, 'nelems', nelems);
    const src = this.bytesArg(call, 'source', source, nelems * size, nelems);
    await this.putBytes(call, dest, nbi ? src : this.copyOf(src), pe, !nbi);
  }

  /** A get of `nelems` `size`-byte elements into the bytes of any private buffer. */
  protected async getSized(call: string, size: number, dest: ArrayBufferView, source: Symmetric, nelems: number, pe: number, nbi: boolean): Promise<void> {
    this.checkCount(call, 'nelems', nelems);
    await this.getBytes(call, this.bytesArg(call, 'dest', dest, nelems * size, nelems), source, pe, !nbi);
  }

  /** A strided typed put of `kind`. */
  protected async iputElems(call: string, kind: ElemKind, dest: Symmetric, source: unknown, dst: number, sst: number, nelems: number, pe: number): Promise<void> {
    await this.stridedPut(call, ELEMS[kind].bytes, dest, (n) => (ArrayBuffer.isView(source) && this.proc.isSkeleton(source) ? elemView(call, kind, 'source', source, n) : elemCopy(call, kind, source, n)), dst, sst, nelems, pe);
  }

  /** A strided typed get of `kind` into `dest`, a typed array of `kind`. */
  protected async igetElems(call: string, kind: ElemKind, dest: unknown, source: Symmetric, dst: number, sst: number, nelems: number, pe: number): Promise<void> {
    await this.stridedGet(call, ELEMS[kind].bytes, (n) => elemView(call, kind, 'dest', dest, n), source, dst, sst, nelems, pe);
  }

  /** A strided put of `size`-byte elements from the bytes of any private buffer. */
  protected async iputSized(call: string, size: number, dest: Symmetric, source: ArrayBufferView, dst: number, sst: number, nelems: number, pe: number): Promise<void> {
    await this.stridedPut(call, size, dest, (n) => this.copyOf(this.bytesArg(call, 'source', source, n * size)), dst, sst, nelems, pe);
  }

  /** A strided get of `size`-byte elements into the bytes of any private buffer. */
  protected async igetSized(call: string, size: number, dest: ArrayBufferView, source: Symmetric, dst: number, sst: number, nelems: number, pe: number): Promise<void> {
    await this.stridedGet(call, size, (n) => this.bytesArg(call, 'dest', dest, n * size), source, dst, sst, nelems, pe);
  }

  /**
   * Element i*`sst` of the source (`copy(n)` gives its first n elements as a private copy) to
   * element i*`dst` of `dest` on `pe`: one DMAPP strided put, or for 2-byte elements (DMAPP has
   * no such element type) one put per element, as a library over DMAPP must.
   */
  protected async stridedPut(call: string, size: number, dest: Symmetric, copy: (n: number) => Uint8Array, dst: number, sst: number, nelems: number, pe: number): Promise<void> {
    const to = this.target(call, 'pe', pe);
    this.checkStride(call, dst, sst, nelems);
    if (nelems === 0) return;
    this.checkSym(call, 'dest', dest);
    this.checkRange(call, 'dest', dest, ((nelems - 1) * dst + 1) * size);
    const src = copy((nelems - 1) * sst + 1);
    await this.proc.cpu(Math.ceil(src.length / this.proc.machine.config.cpu.memBytesPerPs), `shmem.${call}(copy)`);
    const t = DMAPP_OF_SIZE[size];
    if (t !== undefined) return this.nic(call, this.dmapp.iputNbi(to, dest.segment, dest.offset, src, t, dst, sst, nelems));
    for (let i = 0; i < nelems; i++) await this.nic(call, this.dmapp.putNbi(to, dest.segment, dest.offset + i * dst * size, src.subarray(i * sst * size, (i * sst + 1) * size)));
  }

  /** The mirror of `stridedPut`: `view(n)` gives the first n elements of the private destination; returns with the data. */
  protected async stridedGet(call: string, size: number, view: (n: number) => Uint8Array, source: Symmetric, dst: number, sst: number, nelems: number, pe: number): Promise<void> {
    const from = this.target(call, 'pe', pe);
    this.checkStride(call, dst, sst, nelems);
    if (nelems === 0) return;
    this.checkSym(call, 'source', source);
    this.checkRange(call, 'source', source, ((nelems - 1) * sst + 1) * size);
    const bytes = view((nelems - 1) * dst + 1);
    const t = DMAPP_OF_SIZE[size];
    if (t !== undefined) await this.nic(call, this.dmapp.igetNbi(from, source.segment, source.offset, bytes, t, dst, sst, nelems));
    else for (let i = 0; i < nelems; i++) await this.nic(call, this.dmapp.getNbi(from, source.segment, source.offset + i * sst * size, bytes.subarray(i * dst * size, (i * dst + 1) * size)));
    await this.nic(call, this.dmapp.gsyncWait());
  }
}
