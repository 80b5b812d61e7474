/**
 * --metrics and traces name the OpenSHMEM 1.5 calls added over the typed RMA, float atomics,
 * long double RMA, signals, array waits and memory calls by their C names, with the bytes they move.
 */
import { describe, expect, it } from 'vitest';
import { simulate } from '../runtime/simulate.ts';

describe('SHMEM call names', () => {
  it('typed, sized, signal, wait and memory calls are counted under their C names (shmem_ctx_... on a context)', async () => {
    const r = await simulate({
      machine: 'xe6',
      nodes: 2,
      metrics: true,
      program: async (ctx) => {
        const s = ctx.shmem;
        const other = 1 - s.myPe();
        const a = await s.malloc(256);
        const sig = await s.malloc(8);
        const sig2 = await s.malloc(8);
        await s.putInt16(a, new Int16Array(5), 5, other);
        await s.put128(a, new Uint8Array(32), 2, other);
        await s.iput16(a, new Uint8Array(8), 2, 2, 2, other);
        await s.pFloat32(a, 1.5, other);
        await s.getUint64Nbi(new BigUint64Array(3), a, 3, other);
        await s.atomicFetch(a, other, 'float64');
        await s.putSignal(a, new Float64Array(4), 4, sig, 1, 'add', other);
        const c = s.ctxCreate();
        await c.putmemSignal(a, new Uint8Array(10), 10, sig, 1, 'add', other);
        await c.put32(a, new Uint32Array(3), 3, other);
        await s.putLongdouble(a, new Float64Array(6), 3, other);
        await c.putLongdoubleSignal(a, new Float64Array(4), 2, sig2, 1, 'add', other);
        await c.quiet();
        await s.quiet();
        await s.waitUntilAll(sig, 1, null, 'eq', 2, 'uint64');
        await s.testAny(sig, 1, null, 'eq', 2, 'uint64');
        s.ptr(a, other);
        await s.realloc(a, 512);
        return 0;
      },
    });
    const calls = Object.fromEntries(r.metrics!.calls.map((x) => [x.name, x]));
    expect(calls.shmem_short_put).toMatchObject({ calls: 2, bytes: 20 });
    expect(calls.shmem_put128).toMatchObject({ calls: 2, bytes: 64 });
    expect(calls.shmem_iput16).toMatchObject({ calls: 2, bytes: 8 });
    expect(calls.shmem_float_p).toMatchObject({ calls: 2, bytes: 8 });
    expect(calls.shmem_ulong_get_nbi).toMatchObject({ calls: 2, bytes: 48 });
    expect(calls.shmem_atomic_fetch).toMatchObject({ calls: 2, bytes: 16 });
    expect(calls.shmem_put_signal).toMatchObject({ calls: 2, bytes: 64 });
    expect(calls.shmem_ctx_putmem_signal).toMatchObject({ calls: 2, bytes: 20 });
    expect(calls.shmem_ctx_put32).toMatchObject({ calls: 2, bytes: 24 });
    expect(calls.shmem_longdouble_put).toMatchObject({ calls: 2, bytes: 96 });
    expect(calls.shmem_ctx_longdouble_put_signal).toMatchObject({ calls: 2, bytes: 64 });
    expect(calls.shmem_wait_until_all).toMatchObject({ calls: 2 });
    expect(calls.shmem_test_any).toMatchObject({ calls: 2 });
    expect(calls.shmem_ptr).toMatchObject({ calls: 2 });
    expect(calls.shmem_realloc).toMatchObject({ calls: 2 });
  });
});
