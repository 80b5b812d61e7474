/** Helpers shared by the test suites. */

/** Awaits `p` and returns what it rejected with; fails if it resolved. */
export async function rejection(p: Promise<unknown>): Promise<Error> {
  try {
    await p;
  } catch (e) {
    if (!(e instanceof Error)) throw new Error(`rejected with a non-Error: ${String(e)}`, { cause: e });
    return e;
  }
  throw new Error('expected the run to reject, but it resolved');
}

/**
 * Kahn's topological sort of a dependency graph given as successor sets: `cyclic` counts the
 * vertices left unsorted (0 when the graph is acyclic; Dally and Seitz: an acyclic channel
 * dependency graph means deadlock freedom).
 */
export function sortDependencies(succ: ReadonlyMap<number, ReadonlySet<number>>): { cyclic: number; channels: number; edges: number } {
  const indeg = new Map<number, number>();
  for (const [a, bs] of succ) {
    if (!indeg.has(a)) indeg.set(a, 0);
    for (const b of bs) indeg.set(b, (indeg.get(b) ?? 0) + 1);
  }
  const ready = [...indeg].filter(([, v]) => v === 0).map(([c]) => c);
  let sorted = 0;
  let edges = 0;
  while (ready.length > 0) {
    const c = ready.pop()!;
    sorted++;
    for (const b of succ.get(c) ?? []) {
      edges++;
      const v = indeg.get(b)! - 1;
      indeg.set(b, v);
      if (v === 0) ready.push(b);
    }
  }
  return { cyclic: indeg.size - sorted, channels: indeg.size, edges };
}
