/** What the point-to-point tests share: float64 payloads and the two placements of a sender/receiver pair. */

/** Deterministic, non-trivial payloads (every element differs from its neighbours). */
export function f64Pattern(n: number, salt: number): Float64Array {
  const a = new Float64Array(n);
  for (let i = 0; i < n; i++) a[i] = Math.sin(i * 0.37 + salt) * 1e6 + i / 7;
  return a;
}

/** The two placements of a sender/receiver pair: over the network and over shared memory. */
export const placements = [
  { name: 'different nodes (nodes=4, ppn=1, ranks 0 <-> 3)', nodes: 4, ppn: 1, a: 0, b: 3 },
  { name: 'same node (nodes=1, ppn=2, shared memory)', nodes: 1, ppn: 2, a: 0, b: 1 },
] as const;
