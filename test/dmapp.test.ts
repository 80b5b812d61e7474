import { describe, expect, it } from 'vitest';
import { DMAPP_RC, DmappError } from '../runtime/dmapp/dmapp.ts';
import type { RankContext } from '../runtime/rank.ts';
import { simulate } from '../runtime/simulate.ts';
import { rejection } from './helpers.ts';

/** Runs `program` on 2 nodes (one rank each) and returns every rank's result. */
async function run<R>(machine: string, program: (ctx: RankContext) => Promise<R>): Promise<readonly R[]> {
  const r = await simulate({ machine, nodes: 2, program });
  return r.rankResults;
}

/** The message (starting with its DMAPP return code) a promise rejects with; fails on anything but a DmappError. */
async function rc(p: Promise<unknown>): Promise<string> {
  const e = await rejection(p);
  if (!(e instanceof DmappError)) throw new Error(`expected a DmappError, got ${e.name}: ${e.message}`);
  expect(e.message.startsWith(`${e.rc}: `)).toBe(true);
  return e.message;
}

describe('DMAPP', () => {
  it.each(['xe6', 'xc30'])('%s: putNb/getNb move real data and complete at syncidWait; a handle is waited on once; syncidResult needs completion', async (machine) => {
    const res = await run(machine, async (ctx) => {
      const d = ctx.dmapp;
      const seg = d.malloc(4096);
      await ctx.mpi.barrier();
      if (d.pe === 1) {
        await ctx.mpi.barrier();
        return { got: [...seg.local.subarray(0, 8)], tail: seg.local[4095] };
      }
      const src = new Uint8Array(4096).map((_, i) => i % 251);
      const hp = await d.putNb(1, seg, 0, src);
      await d.syncidWait(hp);
      const twice = await rc(d.syncidWait(hp));
      const back = new Uint8Array(4096);
      const hg = await d.getNb(1, seg, 0, back);
      const doneAtOnce = await d.syncidTest(hg);
      await d.syncidWait(hg);
      const hf = await d.afaddQwNb(1, seg, 16, 5n);
      let early = '';
      try {
        d.syncidResult(hf);
      } catch (e) {
        early = e instanceof DmappError ? e.rc : String(e);
      }
      await d.syncidWait(hf);
      const old = d.syncidResult(hf);
      await ctx.mpi.barrier();
      return { twice, doneAtOnce, back: back.every((b, i) => b === i % 251), early, old };
    });
    const r0 = res[0] as { twice: string; doneAtOnce: boolean; back: boolean; early: string; old: bigint };
    expect(r0.twice).toMatch(/^DMAPP_RC_INVALID_PARAM: syncidWait: the handle of putNb was already waited on$/);
    expect(r0.doneAtOnce).toBe(false);
    expect(r0.back).toBe(true);
    expect(r0.early).toBe(DMAPP_RC.NOT_DONE);
    expect(r0.old).toBe(BigInt(16 + (17 << 8) + (18 << 16) + (19 << 24)) + (20n << 32n) + (21n << 40n) + (22n << 48n) + (23n << 56n));
    // PE 1's copy: the put's bytes, the AMO added 5 to bytes 16..23
    expect(res[1]).toEqual({ got: [0, 1, 2, 3, 4, 5, 6, 7], tail: 4095 % 251 });
  });

  it('strided iputNbi/igetNbi and indexed scatterNbi/gatherNbi place each element where asked', async () => {
    const res = await run('xc30', async (ctx) => {
      const d = ctx.dmapp;
      const seg = d.malloc(8 * 32);
      await ctx.mpi.barrier();
      if (d.pe === 0) {
        // elements 0, 2, 4, 6 of the source to elements 0, 3, 6, 9 of the target
        await d.iputNbi(1, seg, 0, new BigInt64Array([10n, -1n, 11n, -1n, 12n, -1n, 13n]), 'qw', 3, 2, 4);
        // 4-byte elements to dwords 41, 45, 43 (bytes 164, 180, 172)
        await d.scatterNbi(1, seg, 0, new Int32Array([7, 8, 9]), 'dw', [41, 45, 43]);
        await d.gsyncWait();
      }
      await ctx.mpi.barrier();
      if (d.pe === 1) return { q: [...new BigInt64Array(seg.local.buffer, 0, 12)], dw: [...new Int32Array(seg.local.buffer, 160, 8)] };
      const every = new BigInt64Array(8);
      // elements 0, 3, 6, 9 of the target to elements 0, 2, 4, 6 here
      await d.igetNbi(1, seg, 0, every, 'qw', 2, 3, 4);
      const gathered = new Int32Array(3);
      await d.gatherNbi(1, seg, 0, gathered, 'dw', [45, 41, 43]);
      await d.gsyncWait();
      return { every: [...every], gathered: [...gathered] };
    });
    expect(res[1]).toEqual({ q: [10n, 0n, 0n, 11n, 0n, 0n, 12n, 0n, 0n, 13n, 0n, 0n], dw: [0, 7, 0, 9, 0, 8, 0, 0] });
    expect(res[0]).toEqual({ every: [10n, 0n, 11n, 0n, 12n, 0n, 13n, 0n], gathered: [8, 7, 9] });
  });

  it('each quadword AMO returns the old value and leaves the right new one', async () => {
    const res = await run('xe6', async (ctx) => {
      const d = ctx.dmapp;
      const seg = d.malloc(64);
      await ctx.mpi.barrier();
      const log: [string, bigint][] = [];
      if (d.pe === 0) {
        const at = 8;
        const read = (): Promise<bigint> => d.afaddQw(1, seg, at, 0n);
        await d.aaddQw(1, seg, at, 0b1111n);
        log.push(['aaddQw', await read()]);
        await d.aandQw(1, seg, at, 0b0110n);
        log.push(['aandQw', await read()]);
        await d.aorQw(1, seg, at, 0b1001n);
        log.push(['aorQw', await read()]);
        await d.axorQw(1, seg, at, 0b0011n);
        log.push(['axorQw', await read()]);
        log.push(['afaddQw', await d.afaddQw(1, seg, at, 2n ** 64n - 1n)]); // adds -1: 1100 -> 1011
        log.push(['afandQw', await d.afandQw(1, seg, at, 0b0011n)]);
        log.push(['aforQw', await d.aforQw(1, seg, at, 0b0100n)]);
        log.push(['afxorQw', await d.afxorQw(1, seg, at, 0b1111n)]);
        log.push(['aswapQw', await d.aswapQw(1, seg, at, 2n ** 63n)]);
        log.push(['acswapQw miss', await d.acswapQw(1, seg, at, 1n, 5n)]);
        log.push(['acswapQw hit', await d.acswapQw(1, seg, at, 2n ** 63n, 5n)]);
        await d.aaddQwNbi(1, seg, at, 10n);
        await d.gsyncWait();
        const h = await d.afaddQwNb(1, seg, at, 1n);
        await d.syncidWait(h);
        log.push(['afaddQwNb', d.syncidResult(h)]);
        log.push(['end', await read()]);
      }
      await ctx.mpi.barrier();
      return { log, target: new BigUint64Array(seg.local.buffer, 8, 1)[0]! };
    });
    expect(Object.fromEntries(res[0]!.log)).toEqual({
      aaddQw: 0b1111n,
      aandQw: 0b0110n,
      aorQw: 0b1111n,
      axorQw: 0b1100n,
      afaddQw: 0b1100n,
      afandQw: 0b1011n,
      aforQw: 0b0011n,
      afxorQw: 0b0111n,
      aswapQw: 0b1000n,
      'acswapQw miss': 2n ** 63n,
      'acswapQw hit': 2n ** 63n,
      afaddQwNb: 15n,
      end: 16n,
    });
    expect(res[1]!.target).toBe(16n);
  });

  it.each(['xe6', 'xc30'])('%s: a fetching nbi AMO returns before its answer; the old value is in the result buffer after gsyncWait', async (machine) => {
    const res = await run(machine, async (ctx) => {
      const d = ctx.dmapp;
      const seg = d.malloc(64);
      if (d.pe === 1) new BigInt64Array(seg.local.buffer, 0, 2).set([41n, -7n]);
      new Int32Array(seg.local.buffer, 16, 2).set([-5, 9]);
      await ctx.mpi.barrier();
      if (d.pe === 1) {
        await ctx.mpi.barrier();
        return { q: [...new BigInt64Array(seg.local.buffer, 0, 2)], dw: [...new Int32Array(seg.local.buffer, 16, 2)] };
      }
      const q = new BigInt64Array([-1n, -1n]);
      const dw = new Int32Array([-1, -1, -1]);
      const t0 = ctx.now();
      await d.afaddQwNbi(1, seg, 8, 100n, q.subarray(1));
      // the general form: a 4-byte fetching xor into element 1 of dw
      await d.amo('afxorDwNbi', 'xor', true, 'nbi', 1, seg, 20, 0b1010n, undefined, 4, dw.subarray(1, 2));
      const issued = ctx.now() - t0;
      const early = { q: [...q], dw: [...dw], idle: d.gsyncTest() };
      await d.gsyncWait();
      const done = ctx.now() - t0;
      const late = { q: [...q], dw: [...dw] };
      const errors = [
        await rc(d.amo('afaddQwNbi', 'add', true, 'nbi', 1, seg, 0, 1n)),
        await rc(d.afaddQwNbi(1, seg, 0, 1n, new Uint8Array(4))),
        await rc(d.amo('aaddQwNbi', 'add', false, 'nbi', 1, seg, 0, 1n, undefined, 8, new BigInt64Array(1))),
        await rc(d.afaddQwNbi(1, seg, 0, 1n, [0n] as never)),
      ];
      await ctx.mpi.barrier();
      return { early, late, issued, done, errors };
    });
    const r0 = res[0] as { early: { q: bigint[]; dw: number[]; idle: boolean }; late: { q: bigint[]; dw: number[] }; issued: number; done: number; errors: string[] };
    expect(r0.early).toEqual({ q: [-1n, -1n], dw: [-1, -1, -1], idle: false });
    expect(r0.late).toEqual({ q: [-1n, -7n], dw: [-1, 9, -1] });
    // issuing both took library time only; the answers came a network round trip later
    expect(r0.done).toBeGreaterThan(3 * r0.issued);
    expect(r0.errors).toEqual([
      'DMAPP_RC_INVALID_PARAM: afaddQwNbi: a fetching nbi AMO needs a result buffer for the old value',
      'DMAPP_RC_INVALID_PARAM: afaddQwNbi: the result buffer has 4 bytes, fewer than the 8 of the old value',
      'DMAPP_RC_INVALID_PARAM: aaddQwNbi: a non-fetching AMO takes no result buffer',
      'DMAPP_RC_INVALID_PARAM: afaddQwNbi: buffer must be a typed array',
    ]);
    expect(res[1]).toEqual({ q: [41n, 93n], dw: [-5, 9 ^ 0b1010] });
  });

  it('bad calls: misaligned AMO, target out of range, access beyond a segment, access after free', async () => {
    const res = await run('xe6', async (ctx) => {
      const d = ctx.dmapp;
      const seg = d.malloc(64);
      const doomed = d.malloc(64);
      await ctx.mpi.barrier();
      if (d.pe === 1) {
        d.free(doomed);
        await ctx.mpi.barrier();
        return [];
      }
      const out: string[] = [];
      out.push(await rc(d.aaddQw(1, seg, 4, 1n)));
      out.push(await rc(d.afaddQw(1, seg, -8, 1n)));
      out.push(await rc(d.put(2, seg, 0, new Uint8Array(8))));
      out.push(await rc(d.get(-1, seg, 0, new Uint8Array(8))));
      // strided and indexed calls check their element layout before anything moves
      out.push(await rc(d.iputNbi(1, seg, 0, new BigInt64Array(3), 'qw', 1, 2, 3)));
      out.push(await rc(d.igetNbi(1, seg, 0, new BigInt64Array(4), 'qw', 0, 1, 2)));
      out.push(await rc(d.scatterNbi(1, seg, 0, new Int32Array(2), 'dw', [1, -3])));
      out.push(await rc(d.gatherNbi(1, seg, 0, new Int32Array(2), 'dw', [1, 2, 3])));
      out.push(await rc(d.gatherNbi(1, seg, 0, new Int32Array(2), 'word' as never, [1])));
      expect(d.gsyncTest()).toBe(true); // nothing of the refused calls went out
      // the NIC refuses an access past the end of the target's segment
      await d.putNbi(1, seg, 60, new Uint8Array(8));
      out.push(await rc(d.gsyncWait()));
      await d.gsyncWait(); // the error was reported once
      const h = await d.getNb(1, seg, 64, new Uint8Array(1));
      out.push(await rc(d.syncidWait(h)));
      out.push(await rc(d.aaddQw(1, seg, 64, 1n)));
      await ctx.mpi.barrier();
      // PE 1 freed `doomed`: accesses to it fail; freeing twice fails
      out.push(await rc(d.put(1, doomed, 0, new Uint8Array(8))));
      d.free(doomed);
      out.push(await rc(Promise.resolve().then(() => d.free(doomed))));
      return out;
    });
    expect(res[0]).toEqual([
      'DMAPP_RC_ALIGNMENT_ERROR: aaddQw: offset=4 must be a multiple of 8',
      'DMAPP_RC_INVALID_PARAM: afaddQw: offset=-8 must be a multiple of 8',
      'DMAPP_RC_INVALID_PARAM: put: target=2 is not a PE (0..1)',
      'DMAPP_RC_INVALID_PARAM: get: target=-1 is not a PE (0..1)',
      'DMAPP_RC_INVALID_PARAM: iputNbi: 3 elements of 8 bytes run past the 24-byte source',
      'DMAPP_RC_INVALID_PARAM: igetNbi: dstStride=0 must be a positive integer',
      'DMAPP_RC_INVALID_PARAM: scatterNbi: element 1 goes to index -3, which must be a non-negative integer',
      'DMAPP_RC_INVALID_PARAM: gatherNbi: 3 elements of 4 bytes run past the 8-byte destination',
      'DMAPP_RC_INVALID_PARAM: gatherNbi: type=word; valid: byte, dw, qw, dqw',
      'DMAPP_RC_TRANSACTION_ERROR: a put, get or AMO failed with NIC status OutOfBounds',
      'DMAPP_RC_TRANSACTION_ERROR: getNb failed with NIC status OutOfBounds',
      'DMAPP_RC_TRANSACTION_ERROR: aaddQw failed with NIC status OutOfBounds',
      expect.stringMatching(/^DMAPP_RC_INVALID_PARAM: put: PE 1 has not allocated symmetric segment \d+/),
      expect.stringMatching(/^DMAPP_RC_INVALID_PARAM: free: symmetric segment \d+ is not allocated on PE 0$/),
    ]);
  });

  it('a put in flight when the target frees its segment fails at the NIC (BadHandle)', async () => {
    const res = await run('xc30', async (ctx) => {
      const d = ctx.dmapp;
      const seg = d.malloc(1 << 16);
      await ctx.mpi.barrier();
      if (d.pe === 1) {
        await ctx.compute({ ns: 500 });
        d.free(seg);
        return '';
      }
      // PE 1 frees 0.5 us after the barrier; this 64 KiB put is still in flight then
      const h = await d.putNb(1, seg, 0, new Uint8Array(1 << 16));
      return rc(d.syncidWait(h));
    });
    expect(res[0]).toMatch(/^DMAPP_RC_TRANSACTION_ERROR: putNb failed with NIC status BadHandle$/);
  });
});

describe('gets in both directions at once', () => {
  it.each(['xc30', 'xe6'])('%s: two nodes each getting 64 KiB from the other take no longer than twice one get alone (responses that wait for host memory do not hold back requests)', async (machine) => {
    const time = async (both: boolean): Promise<number> => {
      const r = await simulate({
        machine,
        nodes: 2,
        program: async ({ dmapp, mpi, now }) => {
          const seg = dmapp.malloc(65536);
          seg.local.fill(mpi.rank + 1);
          const buf = new Uint8Array(65536);
          await mpi.barrier();
          const t = now();
          if (both || mpi.rank === 0) await dmapp.get(mpi.rank ^ 1, seg, 0, buf);
          const ok = !(both || mpi.rank === 0) || buf.every((b) => b === (mpi.rank ^ 1) + 1);
          return { us: now() - t, ok };
        },
      });
      expect(r.rankResults.every((x) => x.ok)).toBe(true);
      return Math.max(...r.rankResults.map((x) => x.us));
    };
    const one = await time(false);
    const both = await time(true);
    expect(both).toBeLessThan(2 * one);
  });
});
