import { grow } from './flow-resources.ts';
import type { FlowSpec } from './flow-spec.ts';

/**
 * The flows of a FlowNetwork by slot, and its pools of flows (FlowSpec.multipath) by their lead
 * flow: typed arrays per slot, grown together, which the network's lifecycle writes and its
 * solver (FlowSolver) reads. A slot is reused once its flow has reported done.
 */
export class FlowTable {
  /** Slots in use or freed: the arrays hold at least this many. */
  nSlots = 0;
  /** Slots whose flows have reported done, for reuse. */
  readonly freeSlots: number[] = [];
  /** Per flow: payload bytes left at `fSince`, rate (bytes per ps) since then, rate cap, start serial, 1 while active, solve mark. */
  fRem = new Float64Array(16);
  fRate = new Float64Array(16);
  fSince = new Float64Array(16);
  fCap = new Float64Array(16);
  fSerial = new Float64Array(16);
  fActive = new Uint8Array(16);
  fMark = new Int32Array(16);
  /** Per flow its resources and its weight on each. */
  readonly fRes: Int32Array[] = [];
  readonly fW: Float64Array[] = [];
  /** Per entry of a flow its position in its resource's list. */
  readonly fPos: Int32Array[] = [];
  /** Per flow the callback of its end, until it is called. */
  readonly fDone: (((flow: number) => void) | null)[] = [];
  /** Per flow started by `start` (a pool's lead flow), its spec: a failure under it re-routes the rest by it. */
  readonly fSpec: (FlowSpec | null)[] = [];
  /** Per flow the lead flow of its pool, or -1. */
  fGroup = new Int32Array(16).fill(-1);
  // pools (multipath flows), indexed by their lead flow: members, bytes left, since, summed rate, cap resource
  readonly gMembers: (number[] | undefined)[] = [];
  gRem = new Float64Array(16);
  gSince = new Float64Array(16);
  gRate = new Float64Array(16);
  gCap = new Int32Array(16);
  gMark = new Int32Array(16);
  /** Serial of the next flow to start: flows report in start order. */
  serial = 0;
  /** Resource uses of the active flows. */
  nEntries = 0;
  /** Orders flows by start. */
  readonly bySerial = (a: number, b: number): number => this.fSerial[a]! - this.fSerial[b]!;

  /** A free slot for a new flow: a reused one, or the next one (the arrays grown to hold it). */
  alloc(): number {
    const free = this.freeSlots.pop();
    if (free !== undefined) return free;
    const f = this.nSlots++;
    if (f === this.fRem.length) {
      const n = 2 * f;
      this.fRem = grow(this.fRem, n);
      this.fRate = grow(this.fRate, n);
      this.fSince = grow(this.fSince, n);
      this.fCap = grow(this.fCap, n);
      this.fSerial = grow(this.fSerial, n);
      this.fActive = grow(this.fActive, n);
      this.fMark = grow(this.fMark, n);
      this.fGroup = grow(this.fGroup, n);
      this.gRem = grow(this.gRem, n);
      this.gSince = grow(this.gSince, n);
      this.gRate = grow(this.gRate, n);
      this.gCap = grow(this.gCap, n);
      this.gMark = grow(this.gMark, n);
    }
    this.fRes.push(new Int32Array(0));
    this.fW.push(new Float64Array(0));
    this.fPos.push(new Int32Array(0));
    this.fDone.push(null);
    return f;
  }
}
