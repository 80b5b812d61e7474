import type { HostInterface } from './host-interface.ts';
import { LruCache } from './iommu.ts';
import type { AmoRequest, NicParams, Segment } from './nic-api.ts';

/** Applies an AMO to the little-endian variable at `off`; returns the old value. */
export function applyAmo(view: DataView, off: number, a: AmoRequest): bigint {
  const wide = a.width === 8;
  const mask = wide ? 0xffff_ffff_ffff_ffffn : 0xffff_ffffn;
  const old = wide ? view.getBigUint64(off, true) : BigInt(view.getUint32(off, true));
  const v = a.operand & mask;
  let next: bigint;
  switch (a.op) {
    case 'add':
      next = (old + v) & mask;
      break;
    case 'and':
      next = old & v;
      break;
    case 'or':
      next = old | v;
      break;
    case 'xor':
      next = old ^ v;
      break;
    case 'swap':
      next = v;
      break;
    case 'cswap':
      next = old === ((a.compare ?? 0n) & mask) ? v : old;
      break;
  }
  if (wide) view.setBigUint64(off, next, true);
  else view.setUint32(off, Number(next), true);
  return old;
}

/**
 * The NIC's AMO unit (seed 001 "Remote Memory Access", seed 004 §II.E): one operation per
 * `amoOpPs`; a variable missing from its cache is first read from host memory, one fill per
 * `amoFillPs`.
 */
export class AmoUnit {
  private free = 0;
  private fillFree = 0;
  private readonly cache: LruCache | null;
  /** AMOs executed without an AMO cache (every one reads host memory). */
  private noCache = 0;

  constructor(
    private readonly params: NicParams,
    private readonly host: HostInterface,
  ) {
    this.cache = params.amoCacheEntries > 0 ? new LruCache(params.amoCacheEntries, params.amoCacheEntries) : null;
  }

  /** AMO cache hits and misses so far (0 and every AMO when there is no cache). */
  get stats(): { hits: number; misses: number } {
    return { hits: this.cache?.hits ?? 0, misses: this.cache?.misses ?? this.noCache };
  }

  /** Takes an AMO on the variable at byte `off` of `seg` that arrived at `t`; returns when its result is ready. */
  schedule(seg: Segment, off: number, t: number): number {
    const P = this.params;
    const go = Math.max(t, this.free);
    this.free = go + P.amoOpPs;
    let ready = go + P.amoOpPs;
    const hit = this.cache !== null && this.cache.touch(Math.floor((seg.base + off) / 8), 0);
    if (!hit) {
      if (this.cache === null) this.noCache++;
      const fill = Math.max(this.host.read(go, 64), this.fillFree);
      this.fillFree = fill + P.amoFillPs;
      ready = fill + P.amoFillPs;
    }
    return ready;
  }
}
