/**
 * OpenSHMEM 1.5 contexts (§9.5): a context's RMA and atomics move real data, its PE numbers are
 * its team's, and it owns its completion: its quiet waits for its own operations only. Includes
 * a port of the OpenSHMEM 1.4 pipelined-reduction example (SOS
 * test/spec-example/shmem_ctx_pipelined_reduce.c).
 */
import { describe, expect, it } from 'vitest';
import type { RankContext } from '../runtime/rank.ts';
import { ShmemError, type Symmetric } from '../runtime/shmem/shmem.ts';
import { simulate } from '../runtime/simulate.ts';
import { rejection } from './helpers.ts';

async function run<R>(machine: string, nodes: number, ppn: number, program: (ctx: RankContext) => Promise<R>): Promise<readonly R[]> {
  const r = await simulate({ machine, nodes, ppn, program });
  return r.rankResults;
}

const shapes = [
  { n: 2, nodes: 2, ppn: 1 },
  { n: 4, nodes: 2, ppn: 2 },
  { n: 5, nodes: 5, ppn: 1 },
  { n: 8, nodes: 4, ppn: 2 },
];
const runs = [
  ...['xc30', 'xe6'].flatMap((machine) => shapes.map((s) => ({ machine, ...s }))),
  ...['xt4', 'sc5832', 'bw'].map((machine) => ({ machine, n: 4, nodes: 2, ppn: 2 })),
];

describe('OpenSHMEM contexts', () => {
  it.each(runs)('$machine, $n PEs ($nodes nodes x $ppn): RMA and atomics on created contexts, and on a context of the odd team, give the data computed here', async ({ machine, nodes, ppn, n }) => {
    const res = await run(machine, nodes, ppn, async (ctx) => {
      const s = ctx.shmem;
      const me = s.myPe();
      const right = (me + 1) % n;
      const left = (me - 1 + n) % n;
      const bytes = await s.malloc(256);
      const f = await s.malloc(8 * 8);
      const i64 = await s.malloc(8 * 8);
      const counter = await s.malloc(8);
      const c = s.ctxCreate({ private: true });
      const d = s.ctxCreate();
      // to the right neighbour on context c: bytes, typed, single elements, strided
      await c.putmem(bytes, new Uint8Array(200).map((_, i) => (me * 31 + i) & 0xff), 200, right);
      await c.putFloat64(f, [me + 0.5, 0 - me], 2, right);
      await c.pInt64(i64.element('int64', 3), BigInt(me) * 1000n, right);
      await c.iputInt64(i64.element('int64', 4), [BigInt(me), 0n, BigInt(-me)], 2, 2, 2, right);
      // atomics on context d: every PE adds to PE 0's counter, and takes a ticket
      await d.atomicAdd(counter, me + 1, 0);
      const ticket = await d.atomicFetchInc(i64.element('int64', 7), 0);
      await c.quiet();
      await d.quiet();
      await s.barrierAll();
      // back from the left neighbour, on context d
      const got = new Uint8Array(200);
      await d.getmem(got, bytes, 200, left);
      const gf = new Float64Array(2);
      await d.getFloat64Nbi(gf, f, 2, left);
      await d.quiet();
      const g64 = await d.gInt64(i64.element('int64', 3), left);
      const swapped = await d.atomicCompareSwap(i64.element('int64', 3), g64, -1n, left);
      // a context of the odd team takes the team's PE numbers
      const odd = await s.teamSplitStrided(s.TEAM_WORLD, 1, 2, Math.floor(n / 2));
      const oddSlot = await s.malloc(8);
      let viaTeam: unknown = null;
      if (odd) {
        const t = s.teamCreateCtx(odd);
        const tn = s.teamNPes(odd);
        await t.pInt64(oddSlot, BigInt(me) + 100n, (s.teamMyPe(odd) + 1) % tn);
        await t.quiet();
        viaTeam = s.ctxGetTeam(t) === odd;
      }
      await s.barrierAll();
      await s.ctxDestroy(c);
      await s.ctxDestroy(d);
      return {
        bytesOk: bytes.local.subarray(0, 200).every((b, i) => b === ((left * 31 + i) & 0xff)),
        gotOk: got.every((b, i) => b === (((left - 1 + n) % n) * 31 + i) % 256),
        f: [...f.float64().subarray(0, 2)],
        gf: [...gf],
        i64: [...i64.int64().subarray(3, 7)],
        g64,
        swapped,
        ticket,
        counter: counter.int64()[0],
        odd: odd ? oddSlot.int64()[0] : null,
        viaTeam,
      };
    });
    const tickets = res.map((r) => r.ticket).sort((a, b) => Number(a - b));
    expect(tickets).toEqual(Array.from({ length: n }, (_, i) => BigInt(i)));
    const odds = Array.from({ length: Math.floor(n / 2) }, (_, i) => 1 + 2 * i);
    for (const [pe, r] of res.entries()) {
      const left = (pe - 1 + n) % n;
      expect(r, `PE ${pe}`).toMatchObject({
        bytesOk: true,
        gotOk: true,
        f: [left + 0.5, 0 - left],
        gf: [((left - 1 + n) % n) + 0.5, 0 - ((left - 1 + n) % n)],
        // the compare-swap of this PE's right neighbour set element 3 to -1
        i64: [-1n, BigInt(left), 0n, BigInt(-left)],
        g64: BigInt((left - 1 + n) % n) * 1000n,
        swapped: BigInt((left - 1 + n) % n) * 1000n,
      });
      if (pe === 0) expect(r.counter).toBe(BigInt((n * (n + 1)) / 2));
      const oi = odds.indexOf(pe);
      expect(r.odd).toBe(oi >= 0 ? BigInt(odds[(oi - 1 + odds.length) % odds.length]!) + 100n : null);
      expect(r.viaTeam).toBe(oi >= 0 ? true : null);
    }
  });

  it.each(['xe6', 'xc30'])("%s: a context's quiet returns while another context's 1 MiB put is still in flight, and the default quiet does not wait for it either", async (machine) => {
    const n = 1 << 20;
    let target: Symmetric | null = null;
    const res = await run(machine, 2, 1, async (ctx) => {
      const s = ctx.shmem;
      const big = await s.malloc(n);
      const flag = await s.malloc(8);
      if (s.myPe() === 1) {
        target = big;
        await s.barrierAll();
        return null;
      }
      const a = s.ctxCreate();
      const b = s.ctxCreate();
      await a.putmem(big, new Uint8Array(n).fill(7), n, 1);
      const t0 = ctx.now();
      await b.pInt64(flag, 1n, 1);
      await b.quiet();
      const bDone = ctx.now();
      const landedAtB = target!.local.filter((v) => v === 7).length;
      await s.quiet();
      const defaultDone = ctx.now();
      await a.quiet();
      const aDone = ctx.now();
      const landedAtA = target!.local.filter((v) => v === 7).length;
      await s.barrierAll();
      return { b: bDone - t0, def: defaultDone - bDone, a: aDone - t0, landedAtB, landedAtA };
    });
    const r = res[0]!;
    // b's quiet: one small put's round trip; a's: the whole megabyte
    expect(r.landedAtB).toBeLessThan(n / 2);
    expect(r.landedAtA).toBe(n);
    expect(r.def).toBeLessThan(0.5);
    expect(r.a).toBeGreaterThan(20 * r.b);
  });

  // OpenSHMEM 1.4's pipelined reduction: stage p's puts go out on one context while the other
  // context's stage p-1 is quieted and summed; every element sums to 0 + 1 + ... + (n-1)
  it.each([
    { machine: 'xe6', nodes: 2, ppn: 2 },
    { machine: 'xc30', nodes: 5, ppn: 1 },
  ])('SOS shmem_ctx_pipelined_reduce on $machine ($nodes x $ppn): two contexts, a stage in flight while the last one is summed', async ({ machine, nodes, ppn }) => {
    const LEN = 2048;
    const PLEN = 256;
    const res = await run(machine, nodes, ppn, async (ctx) => {
      const s = ctx.shmem;
      const me = s.myPe();
      const npes = s.nPes();
      const pbuf = [await s.malloc(PLEN * npes * 4), await s.malloc(PLEN * npes * 4)];
      const cx = [s.ctxCreate(), s.ctxCreate()];
      const inBuf = new Int32Array(LEN).fill(me);
      const outBuf = new Int32Array(LEN);
      const stage = async (k: number, p: number): Promise<void> => {
        for (let i = 1; i <= npes; i++) {
          await cx[k]!.putmemNbi(pbuf[k]!.at(4 * PLEN * me), inBuf.subarray(PLEN * p), 4 * PLEN, (me + i) % npes);
        }
      };
      const sum = (k: number, p: number): void => {
        const v = pbuf[k]!.int32();
        for (let i = 0; i < npes; i++) for (let j = 0; j < PLEN; j++) outBuf[PLEN * p + j]! += v[PLEN * i + j]!;
      };
      let k = 0;
      let p = 0;
      await stage(k, p);
      for (p = 1; p < LEN / PLEN; p++) {
        k ^= 1;
        await stage(k, p);
        await cx[k ^ 1]!.quiet();
        await s.syncAll();
        sum(k ^ 1, p - 1);
      }
      await cx[k]!.quiet();
      await s.syncAll();
      sum(k, p - 1);
      await s.barrierAll();
      return outBuf.filter((v) => v !== (npes * (npes - 1)) / 2).length;
    });
    expect(res).toEqual(res.map(() => 0));
  });

  it('traces and --metrics name the context calls shmem_ctx_...', async () => {
    const r = await simulate({
      machine: 'xe6',
      nodes: 2,
      metrics: true,
      program: async (ctx) => {
        const s = ctx.shmem;
        const a = await s.malloc(64);
        const c = s.ctxCreate();
        await c.putmem(a, new Uint8Array(16), 16, 1 - s.myPe());
        await c.atomicFetchAdd(a.at(32), 1, 0);
        await c.quiet();
        await s.CTX_DEFAULT.quiet();
        await s.ctxDestroy(c);
        return 0;
      },
    });
    const calls = Object.fromEntries(r.metrics!.calls.map((c) => [c.name, c]));
    expect(calls.shmem_ctx_putmem).toMatchObject({ calls: 2, bytes: 32 });
    expect(calls.shmem_ctx_atomic_fetch_add).toMatchObject({ calls: 2 });
    expect(calls.shmem_ctx_quiet).toMatchObject({ calls: 4 });
    expect(calls.shmem_ctx_create).toMatchObject({ calls: 2 });
    expect(calls.shmem_ctx_destroy).toMatchObject({ calls: 2 });
  });

  it('bad arguments: each context routine fails with one line naming the routine and the value', async () => {
    const res = await run('xe6', 2, 1, async (ctx) => {
      const s = ctx.shmem;
      const a = await s.malloc(64);
      const out: string[] = [];
      const note = async (p: Promise<unknown> | (() => unknown)): Promise<void> => {
        const e = await rejection(typeof p === 'function' ? Promise.resolve().then(p) : p);
        out.push(`${e instanceof ShmemError ? 'ShmemError' : e.name}: ${e.message}`);
      };
      const pair = (await s.teamSplitStrided(s.TEAM_WORLD, 0, 1, 2))!;
      const t = s.teamCreateCtx(pair);
      const c = s.ctxCreate();
      await s.ctxDestroy(c);
      await note(() => s.ctxCreate({ shared: true } as never));
      await note(() => s.teamCreateCtx(null));
      await note(s.ctxDestroy(s.CTX_DEFAULT));
      await note(() => s.ctxGetTeam(c));
      await note(c.putmem(a, new Uint8Array(8), 8, 1));
      await note(c.quiet());
      await note(t.pInt64(a, 1n, 2));
      await note(t.atomicAdd(a.at(4), 1, 0));
      await note(s.CTX_DEFAULT.getmem(new Uint8Array(8), a, 8, 2));
      s.teamDestroy(pair);
      await note(t.fence());
      return out;
    });
    expect(res[1]).toEqual(res[0]);
    expect(res[0]).toEqual([
      'ShmemError: ctxCreate: options.shared is not a context option; valid: private, serialized, nostore',
      'ShmemError: teamCreateCtx: team is TEAM_INVALID',
      'ShmemError: ctxDestroy: ctx is CTX_DEFAULT, which cannot be destroyed',
      'ShmemError: ctxGetTeam: ctx was destroyed',
      'ShmemError: putmem: the context was destroyed',
      'ShmemError: quiet: the context was destroyed',
      "ShmemError: pInt64: pe=2 is not a PE of the context's team TEAM_WORLD/0 (2 PEs) (0..1)",
      'ShmemError: atomicAdd: dest is at byte offset 4, not aligned to the 8-byte int64',
      'ShmemError: getmem: pe=2 is not a PE (0..1)',
      'ShmemError: fence: the context was destroyed with its team TEAM_WORLD/0 (2 PEs)',
    ]);
  });
});
