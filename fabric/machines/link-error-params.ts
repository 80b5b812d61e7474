import type { ParamDef } from './spec.ts';

/** One preset's value of a link-error parameter and where it comes from. */
export interface Sourced {
  readonly value: string | number;
  readonly source: string;
}

/** What differs between presets in the link-error parameters (fabric/link-errors.ts). */
export interface LinkErrorOptions {
  readonly retry: Sourced;
  readonly nackDelay: Sourced;
  readonly sendBuffer: Sourced;
  readonly controlPacket: Sourced;
  readonly resumePhits: Sourced;
  readonly crcBits: Sourced;
  readonly crcBlock: Sourced;
  readonly crcDistance: Sourced;
  /** Why the rate is 0 by default (the seed's measured rate, if it gives one). */
  readonly berSource: string;
}

/**
 * The link-error parameters every preset has: the bit-error rate per link class (0 by default:
 * errors off) and the CRC and link-level retry of the machine's link layer, which only cost
 * anything when a rate is set.
 */
export function linkErrorParams(o: LinkErrorOptions): Record<string, ParamDef> {
  const p = (s: Sourced, help: string): ParamDef => ({ value: s.value, help, source: s.source });
  return {
    'link.ber': {
      value: 0,
      help: 'bit-error rate of every lane of the router-to-router links: one rate, or class=rate items after an optional rate for the classes not named (e.g. 1e-12,global=1e-9; a torus dimension letter names both directions); 0: no errors',
      source: o.berSource,
    },
    'link.retry': p(o.retry, 'link-level retry of a packet the receiving CRC rejects: go-back-n (resend it and all that followed it) or per-hop (SiCortex: the same replay, with the NACK on the control lane)'),
    'link.nackDelay': p(o.nackDelay, 'from a corrupted packet\'s tail reaching the receiver to its NACK leaving (CRC check and turnaround); the wire both ways is added'),
    'link.sendBuffer': p(o.sendBuffer, 'send (replay) buffer of a link, phits: must cover a full packet and the round trip of its NACK'),
    'link.controlPacket': p(o.controlPacket, 'per-hop: control packet on the reverse control lane, CRC included; 0B where acknowledgements ride in the data stream'),
    'link.resumePhits': p(o.resumePhits, 'per-hop: phits of the short data packet that acknowledges an error before the replay'),
    'link.crcBits': p(o.crcBits, 'CRC bits per check'),
    'link.crcBlock': p(o.crcBlock, 'data one CRC covers'),
    'link.crcDistance': p(o.crcDistance, 'fewest bit errors in a CRC block that can go undetected (the CRC\'s Hamming distance)'),
  };
}
