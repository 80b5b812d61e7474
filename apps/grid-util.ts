/** A rank's block of a structured grid with a halo of one cell: its layout and walks over its faces. */

/**
 * The local block with a halo of one cell: `padded[d]` = cells along d + 2, the last dimension
 * varying fastest; `stride[d]` elements between neighbours along d.
 */
export interface Layout {
  readonly local: readonly number[];
  readonly padded: readonly number[];
  readonly stride: readonly number[];
}

/** The layout of a block of `local` cells with a halo of one. */
export function layoutOf(local: readonly number[]): Layout {
  const padded = local.map((n) => n + 2);
  const stride = padded.map(() => 1);
  for (let d = padded.length - 2; d >= 0; d--) stride[d] = stride[d + 1]! * padded[d + 1]!;
  return { local, padded, stride };
}

/** Element offset of the face normal to dimension `d` at coordinate `c` along d (the other coordinates at 1). */
export function faceOffset(l: Layout, d: number, c: number): number {
  return l.stride.reduce((s, st, k) => s + st * (k === d ? c : 1), 0);
}

/**
 * Calls `f(offset, i, index)` for the face cells of the layer at coordinate `c` along `d`
 * (padded indices), `i` counting them row-major, the order a vector datatype of the face packs them.
 */
export function forLayer(l: Layout, d: number, c: number, f: (offset: number, i: number, idx: readonly number[]) => void): void {
  const dims = l.local.length;
  const idx = new Array<number>(dims).fill(1);
  let i = 0;
  const walk = (k: number, off: number): void => {
    if (k === dims) return f(off, i++, idx);
    const lo = k === d ? c : 1;
    const hi = k === d ? c : l.local[k]!;
    for (let x = lo; x <= hi; x++) {
      idx[k] = x;
      walk(k + 1, off + x * l.stride[k]!);
    }
  };
  walk(0, 0);
}
