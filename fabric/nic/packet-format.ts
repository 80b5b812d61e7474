/**
 * A NIC's packet format in phits (the link's transfer unit). Gemini (seed 004 §III): 24-bit
 * phits; a write request is 7 header phits + 3 phits per 8 bytes of data + 1 EOP phit; a
 * response is 2 phits (3 on error); a get request 8 phits; a get response 2 header phits +
 * data + 1 EOP.
 */
export interface PacketFormatConfig {
  readonly phitBits: number;
  readonly requestHeaderPhits: number;
  readonly eopPhits: number;
  /** Data is carried in groups of this many bytes... */
  readonly dataGroupBytes: number;
  /** ...each taking this many phits. */
  readonly dataGroupPhits: number;
  readonly responsePhits: number;
  readonly errorResponsePhits: number;
  readonly readRequestPhits: number;
  readonly readResponseHeaderPhits: number;
  /** Largest payload of one packet (bytes). */
  readonly maxPayloadBytes: number;
}

/** Phits of the data part of a packet carrying `bytes`. */
function dataPhits(f: PacketFormatConfig, bytes: number): number {
  return Math.ceil(bytes / f.dataGroupBytes) * f.dataGroupPhits;
}

/** Phits of a write (put) request carrying `bytes` of payload. */
export function putRequestPhits(f: PacketFormatConfig, bytes: number): number {
  return f.requestHeaderPhits + dataPhits(f, bytes) + f.eopPhits;
}

/** Phits of a read (get) response carrying `bytes` of payload. */
export function getResponsePhits(f: PacketFormatConfig, bytes: number): number {
  return f.readResponseHeaderPhits + dataPhits(f, bytes) + f.eopPhits;
}
