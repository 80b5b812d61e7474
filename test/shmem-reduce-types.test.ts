/**
 * The team reductions on the 1- and 2-byte integers and float32 (char, short, int8/16, uint8/16,
 * float of OpenSHMEM 1.5 Table 10): every operator gives what C's arithmetic on the type gives,
 * wrapping or rounding at each step, and the bad cases name the call and the value.
 */
import { describe, expect, it } from 'vitest';
import type { ReduceOp } from '../runtime/shmem/reduce-ops.ts';
import { ShmemError } from '../runtime/shmem/shmem.ts';
import { simulate } from '../runtime/simulate.ts';

const TYPES = [
  { type: 'int8', array: Int8Array, ops: ['sum', 'prod', 'min', 'max', 'and', 'or', 'xor'] },
  { type: 'uint8', array: Uint8Array, ops: ['sum', 'prod', 'min', 'max', 'and', 'or', 'xor'] },
  { type: 'int16', array: Int16Array, ops: ['sum', 'prod', 'min', 'max', 'and', 'or', 'xor'] },
  { type: 'uint16', array: Uint16Array, ops: ['sum', 'prod', 'min', 'max', 'and', 'or', 'xor'] },
  { type: 'float32', array: Float32Array, ops: ['sum', 'prod', 'min', 'max'] },
] as const;

/** PE `pe`'s element `j`: values that overflow 8 and 16 bits in sums and products. */
function value(type: string, pe: number, j: number): number {
  const v = ((pe + 3) * 37 + j * 101) % 200;
  if (type === 'float32') return Math.fround(v / 7 - 9);
  return type.startsWith('u') ? v : v - 100;
}

/** The expected fold over PEs 0..n-1, one C operation at a time, stored in `array`. */
function expected(array: typeof TYPES[number]['array'], type: string, op: ReduceOp, n: number, count: number): number[] {
  const one = new array(1);
  const f: Record<ReduceOp, (a: number, b: number) => number> = {
    sum: (a, b) => a + b,
    prod: (a, b) => a * b,
    min: Math.min,
    max: Math.max,
    and: (a, b) => a & b,
    or: (a, b) => a | b,
    xor: (a, b) => a ^ b,
  };
  return Array.from({ length: count }, (_, j) => {
    one[0] = value(type, 0, j);
    for (let p = 1; p < n; p++) one[0] = f[op](one[0]!, value(type, p, j));
    return one[0]!;
  });
}

describe('team reductions on small integers and float32', () => {
  it.each(['xe6', 'xc30'])('%s, 4 PEs (2 nodes x 2): every operator on int8, uint8, int16, uint16 and float32 over TEAM_WORLD', async (machine) => {
    const count = 5;
    const r = await simulate({
      machine,
      nodes: 2,
      ppn: 2,
      program: async (ctx) => {
        const s = ctx.shmem;
        const me = s.myPe();
        const out: Record<string, number[]> = {};
        const src = await s.malloc(8 * count);
        const dst = await s.malloc(8 * count);
        for (const { type, array, ops } of TYPES) {
          const v = new array(src.local.buffer as ArrayBuffer, src.local.byteOffset, count);
          for (let j = 0; j < count; j++) v[j] = value(type, me, j);
          for (const op of ops) {
            await (s as unknown as Record<string, (...a: unknown[]) => Promise<void>>)[`${op}Reduce`]!.call(s, s.TEAM_WORLD, dst, src, count, type);
            out[`${type} ${op}`] = [...new array(dst.local.buffer as ArrayBuffer, dst.local.byteOffset, count)];
          }
        }
        return out;
      },
    });
    for (const out of r.rankResults) {
      for (const { type, array, ops } of TYPES) for (const op of ops) expect(out[`${type} ${op}`], `${type} ${op}`).toEqual(expected(array, type, op, 4, count));
    }
  });

  it('a type an operator does not take, an unknown type and a misaligned 2-byte destination fail naming the call and the value', async () => {
    const r = await simulate({
      machine: 'xe6',
      nodes: 2,
      program: async (ctx) => {
        const s = ctx.shmem;
        const a = await s.malloc(16);
        const msgs: string[] = [];
        for (const p of [s.xorReduce(s.TEAM_WORLD, a, a, 2, 'float32' as never), s.sumReduce(s.TEAM_WORLD, a, a, 2, 'int128' as never), s.maxReduce(s.TEAM_WORLD, a.at(1), a, 2, 'int16')]) {
          try {
            await p;
            msgs.push('resolved');
          } catch (e) {
            msgs.push(`${e instanceof ShmemError ? 'ShmemError' : String(e)}: ${(e as Error).message}`);
          }
        }
        return msgs;
      },
    });
    expect(r.rankResults[0]).toEqual([
      'ShmemError: xorReduce: type=float32; valid: int8, uint8, int16, uint16, int32, uint32, int64, uint64',
      'ShmemError: sumReduce: type=int128; valid: int8, uint8, int16, uint16, int32, uint32, int64, uint64, float32, float64, longdouble, complexf, complexd',
      'ShmemError: maxReduce: dest is at byte offset 1, not aligned to the 2-byte int16',
    ]);
  });
});
