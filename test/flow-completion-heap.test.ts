/** CompletionHeap (fabric/flow/completion-heap.ts): flows by (time, tie) under random sets, moves and removals. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CompletionHeap } from '../fabric/flow/completion-heap.ts';

describe('CompletionHeap', () => {
  it('always offers the smallest (time, tie) of the slots it holds, like a sorted list', () => {
    const op = fc.oneof(
      fc.record({ kind: fc.constant('set' as const), slot: fc.nat(40), time: fc.integer({ min: 0, max: 20 }), tie: fc.nat(5) }),
      fc.record({ kind: fc.constant('remove' as const), slot: fc.nat(40) }),
      fc.record({ kind: fc.constant('pop' as const) }),
    );
    fc.assert(
      fc.property(fc.array(op, { maxLength: 300 }), (ops) => {
        const heap = new CompletionHeap();
        const ref = new Map<number, [number, number]>();
        for (const o of ops) {
          if (o.kind === 'set') {
            heap.set(o.slot, o.time, o.tie);
            ref.set(o.slot, [o.time, o.tie]);
          } else if (o.kind === 'remove') {
            heap.remove(o.slot);
            ref.delete(o.slot);
          } else if (ref.size > 0) {
            const [slot] = [...ref.entries()].sort((a, b) => a[1][0] - b[1][0] || a[1][1] - b[1][1] || a[0] - b[0])[0]!;
            expect(heap.topTime).toBe(ref.get(slot)![0]);
            const top = heap.topSlot;
            // equal (time, tie) keys may come in either order: the key must match
            expect(ref.get(top)).toEqual(ref.get(slot));
            heap.remove(top);
            ref.delete(top);
          }
          expect(heap.size).toBe(ref.size);
          for (let s = 0; s <= 40; s++) expect(heap.has(s)).toBe(ref.has(s));
        }
        if (ref.size === 0) expect(heap.topTime).toBe(Infinity);
      }),
      { numRuns: 200, seed: 3 },
    );
  });
});
