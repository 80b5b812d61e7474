import { CompletionHeap } from './completion-heap.ts';
import type { FlowResources } from './flow-resources.ts';
import type { FlowTable } from './flow-table.ts';
import { MaxMinBuffers, maxMinRates } from './max-min.ts';

/** Completion times within this much (ps) above an integer round down to it (rounding noise of remaining / rate). */
const TIME_SLACK_PS = 1e-6;

/**
 * The max-min solve of a FlowNetwork (maxMinRates): the flows and resources a start, an end or a
 * capacity change touches (the component connected to them through shared resources) are solved
 * again, their bytes left and the resources' carried units brought up to the solve's instant,
 * and the completion times of the flows whose rate changed set in `due`.
 */
export class FlowSolver {
  /** Flows started since the last solve. */
  readonly dirtyFlows: number[] = [];
  /** Resources whose flows or capacity changed since the last solve. */
  readonly dirtyRes: number[] = [];
  /** Active flows by completion time. */
  readonly due = new CompletionHeap();
  /** Solves so far, and the flows they took in. */
  nSolves = 0;
  nSolvedFlows = 0;
  // the solver's problem and scratch, reused
  private epoch = 0;
  private compNf = 0;
  private compNr = 0;
  /** The component's flows and resources, the max-min problem over them and its rates, reused. */
  private readonly sb = new MaxMinBuffers();

  constructor(
    private readonly flows: FlowTable,
    private readonly res: FlowResources,
  ) {}

  /**
   * Solves the rates of every flow connected to a pending start or end at time `now`, and sets the
   * completion times whose rates changed; returns whether it solved (else nothing was pending, or
   * the ends left no flow connected).
   */
  solve(now: number): boolean {
    if (this.dirtyFlows.length === 0 && this.dirtyRes.length === 0) return false;
    this.collectComponent();
    // the flows' arrays (a solve grows none of them)
    const { fCap, fGroup, fRate, fRem, fRes, fSerial, fSince, fW, gMark, gRate, gRem, gSince } = this.flows;
    const nf = this.compNf;
    const nr = this.compNr;
    const cf = this.sb.compFlows;
    const cr = this.sb.compRes;
    const pb = this.sb.problem;
    // bring the bytes left and the carried units up to now (a pool's once, at its lead flow)
    const ep = this.epoch;
    for (let i = 0; i < nf; i++) {
      const f = cf[i]!;
      const g = fGroup[f]!;
      if (g >= 0 && gMark[g] !== ep) {
        gMark[g] = ep;
        const left = gRem[g]! - gRate[g]! * (now - gSince[g]!);
        gRem[g] = left > 0 ? left : 0;
        gSince[g] = now;
        gRate[g] = 0;
      }
      const left = fRem[f]! - fRate[f]! * (now - fSince[f]!);
      fRem[f] = left > 0 ? left : 0;
      fSince[f] = now;
      this.sb.oldRates[i] = fRate[f]!;
    }
    const res = this.res;
    for (let j = 0; j < nr; j++) {
      const r = cr[j]!;
      res.carried[r]! += res.load[r]! * (now - res.since[r]!);
      res.since[r] = now;
      res.load[r] = 0;
      res.local[r] = j;
      pb.capacity[j] = res.cap[r]!;
    }
    let e = 0;
    for (let i = 0; i < nf; i++) {
      const f = cf[i]!;
      const fr = fRes[f]!;
      const fw = fW[f]!;
      pb.flowStart[i] = e;
      pb.rateCap![i] = fCap[f]!;
      for (let k = 0; k < fr.length; k++, e++) {
        pb.entryResource[e] = res.local[fr[k]!]!;
        pb.entryWeight[e] = fw[k]!;
      }
    }
    if (nf === 0) return false; // ends that left nothing connected: the loads are 0
    pb.flowStart[nf] = e;
    pb.flows = nf;
    pb.resources = nr;
    maxMinRates(pb, this.sb.rates, this.sb.scratch);
    this.nSolves++;
    this.nSolvedFlows += nf;
    const old = this.sb.oldRates;
    for (let i = 0; i < nf; i++) {
      const f = cf[i]!;
      const rate = this.sb.rates[i]!;
      fRate[f] = rate;
      const fr = fRes[f]!;
      const fw = fW[f]!;
      for (let k = 0; k < fr.length; k++) res.load[fr[k]!]! += fw[k]! * rate;
      const g = fGroup[f]!;
      if (g >= 0) {
        // a pool's completion: its bytes left over its flows' summed rate, set once all are summed
        gRate[g]! += rate;
        continue;
      }
      // an unchanged rate keeps its completion time (the bytes left fell by rate x elapsed)
      if (rate === old[i] && this.due.has(f)) continue;
      if (!(rate > 0)) {
        // never: capacities and caps are above 0
        this.due.remove(f);
        continue;
      }
      const t = fRem[f]! / rate;
      const at = now + (t > TIME_SLACK_PS ? Math.ceil(t - TIME_SLACK_PS) : 0);
      this.due.set(f, at, fSerial[f]!);
    }
    for (let i = 0; i < nf; i++) {
      const g = fGroup[cf[i]!]!;
      if (g !== cf[i]) continue;
      const rate = gRate[g]!;
      if (!(rate > 0)) {
        this.due.remove(g);
        continue;
      }
      const t = gRem[g]! / rate;
      this.due.set(g, now + (t > TIME_SLACK_PS ? Math.ceil(t - TIME_SLACK_PS) : 0), fSerial[g]!);
    }
    return true;
  }

  /**
   * Marks the flows and resources connected to the pending changes (breadth-first over shared
   * resources) into compFlows[0..compNf) and compRes[0..compNr), and clears the pending lists.
   */
  private collectComponent(): void {
    const ep = ++this.epoch;
    const { fActive, fGroup, fMark, fRes, gMembers } = this.flows;
    this.sb.ensure(this.flows.nSlots, this.res.n, this.flows.nEntries);
    const cf = this.sb.compFlows;
    const cr = this.sb.compRes;
    let nf = 0;
    let nr = 0;
    for (const f of this.dirtyFlows) {
      if (fActive[f] === 1 && fMark[f] !== ep) {
        fMark[f] = ep;
        cf[nf++] = f;
      }
    }
    const mark = this.res.mark;
    for (const r of this.dirtyRes) {
      if (mark[r] !== ep) {
        mark[r] = ep;
        cr[nr++] = r;
      }
    }
    this.dirtyFlows.length = 0;
    this.dirtyRes.length = 0;
    let i = 0;
    let j = 0;
    while (i < nf || j < nr) {
      for (; i < nf; i++) {
        const g = fGroup[cf[i]!]!;
        if (g >= 0) {
          // the flows of a pool are connected through it
          for (const m of gMembers[g]!) {
            if (fActive[m] === 1 && fMark[m] !== ep) {
              fMark[m] = ep;
              cf[nf++] = m;
            }
          }
        }
        const fr = fRes[cf[i]!]!;
        for (let k = 0; k < fr.length; k++) {
          const r = fr[k]!;
          if (mark[r] !== ep) {
            mark[r] = ep;
            cr[nr++] = r;
          }
        }
      }
      for (; j < nr; j++) {
        const list = this.res.flows[cr[j]!]!;
        for (let k = 0; k < list.length; k++) {
          const f = list[k]!;
          if (fMark[f] !== ep) {
            fMark[f] = ep;
            cf[nf++] = f;
          }
        }
      }
    }
    this.compNf = nf;
    this.compNr = nr;
  }
}
