/**
 * The bound of the symmetric heap (SHMEM_SYMMETRIC_SIZE, machine parameter `dmapp.symmetricSize`):
 * an allocation that would take a PE's live allocations past it gives null (OpenSHMEM 1.5
 * §9.3.1: shmem_malloc returns NULL when the memory is not available), after the barrier, and
 * leaves the heap as it was; freeing makes room again; realloc without room for both copies
 * gives null and keeps the old one (§9.3.3). The default is Sandia OpenSHMEM's 512 MiB.
 */
import { describe, expect, it } from 'vitest';
import { machineSpec, resolveMachine } from '../fabric/machine.ts';
import type { Symmetric } from '../runtime/shmem/shmem.ts';
import { simulate } from '../runtime/simulate.ts';

const KiB = 1024;

describe('symmetric heap bound (dmapp.symmetricSize)', () => {
  it('defaults to 512 MiB on every preset', () => {
    for (const m of ['xt4', 'xe6', 'xc30', 'sc5832', 'bw']) expect(resolveMachine(machineSpec(m), 2).dmapp.symmetricSizeBytes, m).toBe(512 * 1024 * 1024);
  });

  it('xe6, 3 PEs, a 64 KiB heap: malloc, calloc, align past the bound give null; free makes room; realloc without room keeps the old allocation', async () => {
    const r = await simulate({
      machine: 'xe6',
      nodes: 3,
      set: { 'dmapp.symmetricSize': '64KiB' },
      program: async (ctx) => {
        const s = ctx.shmem;
        const out: (string | number | boolean)[] = [];
        const a: Symmetric | null = await s.malloc(40 * KiB);
        out.push(a === null ? 'null' : a.bytes);
        // 40 + 24 = 64 KiB fits exactly; one byte more does not
        const over: Symmetric | null = await s.malloc(24 * KiB + 1);
        out.push(over === null ? 'null' : over.bytes);
        const fits: Symmetric | null = await s.calloc(3, 8 * KiB);
        out.push(fits === null ? 'null' : fits.bytes);
        const none: Symmetric | null = await s.align(64, 1);
        out.push(none === null ? 'null' : none.bytes);
        // a live allocation still works after a refused one: a put into the neighbour's copy
        a!.local[0] = 40 + s.myPe();
        await s.barrierAll();
        await s.putmem(a!.at(1), a!.local.subarray(0, 1), 1, (s.myPe() + 1) % s.nPes());
        await s.barrierAll();
        out.push(a!.local[1]!);
        // realloc of a (40 KiB) to 48 KiB needs both copies at once: no room, a stays
        await s.free(fits);
        const grown = await s.realloc(a, 48 * KiB);
        out.push(grown === null ? 'null' : grown.bytes, s.addrAccessible(a!, 0));
        // after freeing a, 64 KiB fits
        await s.free(a);
        const whole: Symmetric | null = await s.malloc(64 * KiB);
        out.push(whole === null ? 'null' : whole.bytes);
        return out;
      },
    });
    for (const [pe, out] of (r.rankResults as (string | number | boolean)[][]).entries()) {
      expect(out, `PE ${pe}`).toEqual([40 * KiB, 'null', 24 * KiB, 'null', 40 + ((pe + 2) % 3), 'null', true, 64 * KiB]);
    }
  });

  it('refuses a bound that is not a size, naming the parameter', async () => {
    await expect(simulate({ machine: 'xe6', nodes: 1, set: { 'dmapp.symmetricSize': 'lots' }, program: async () => null })).rejects.toThrow(/dmapp\.symmetricSize/);
  });
});
