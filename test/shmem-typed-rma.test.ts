/**
 * The typed and sized RMA calls of OpenSHMEM 1.5 §9.6 move real data for every element kind:
 * put, get, their nbi forms, p, g, iput and iget per kind, and put/get/iput/iget 8..128 on raw
 * bytes; bad arguments fail naming the call and the value.
 */
import { describe, expect, it } from 'vitest';
import type { RankContext } from '../runtime/rank.ts';
import { ELEMS, type ElemKind } from '../runtime/shmem/elements.ts';
import { ShmemError, type Symmetric } from '../runtime/shmem/shmem.ts';
import { simulate } from '../runtime/simulate.ts';

const KINDS = Object.keys(ELEMS) as ElemKind[];

/** A value of `kind` for PE `pe`, element `j`: exact in the kind (small integers, negative where signed). */
function value(kind: ElemKind, pe: number, j: number): number | bigint {
  const signed = kind.startsWith('Int') || kind.startsWith('Float');
  const m = (pe * 31 + j * 7) % 100;
  const v = signed && j % 2 === 1 ? -m || 0 : m;
  if (kind.startsWith('Float')) return v + 0.5;
  return ELEMS[kind].big ? BigInt(v) : v;
}

/** The typed calls of `kind` on a face, looked up by name (they all share the shapes below). */
type Put = (dest: Symmetric, source: unknown, nelems: number, pe: number) => Promise<void>;
type Get = (dest: unknown, source: Symmetric, nelems: number, pe: number) => Promise<void>;
type P = (dest: Symmetric, v: unknown, pe: number) => Promise<void>;
type G = (source: Symmetric, pe: number) => Promise<number | bigint>;
type IPut = (dest: Symmetric, source: unknown, dst: number, sst: number, nelems: number, pe: number) => Promise<void>;
type IGet = (dest: unknown, source: Symmetric, dst: number, sst: number, nelems: number, pe: number) => Promise<void>;
function calls(s: RankContext['shmem'], kind: ElemKind): { put: Put; get: Get; putNbi: Put; getNbi: Get; p: P; g: G; iput: IPut; iget: IGet } {
  const f = (name: string): never => {
    const m = (s as unknown as Record<string, (...a: unknown[]) => Promise<unknown>>)[name];
    if (typeof m !== 'function') throw new Error(`no shmem.${name}`);
    return m.bind(s) as never;
  };
  return { put: f(`put${kind}`), get: f(`get${kind}`), putNbi: f(`put${kind}Nbi`), getNbi: f(`get${kind}Nbi`), p: f(`p${kind}`), g: f(`g${kind}`), iput: f(`iput${kind}`), iget: f(`iget${kind}`) };
}

describe('typed and sized SHMEM RMA', () => {
  it.each(['xe6', 'xc30'])('%s, 4 PEs (2 nodes x 2): every element kind through put, get, nbi, p, g, iput and iget gives the values sent', async (machine) => {
    const n = 6;
    const r = await simulate({
      machine,
      nodes: 2,
      ppn: 2,
      program: async (ctx) => {
        const s = ctx.shmem;
        const me = s.myPe();
        const np = s.nPes();
        const right = (me + 1) % np;
        const left = (me - 1 + np) % np;
        const out: Record<string, unknown[]> = {};
        for (const kind of KINDS) {
          const e = ELEMS[kind];
          const c = calls(s, kind);
          // four regions: put (from a plain array), putNbi (typed array), p, iput (every other element)
          const sym = await s.malloc(4 * n * e.bytes);
          const region = (i: number): Symmetric => sym.at(i * n * e.bytes);
          const mine = Array.from({ length: 2 * n }, (_, j) => value(kind, me, j));
          const typed = new e.array(2 * n);
          for (let j = 0; j < 2 * n; j++) typed[j] = mine[j] as never;
          await c.put(region(0), mine, n, right);
          await c.putNbi(region(1), typed, n, right);
          await c.p(region(2), mine[3], right);
          await c.iput(region(3), typed, 2, 2, n / 2, right);
          await s.barrierAll();
          const local = new e.array(sym.local.buffer, sym.local.byteOffset, 4 * n);
          const got = new e.array(n);
          await c.get(got, region(0), n, right);
          const gotNbi = new e.array(n);
          await c.getNbi(gotNbi, region(1), n, right);
          await s.quiet();
          const gotI = new e.array(n);
          await c.iget(gotI, region(3), 1, 2, n / 2, right);
          const g = await c.g(region(2), right);
          out[kind] = [[...local], [...got], [...gotNbi], [...gotI].slice(0, n / 2), g, left];
          await s.barrierAll();
        }
        return out;
      },
    });
    for (const [pe, out] of r.rankResults.entries()) {
      const left = (pe + 3) % 4;
      const right = (pe + 1) % 4;
      for (const kind of KINDS) {
        const v = (p: number, j: number): number | bigint => value(kind, p, j);
        const zero = ELEMS[kind].big ? 0n : 0;
        const fromLeft = Array.from({ length: n }, (_, j) => v(left, j));
        const strided = Array.from({ length: n }, (_, j) => (j % 2 === 0 ? v(left, j) : zero));
        const pRegion = Array.from({ length: n }, (_, j) => (j === 0 ? v(left, 3) : zero));
        const [local, got, gotNbi, gotI, g] = out[kind]!;
        expect(local, `${kind} on PE ${pe}`).toEqual([...fromLeft, ...fromLeft, ...pRegion, ...strided]);
        // what this PE reads back from its right neighbour is what it wrote there
        const toRight = Array.from({ length: n }, (_, j) => v(pe, j));
        expect(got, kind).toEqual(toRight);
        expect(gotNbi, kind).toEqual(toRight);
        expect(gotI, kind).toEqual([0, 2, 4].map((j) => v(pe, j)));
        expect(g, kind).toEqual(v(pe, 3));
        expect(right).toBe((pe + 1) % 4);
      }
    }
  });

  it('put/get/iput/iget 8, 16, 32, 64 and 128 move the bytes of any private buffer, in elements of their size', async () => {
    const r = await simulate({
      machine: 'xc30',
      nodes: 2,
      program: async (ctx) => {
        const s = ctx.shmem;
        const me = s.myPe();
        const other = 1 - me;
        const out: Record<number, number[][]> = {};
        for (const bits of [8, 16, 32, 64, 128]) {
          const size = bits / 8;
          const f = (name: string): ((...a: unknown[]) => Promise<void>) => (s as unknown as Record<string, (...a: unknown[]) => Promise<void>>)[name]!.bind(s);
          const sym = await s.malloc(3 * 4 * size);
          const src = Uint8Array.from({ length: 8 * size }, (_, i) => (me * 100 + i) & 0xff);
          await f(`put${bits}`)(sym, src, 4, other);
          await f(`put${bits}Nbi`)(sym.at(4 * size), src.subarray(4 * size), 4, other);
          // elements 0, 2 of src to elements 0, 3 of the third region
          await f(`iput${bits}`)(sym.at(8 * size), src, 3, 2, 2, other);
          await s.barrierAll();
          const back = new Uint8Array(4 * size);
          await f(`get${bits}`)(back, sym, 4, other);
          const backNbi = new Uint8Array(4 * size);
          await f(`get${bits}Nbi`)(backNbi, sym.at(4 * size), 4, other);
          await s.quiet();
          const backI = new Uint8Array(2 * size);
          await f(`iget${bits}`)(backI, sym.at(8 * size), 1, 3, 2, other);
          out[bits] = [[...sym.local], [...back], [...backNbi], [...backI]];
          await s.barrierAll();
        }
        return out;
      },
    });
    for (const [pe, out] of r.rankResults.entries()) {
      for (const bits of [8, 16, 32, 64, 128]) {
        const size = bits / 8;
        const from = (p: number): number[] => Array.from({ length: 8 * size }, (_, i) => (p * 100 + i) & 0xff);
        const theirs = from(1 - pe);
        const elem = (a: number[], k: number): number[] => a.slice(k * size, (k + 1) * size);
        const third = [...elem(theirs, 0), ...new Array<number>(2 * size).fill(0), ...elem(theirs, 2)];
        const [local, back, backNbi, backI] = out[bits]!;
        expect(local, `${bits} on PE ${pe}`).toEqual([...theirs, ...third]);
        expect(back).toEqual(from(pe).slice(0, 4 * size));
        expect(backNbi).toEqual(from(pe).slice(4 * size));
        expect(backI).toEqual([...elem(from(pe), 0), ...elem(from(pe), 2)]);
      }
    }
  });

  it('a bad PE, an address outside the symmetric heap, a range past its end and a source of the wrong kind fail naming the call and the value', async () => {
    const r = await simulate({
      machine: 'xe6',
      nodes: 2,
      program: async (ctx) => {
        const s = ctx.shmem;
        const sym = await s.malloc(8);
        const msgs: string[] = [];
        for (const p of [
          s.putInt16(sym, [1, 2], 2, 2),
          s.gUint8(sym, -1),
          s.getFloat32(new Float32Array(1), new Float32Array(1) as never, 1, 1),
          s.putUint64Nbi(sym, new BigUint64Array(2), 2, 1),
          s.putInt64(sym, [1] as never, 1, 1),
          s.pFloat32(sym, 1n as never, 1),
          s.getInt8(new Uint8Array(4) as never, sym, 4, 1),
          s.iput16(sym, new Uint8Array(8), 4, 1, 2, 1),
          s.put128(sym, new Uint8Array(16), 1, 1),
          s.iget32(new Uint8Array(8), sym, 1, 0, 2, 1),
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
      'ShmemError: putInt16: pe=2 is not a PE (0..1)',
      'ShmemError: gUint8: pe=-1 is not a PE (0..1)',
      'ShmemError: getFloat32: source is a Float32Array(1), not a symmetric address of PE 0 (allocate it with shmem.malloc; private memory cannot be named remotely)',
      'ShmemError: putUint64Nbi: 16 bytes at dest run past the end of its symmetric object (8 bytes from byte offset 0)',
      'ShmemError: putInt64: source[0]=1 is not a bigint',
      'ShmemError: pFloat32: value=1 is not a number',
      'ShmemError: getInt8: dest must be a Int8Array, got Uint8Array',
      'ShmemError: iput16: 10 bytes at dest run past the end of its symmetric object (8 bytes from byte offset 0)',
      'ShmemError: put128: 16 bytes at dest run past the end of its symmetric object (8 bytes from byte offset 0)',
      'ShmemError: iget32: sst=0 must be a positive integer',
    ]);
  });
});
