/**
 * OpenSHMEM bad arguments: each throws a ShmemError naming it; zero-length calls accept any
 * address; a PE may not name another PE's symmetric object.
 */
import { describe, expect, it } from 'vitest';
import { DmappError } from '../runtime/dmapp/dmapp.ts';
import { ShmemError } from '../runtime/shmem/shmem.ts';
import { rejection } from './helpers.ts';
import { run } from './shmem-helpers.ts';

describe('OpenSHMEM over DMAPP', () => {
  it('bad arguments throw ShmemError naming the argument', async () => {
    const res = await run('xe6', 2, 1, async (ctx) => {
      const s = ctx.shmem;
      const a = await s.malloc(16);
      const gone = await s.malloc(8);
      await s.free(gone);
      const out: string[] = [];
      const note = async (p: Promise<unknown>): Promise<void> => {
        const e = await rejection(p);
        out.push(`${e instanceof ShmemError ? 'ShmemError' : e.name}: ${e.message}`);
      };
      await note(s.putmem(a, new Uint8Array(8), 8, 2));
      await note(s.pInt64(a, 1n, -1));
      await note(s.atomicAdd(a.at(4), 1, 1));
      await note(s.atomicFetch(a.at(2), 1, 'int32'));
      await note(s.putmem(new Uint8Array(8) as never, new Uint8Array(8), 8, 1));
      await note(s.getmem(new Uint8Array(8), gone, 8, 1));
      await note(s.putmem(a.at(8), new Uint8Array(16), 16, 1));
      await note(s.getFloat64(new Float64Array(4), a, 4, 1));
      await note(s.waitUntil(a, 'bigger' as never, 1));
      await note(s.atomicAdd(a, 1, 1, 'float64' as never));
      await note(s.atomicAdd(a, 2n ** 70n, 1));
      await note(s.malloc(-1));
      await note(s.putFloat64(a, [1], 2, 1));
      await note(s.broadcastmem(a, a, 8, 9));
      await note(s.iputFloat64(a, [1, 2], 0, 1, 2, 1));
      await note(Promise.resolve().then(() => a.float64().length && a.at(4).float64()));
      // a NIC-level failure (here: a DMAPP put past the end of the segment) surfaces from quiet
      await ctx.dmapp.putNbi(1 - s.myPe(), a.segment, 64, new Uint8Array(8));
      const q = await rejection(s.quiet());
      out.push(`${q.name}: ${q.message} / cause ${q.cause instanceof DmappError ? q.cause.rc : 'none'}`);
      return out;
    });
    expect(res[0]).toEqual([
      'ShmemError: putmem: pe=2 is not a PE (0..1)',
      'ShmemError: pInt64: pe=-1 is not a PE (0..1)',
      'ShmemError: atomicAdd: dest is at byte offset 4, not aligned to the 8-byte int64',
      'ShmemError: atomicFetch: source is at byte offset 2, not aligned to the 4-byte int32',
      'ShmemError: putmem: dest is a Uint8Array(8), not a symmetric address of PE 0 (allocate it with shmem.malloc; private memory cannot be named remotely)',
      expect.stringMatching(/^ShmemError: getmem: source \(symmetric segment \d+\) has been freed$/),
      'ShmemError: putmem: 16 bytes at dest run past the end of its symmetric object (8 bytes from byte offset 8)',
      'ShmemError: getFloat64: 32 bytes at source run past the end of its symmetric object (16 bytes from byte offset 0)',
      'ShmemError: waitUntil: cmp=bigger; valid: eq, ne, gt, ge, lt, le',
      'ShmemError: atomicAdd: type=float64; valid: int32, uint32, int64, uint64 (OpenSHMEM defines atomicAdd on integer types only)',
      'ShmemError: atomicAdd: value=1180591620717411303424 does not fit int64 (-9223372036854775808..9223372036854775807)',
      'ShmemError: malloc: bytes=-1 must be a non-negative integer',
      'ShmemError: putFloat64: source has 1 elements, fewer than the 2 needed',
      'ShmemError: broadcastmem: root=9 is not a PE (0..1)',
      'ShmemError: iputFloat64: dst=0 must be a positive integer',
      'ShmemError: float64: the symmetric address is at byte offset 4, not 8-byte aligned',
      'ShmemError: quiet: DMAPP_RC_TRANSACTION_ERROR: a put, get or AMO failed with NIC status OutOfBounds / cause DMAPP_RC_TRANSACTION_ERROR',
    ]);
  });

  it('zero-length calls accept any address (OpenSHMEM Annex C) and move nothing; their PE is still checked', async () => {
    const res = await run('xe6', 2, 1, async (ctx) => {
      const s = ctx.shmem;
      const a = await s.malloc(16);
      a.int64().fill(5n);
      const bad = null as never;
      const other = 1 - s.myPe();
      await s.putmem(bad, bad, 0, other);
      await s.getmem(bad, bad, 0, other);
      await s.putmemNbi(bad, undefined as never, 0, other);
      await s.getmemNbi(undefined as never, bad, 0, other);
      await s.putFloat64(bad, bad, 0, other);
      await s.putInt32(bad, bad, 0, other);
      await s.putInt64(bad, bad, 0, other);
      await s.getFloat64(bad, bad, 0, other);
      await s.getInt32(bad, bad, 0, other);
      await s.getInt64(bad, bad, 0, other);
      await s.putFloat64Nbi(bad, bad, 0, other);
      await s.getFloat64Nbi(bad, bad, 0, other);
      await s.iputInt64(bad, bad, 1, 1, 0, other);
      await s.igetFloat64(bad, bad, 2, 3, 0, other);
      await s.quiet();
      const e = await rejection(s.putmem(bad, bad, 0, 2));
      await s.barrierAll();
      return { a: [...a.int64()], err: e.message };
    });
    for (const r of res) expect(r).toEqual({ a: [5n, 5n], err: 'putmem: pe=2 is not a PE (0..1)' });
  });

  it("a PE may not name another PE's symmetric object", async () => {
    const objs: unknown[] = [];
    const err = await rejection(
      run('xe6', 2, 1, async (ctx) => {
        const s = ctx.shmem;
        const a = await s.malloc(8);
        objs[s.myPe()] = a;
        await s.barrierAll();
        if (s.myPe() === 0) await s.pInt64(objs[1] as typeof a, 1n, 1);
        return 0;
      }),
    );
    expect(err.message).toMatch(/pInt64: dest is a symmetric address of another PE, not a symmetric address of PE 0/);
  });
});
