import type { AmoRequest } from './nic-api.ts';

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
