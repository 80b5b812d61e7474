import { ShmemContexts } from './contexts.ts';
import { ShmemError, type Symmetric } from './symmetric.ts';

/** The signal bit of a PE's queue word: its predecessor has passed it the lock. */
const SIGNAL = 0x8000_0000;
/** The successor bits of a PE's queue word: 1 + the PE queued behind it, 0 for none yet. */
const NEXT = 0x7fff_ffff;

/**
 * Distributed locks (OpenSHMEM 1.5 §9.9.12, shmem_set_lock / test_lock / clear_lock) on a
 * symmetric 8-byte word, zero on every PE before first use. The SHMEM man page Cray and SGI
 * shipped promises that waiting PEs get the lock first come, first served; this is the MCS queue
 * lock (Mellor-Crummey and Scott 1991) that SOS implements in src/shmem_lock.h, run by the NIC's
 * AMOs on the two 4-byte halves of the lock word: the low half on PE 0 holds the queue's tail
 * (1 + its PE), the high half on each PE is that PE's queue word (its successor, and the signal
 * bit its predecessor sets). SOS sets those bits with masked swaps, which these NICs lack; as
 * each bit is set once while it is clear, an atomic or does the same.
 *
 * So contention costs what it cost: acquiring a free lock is an AMO to this PE's own word and a
 * swap on PE 0; a queued PE also ors itself into its predecessor's word and waits (as
 * `waitUntil` does) for the signal; a release is a compare-and-swap on PE 0 and, if someone
 * queued, an or into the successor's word. `clearLock` quiets the default context first, so the
 * critical section's puts are complete before the next holder gets the lock.
 */
export class ShmemLocks extends ShmemContexts {
  /** The locks this PE holds, by segment id and byte offset. */
  private readonly held = new Set<string>();

  /** Waits until this PE holds the lock `lock` (shmem_set_lock); PEs get it in the order they asked. */
  async setLock(lock: Symmetric): Promise<void> {
    const call = 'setLock';
    const key = this.lockKey(call, lock, false);
    const me = this.dmapp.pe;
    await this.lockAmo(call, 'swap', lock, 4, me, 0n);
    const prev = Number(await this.lockAmo(call, 'swap', lock, 0, 0, BigInt(me + 1)));
    if (prev !== 0) {
      await this.lockAmo(call, 'or', lock, 4, prev - 1, BigInt(me + 1));
      const view = new DataView(lock.segment.local.buffer, lock.segment.local.byteOffset, lock.segment.local.byteLength);
      await this.poll(
        () => (view.getUint32(lock.offset + 4, true) & SIGNAL) !== 0,
        () => `setLock(lock at segment ${lock.segment.id} byte ${lock.offset}) on PE ${me}: PE ${prev - 1}, ahead in the queue, never passed the lock on (does it clearLock?)`,
        lock.segment.local,
        lock.offset + 4,
        4,
      );
    }
    this.held.add(key);
  }

  /** Takes the lock if no PE holds it: 0 if it did, 1 if the lock was held (shmem_test_lock); never waits. */
  async testLock(lock: Symmetric): Promise<0 | 1> {
    const call = 'testLock';
    const key = this.lockKey(call, lock, false);
    const me = this.dmapp.pe;
    await this.lockAmo(call, 'swap', lock, 4, me, 0n);
    const prev = await this.lockAmo(call, 'cswap', lock, 0, 0, BigInt(me + 1), 0n);
    if (prev !== 0n) return 1;
    this.held.add(key);
    return 0;
  }

  /** Completes this PE's puts (the default context's quiet), then releases `lock` to the next PE in line (shmem_clear_lock). */
  async clearLock(lock: Symmetric): Promise<void> {
    const call = 'clearLock';
    const key = this.lockKey(call, lock, true);
    const me = this.dmapp.pe;
    await this.quiet();
    const tail = await this.lockAmo(call, 'cswap', lock, 0, 0, 0n, BigInt(me + 1));
    if (Number(tail) !== me + 1) {
      // someone swapped itself in behind this PE: wait until it has linked itself, then signal it
      const view = new DataView(lock.segment.local.buffer, lock.segment.local.byteOffset, lock.segment.local.byteLength);
      await this.poll(
        () => (view.getUint32(lock.offset + 4, true) & NEXT) !== 0,
        () => `clearLock(lock at segment ${lock.segment.id} byte ${lock.offset}) on PE ${me}: the PE queued behind never linked itself`,
        lock.segment.local,
        lock.offset + 4,
        4,
      );
      const next = (view.getUint32(lock.offset + 4, true) & NEXT) - 1;
      await this.lockAmo(call, 'or', lock, 4, next, BigInt(SIGNAL));
    }
    this.held.delete(key);
  }

  /** Checks `lock` (a symmetric, 8-byte aligned 8-byte word) and whether this PE holds it as `held` says; its key. */
  private lockKey(call: string, lock: Symmetric, held: boolean): string {
    this.checkSym(call, 'lock', lock);
    this.checkRange(call, 'lock', lock, 8);
    if (lock.offset % 8 !== 0) throw new ShmemError(`${call}: lock is at byte offset ${lock.offset}, not aligned to the 8-byte long`);
    const key = `${lock.segment.id}:${lock.offset}`;
    const where = `the lock at segment ${lock.segment.id} byte ${lock.offset}`;
    if (held && !this.held.has(key)) throw new ShmemError(`${call}: PE ${this.dmapp.pe} does not hold ${where} (take it with setLock or testLock first)`);
    if (!held && this.held.has(key)) throw new ShmemError(`${call}: PE ${this.dmapp.pe} already holds ${where} (clearLock it first)`);
    return key;
  }

  /** A blocking 4-byte AMO on half `half` (0: the tail, 4: the queue word) of the lock on `pe`; the old value. */
  private async lockAmo(call: string, op: 'swap' | 'cswap' | 'or', lock: Symmetric, half: 0 | 4, pe: number, operand: bigint, compare?: bigint): Promise<bigint> {
    return (await this.nic(call, this.dmapp.amo(call, op, true, 'blocking', pe, lock.segment, lock.offset + half, operand, compare, 4))) as bigint;
  }
}
