/**
 * Link errors as a machine's parameters describe them: the bit-error rate of each link class
 * (`link.ber`), the CRC that checks each packet at the receiving end of a link, and the
 * link-level retry that resends what the CRC rejects: go-back-N from the link's send buffer
 * (SeaStar, BlackWidow, Gemini, Aries) or SiCortex's per-hop retry, whose NACK rides on the
 * control packets of the reverse control lane. Here: the config triple and the closed forms of
 * what errors cost; the draws and counters of a run are link-retry.ts.
 */
import type { ParamReader } from './machines/spec.ts';
import type { PortGraph } from './topology/port-graph.ts';

/** The link-level retry protocols. */
export const RETRY_PROTOCOLS = ['go-back-n', 'per-hop'] as const;
export type RetryProtocol = (typeof RETRY_PROTOCOLS)[number];

/** Largest bit-error rate a link may have: above it a full packet fails more often than it passes and a run would crawl. */
export const MAX_BER = 1e-3;

/** `link.ber` read: the rate of every class not named, and the rates named per class (or torus dimension). */
export interface BerSpec {
  readonly all: number;
  readonly byClass: Readonly<Record<string, number>>;
}

/** The link-error parameters of a machine (`link.ber`, `link.retry`, ...), in ps, bits and phits. */
export interface LinkErrorConfig {
  readonly ber: BerSpec;
  readonly protocol: RetryProtocol;
  /** From a corrupted packet's tail reaching the receiver to its NACK leaving it (CRC check, turnaround). */
  readonly nackPs: number;
  /** The link's send (replay) buffer: it must hold what the link sends in a round trip. */
  readonly sendBufferPhits: number;
  /** per-hop: a control packet on the reverse control lane (one lane of the link's rate and line code): its time and its bits on the wire (0: acknowledgements ride in the data stream). */
  readonly controlPs: number;
  readonly controlBits: number;
  /** per-hop: phits of the short data packet with which the sender acknowledges an error before its replay. */
  readonly resumePhits: number;
  /** CRC bits per check, bits a CRC covers, and the fewest bit errors in a block it can miss (for undetected errors). */
  readonly crcBits: number;
  readonly crcBlockBits: number;
  readonly crcDistance: number;
}

/** Errors off: a machine without the link-error parameters. */
export const NO_LINK_ERRORS: LinkErrorConfig = {
  ber: { all: 0, byClass: {} },
  protocol: 'go-back-n',
  nackPs: 0,
  sendBufferPhits: 0,
  controlPs: 0,
  controlBits: 0,
  resumePhits: 0,
  crcBits: 0,
  crcBlockBits: 0,
  crcDistance: 1,
};

/** The keys of the link-error parameters; a machine has all of them or none. */
export const LINK_ERROR_KEYS = ['link.ber', 'link.retry', 'link.nackDelay', 'link.sendBuffer', 'link.controlPacket', 'link.resumePhits', 'link.crcBits', 'link.crcBlock', 'link.crcDistance'] as const;

/** A rate in [0, MAX_BER]; throws a RangeError naming `what`. */
function rate(text: string, what: string): number {
  const v = Number(text);
  if (text.trim() === '' || !Number.isFinite(v) || v < 0 || v > MAX_BER) throw new RangeError(`${what}: "${text}" is not a bit-error rate from 0 to ${MAX_BER}`);
  return v;
}

/**
 * Reads `link.ber`: a rate for every link class (`1e-12`), or comma-separated `class=rate` items,
 * optionally after a rate for the classes not named (`1e-12,global=1e-9`). Class names are
 * checked against a built graph (berOfClass). Throws a RangeError without the key's name.
 */
export function parseBer(text: string): BerSpec {
  const items = text.split(',').map((s) => s.trim());
  let all = 0;
  const byClass: Record<string, number> = {};
  items.forEach((item, i) => {
    const eq = item.indexOf('=');
    if (eq < 0) {
      if (i !== 0) throw new RangeError(`"${item}": only the first item may be a rate without a class (the rate of the classes not named)`);
      all = rate(item, `"${item}"`);
      return;
    }
    const name = item.slice(0, eq).trim();
    if (!/^[a-z][a-z0-9+-]*$/.test(name)) throw new RangeError(`"${item}": expected class=rate, e.g. global=1e-9`);
    if (Object.hasOwn(byClass, name)) throw new RangeError(`class ${name} is given twice`);
    byClass[name] = rate(item.slice(eq + 1).trim(), `class ${name}`);
  });
  return { all, byClass };
}

/** Whether `text` is a `link.ber` value (for the parameter schema). */
export function isBerText(text: string): boolean {
  try {
    parseBer(text);
    return true;
  } catch {
    return false;
  }
}

/** Reads the link-error parameters; a machine without `link.ber` has no link errors. */
export function resolveLinkErrors(r: ParamReader): LinkErrorConfig {
  if (!r.has('link.ber')) return NO_LINK_ERRORS;
  const missing = LINK_ERROR_KEYS.filter((k) => !r.has(k));
  if (missing.length > 0) throw new RangeError(`parameter link.ber: a machine with link errors needs ${missing.join(', ')} too`);
  let ber: BerSpec;
  try {
    ber = parseBer(r.string('link.ber'));
  } catch (e) {
    throw new RangeError(`parameter link.ber: ${e instanceof Error ? e.message : String(e)}`, { cause: e });
  }
  const protocol = r.string('link.retry');
  if (!(RETRY_PROTOCOLS as readonly string[]).includes(protocol)) throw new RangeError(`parameter link.retry: "${protocol}" is not one of ${RETRY_PROTOCOLS.join(', ')}`);
  const crcDistance = r.int('link.crcDistance');
  if (crcDistance < 1) throw new RangeError('parameter link.crcDistance: a CRC misses no pattern of fewer than 1 bit error; expected at least 1');
  // a control packet's bits on the wire, line code included, at one lane's rate
  const controlBits = (r.bytes('link.controlPacket') * 8) / r.number('link.efficiency');
  return {
    ber,
    protocol: protocol as RetryProtocol,
    nackPs: r.timePs('link.nackDelay'),
    sendBufferPhits: r.int('link.sendBuffer'),
    controlPs: Math.round(controlBits / (r.bytesPerPs('link.laneRate') * 8)),
    controlBits,
    resumePhits: r.int('link.resumePhits'),
    crcBits: r.int('link.crcBits'),
    crcBlockBits: r.bytes('link.crcBlock') * 8,
    crcDistance,
  };
}

/** Whether a machine's links can err at all (some class has a rate above 0). */
export function hasLinkErrors(c: LinkErrorConfig): boolean {
  return c.ber.all > 0 || Object.values(c.ber.byClass).some((v) => v > 0);
}

/** Names `link.ber` accepts on a graph: its router-to-router link classes, and on a torus each dimension letter (both directions). */
export function berClassNames(g: PortGraph): string[] {
  const names = g.classNames.filter((n) => n !== 'node' && n !== 'unused');
  if (g.topology !== 'torus') return names;
  const dims = [...new Set(names.map((n) => n.slice(0, -1)))];
  return [...dims, ...names];
}

/** Throws a RangeError if `link.ber` names a class the graph lacks. */
export function checkBerClasses(spec: BerSpec, g: PortGraph): void {
  const valid = berClassNames(g);
  for (const name of Object.keys(spec.byClass)) {
    if (!valid.includes(name)) throw new RangeError(`parameter link.ber: "${name}" is not a link class of this ${g.topology}; classes: ${valid.join(', ')}`);
  }
}

/** The bit-error rate of link class `name` (torus `x+` falls back on `x`, then on the rate of every class). */
export function berOfClass(spec: BerSpec, name: string, topology: string): number {
  if (name === 'node' || name === 'unused') return 0;
  const own = spec.byClass[name];
  if (own !== undefined) return own;
  if (topology === 'torus') {
    const dim = spec.byClass[name.slice(0, -1)];
    if (dim !== undefined) return dim;
  }
  return spec.all;
}

/** What one link class's retry needs at run time (LinkParams.errors): every value in ps or bits. */
export interface LinkErrorParams {
  /** Bit-error rate of every lane of the class (above 0). */
  readonly ber: number;
  /** Bits the class's lanes carry per ps, line code and link-layer framing included: a packet's bits on the wire are its serialization time times this. */
  readonly wireBitsPerPs: number;
  readonly protocol: RetryProtocol;
  /** Round trip of a NACK beyond the corrupted packet: the wire both ways plus the receiver's turnaround. */
  readonly nackRoundTripPs: number;
  /** per-hop: one control packet's time on the control lane (0 for go-back-n). */
  readonly controlPs: number;
  /** per-hop: its bits on the wire (a corrupted one is ignored, and the next carries the error). */
  readonly controlBits: number;
  /** per-hop: the short data packet that acknowledges the error before the replay. */
  readonly resumePs: number;
}

/** The probability that `bits` bits cross a link of bit-error rate `ber` with at least one error: 1 - (1 - ber)^bits. */
export function errorProbability(ber: number, bits: number): number {
  return -Math.expm1(bits * Math.log1p(-ber));
}

/**
 * Mean time a corrupted packet (serialized in `serPs`) adds to its link: its own serialization,
 * lost, plus the NACK's round trip, during which go-back-N discards what follows it; per-hop
 * retry waits on average half a control packet for the next one to start, sends it, and again
 * for each corrupted one, then the short packet that acknowledges the error.
 */
export function meanReplayPs(e: LinkErrorParams, serPs: number): number {
  let t = serPs + e.nackRoundTripPs;
  if (e.protocol === 'per-hop') t += (0.5 + 1 / (1 - errorProbability(e.ber, e.controlBits))) * e.controlPs + e.resumePs;
  return t;
}

/**
 * Go-back-N efficiency, the share of a saturated link's time that carries packets through:
 * (1 - p) / (1 - p + W p), for packet error probability p and a window of W packets, the packet
 * itself and those sent in the round trip of its NACK, which a corruption costs.
 */
export function goBackNEfficiency(p: number, window: number): number {
  return (1 - p) / (1 - p + window * p);
}

/**
 * The efficiency of a link with errors carrying back-to-back packets of `serPs` each: goBackNEfficiency
 * with p = 1 - (1 - ber)^(serPs x wireBitsPerPs) and W = meanReplayPs / serPs. A link moves
 * its packets at this fraction of its error-free rate (1 without errors).
 */
export function linkEfficiency(e: LinkErrorParams | undefined, serPs: number): number {
  if (e === undefined) return 1;
  return goBackNEfficiency(errorProbability(e.ber, serPs * e.wireBitsPerPs), meanReplayPs(e, serPs) / serPs);
}

/**
 * The probability that a CRC block of `blockBits` carries errors its CRC of `crcBits` misses:
 * fewer than `distance` bit errors are always caught, and a pattern of more is missed with
 * probability 2^-crcBits (the CRC's value is then as good as random). Sums the binomial terms
 * from `distance` errors up until they stop counting.
 */
export function undetectedPerBlock(ber: number, blockBits: number, crcBits: number, distance: number): number {
  if (ber <= 0) return 0;
  const lnP = Math.log(ber);
  const lnQ = Math.log1p(-ber);
  let lnChoose = 0; // ln C(n, k)
  for (let k = 0; k < distance; k++) lnChoose += Math.log((blockBits - k) / (k + 1));
  let sum = 0;
  for (let k = distance; k <= blockBits; k++) {
    const term = Math.exp(lnChoose + k * lnP + (blockBits - k) * lnQ);
    sum += term;
    if (term < sum * 1e-12) break;
    lnChoose += Math.log((blockBits - k) / (k + 1));
  }
  return sum * 2 ** -crcBits;
}

/**
 * Expected undetected errors per second over every router-to-router link of `g`, each direction
 * sending all the time at its raw rate (`rawGBs` of its class) with the bit-error rates of `c`:
 * blocks per second times undetectedPerBlock. Seed 001 ("Network Reliability") gives this figure
 * for a 25,000-node Cray XC at BER 1e-7 on every lane.
 */
export function undetectedErrorsPerSecond(c: LinkErrorConfig, g: PortGraph, rawGBs: (className: string) => number): number {
  const perClass = new Map<number, number>();
  for (let gp = 0; gp < g.routers * g.radix; gp++) {
    if (g.peerRouter[gp]! < 0) continue;
    const cls = g.portClass[gp]!;
    perClass.set(cls, (perClass.get(cls) ?? 0) + 1);
  }
  let rate = 0;
  for (const [cls, links] of perClass) {
    const name = g.classNames[cls]!;
    const ber = berOfClass(c.ber, name, g.topology);
    if (ber === 0) continue;
    const blocksPerSecond = (rawGBs(name) * 8e9) / c.crcBlockBits;
    rate += links * blocksPerSecond * undetectedPerBlock(ber, c.crcBlockBits, c.crcBits, c.crcDistance);
  }
  return rate;
}
