import { LruCache } from './iommu.ts';
import type { NicParams, Segment } from './nic-api.ts';

/**
 * The NIC's host interface (HyperTransport on SeaStar and Gemini, PCIe on Aries; seed 004 §II,
 * seed 001 "Aries NIC"): two directions, each with its bandwidth, latency and per-transfer
 * overhead, reserved first come, first served in simulated time; a ring of read slots that
 * bounds the NIC's host reads in flight; and the IOMMU's PTE cache, whose misses are host reads.
 */
export class HostInterface {
  /** Host -> NIC direction, free from this time. */
  downFree = 0;
  /** NIC -> host direction, free from this time. */
  upFree = 0;
  /** When the data of the first hardware packet of the last host read was at the NIC. */
  firstReadPs = 0;
  // host reads of gets, AMO fills and PTE fetches: a ring of read slots
  private readonly readSlots: Float64Array;
  private readIdx = 0;
  private readonly pteCache: LruCache | null;

  constructor(private readonly params: NicParams) {
    this.readSlots = new Float64Array(Math.max(1, params.hostReadsInFlight));
    this.pteCache = params.pteEntries > 0 ? new LruCache(params.pteEntries, params.pteWays) : null;
  }

  /** IOMMU PTE cache hits and misses so far (zeros when no IOMMU is modelled). */
  get pteStats(): { hits: number; misses: number } {
    return { hits: this.pteCache?.hits ?? 0, misses: this.pteCache?.misses ?? 0 };
  }

  /** One host read's round trip (request up, memory, the data of a full packet down), without queueing. */
  readRoundTripPs(): number {
    const P = this.params;
    return P.hostReadRequestBytes / P.hostBytesPerPs + 2 * P.hostLatencyPs + P.memoryReadLatencyPs + (P.format.maxPayloadBytes + P.hostWriteOverheadBytes) / P.hostBytesPerPs;
  }

  /**
   * A host-memory read of `bytes` by the NIC from time `t` (a get's data, an AMO fill, a PTE
   * fetch): it takes one of the NIC's read slots, crosses the host interface both ways and
   * returns the time its data is at the NIC.
   */
  read(t: number, bytes: number, units = 1): number {
    const slots = this.readSlots;
    if (units > 1) {
      // a coarse packet's reads: one per hardware packet, each in a read slot of its own
      const max = this.params.format.maxPayloadBytes;
      let last = 0;
      for (let j = 0; j < units; j++) {
        const done = this.read(t, Math.min(max, bytes - j * max));
        if (j === 0) this.firstReadPs = done;
        if (done > last) last = done;
      }
      return last;
    }
    const k = this.readIdx;
    this.readIdx = k + 1 === slots.length ? 0 : k + 1;
    const done = this.readFrom(Math.max(t, slots[k]!), bytes);
    slots[k] = done;
    this.firstReadPs = done;
    return done;
  }

  /**
   * A host-memory read of `bytes` whose request leaves at `t` (or when the NIC-to-host direction
   * frees): the request goes up, memory answers, the data comes down; returns when it is at the NIC.
   */
  readFrom(t: number, bytes: number, units = 1): number {
    const P = this.params;
    const rq = Math.max(t, this.upFree);
    this.upFree = rq + Math.ceil((units * P.hostReadRequestBytes) / P.hostBytesPerPs);
    const back = Math.max(this.upFree + 2 * P.hostLatencyPs + P.memoryReadLatencyPs, this.downFree);
    this.downFree = back + Math.ceil((bytes + units * P.hostWriteOverheadBytes) / P.hostBytesPerPs);
    return this.downFree;
  }

  /**
   * A posted write of `bytes` (plus the per-transfer overhead) to host memory from time `t`, or
   * when the NIC-to-host direction frees; returns its start. It has left the NIC at `upFree`.
   */
  write(t: number, bytes: number, units = 1): number {
    const P = this.params;
    const w = Math.max(t, this.upFree);
    this.upFree = w + Math.ceil((bytes + units * P.hostWriteOverheadBytes) / P.hostBytesPerPs);
    return w;
  }

  /**
   * CPU stores of `bytes` (overhead included) that the CPU has issued by `t` cross the
   * host-to-NIC direction when it frees; returns when they are at the NIC.
   */
  store(t: number, bytes: number): number {
    const P = this.params;
    const s = Math.max(t, this.downFree);
    this.downFree = s + Math.ceil(bytes / P.hostBytesPerPs);
    return this.downFree + P.hostLatencyPs;
  }

  /**
   * IOMMU translation of byte `off` of `seg` at time `t`: a PTE-cache miss fetches the page
   * table entries from host memory (two levels for small pages, one for huge pages, seed 001
   * "Address Translation"). The IOMMU's deep pipeline hides the fetch's latency, so the access
   * is not delayed, but the fetches take host read slots and host-interface bandwidth: on random
   * access patterns they cut the rate of gets, AMOs and puts.
   */
  translate(seg: Segment, off: number, t: number): void {
    const cache = this.pteCache;
    if (cache === null) return;
    const page = Math.floor((seg.base + off) / 2 ** seg.pageShift);
    const entry = Math.floor(page / this.params.ptesPerEntry);
    if (cache.touch(entry * 64 + seg.pageShift, entry)) return;
    // the walk's reads are pipelined with the rest of the traffic, none reserved ahead of time
    for (let level = seg.pageShift <= 12 ? 2 : 1; level > 0; level--) this.read(t, 64);
  }
}
