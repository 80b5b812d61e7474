/**
 * OpenSHMEM collectives over DMAPP: collectmem with unaligned and large blocks and its bad
 * arguments, and broadcast, fcollect and reductions on 1 to 17 PEs.
 */
import { describe, expect, it } from 'vitest';
import { ShmemError, type ReduceType } from '../runtime/shmem/shmem.ts';
import { rejection } from './helpers.ts';
import { run, val } from './shmem-helpers.ts';

describe('OpenSHMEM over DMAPP', () => {
  // collectmem sizes: some PEs give 0 bytes, the rest odd sizes, so blocks land unaligned; with
  // `big` the last PE gives a block above the BTE threshold
  const collectBytes = (pe: number, n: number, salt: number, big: boolean): number => (big && pe === n - 1 ? 6001 : (pe + salt) % 3 === 0 ? 0 : 1 + ((pe * 37 + salt * 11) % 13));
  const collectByte = (pe: number, i: number, salt: number): number => (pe * 31 + i * 7 + salt * 101 + 1) & 0xff;

  it.each([
    { n: 1, nodes: 1, ppn: 1 },
    { n: 3, nodes: 3, ppn: 1 },
    { n: 5, nodes: 5, ppn: 1 },
    { n: 4, nodes: 2, ppn: 2 },
    { n: 6, nodes: 3, ppn: 2 },
  ])('collectmem on $n PEs ($nodes nodes x $ppn): different sizes per PE, 0 included, concatenated in PE order, byte by byte', async ({ n, nodes, ppn }) => {
    const rounds = [
      { salt: 0, big: false },
      { salt: 1, big: false },
      { salt: 2, big: true },
    ];
    const res = await run('xc30', nodes, ppn, async (ctx) => {
      const s = ctx.shmem;
      const me = s.myPe();
      const src = await s.malloc(7000);
      const dst = await s.malloc(7000 + 13 * n);
      const got: number[][] = [];
      await ctx.compute({ us: 1 }); // on 1 PE a collect is local copies only, which take no simulated time
      // back to back, so a fast PE's next sizes meet a slow PE still in the previous call
      for (const { salt, big } of rounds) {
        dst.local.fill(0xee);
        const nbytes = collectBytes(me, n, salt, big);
        for (let i = 0; i < nbytes; i++) src.local[i] = collectByte(me, i, salt);
        await s.barrierAll();
        await s.collectmem(dst, src, nbytes);
        got.push([...dst.local]);
      }
      return got;
    });
    expect(res).toHaveLength(n);
    for (const [r, { salt, big }] of rounds.entries()) {
      const want: number[] = [];
      for (let p = 0; p < n; p++) for (let i = 0; i < collectBytes(p, n, salt, big); i++) want.push(collectByte(p, i, salt));
      while (want.length < 7000 + 13 * n) want.push(0xee);
      for (const [pe, got] of res.entries()) {
        const bad = got[r]!.findIndex((b, i) => b !== want[i]);
        expect(bad, `PE ${pe}, round ${r}: first wrong byte`).toBe(-1);
      }
    }
  });

  it('collectmem: bad dest, source or nbytes, and a dest too small for the total on every PE, throw ShmemError naming it', async () => {
    const res = await run('xe6', 3, 1, async (ctx) => {
      const s = ctx.shmem;
      const me = s.myPe();
      const src = await s.malloc(16);
      const dst = await s.malloc(24);
      const gone = await s.malloc(8);
      await s.free(gone);
      const out: string[] = [];
      const note = async (p: Promise<unknown>): Promise<void> => {
        const e = await rejection(p);
        out.push(`${e instanceof ShmemError ? 'ShmemError' : e.name}: ${e.message}`);
      };
      await note(s.collectmem(new Uint8Array(24) as never, src, 8));
      await note(s.collectmem(dst, gone, 8));
      await note(s.collectmem(dst, src, -1));
      await note(s.collectmem(dst, src, 2.5));
      await note(s.collectmem(dst, src, 17));
      // 8 + 9 + 10 = 27 bytes do not fit the 24 of dest, nor 8 + 8 + 8 the 16 bytes from byte 8
      await note(s.collectmem(dst, src, 8 + me));
      await note(s.collectmem(dst.at(8), src, 8));
      // the failed calls leave every PE in step: a good one still works
      src.local.fill(me + 1);
      await s.collectmem(dst, src, 8);
      out.push([...dst.local].join(','));
      return out;
    });
    const good = [...Array<number>(8).fill(1), ...Array<number>(8).fill(2), ...Array<number>(8).fill(3)].join(',');
    for (const [me, r] of res.entries()) {
      expect(r).toEqual([
        'ShmemError: collectmem: dest is a Uint8Array(24), not a symmetric address of PE ' + me + ' (allocate it with shmem.malloc; private memory cannot be named remotely)',
        expect.stringMatching(/^ShmemError: collectmem: source \(symmetric segment \d+\) has been freed$/),
        'ShmemError: collectmem: nbytes=-1 must be a non-negative integer',
        'ShmemError: collectmem: nbytes=2.5 must be a non-negative integer',
        'ShmemError: collectmem: 17 bytes at source run past the end of its symmetric object (16 bytes from byte offset 0)',
        `ShmemError: collectmem: the 3 PEs contribute 27 bytes in all (this PE ${8 + me}), more than the 24 bytes at dest (byte offset 0 of its symmetric object)`,
        'ShmemError: collectmem: the 3 PEs contribute 24 bytes in all (this PE 8), more than the 16 bytes at dest (byte offset 8 of its symmetric object)',
        good,
      ]);
    }
  });

  // PE counts 1..17, as nodes x ppn with at most 5 nodes where the count allows it
  const shapes = Array.from({ length: 17 }, (_, i) => i + 1).map((n) => {
    let nodes = 1;
    for (let d = Math.min(5, n); d >= 1; d--) {
      if (n % d === 0) {
        nodes = d;
        break;
      }
    }
    return { n, nodes, ppn: n / nodes };
  });

  it.each(shapes)('collectives on $n PEs ($nodes nodes x $ppn): broadcast, fcollect, sum/min/max of float64, int32 and int64', async ({ n, nodes, ppn }) => {
    const k = 3;
    const root = (n * 5 + 3) % n;
    const res = await run('xe6', nodes, ppn, async (ctx) => {
      const s = ctx.shmem;
      const me = s.myPe();
      const bsrc = await s.malloc(24);
      const bdst = await s.malloc(24);
      if (me === root) bsrc.float64().set([root + 0.5, -1, 42]);
      await s.broadcastmem(bdst, bsrc, 24, root);
      const csrc = await s.malloc(4 * 2);
      const cdst = await s.malloc(4 * 2 * n);
      csrc.int32().set([me, -me * 3]);
      await s.fcollectmem(cdst, csrc, 8);
      const out: Record<string, (number | bigint)[]> = { bcast: [...bdst.float64()], collect: [...cdst.int32()] };
      for (const type of ['float64', 'int32', 'int64'] as ReduceType[]) {
        const src = await s.malloc(8 * k);
        const dst = await s.malloc(8 * k);
        for (let j = 0; j < k; j++) {
          const v = val(me, j, 1);
          if (type === 'float64') src.float64()[j] = v / 8;
          else if (type === 'int32') src.int32()[j] = v;
          else src.int64()[j] = BigInt(v) * 10_000_000_000n;
        }
        for (const op of ['sum', 'min', 'max'] as const) {
          await s[`${op}ToAll`](dst, src, k, type);
          out[`${type}.${op}`] = type === 'float64' ? [...dst.float64().subarray(0, k)] : type === 'int32' ? [...dst.int32().subarray(0, k)] : [...dst.int64().subarray(0, k)];
        }
        // in place: dest == source
        await s.sumToAll(src, src, k, type);
        out[`${type}.inplace`] = type === 'float64' ? [...src.float64().subarray(0, k)] : type === 'int32' ? [...src.int32().subarray(0, k)] : [...src.int64().subarray(0, k)];
      }
      return out;
    });
    expect(res).toHaveLength(n);
    const pes = Array.from({ length: n }, (_, p) => p);
    const expected: Record<string, (number | bigint)[]> = {
      bcast: [root + 0.5, -1, 42],
      collect: pes.flatMap((p) => [p, 0 - p * 3]),
    };
    for (const type of ['float64', 'int32', 'int64'] as const) {
      const conv = (v: number): number | bigint => (type === 'float64' ? v / 8 : type === 'int32' ? v : BigInt(v) * 10_000_000_000n);
      const col = (j: number): (number | bigint)[] => pes.map((p) => conv(val(p, j, 1)));
      const js = Array.from({ length: k }, (_, j) => j);
      const sum = js.map((j) => col(j).reduce((a, b) => (typeof a === 'bigint' ? a + (b as bigint) : (a as number) + (b as number))));
      expected[`${type}.sum`] = sum;
      expected[`${type}.inplace`] = sum;
      expected[`${type}.min`] = js.map((j) => col(j).reduce((a, b) => (b < a ? b : a)));
      expected[`${type}.max`] = js.map((j) => col(j).reduce((a, b) => (b > a ? b : a)));
    }
    for (const [pe, r] of res.entries()) expect(r, `PE ${pe}`).toEqual(expected);
  });
});
