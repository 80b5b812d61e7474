/**
 * Link errors at run time: which packets a link corrupts and what their replay costs. The
 * network asks once per packet it puts on a router-to-router link (`replayPs`); a link class
 * without errors answers 0 after one read. The closed forms and parameters are link-errors.ts.
 *
 * The model: the CRC at the receiving end of the link rejects a corrupted packet and the link
 * sends it again with everything that followed it (go-back-N; SiCortex's per-hop retry replays
 * from the last good sequence number the same way). The packets sent behind a corrupted one are
 * discarded and resent, so they reach the next router no earlier than if the link had waited:
 * the link holds the channel for the replay (the lost serialization, the NACK's round trip and,
 * per hop, the control packets and the short packet that acknowledges the error), then sends
 * the packet again. Nothing is lost, duplicated or reordered; the router buffer it left was
 * freed as it went into the link's send buffer, which covers the round trip (checked when the
 * machine is built). The next router sees only the copy that got through.
 */
import { Prng } from './engine/prng.ts';
import type { LinkErrorParams } from './link-errors.ts';

/** Salt of the error stream: a run's link errors come from a generator of their own, seeded from the run's seed. */
const ERROR_STREAM_SALT = 0x6c696e6b;

/** Counters of a link class since the collector last reset them. */
export interface RetryCounters {
  /** Hardware packets sent on the class's links (each attempt that got through). */
  readonly packets: Float64Array;
  /** Attempts the receiving CRC rejected: each one a replay. */
  readonly retransmissions: Float64Array;
  /** Time the replays held the class's links (ps). */
  readonly replayPs: Float64Array;
  /** per-hop: control packets corrupted (ignored by the sender; the next one carried the error). */
  readonly controlErrors: Float64Array;
}

/** Per-class error state of a network; indexed by the network's channel kind (link classes, then NIC channels, which never err). */
export class LinkRetry {
  /** ln(1 - ber) times the class's wire bits per ps (0: the class never errs): a packet serialized for s ps passes with probability exp(s x this). */
  private readonly lnPassPerPs: Float64Array;
  private readonly nackRoundTripPs: Float64Array;
  /** per-hop only: control packet time, ln of a control packet's chance to be corrupted, and the resume packet (0 for go-back-n). */
  private readonly controlPs: Float64Array;
  private readonly lnControlFail: Float64Array;
  private readonly resumePs: Float64Array;
  private readonly rng: Prng;
  readonly counters: RetryCounters;

  /** `errors[k]`: the error parameters of channel kind k, or undefined where it never errs; `kinds` channel kinds in all. */
  constructor(errors: readonly (LinkErrorParams | undefined)[], kinds: number, seed: number) {
    this.lnPassPerPs = new Float64Array(kinds);
    this.nackRoundTripPs = new Float64Array(kinds);
    this.controlPs = new Float64Array(kinds);
    this.lnControlFail = new Float64Array(kinds);
    this.resumePs = new Float64Array(kinds);
    errors.forEach((e, k) => {
      if (e === undefined || !(e.ber > 0)) return;
      this.lnPassPerPs[k] = Math.log1p(-e.ber) * e.wireBitsPerPs;
      this.nackRoundTripPs[k] = e.nackRoundTripPs;
      if (e.protocol === 'per-hop') {
        this.controlPs[k] = e.controlPs;
        this.lnControlFail[k] = Math.log(-Math.expm1(Math.log1p(-e.ber) * e.controlBits));
        this.resumePs[k] = e.resumePs;
      }
    });
    this.rng = new Prng((seed ^ ERROR_STREAM_SALT) >>> 0);
    this.counters = { packets: new Float64Array(kinds), retransmissions: new Float64Array(kinds), replayPs: new Float64Array(kinds), controlErrors: new Float64Array(kinds) };
  }

  /**
   * A packet of `units` hardware packets (1, or more for a coarse packet) takes `serPs` to
   * serialize on a channel of kind `kind`: the time its replays hold the channel before the copy
   * that gets through, 0 when none of its hardware packets is corrupted. Draws the clean
   * hardware packets before each error (geometric), so a packet costs one draw unless it errs.
   */
  replayPs(kind: number, serPs: number, units: number): number {
    const ln = this.lnPassPerPs[kind]!;
    if (ln === 0) return 0;
    const unitPs = serPs / units;
    const lnPass = ln * unitPs;
    const c = this.counters;
    c.packets[kind]! += units;
    let through = 0;
    let delay = 0;
    for (;;) {
      // clean hardware packets before the next error: P(at least k) = pass^k
      through += Math.floor(Math.log(1 - this.rng.next()) / lnPass);
      if (through >= units) break;
      c.retransmissions[kind]!++;
      delay += unitPs + this.nackRoundTripPs[kind]!;
      const ctl = this.controlPs[kind]!;
      if (ctl > 0) delay += this.controlWait(kind, ctl);
    }
    if (delay === 0) return 0;
    const ps = Math.ceil(delay);
    c.replayPs[kind]! += ps;
    return ps;
  }

  /** per-hop: from the error to the control packet that carries it (the next to start, after any corrupted ones), plus the resume packet. */
  private controlWait(kind: number, ctl: number): number {
    const lnFail = this.lnControlFail[kind]!;
    // corrupted control packets before a good one: P(at least k) = fail^k
    const lost = Math.floor(Math.log(1 - this.rng.next()) / lnFail);
    this.counters.controlErrors[kind]! += lost;
    return (this.rng.next() + 1 + lost) * ctl + this.resumePs[kind]!;
  }

  /** Zeroes the counters (a measurement window starts). */
  resetCounters(): void {
    const c = this.counters;
    c.packets.fill(0);
    c.retransmissions.fill(0);
    c.replayPs.fill(0);
    c.controlErrors.fill(0);
  }

  /** A copy of the counters. */
  snapshot(): RetryCounters {
    const c = this.counters;
    return { packets: Float64Array.from(c.packets), retransmissions: Float64Array.from(c.retransmissions), replayPs: Float64Array.from(c.replayPs), controlErrors: Float64Array.from(c.controlErrors) };
  }
}
