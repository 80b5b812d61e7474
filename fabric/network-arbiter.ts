import type { AgeArbitration } from './network-params.ts';
import { NetworkState } from './network-state.ts';

/** The layout of a waiting request's record, as const enums (compiled to literals). */
const enum K {
  /** A waiting request's record (rq) takes 1 << RqShift numbers. */
  RqShift = 2,
}
/** Fields of a waiting request's record. */
const enum Rq {
  Next = 0,
  Pool = 1,
  Phits = 2,
  Queue = 3,
}

/**
 * Output-port arbitration of the packet-level network: the head packets waiting for an output
 * channel, as a list of request records per channel, and the grant of a free channel to one of
 * them whose credits suffice, round-robin over the input queues or, under SeaStar age
 * arbitration, oldest first on the grants the age mix selects (seed 000: AGE_RR_SELECT). A
 * channel whose waiting packets all lack credits tries again when the credits on their way let
 * one go. `Network` (network.ts) moves the granted packet (grant, send) and schedules the tries;
 * the state is `NetworkState`'s.
 */
export abstract class NetworkArbiter extends NetworkState {
  /**
   * Waiting requests, a record each (1 << K.RqShift apart): the next request waiting at the same
   * output, the head packet's credit pool and size, and its input queue; so an output scanning its
   * waiting requests reads one record each, not the packets. Records come from a free list, most
   * recently freed first: the few that are in use stay in cache, where one record per input queue
   * (most of them never used) would spread over megabytes.
   */
  private rq = new Int32Array(1024 << K.RqShift);
  private rqFree = -1;
  private rqUsed = 0;

  /** Waiting-request records allocated so far (the free list grows to the run's peak of waiting requests). */
  get requestRecords(): number {
    return this.rq.length >> K.RqShift;
  }

  private growRequests(): void {
    const rq = new Int32Array(this.rq.length * 2);
    rq.set(this.rq);
    this.rq = rq;
  }

  /**
   * Earliest time at which the credits on their way to channel `chan` let one of its waiting
   * packets go (due credits already applied), or Infinity if none would.
   */
  private creditsSufficeAt(chan: number): number {
    let t = Infinity;
    const rq = this.rq;
    for (let r = this.reqHead[chan]!; r !== -1; r = rq[r + Rq.Next]!) t = this.ledger.sufficeAt(chan, rq[r + Rq.Pool]!, rq[r + Rq.Phits]!, t);
    return t;
  }

  /** Credits of pool `ci` of channel `chan` now (see Network.creditOf): applies the channel's returns that are due. */
  protected creditsNow(chan: number, ci: number): number {
    if (this.pcHead[chan] === -1) return this.credits[ci]!;
    return this.ledger.creditsAt(chan, ci, this.engine.now);
  }

  /** Grants free channel `chan` (with credits) to the head packet of input queue `iq` (network.ts). */
  protected abstract grant(chan: number, iq: number): void;

  /** Channel `chan` tries to grant at time `at`: one event per channel and time (network.ts). */
  protected abstract scheduleTry(chan: number, at: number): void;

  /** The head of input queue `iq` (needing `phits` of pool `pool`) waits at channel `chan`, which arbitrates at once or when free. */
  protected waitFor(chan: number, iq: number, pool: number, phits: number): void {
    let r = this.rqFree;
    if (r !== -1) this.rqFree = this.rq[r + Rq.Next]!;
    else {
      if (this.rqUsed === this.rq.length) this.growRequests();
      r = this.rqUsed;
      this.rqUsed += 1 << K.RqShift;
    }
    const rq = this.rq;
    rq[r + Rq.Next] = -1;
    rq[r + Rq.Pool] = pool;
    rq[r + Rq.Phits] = phits;
    rq[r + Rq.Queue] = iq;
    const t = this.reqTail[chan]!;
    if (t === -1) this.reqHead[chan] = r;
    else rq[t + Rq.Next] = r;
    this.reqTail[chan] = r;
    this.reqCount[chan]!++;
    this.reqOnVc[pool >> this.cqShift]!++;
    this.tryOut(chan);
  }

  /** Grants the output channel to one waiting input VC, round-robin, if it is free and has credits. */
  protected tryOut(chan: number): void {
    const now = this.engine.now;
    const busy = this.busyUntil[chan]!;
    if (busy > now) {
      this.scheduleTry(chan, busy);
      return;
    }
    const nv = this.nv;
    const nq = this.nChan * nv * this.qPer;
    const rr = this.rr[chan]!;
    // SeaStar mix: the grant counter picks oldest-first or round-robin for this grant
    const age = this.params.age;
    const byAge = age !== undefined && age.select[this.grants[chan]! & 63] === 1;
    let best = -1;
    let bestPrev = -1;
    let bestKey = Infinity;
    let prev = -1;
    const rq = this.rq;
    for (let r = this.reqHead[chan]!; r !== -1; prev = r, r = rq[r + Rq.Next]!) {
      if (this.creditsNow(chan, rq[r + Rq.Pool]!) < rq[r + Rq.Phits]!) continue;
      const iq = rq[r + Rq.Queue]!;
      let key = iq - rr;
      if (key < 0) key += nq;
      // oldest first, round-robin order among equal ages
      if (byAge) key -= this.ageOf(this.headOf(iq), age) * nq;
      if (key < bestKey) {
        bestKey = key;
        best = r;
        bestPrev = prev;
      }
    }
    if (best === -1) {
      // a free channel whose waiting packets all lack credits stalls until a grant (collector only)
      const m = this.m;
      if (m !== null && this.reqHead[chan] !== -1 && m.stallSince[chan]! < 0) m.stallSince[chan] = now;
      // waits for credits: the first time credits on their way let a waiting packet go; credits
      // returned later schedule their own try
      const t = this.creditsSufficeAt(chan);
      if (t !== Infinity) this.scheduleTry(chan, t);
      return;
    }
    // unlink the granted request
    const nxt = rq[best + Rq.Next]!;
    if (bestPrev === -1) this.reqHead[chan] = nxt;
    else rq[bestPrev + Rq.Next] = nxt;
    if (this.reqTail[chan] === best) this.reqTail[chan] = bestPrev;
    this.reqCount[chan]!--;
    this.reqOnVc[rq[best + Rq.Pool]! >> this.cqShift]!--;
    const iq = rq[best + Rq.Queue]!;
    rq[best + Rq.Next] = this.rqFree;
    this.rqFree = best;
    this.grant(chan, iq);
  }

  /** What a grant of channel `chan` to input queue `iq` moves in its arbiter: the round-robin pointer, and under age arbitration the grant counter. */
  protected moveArbiter(chan: number, iq: number): void {
    const nq = this.nChan * this.nv * this.qPer;
    // the round-robin pointer moves on round-robin grants only (seed 000: two independent pointers)
    const age = this.params.age;
    if (age === undefined || age.select[this.grants[chan]! & 63] !== 1) this.rr[chan] = iq + 1 === nq ? 0 : iq + 1;
    if (age !== undefined) this.grants[chan] = (this.grants[chan]! + 1) & 63; // the grant counter indexes the age mix only
  }

  /** Age of packet p (0..255): time in the network over the age clock, plus the bias of every hop. */
  private ageOf(p: number, age: AgeArbitration): number {
    const pk = this.pkts;
    const a = Math.floor((this.engine.now - pk.injectedAt[p]!) / age.clockPeriodPs) + pk.hops[p]! * (pk.vcClass[p] === 0 ? age.requestBias : age.responseBias);
    return a > 255 ? 255 : a;
  }
}
