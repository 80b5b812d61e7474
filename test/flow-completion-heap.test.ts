/** CompletionHeap (fabric/flow/completion-heap.ts): flows by (time, tie) under random sets, moves and removals. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CompletionHeap } from '../fabric/flow/completion-heap.ts';

describe('CompletionHeap', () => {
  it('always offers the smallest (time, tie) of the slots it holds, like a sorted list', () => {
    const set = fc.record({ kind: fc.constant('set' as const), slot: fc.nat(199), time: fc.integer({ min: 0, max: 1000 }), tie: fc.nat(5) });
    const op = fc.oneof(
      { arbitrary: set, weight: 3 },
      { arbitrary: fc.record({ kind: fc.constant('remove' as const), slot: fc.nat(199) }), weight: 2 },
      { arbitrary: fc.record({ kind: fc.constant('pop' as const) }), weight: 1 },
    );
    fc.assert(
      fc.property(fc.array(set, { maxLength: 150 }), fc.array(op, { maxLength: 300 }), (fill, mixed) => {
        const ops = [...fill, ...mixed];
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
          if (heap.size !== ref.size) expect(heap.size).toBe(ref.size);
        }
        for (let s = 0; s < 200; s++) if (heap.has(s) !== ref.has(s)) expect([s, heap.has(s)]).toEqual([s, ref.has(s)]);
        // drained, it gives every key in order
        const keys = [...ref.values()].sort((a, b) => a[0] - b[0] || a[1] - b[1]);
        const drained: [number, number][] = [];
        while (heap.size > 0) {
          const top = heap.topSlot;
          drained.push(ref.get(top)!);
          heap.remove(top);
        }
        expect(drained).toEqual(keys);
        expect(heap.topTime).toBe(Infinity);
      }),
      { numRuns: 300, seed: 3 },
    );
  });
});
