import { getResponsePhits, putRequestPhits, type PacketFormatConfig } from './packet-format.ts';
import type { NicParams } from './nic-api.ts';
import type { Txn } from './txn.ts';

/** How a NIC transaction is cut into packets: bytes, hardware packets and phits of each, and their pipeline time. */

/** Copies `n` bytes from `src` at `from` to `dst` at `to`; a packet's few bytes by a loop, without the view `subarray` makes. */
export function copyBytes(dst: Uint8Array, to: number, src: Uint8Array, from: number, n: number): void {
  if (n > 256) {
    dst.set(src.subarray(from, from + n), to);
    return;
  }
  for (let i = 0; i < n; i++) dst[to + i] = src[from + i]!;
}

/** Pipeline time of a packet carrying `bytes`: data moves at packetPs per full payload. */
export function slotPs(P: NicParams, bytes: number, units = 1): number {
  return Math.max(units * P.cyclePs, Math.ceil((bytes * P.packetPs) / P.format.maxPayloadBytes));
}

/** Bytes on the wire (payload and any share of the virtual header) carried by simulated packet i of x. */
export function chunkBytes(F: PacketFormatConfig, x: Txn, i: number): number {
  const size = x.unit * F.maxPayloadBytes;
  const wire = x.header + x.bytes;
  return Math.min(size, wire - i * size);
}

/** Bytes on the wire carried by hardware packet h of x. */
export function hwBytes(F: PacketFormatConfig, x: Txn, h: number): number {
  const max = F.maxPayloadBytes;
  return Math.min(max, x.header + x.bytes - h * max);
}

/** Hardware packets simulated packet i of x stands for. */
export function unitsOf(x: Txn, i: number): number {
  return Math.min(x.unit, x.hw - i * x.unit);
}

/** Phits of `units` hardware packets carrying `bytes` together: full packets, then the last (put requests, or get responses). */
export function dataPhits(F: PacketFormatConfig, bytes: number, units: number, response: boolean): number {
  const phitsOf = response ? getResponsePhits : putRequestPhits;
  if (units === 1) return phitsOf(F, bytes);
  const full = units - 1;
  return full * phitsOf(F, F.maxPayloadBytes) + phitsOf(F, bytes - full * F.maxPayloadBytes);
}
