/**
 * The waits and tests on arrays of OpenSHMEM 1.5 §9.10 (`waitUntilAll/Any/Some`, their vector
 * forms, `testAll/Any/Some` and theirs): the status array leaves elements out, each wait resumes
 * one poll after the write that satisfies it is visible, a wait nothing satisfies is a deadlock,
 * and bad arguments fail naming the call and the value.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { DeadlockError } from '../fabric/engine/engine.ts';
import { machineSpec, resolveMachine } from '../fabric/machine.ts';
import { ShmemError } from '../runtime/shmem/shmem.ts';
import { ShmemWatch } from '../runtime/shmem/watch.ts';
import { simulate } from '../runtime/simulate.ts';
import { rejection } from './helpers.ts';

const poll = resolveMachine(machineSpec('xe6'), 2, {}).mpi.testOverheadPs;
const ps = (us: number): number => Math.round(us * 1e6);

afterEach(() => {
  vi.restoreAllMocks();
});

describe('SHMEM waits and tests on arrays', () => {
  // PEs 1, 2, 3 each set their element of PE 0's array after 10, 20 and 30 us of compute
  it('xe6, 4 PEs: any, some (with one element left out), all and the vector forms resume one poll after the write that satisfies them', async () => {
    const landed = vi.spyOn(ShmemWatch.prototype, 'landed');
    let watched: ArrayBufferLike | null = null;
    const r = await simulate({
      machine: 'xe6',
      nodes: 2,
      ppn: 2,
      program: async (ctx) => {
        const s = ctx.shmem;
        const me = s.myPe();
        const ivars = await s.malloc(3 * 4);
        if (me !== 0) {
          await ctx.compute({ us: 10 * me });
          await s.atomicSet(ivars.element('int32', me - 1), me, 0, 'int32');
          await s.quiet();
          await s.barrierAll();
          return null;
        }
        watched = ivars.local.buffer;
        const before = { all: await s.testAll(ivars, 3, null, 'ne', 0, 'int32'), any: await s.testAny(ivars, 3, null, 'ne', 0, 'int32') };
        const any = await s.waitUntilAny(ivars, 3, null, 'ne', 0, 'int32');
        const tAny = ps(ctx.now());
        const idx = [9, 9, 9];
        const some = await s.waitUntilSome(ivars, 3, idx, [1, 0, 0], 'gt', 0, 'int32');
        const tSome = ps(ctx.now());
        await s.waitUntilAllVector(ivars, 3, null, 'eq', [1, 2, 3], 'int32');
        const tAll = ps(ctx.now());
        const after = {
          all: await s.testAll(ivars, 3, null, 'gt', 0, 'int32'),
          allV: await s.testAllVector(ivars, 3, null, 'eq', [1, 2, 4], 'int32'),
          anyV: await s.testAnyVector(ivars, 3, [1, 0, 0], 'eq', [1, 5, 3], 'int32'),
          some: await s.testSome(ivars, 3, idx, null, 'ge', 2, 'int32'),
          idx: [...idx],
          someV: await s.testSomeVector(ivars, 3, idx, [0, 1, 0], 'eq', [1, 2, 3], 'int32'),
          idxV: [...idx],
          anyV2: await s.waitUntilAnyVector(ivars, 3, [1, 1, 0], 'le', [0, 0, 3], 'int32'),
          someV2: await s.waitUntilSomeVector(ivars, 3, idx, null, 'eq', [0, 2, 0], 'int32'),
          all2: await s.waitUntilAll(ivars, 3, null, 'ge', 1, 'int32'),
        };
        await s.barrierAll();
        return { before, any, some, idxSome: idx.slice(0, 1), tAny, tSome, tAll, after };
      },
    });
    const p0 = r.rankResults[0]!;
    expect(p0.before).toEqual({ all: false, any: -1 });
    expect(p0.any).toBe(0);
    expect(p0.some).toBe(1);
    expect(p0.idxSome).toEqual([1]);
    expect(p0.after).toEqual({ all: true, allV: false, anyV: 2, some: 2, idx: [1, 2, 9], someV: 2, idxV: [0, 2, 9], anyV2: 2, someV2: 1, all2: undefined });
    // the three writes, in time order: each wait resumed one poll after the one it needed
    const writes = landed.mock.calls.filter(([node, mem]) => node === 0 && mem.buffer === watched).map((c) => c[4]);
    expect(writes).toHaveLength(3);
    for (const [t, w] of [
      [p0.tAny, writes[0]!],
      [p0.tSome, writes[1]!],
      [p0.tAll, writes[2]!],
    ] as const) {
      expect(t - w).toBeGreaterThanOrEqual(poll);
      expect(t - w).toBeLessThanOrEqual(poll + 1);
    }
  });

  it('short and ushort (int16, uint16) variables: waitUntil, waitUntilAny and testSome on 2-byte elements written by pInt16/pUint16; a value out of range fails', async () => {
    const r = await simulate({
      machine: 'xc30',
      nodes: 2,
      program: async (ctx) => {
        const s = ctx.shmem;
        const v = await s.malloc(8);
        if (s.myPe() === 1) {
          await ctx.compute({ us: 3 });
          await s.pInt16(v, -5, 0);
          await s.quiet();
          await ctx.compute({ us: 3 });
          await s.pUint16(v.at(6), 65535, 0);
          await s.quiet();
          await s.barrierAll();
          return null;
        }
        await s.waitUntil(v, 'eq', -5, 'int16');
        const t1 = ctx.now();
        const any = await s.waitUntilAny(v.at(2), 3, null, 'gt', 60000, 'uint16');
        const t2 = ctx.now();
        const idx = [0, 0, 0, 0];
        const some = await s.testSome(v, 4, idx, null, 'ne', 0, 'int16');
        const bad = await rejection(s.test(v, 'eq', 40000, 'int16'));
        const badType = await rejection(s.test(v, 'eq', 1, 'float64' as never));
        await s.barrierAll();
        return { t1, t2, any, some, idx: idx.slice(0, some), bad: bad.message, badType: badType.message };
      },
    });
    const p0 = r.rankResults[0]!;
    expect(p0.t1).toBeGreaterThan(3);
    expect(p0.t2).toBeGreaterThan(6);
    expect(p0.any).toBe(2);
    expect(p0.some).toBe(2);
    expect(p0.idx).toEqual([0, 3]);
    expect(p0.bad).toBe('test: value=40000 does not fit int16 (-32768..32767)');
    expect(p0.badType).toBe('test: type=float64; valid: int16, uint16, int32, uint32, int64, uint64');
  });

  it('with nelems 0 or every element left out, the waits return at once: any -1, some 0, all with nothing to wait for', async () => {
    const r = await simulate({
      machine: 'xe6',
      nodes: 2,
      program: async (ctx) => {
        const s = ctx.shmem;
        const v = await s.malloc(16);
        const idx = [7, 7];
        const out = [
          await s.waitUntilAny(v, 2, [1, 1], 'eq', 5),
          await s.waitUntilSome(v, 0, idx, null, 'eq', 5),
          await s.waitUntilAll(v, 2, [1, 1], 'eq', 5),
          await s.waitUntilAllVector(v, 0, null, 'eq', []),
          await s.testAny(v, 0, null, 'eq', 5),
          await s.testAll(v, 2, [1, 1], 'eq', 5),
          await s.testSome(v, 2, idx, null, 'eq', 5),
          idx[0],
        ];
        await s.barrierAll();
        return out;
      },
    });
    expect(r.rankResults[0]).toEqual([-1, 0, undefined, undefined, -1, true, 0, 7]);
  });

  it('a waitUntilAll that nothing satisfies is a deadlock report naming the call, the PE and the values', async () => {
    const e = await rejection(
      simulate({
        machine: 'xe6',
        nodes: 2,
        program: async (ctx) => {
          const s = ctx.shmem;
          const v = await s.malloc(16);
          if (s.myPe() === 1) {
            await s.atomicSet(v, 1, 0);
            await s.quiet();
            return;
          }
          await s.waitUntilAll(v, 2, null, 'eq', 1);
        },
      }),
    );
    expect(e).toBeInstanceOf(DeadlockError);
    expect(e.message).toMatch(/waitUntilAll\(ivars at segment \d+ byte 0, nelems=2, eq 1\) on PE 0: the int64 values are 1, 0/);
  });

  it('bad arguments fail naming the call and the value', async () => {
    const r = await simulate({
      machine: 'xe6',
      nodes: 2,
      program: async (ctx) => {
        const s = ctx.shmem;
        const v = await s.malloc(16);
        const msgs: string[] = [];
        for (const p of [
          s.waitUntilAll(v, 2, [0], 'eq', 1),
          s.waitUntilAny(v.at(4), 1, null, 'eq', 1),
          s.waitUntilSome(v, 2, [0], null, 'eq', 1),
          s.waitUntilAllVector(v, 2, null, 'eq', [1]),
          s.testAny(v, 3, null, 'eq', 1),
          s.testSomeVector(v, 2, [0, 0], null, 'eq', [1, 1.5]),
          s.testAll(new BigInt64Array(2) as never, 2, null, 'eq', 1),
          s.waitUntilAny(v, 2, null, 'bigger' as never, 1),
        ]) {
          try {
            await p;
            msgs.push('resolved');
          } catch (e) {
            msgs.push(`${e instanceof ShmemError ? 'ShmemError' : String(e)}: ${(e as Error).message}`);
          }
        }
        await s.barrierAll();
        return msgs;
      },
    });
    expect(r.rankResults[0]).toEqual([
      'ShmemError: waitUntilAll: status must be null or an array of at least nelems=2 elements',
      'ShmemError: waitUntilAny: ivars is at byte offset 4, not aligned to the 8-byte int64',
      'ShmemError: waitUntilSome: indices has 1 elements, fewer than nelems=2',
      'ShmemError: waitUntilAllVector: values must be an array of at least nelems=2 elements',
      'ShmemError: testAny: 24 bytes at ivars run past the end of its symmetric object (16 bytes from byte offset 0)',
      'ShmemError: testSomeVector: values[1]=1.5 must be a bigint or a safe integer',
      'ShmemError: testAll: ivars is a BigInt64Array(2), not a symmetric address of PE 0 (allocate it with shmem.malloc; private memory cannot be named remotely)',
      'ShmemError: waitUntilAny: cmp=bigger; valid: eq, ne, gt, ge, lt, le',
    ]);
  });
});
