import type { AmoOp } from '../../fabric/nic/nic.ts';
import { ShmemAtomics } from './atomics.ts';
import { ShmemError, type Symmetric } from './symmetric.ts';
import { unwrapView } from './ptr-view.ts';
import { longdoubleView } from './longdouble-rma.ts';

/** How `putSignal` updates the signal (SHMEM_SIGNAL_SET, SHMEM_SIGNAL_ADD in lower case). */
export type SignalOp = 'set' | 'add';

const SIGNAL_OPS: Readonly<Record<SignalOp, AmoOp>> = { set: 'swap', add: 'add' };

/**
 * Put-with-signal (OpenSHMEM 1.5 §9.8.1): data to `dest` on `pe`, then the 64-bit unsigned
 * signal at `sigAddr` on `pe` set to or increased by `signal`, so that a PE that sees the signal
 * sees the data. Over DMAPP the signal is ordered after the data as phit's `fence` orders: the
 * data goes as one DMAPP non-blocking put whose completion (the data written at the target) is
 * waited for, then the signal is a non-blocking AMO (swap for 'set', add for 'add') on the NIC,
 * complete at `quiet`. So the call returns only once the data has landed: later than a NIC that
 * orders a put and an AMO in flight would let it, never earlier than the data.
 */
export class ShmemSignals extends ShmemAtomics {
  /** SHMEM_SIGNAL_SET. */
  readonly SIGNAL_SET: SignalOp = 'set';
  /** SHMEM_SIGNAL_ADD. */
  readonly SIGNAL_ADD: SignalOp = 'add';

  /** Puts `nelems` elements of the typed array `source`, then updates the signal (shmem_put_signal); `source` may be reused on return. */
  async putSignal(dest: Symmetric, source: ArrayBufferView, nelems: number, sigAddr: Symmetric, signal: bigint | number, sigOp: SignalOp, pe: number): Promise<void> {
    this.checkCount('putSignal', 'nelems', nelems);
    const src = this.bytesArg('putSignal', 'source', source, nelems * elementBytes('putSignal', source, nelems), nelems);
    await this.putWithSignal('putSignal', dest, this.copyOf(src), true, sigAddr, signal, sigOp, pe);
  }

  /** Non-blocking put-with-signal (shmem_put_signal_nbi): `source` must stay unchanged until `quiet`. */
  async putSignalNbi(dest: Symmetric, source: ArrayBufferView, nelems: number, sigAddr: Symmetric, signal: bigint | number, sigOp: SignalOp, pe: number): Promise<void> {
    this.checkCount('putSignalNbi', 'nelems', nelems);
    const src = this.bytesArg('putSignalNbi', 'source', source, nelems * elementBytes('putSignalNbi', source, nelems), nelems);
    await this.putWithSignal('putSignalNbi', dest, src, false, sigAddr, signal, sigOp, pe);
  }

  /** Puts `nelems` long doubles of `source` (see ShmemLongdoubleRma: (value, padding) pairs or plain values), then updates the signal (shmem_longdouble_put_signal). */
  async putLongdoubleSignal(dest: Symmetric, source: Float64Array | readonly number[], nelems: number, sigAddr: Symmetric, signal: bigint | number, sigOp: SignalOp, pe: number): Promise<void> {
    await this.putWithSignal('putLongdoubleSignal', dest, this.longdoubleSource('putLongdoubleSignal', source, nelems), true, sigAddr, signal, sigOp, pe);
  }

  /** Non-blocking long double put-with-signal (shmem_longdouble_put_signal_nbi): `source`, 2 * nelems float64s, must stay unchanged until `quiet`. */
  async putLongdoubleSignalNbi(dest: Symmetric, source: Float64Array, nelems: number, sigAddr: Symmetric, signal: bigint | number, sigOp: SignalOp, pe: number): Promise<void> {
    await this.putWithSignal('putLongdoubleSignalNbi', dest, longdoubleView('putLongdoubleSignalNbi', 'source', source, nelems), false, sigAddr, signal, sigOp, pe);
  }

  /** Puts `nbytes` of `source`, then updates the signal (shmem_putmem_signal). */
  async putmemSignal(dest: Symmetric, source: ArrayBufferView, nbytes: number, sigAddr: Symmetric, signal: bigint | number, sigOp: SignalOp, pe: number): Promise<void> {
    const src = this.bytesArg('putmemSignal', 'source', source, nbytes);
    await this.putWithSignal('putmemSignal', dest, this.copyOf(src), true, sigAddr, signal, sigOp, pe);
  }

  /** Non-blocking `putmemSignal` (shmem_putmem_signal_nbi). */
  async putmemSignalNbi(dest: Symmetric, source: ArrayBufferView, nbytes: number, sigAddr: Symmetric, signal: bigint | number, sigOp: SignalOp, pe: number): Promise<void> {
    const src = this.bytesArg('putmemSignalNbi', 'source', source, nbytes);
    await this.putWithSignal('putmemSignalNbi', dest, src, false, sigAddr, signal, sigOp, pe);
  }

  private async putWithSignal(call: string, dest: Symmetric, src: Uint8Array, copied: boolean, sigAddr: Symmetric, signal: bigint | number, sigOp: SignalOp, pe: number): Promise<void> {
    const to = this.target(call, 'pe', pe);
    this.checkSignalAddr(call, sigAddr);
    const op = typeof sigOp === 'string' && Object.hasOwn(SIGNAL_OPS, sigOp) ? SIGNAL_OPS[sigOp] : undefined;
    if (op === undefined) throw new ShmemError(`${call}: sigOp=${String(sigOp)}; valid: ${Object.keys(SIGNAL_OPS).join(', ')}`);
    const value = this.operand(call, 'signal', signal, 'uint64');
    if (src.length > 0) {
      this.checkSym(call, 'dest', dest);
      this.checkRange(call, 'dest', dest, src.length);
      if (copied) await this.proc.cpu(Math.ceil(src.length / this.proc.machine.config.cpu.memBytesPerPs), `shmem.${call}(copy)`);
      // the fence between data and signal: the data's own completion, as phit's fence waits
      const h = await this.nic(call, this.dmapp.putNb(to, dest.segment, dest.offset, src));
      await this.nic(call, this.dmapp.syncidWait(h));
    }
    await this.nic(call, this.dmapp.amo(call, op, false, 'nbi', to, sigAddr.segment, sigAddr.offset, value, undefined, 8));
  }

  /** Checks a signal address: a live symmetric uint64, 8-byte aligned. */
  protected checkSignalAddr(call: string, sigAddr: Symmetric): void {
    this.checkSym(call, 'sigAddr', sigAddr);
    if (sigAddr.offset % 8 !== 0) throw new ShmemError(`${call}: sigAddr is at byte offset ${sigAddr.offset}, not aligned to the 8-byte uint64 signal`);
    this.checkRange(call, 'sigAddr', sigAddr, 8);
  }
}

/** Bytes per element of a typed-array source (any, when no element is sent: Annex C). */
function elementBytes(call: string, source: ArrayBufferView, nelems: number): number {
  if (nelems === 0) return 0;
  const e = (source as { BYTES_PER_ELEMENT?: unknown }).BYTES_PER_ELEMENT;
  if (!ArrayBuffer.isView(unwrapView(source)) || typeof e !== 'number') throw new ShmemError(`${call}: source must be a typed array (its element size sets the bytes of nelems)`);
  return e;
}
