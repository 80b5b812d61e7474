import { VA_START } from './iommu.ts';
import { NicStatus, type RegisterOptions, type Segment } from './nic-api.ts';
import { K_AMO, type Txn } from './txn.ts';

/**
 * A NIC's registered memory: segments by memory-domain handle, each at its own page-aligned
 * virtual address (for the IOMMU), and the vMDH CAM that maps an instance's virtual handles to
 * segments (seed 001 "Remote Memory Access"). `resolve` is the target-side check of an access.
 */
export class SegmentTable {
  private readonly segments: (Segment | undefined)[] = [];
  private readonly freeHandles: number[] = [];
  /** vMDH CAM: per instance, virtual handle -> handle. */
  private readonly vmdhCam: (number | undefined)[][] = [];
  private nextVa = VA_START;

  /** `node` names the NIC in messages. */
  constructor(private readonly node: number) {}

  /** The segment of `handle`, or undefined when it is not registered. */
  get(handle: number): Segment | undefined {
    return this.segments[handle];
  }

  /** Registers `bytes`; returns the memory-domain handle (see `Nic.register`). */
  register(bytes: Uint8Array, opts: RegisterOptions = {}): number {
    const inst = opts.inst ?? 0;
    const pageBytes = opts.pageBytes ?? 4096;
    if (!Number.isInteger(pageBytes) || pageBytes < 1 || (pageBytes & (pageBytes - 1)) !== 0) {
      throw new RangeError(`NIC ${this.node}: pageBytes=${pageBytes} must be a power of two`);
    }
    const cam = (this.vmdhCam[inst] ??= []);
    if (opts.vmdh !== undefined && cam[opts.vmdh] !== undefined) {
      throw new RangeError(`NIC ${this.node}: virtual handle ${opts.vmdh} of instance ${inst} is already bound`);
    }
    const h = this.freeHandles.length > 0 ? this.freeHandles.pop()! : this.segments.length;
    const base = Math.ceil(this.nextVa / pageBytes) * pageBytes;
    this.nextVa = base + Math.max(1, bytes.length) + pageBytes;
    this.segments[h] = {
      bytes,
      view: new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength),
      inst,
      ptag: opts.ptag ?? 0,
      base,
      pageShift: Math.log2(pageBytes),
      vmdh: opts.vmdh ?? -1,
      cq: opts.cq,
    };
    if (opts.vmdh !== undefined) cam[opts.vmdh] = h;
    return h;
  }

  /** Removes a registration; later accesses to the handle complete with BadHandle. */
  deregister(handle: number): void {
    const seg = this.segments[handle];
    if (seg === undefined) throw new RangeError(`NIC ${this.node}: handle ${handle} is not registered`);
    if (seg.vmdh >= 0) this.vmdhCam[seg.inst]![seg.vmdh] = undefined;
    this.segments[handle] = undefined;
    this.freeHandles.push(handle);
  }

  /**
   * Target-side checks of transaction x (the whole range, so a bad access changes nothing):
   * its segment, or the status that refuses it.
   */
  resolve(x: Txn): Segment | NicStatus {
    let h = x.remoteHandle;
    if (x.vmdh) {
      const real = this.vmdhCam[x.remoteInst]?.[h];
      if (real === undefined) return NicStatus.BadHandle;
      h = real;
    }
    const seg = this.segments[h];
    if (seg === undefined) return NicStatus.BadHandle;
    if (seg.ptag !== x.ptag) return NicStatus.DomainRefused;
    const span = x.op === K_AMO ? x.amo!.width : x.bytes;
    if (x.remoteOffset < 0 || x.remoteOffset + span > seg.bytes.length) return NicStatus.OutOfBounds;
    if (x.op === K_AMO && (seg.base + x.remoteOffset) % span !== 0) return NicStatus.Misaligned;
    return seg;
  }
}
