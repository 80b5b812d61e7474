/**
 * Credits of a packet-level network's buffers (network.ts): per channel and credit pool the
 * credits its downstream buffer has now, and the credits on their way back upstream. Returns are
 * kept per channel in a time-ordered list and applied when the channel next reads its credits, so
 * a return costs an event only when someone waits for it (the network decides that).
 */

/** Returns hold their phits and, above them, their pool's offset in their channel (VC and slot). */
const enum K {
  PcSlotShift = 24,
  PcPhits = (1 << PcSlotShift) - 1,
}

/** Largest number of credit pools per channel (a pending return holds its pool in 8 bits). */
export const MAX_POOLS_PER_CHANNEL = 1 << (32 - K.PcSlotShift);

/** Credit pools and pending credit returns of every channel of a network. */
export class CreditLedger {
  /** Credits per pool (channel * pools per channel + pool), applied returns included. */
  readonly credits: Int16Array;
  /** Per channel the first credit return on its way, or -1 (the network tests it before calling creditsAt). */
  readonly pcHead: Int32Array;
  private readonly pcTail: Int32Array;
  private pcTime = new Float64Array(1024);
  private pcPhits = new Int32Array(1024);
  private pcNext = new Int32Array(1024);
  private pcFree = -1;
  private pcUsed = 0;
  /** Credit pools per channel. */
  private readonly nvcq: number;

  /**
   * @param channels channels of the network
   * @param nv VCs per channel
   * @param cq credit pools per VC
   */
  constructor(
    channels: number,
    nv: number,
    private readonly cq: number,
  ) {
    if (nv * cq > MAX_POOLS_PER_CHANNEL) throw new RangeError(`${nv} VCs x ${cq} credit pools: at most ${MAX_POOLS_PER_CHANNEL} pools per channel (a pending return holds its pool in 8 bits)`);
    this.nvcq = nv * cq;
    this.credits = new Int16Array(channels * this.nvcq);
    this.pcHead = new Int32Array(channels).fill(-1);
    this.pcTail = new Int32Array(channels).fill(-1);
  }

  /** Whether any credit return is on its way to channel `chan`. */
  anyPending(chan: number): boolean {
    return this.pcHead[chan] !== -1;
  }

  /** Queues a return of `phits` credits to pool `ci` of channel `chan`, due at `at`. */
  push(chan: number, ci: number, phits: number, at: number): void {
    let n = this.pcFree;
    if (n !== -1) this.pcFree = this.pcNext[n]!;
    else {
      if (this.pcUsed === this.pcTime.length) this.growPending();
      n = this.pcUsed++;
    }
    this.pcTime[n] = at;
    this.pcPhits[n] = phits | ((ci - chan * this.nvcq) << K.PcSlotShift);
    // keep the list in time order; credits almost always arrive in order, so search from the tail
    const tail = this.pcTail[chan]!;
    if (tail === -1 || this.pcTime[tail]! <= at) {
      this.pcNext[n] = -1;
      if (tail === -1) this.pcHead[chan] = n;
      else this.pcNext[tail] = n;
      this.pcTail[chan] = n;
    } else {
      let prev = -1;
      let cur = this.pcHead[chan]!;
      while (cur !== -1 && this.pcTime[cur]! <= at) {
        prev = cur;
        cur = this.pcNext[cur]!;
      }
      this.pcNext[n] = cur;
      if (prev === -1) this.pcHead[chan] = n;
      else this.pcNext[prev] = n;
    }
  }

  private growPending(): void {
    const n = this.pcTime.length * 2;
    const t = new Float64Array(n);
    t.set(this.pcTime);
    this.pcTime = t;
    const ph = new Int32Array(n);
    ph.set(this.pcPhits);
    this.pcPhits = ph;
    const nx = new Int32Array(n);
    nx.set(this.pcNext);
    this.pcNext = nx;
  }

  /** Whether credits for channel-VC `cv` of channel `chan` are on their way (due or not yet applied); its pools are cv * cq and on. */
  pendingOnVc(chan: number, cv: number): boolean {
    const off = cv * this.cq - chan * this.nvcq; // the VC's first pool in the channel
    const end = off + this.cq;
    for (let n = this.pcHead[chan]!; n !== -1; n = this.pcNext[n]!) {
      const o = this.pcPhits[n]! >>> K.PcSlotShift;
      if (o >= off && o < end) return true;
    }
    return false;
  }

  /** Credits of pool `ci` of channel `chan` at time `now`: applies the channel's returns that are due. */
  creditsAt(chan: number, ci: number, now: number): number {
    let n = this.pcHead[chan]!;
    if (n === -1) return this.credits[ci]!;
    const base = chan * this.nvcq; // a return's pool is base + its offset
    while (n !== -1 && this.pcTime[n]! <= now) {
      const v = this.pcPhits[n]!;
      this.credits[base + (v >>> K.PcSlotShift)]! += v & K.PcPhits;
      const next = this.pcNext[n]!;
      this.pcNext[n] = this.pcFree;
      this.pcFree = n;
      n = next;
    }
    this.pcHead[chan] = n;
    if (n === -1) this.pcTail[chan] = -1;
    return this.credits[ci]!;
  }

  /**
   * Earliest time before `limit` at which the returns on their way to channel `chan` (due ones
   * already applied) bring pool `ci` to `need` credits; `limit` if none does before.
   */
  sufficeAt(chan: number, ci: number, need: number, limit: number): number {
    const off = ci - chan * this.nvcq;
    let have = this.credits[ci]!;
    for (let n = this.pcHead[chan]!; n !== -1 && this.pcTime[n]! < limit; n = this.pcNext[n]!) {
      const v = this.pcPhits[n]!;
      if (v >>> K.PcSlotShift !== off) continue;
      have += v & K.PcPhits;
      if (have >= need) return this.pcTime[n]!;
    }
    return limit;
  }
}
