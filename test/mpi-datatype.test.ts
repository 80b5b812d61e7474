/**
 * MPI derived datatypes (runtime/mpi/datatype.ts): type maps of every constructor against values
 * worked out by hand from MPI-3.1 chapter 4's rules, pack/unpack with MPI's positions, the long
 * form (buf, count, datatype) of point-to-point calls with real data over the network and over
 * shared memory, get_count/get_elements, the errors, and what packing costs.
 */
import { describe, expect, it } from 'vitest';
import { resolveMachine, machineSpec } from '../fabric/machine.ts';
import { MpiError, type Datatype, type Mpi, type Status } from '../runtime/mpi/mpi.ts';
import type { RankContext } from '../runtime/rank.ts';
import { simulate } from '../runtime/simulate.ts';
import { rejection } from './helpers.ts';

/** Runs `program` on one rank of xe6 and returns what it returned. */
async function one<R>(program: (mpi: Mpi) => R | Promise<R>): Promise<R> {
  const r = await simulate({ machine: 'xe6', nodes: 1, program: async ({ mpi }) => program(mpi) });
  return r.rankResults[0] as R;
}

/** The MPI error class a call fails with (or 'none'). */
function errorClass(f: () => unknown): string {
  try {
    f();
  } catch (e) {
    if (e instanceof MpiError) return `${e.errorClass}: ${e.message.slice(e.errorClass.length + 2)}`;
    throw e;
  }
  return 'none';
}

interface Map {
  size: number;
  lb: number;
  extent: number;
  trueLb: number;
  trueExtent: number;
}

function mapOf(mpi: Mpi, t: Datatype): Map {
  const { lb, extent } = mpi.typeGetExtent(t);
  const tr = mpi.typeGetTrueExtent(t);
  return { size: mpi.typeSize(t), lb, extent, trueLb: tr.lb, trueExtent: tr.extent };
}

describe('type maps: size, extent and true extent of each constructor', () => {
  // Each expectation is worked out from the type map the standard defines: entries (type, disp),
  // lb = least disp, ub = greatest disp + size (structs padded to their strictest alignment),
  // true bounds from the bytes the data occupies.
  it('predefined types have the sizes of C on x86-64 Linux; pair types are the C structs', async () => {
    const got = await one((mpi) => {
      const m: Record<string, [number, number]> = {};
      for (const k of ['BYTE', 'CHAR', 'SHORT', 'INT', 'LONG', 'LONG_LONG', 'FLOAT', 'DOUBLE', 'INT8_T', 'UINT16_T', 'INT32_T', 'UINT64_T', 'C_BOOL', 'PACKED', 'FLOAT_INT', 'DOUBLE_INT', 'LONG_INT', 'SHORT_INT', 'TWO_INT'] as const) {
        m[k] = [mpi.typeSize(mpi[k]), mpi.typeGetExtent(mpi[k]).extent];
      }
      return m;
    });
    expect(got).toEqual({
      BYTE: [1, 1], CHAR: [1, 1], SHORT: [2, 2], INT: [4, 4], LONG: [8, 8], LONG_LONG: [8, 8], FLOAT: [4, 4], DOUBLE: [8, 8],
      INT8_T: [1, 1], UINT16_T: [2, 2], INT32_T: [4, 4], UINT64_T: [8, 8], C_BOOL: [1, 1], PACKED: [1, 1],
      // struct { float; int } = 8; { double; int } = 12 bytes padded to 16; { short; int }: int at 4
      FLOAT_INT: [8, 8], DOUBLE_INT: [12, 16], LONG_INT: [12, 16], SHORT_INT: [6, 8], TWO_INT: [8, 8],
    });
  });

  it('contiguous, vector, hvector, indexed, hindexed, indexed_block, hindexed_block', async () => {
    const got = await one((mpi) => ({
      contiguous: mapOf(mpi, mpi.typeContiguous(5, mpi.INT)),
      // blocks of 2 doubles at element 0, 4, 8: data 0..16, 32..48, 64..80
      vector: mapOf(mpi, mpi.typeVector(3, 2, 4, mpi.DOUBLE)),
      // negative stride: blocks at 0 and -3 doubles
      vectorNeg: mapOf(mpi, mpi.typeVector(2, 1, -3, mpi.DOUBLE)),
      // 3 ints at 0 and at 100 bytes
      hvector: mapOf(mpi, mpi.typeCreateHvector(2, 3, 100, mpi.INT)),
      // 2 ints at 16, 1 at 0, 3 at 40
      indexed: mapOf(mpi, mpi.typeIndexed(3, [2, 1, 3], [4, 0, 10], mpi.INT)),
      // doubles at 8 and -4 bytes
      hindexed: mapOf(mpi, mpi.typeCreateHindexed(2, [1, 1], [8, -4], mpi.DOUBLE)),
      // 2 shorts at 0, 10, 20 bytes
      indexedBlock: mapOf(mpi, mpi.typeCreateIndexedBlock(3, 2, [0, 5, 10], mpi.SHORT)),
      // ints at 0 and 6 bytes: extent 10, no padding outside a struct
      hindexedBlock: mapOf(mpi, mpi.typeCreateHindexedBlock(2, 1, [0, 6], mpi.INT)),
      // a zero-length block counts for nothing
      emptyBlock: mapOf(mpi, mpi.typeIndexed(2, [0, 1], [-10, 2], mpi.INT)),
    }));
    expect(got).toEqual({
      contiguous: { size: 20, lb: 0, extent: 20, trueLb: 0, trueExtent: 20 },
      vector: { size: 48, lb: 0, extent: 80, trueLb: 0, trueExtent: 80 },
      vectorNeg: { size: 16, lb: -24, extent: 32, trueLb: -24, trueExtent: 32 },
      hvector: { size: 24, lb: 0, extent: 112, trueLb: 0, trueExtent: 112 },
      indexed: { size: 24, lb: 0, extent: 52, trueLb: 0, trueExtent: 52 },
      hindexed: { size: 16, lb: -4, extent: 20, trueLb: -4, trueExtent: 20 },
      indexedBlock: { size: 12, lb: 0, extent: 24, trueLb: 0, trueExtent: 24 },
      hindexedBlock: { size: 8, lb: 0, extent: 10, trueLb: 0, trueExtent: 10 },
      emptyBlock: { size: 4, lb: 8, extent: 4, trueLb: 8, trueExtent: 4 },
    });
  });

  it('struct pads to its strictest alignment unless a component was resized; resized, dup and nesting', async () => {
    const got = await one((mpi) => {
      const resized = mpi.typeCreateResized(mpi.INT, -4, 16);
      return {
        // int at 0, double at 8, char at 16: data ends at 17, padded to a multiple of 8
        struct: mapOf(mpi, mpi.typeCreateStruct(3, [1, 1, 1], [0, 8, 16], [mpi.INT, mpi.DOUBLE, mpi.CHAR])),
        // char at 0, short at 2: 4, already a multiple of 2
        structShort: mapOf(mpi, mpi.typeCreateStruct(2, [1, 1], [0, 2], [mpi.CHAR, mpi.SHORT])),
        // 2 doubles at 0, 3 chars at 16: 19 -> 24
        structBlocks: mapOf(mpi, mpi.typeCreateStruct(2, [2, 3], [0, 16], [mpi.DOUBLE, mpi.CHAR])),
        // a resized component's bounds are kept: 0..13, no padding
        structSticky: mapOf(mpi, mpi.typeCreateStruct(2, [1, 1], [0, 12], [mpi.typeCreateResized(mpi.DOUBLE, 0, 12), mpi.CHAR])),
        resized: mapOf(mpi, resized),
        // two copies of the resized int: the second 16 bytes on
        contiguousOfResized: mapOf(mpi, mpi.typeContiguous(2, resized)),
        dup: mapOf(mpi, mpi.typeDup(mpi.typeVector(3, 2, 4, mpi.DOUBLE))),
        // vector(2, 1, 3, INT) = ints at 0 and 12, extent 16; two of them: ints at 0, 12, 16, 28
        nested: mapOf(mpi, mpi.typeContiguous(2, mpi.typeVector(2, 1, 3, mpi.INT))),
      };
    });
    expect(got).toEqual({
      struct: { size: 13, lb: 0, extent: 24, trueLb: 0, trueExtent: 17 },
      structShort: { size: 3, lb: 0, extent: 4, trueLb: 0, trueExtent: 4 },
      structBlocks: { size: 19, lb: 0, extent: 24, trueLb: 0, trueExtent: 19 },
      structSticky: { size: 9, lb: 0, extent: 13, trueLb: 0, trueExtent: 13 },
      resized: { size: 4, lb: -4, extent: 16, trueLb: 0, trueExtent: 4 },
      contiguousOfResized: { size: 8, lb: -4, extent: 32, trueLb: 0, trueExtent: 20 },
      dup: { size: 48, lb: 0, extent: 80, trueLb: 0, trueExtent: 80 },
      nested: { size: 16, lb: 0, extent: 32, trueLb: 0, trueExtent: 32 },
    });
  });

  it('subarray: extent of the whole array, true bounds of the block, in C and Fortran order', async () => {
    const got = await one((mpi) => ({
      // rows 1..2, columns 1..3 of a 4 x 5 array of doubles, row-major: (1,1) = element 6, (2,3) = element 13
      c: mapOf(mpi, mpi.typeCreateSubarray(2, [4, 5], [2, 3], [1, 1], mpi.ORDER_C, mpi.DOUBLE)),
      // column-major: (i, j) = element i + 4j; (1,1) = 5, (2,3) = 14
      fortran: mapOf(mpi, mpi.typeCreateSubarray(2, [4, 5], [2, 3], [1, 1], mpi.ORDER_FORTRAN, mpi.DOUBLE)),
      // a 3-D face: k = 0 of a 3 x 4 x 5 array of ints; (2,3,0) = 2*20 + 3*5 = element 55
      face3d: mapOf(mpi, mpi.typeCreateSubarray(3, [3, 4, 5], [3, 4, 1], [0, 0, 0], mpi.ORDER_C, mpi.INT)),
    }));
    expect(got).toEqual({
      c: { size: 48, lb: 0, extent: 160, trueLb: 48, trueExtent: 64 },
      fortran: { size: 48, lb: 0, extent: 160, trueLb: 40, trueExtent: 80 },
      face3d: { size: 48, lb: 0, extent: 240, trueLb: 0, trueExtent: 224 },
    });
  });
});

describe('pack and unpack', () => {
  it('packs in type-map order, advances the position, and unpacks back to the same layout', async () => {
    const got = await one((mpi) => {
      const src = Float64Array.from({ length: 20 }, (_, i) => i);
      const v = mpi.typeCommit(mpi.typeVector(3, 2, 4, mpi.DOUBLE));
      // indexed in a non-monotone order: ints 4..5, then 0, then 10..12
      const ix = mpi.typeCommit(mpi.typeIndexed(3, [2, 1, 3], [4, 0, 10], mpi.INT));
      const ints = Int32Array.from({ length: 13 }, (_, i) => 100 + i);
      const out = new Uint8Array(mpi.packSize(2, v) + mpi.packSize(1, ix));
      let pos = mpi.pack(src, 2, v, out, 0);
      const afterVector = pos;
      pos = mpi.pack(ints, 1, ix, out, pos);
      const packed = Array.from(new Float64Array(out.buffer, 0, 12));
      const packedInts = Array.from(new Int32Array(out.buffer, afterVector, 6));
      // unpack into zeroed buffers
      const back = new Float64Array(20);
      const backInts = new Int32Array(13);
      let p = mpi.unpack(out, 0, back, 2, v);
      p = mpi.unpack(out, p, backInts, 1, ix);
      return { afterVector, pos, p, packed, packedInts, back: Array.from(back), backInts: Array.from(backInts) };
    });
    expect(got.afterVector).toBe(96);
    expect(got.pos).toBe(96 + 24);
    expect(got.p).toBe(got.pos);
    // element 0 at 0: [0,1], [4,5], [8,9]; element 1 one extent (10 doubles) on
    expect(got.packed).toEqual([0, 1, 4, 5, 8, 9, 10, 11, 14, 15, 18, 19]);
    expect(got.packedInts).toEqual([104, 105, 100, 110, 111, 112]);
    const want = Array.from({ length: 20 }, (_, i) => ([0, 1, 4, 5, 8, 9, 10, 11, 14, 15, 18, 19].includes(i) ? i : 0));
    expect(got.back).toEqual(want);
    expect(got.backInts).toEqual(Array.from({ length: 13 }, (_, i) => ([0, 4, 5, 10, 11, 12].includes(i) ? 100 + i : 0)));
  });

  it('a struct of mixed types round-trips through bytes, padding untouched', async () => {
    const got = await one((mpi) => {
      // struct { int a; double b; char c[3]; } x 2, extent 24
      const s = mpi.typeCommit(mpi.typeCreateStruct(3, [1, 1, 3], [0, 8, 16], [mpi.INT, mpi.DOUBLE, mpi.CHAR]));
      const src = new ArrayBuffer(48);
      const dv = new DataView(src);
      for (let e = 0; e < 2; e++) {
        dv.setInt32(e * 24, -7 - e, true);
        dv.setInt32(e * 24 + 4, 0x5a5a5a5a, true); // padding
        dv.setFloat64(e * 24 + 8, Math.PI * (e + 1), true);
        for (let k = 0; k < 3; k++) dv.setInt8(e * 24 + 16 + k, 65 + k + e);
      }
      const out = new Uint8Array(mpi.packSize(2, s));
      mpi.pack(new Uint8Array(src), 2, s, out, 0);
      const back = new DataView(new ArrayBuffer(48));
      mpi.unpack(out, 0, back, 2, s);
      const read = (v: DataView): unknown[] => [0, 1].map((e) => [v.getInt32(e * 24, true), v.getInt32(e * 24 + 4, true), v.getFloat64(e * 24 + 8, true), [0, 1, 2].map((k) => v.getInt8(e * 24 + 16 + k))]);
      return { size: out.length, src: read(dv), back: read(back) };
    });
    expect(got.size).toBe(2 * 15);
    expect(got.back).toEqual((got.src as [number, number, number, number[]][]).map(([a, , b, c]) => [a, 0, b, c]));
  });

  it('negative strides reach below a block\'s displacement, and unaligned buffers pack the same bytes', async () => {
    const got = await one(async (mpi) => {
      // block at byte 40 of 0..19: ints 10, 8, 6 (whole words); shorts at byte 20: 10, 8, 6 (half words)
      const ints = Int32Array.from({ length: 20 }, (_, i) => i);
      const shorts = Int16Array.from({ length: 20 }, (_, i) => i);
      const gotInts = new Int32Array(3);
      const gotShorts = new Int16Array(3);
      await mpi.alltoallw(ints, [1], [40], [mpi.typeCommit(mpi.typeVector(3, 1, -2, mpi.INT))], gotInts, [3], [0], [mpi.INT]);
      await mpi.alltoallw(shorts, [1], [20], [mpi.typeCommit(mpi.typeVector(3, 1, -2, mpi.SHORT))], gotShorts, [3], [0], [mpi.SHORT]);
      // the same vector of ints from a buffer one byte into its ArrayBuffer, and into one
      const raw = new Uint8Array(1 + 4 * 20);
      new DataView(raw.buffer).setInt32(1 + 4 * 3, 77, true);
      new DataView(raw.buffer).setInt32(1 + 4 * 7, 99, true);
      const odd = raw.subarray(1);
      const v = mpi.typeCommit(mpi.typeVector(2, 1, 4, mpi.INT));
      const out = new Uint8Array(8);
      mpi.pack(odd, 1, mpi.typeCommit(mpi.typeCreateHindexed(1, [1], [12], v)), out, 0);
      const back = new Uint8Array(1 + 4 * 20);
      mpi.unpack(out, 0, back.subarray(1), 1, mpi.typeCommit(mpi.typeCreateHindexed(1, [1], [12], v)));
      const dv = new DataView(back.buffer);
      return { ints: Array.from(gotInts), shorts: Array.from(gotShorts), packed: Array.from(new Int32Array(out.buffer)), back: [dv.getInt32(1 + 12, true), dv.getInt32(1 + 28, true)] };
    });
    expect(got).toEqual({ ints: [10, 8, 6], shorts: [10, 8, 6], packed: [77, 99], back: [77, 99] });
  });

  it('pack past the end of outbuf is MPI_ERR_TRUNCATE, as is unpack past the end of inbuf', async () => {
    const got = await one((mpi) => {
      mpi.setErrhandler(mpi.ERRORS_RETURN);
      const v = mpi.typeCommit(mpi.typeVector(3, 2, 4, mpi.DOUBLE));
      return {
        pack: errorClass(() => mpi.pack(new Float64Array(10), 1, v, new Uint8Array(100), 60)),
        unpack: errorClass(() => mpi.unpack(new Uint8Array(40), 0, new Float64Array(10), 1, v)),
        position: errorClass(() => mpi.pack(new Float64Array(10), 1, v, new Uint8Array(100), 101)),
      };
    });
    expect(got.pack).toMatch(/^MPI_ERR_TRUNCATE: pack: 1 x vector\(3, 2, 4, MPI_DOUBLE\) \(48 bytes\) at position 60 overflow outbuf's 100 bytes/);
    expect(got.unpack).toMatch(/^MPI_ERR_TRUNCATE: unpack: .* run past inbuf's 40 bytes/);
    expect(got.position).toMatch(/^MPI_ERR_ARG: pack: position=101/);
  });
});

describe('datatype errors', () => {
  it('each bad use fails with its MPI error class and the call and argument named', async () => {
    const got = await one(async (mpi) => {
      mpi.setErrhandler(mpi.ERRORS_RETURN);
      const v = mpi.typeVector(2, 1, 2, mpi.DOUBLE);
      const freed = mpi.typeCommit(mpi.typeContiguous(2, mpi.INT));
      mpi.typeFree(freed);
      const buf = new Float64Array(8);
      const sendErr = async (f: () => Promise<unknown>): Promise<string> => {
        try {
          await f();
        } catch (e) {
          if (e instanceof MpiError) return `${e.errorClass}: ${e.message.slice(e.errorClass.length + 2)}`;
          throw e;
        }
        return 'none';
      };
      return {
        uncommitted: await sendErr(() => mpi.send(buf, 1, v, 0, 0)),
        freedSend: await sendErr(() => mpi.send(buf, 1, freed, 0, 0)),
        freedBuild: errorClass(() => mpi.typeContiguous(2, freed)),
        freeTwice: errorClass(() => mpi.typeFree(freed)),
        freePredefined: errorClass(() => mpi.typeFree(mpi.INT)),
        notAType: await sendErr(() => mpi.send(buf, 1, 'double' as unknown as Datatype, 0, 0)),
        notATypeBuild: errorClass(() => mpi.typeVector(2, 1, 2, 8 as unknown as Datatype)),
        negativeCount: await sendErr(() => mpi.send(buf, -1, mpi.DOUBLE, 0, 0)),
        negativeCountBuild: errorClass(() => mpi.typeContiguous(-2, mpi.INT)),
        negativeBlock: errorClass(() => mpi.typeVector(2, -1, 2, mpi.INT)),
        fractionalDispl: errorClass(() => mpi.typeIndexed(2, [1, 1], [0, 1.5], mpi.INT)),
        shortArray: errorClass(() => mpi.typeCreateHindexed(3, [1, 1], [0, 8], mpi.INT)),
        structTypes: errorClass(() => mpi.typeCreateStruct(2, [1, 1], [0, 8], [mpi.INT, null as unknown as Datatype])),
        subarrayRange: errorClass(() => mpi.typeCreateSubarray(2, [4, 5], [2, 3], [3, 1], mpi.ORDER_C, mpi.DOUBLE)),
        subarrayTooBig: errorClass(() => mpi.typeCreateSubarray(2, [4, 5], [5, 3], [0, 0], mpi.ORDER_C, mpi.DOUBLE)),
        subarrayOrder: errorClass(() => mpi.typeCreateSubarray(1, [4], [2], [0], 3, mpi.DOUBLE)),
        outsideBuffer: await sendErr(() => mpi.send(buf, 9, mpi.DOUBLE, 0, 0)),
        negativeOutside: await sendErr(() => mpi.send(buf, 1, mpi.typeCommit(mpi.typeCreateHindexed(1, [1], [-8], mpi.DOUBLE)), 0, 0)),
        getCountUncommitted: errorClass(() => mpi.getCount({ source: 0, tag: 0, count: 0, bytes: 8 }, v)),
      };
    });
    expect(got).toEqual({
      uncommitted: expect.stringMatching(/^MPI_ERR_TYPE: send: datatype \(vector\(2, 1, 2, MPI_DOUBLE\)\) is not committed/),
      freedSend: expect.stringMatching(/^MPI_ERR_TYPE: send: datatype \(contiguous\(2, MPI_INT\)\) has been freed/),
      freedBuild: expect.stringMatching(/^MPI_ERR_TYPE: typeContiguous: oldtype .* has been freed/),
      freeTwice: expect.stringMatching(/^MPI_ERR_TYPE: typeFree: .* already been freed/),
      freePredefined: expect.stringMatching(/^MPI_ERR_TYPE: typeFree: MPI_INT is predefined/),
      notAType: expect.stringMatching(/^MPI_ERR_TYPE: send: datatype must be an MPI datatype .* got string/),
      notATypeBuild: expect.stringMatching(/^MPI_ERR_TYPE: typeVector: oldtype must be an MPI datatype/),
      negativeCount: expect.stringMatching(/^MPI_ERR_COUNT: send: count=-1 must be a non-negative integer/),
      negativeCountBuild: expect.stringMatching(/^MPI_ERR_COUNT: typeContiguous: count=-2/),
      negativeBlock: expect.stringMatching(/^MPI_ERR_ARG: typeVector: blocklength=-1 must be a non-negative safe integer/),
      fractionalDispl: expect.stringMatching(/^MPI_ERR_ARG: typeIndexed: displacements\[1\]=1.5 must be a safe integer/),
      shortArray: expect.stringMatching(/^MPI_ERR_ARG: typeCreateHindexed: blocklengths has 2 entries, fewer than count=3/),
      structTypes: expect.stringMatching(/^MPI_ERR_TYPE: typeCreateStruct: types\[1\] must be an MPI datatype .* got null/),
      subarrayRange: expect.stringMatching(/^MPI_ERR_ARG: typeCreateSubarray: starts\[0\]=3 \+ subsizes\[0\]=2 runs past sizes\[0\]=4/),
      subarrayTooBig: expect.stringMatching(/^MPI_ERR_ARG: typeCreateSubarray: subsizes\[0\]=5 is larger than sizes\[0\]=4/),
      subarrayOrder: expect.stringMatching(/^MPI_ERR_ARG: typeCreateSubarray: order=3/),
      outsideBuffer: expect.stringMatching(/^MPI_ERR_BUFFER: send: 9 x MPI_DOUBLE touch bytes 0..72 of buf, which has 64/),
      negativeOutside: expect.stringMatching(/^MPI_ERR_BUFFER: send: 1 x hindexed.* touch bytes -8..0 of buf/),
      getCountUncommitted: expect.stringMatching(/^MPI_ERR_TYPE: getCount: datatype .* is not committed/),
    });
  });
});

/** Value of element (i, j, k) of rank `r`'s 3-D array: exact in a double, different everywhere. */
const cell = (r: number, i: number, j: number, k: number): number => r * 1e6 + i * 1e4 + j * 100 + k;

function array3d(r: number, nx: number, ny: number, nz: number): Float64Array {
  const a = new Float64Array(nx * ny * nz);
  for (let i = 0; i < nx; i++) for (let j = 0; j < ny; j++) for (let k = 0; k < nz; k++) a[(i * ny + j) * nz + k] = cell(r, i, j, k);
  return a;
}

/** Elements of `a` that differ from `want(i, j, k)` over the box given, as "(i,j,k): got vs want" (first 3). */
function mismatches(a: Float64Array, ny: number, nz: number, box: [number, number][], want: (i: number, j: number, k: number) => number): string[] {
  const out: string[] = [];
  for (let i = box[0]![0]; i < box[0]![1]; i++) {
    for (let j = box[1]![0]; j < box[1]![1]; j++) {
      for (let k = box[2]![0]; k < box[2]![1]; k++) {
        const got = a[(i * ny + j) * nz + k]!;
        if (got !== want(i, j, k) && out.length < 3) out.push(`(${i},${j},${k}): ${got} vs ${want(i, j, k)}`);
      }
    }
  }
  return out;
}

const pairs = [
  { name: 'over the network (nodes=2, ppn=1)', nodes: 2, ppn: 1 },
  { name: 'over shared memory (nodes=1, ppn=2)', nodes: 1, ppn: 2 },
] as const;

describe('point-to-point with derived datatypes: faces of a 3-D array', () => {
  // 6x5x4 keeps every face eager; 40x40x8 makes the k face 1600 doubles (12.8 KB), a rendezvous
  describe.each(pairs)('$name', ({ nodes, ppn }) => {
    it.each([
      [6, 5, 4],
      [40, 40, 8],
    ])('%i x %i x %i doubles: the k and j faces of rank 0 land in rank 1\'s opposite faces, element by element', async (nx, ny, nz) => {
      const r = await simulate({
        machine: 'xe6',
        nodes,
        ppn,
        program: async ({ mpi }) => {
          const a = array3d(mpi.rank, nx, ny, nz);
          // k = const: one double every nz; j = const: nx blocks of nz doubles, ny*nz apart
          const kFace = mpi.typeCommit(mpi.typeVector(nx * ny, 1, nz, mpi.DOUBLE));
          const jFace = mpi.typeCommit(mpi.typeVector(nx, nz, ny * nz, mpi.DOUBLE));
          if (mpi.rank === 0) {
            await mpi.send(a, 1, kFace, 1, 1);
            const s = mpi.isend(a, 1, jFace, 1, 2);
            // the same k face again, received as plain doubles
            await mpi.ssend(a, 1, kFace, 1, 3);
            await s.wait();
            return null;
          }
          // into the far faces: k = nz-1 and j = ny-1 (buffers start there)
          const st1 = await mpi.recv(a.subarray(nz - 1), 1, kFace, 0, 1);
          const r2 = mpi.irecv(a.subarray((ny - 1) * nz), 1, jFace, 0, 2);
          const flat = new Float64Array(nx * ny);
          const st3 = await mpi.recv(flat, nx * ny, mpi.DOUBLE, 0, 3);
          const st2 = await r2.wait();
          // the corner j = ny-1, k = nz-1 is in both faces, and the j face came last
          const kBad = mismatches(a, ny, nz, [[0, nx], [0, ny - 1], [nz - 1, nz]], (i, j) => cell(0, i, j, 0));
          const jBad = mismatches(a, ny, nz, [[0, nx], [ny - 1, ny], [0, nz]], (i, _j, k) => cell(0, i, 0, k));
          // everything else is still rank 1's own
          const rest = mismatches(a, ny, nz, [[0, nx], [0, ny - 1], [0, nz - 1]], (i, j, k) => cell(1, i, j, k));
          const flatBad = Array.from(flat).flatMap((v, n) => (v === cell(0, Math.floor(n / ny), n % ny, 0) ? [] : [n])).slice(0, 3);
          return { kBad, jBad, rest, flatBad, counts: [st1.count, st2.count, st3.count], bytes: [st1.bytes, st2.bytes, st3.bytes], getCount: mpi.getCount(st3, mpi.DOUBLE) };
        },
      });
      expect(r.rankResults[1]).toEqual({ kBad: [], jBad: [], rest: [], flatBad: [], counts: [1, 1, nx * ny], bytes: [8 * nx * ny, 8 * nx * nz, 8 * nx * ny], getCount: nx * ny });
    });
  });

  it.each([
    { name: 'over the network (nodes=4, ppn=1)', nodes: 4, ppn: 1 },
    { name: 'over shared memory (nodes=1, ppn=4)', nodes: 1, ppn: 4 },
  ])('4 ranks in a ring pass k faces right and j faces left with isend/irecv, $name', async ({ nodes, ppn }) => {
    const [nx, ny, nz] = [30, 20, 6]; // a k face of 600 doubles (eager), a j face of 180
    const r = await simulate({
      machine: 'xe6',
      nodes,
      ppn,
      program: async ({ mpi }) => {
        const me = mpi.rank;
        const right = (me + 1) % mpi.size;
        const left = (me + mpi.size - 1) % mpi.size;
        const a = array3d(me, nx, ny, nz);
        const kFace = mpi.typeCommit(mpi.typeVector(nx * ny, 1, nz, mpi.DOUBLE));
        const jFace = mpi.typeCommit(mpi.typeVector(nx, nz, ny * nz, mpi.DOUBLE));
        // out of the k = 0 and j = 0 faces of a copy, into the k = nz-1 and j = ny-1 faces of a
        const out = a.slice();
        await mpi.waitAll([
          mpi.irecv(a.subarray(nz - 1), 1, kFace, left, 1),
          mpi.irecv(a.subarray((ny - 1) * nz), 1, jFace, right, 2),
          mpi.isend(out, 1, kFace, right, 1),
          mpi.isend(out, 1, jFace, left, 2),
        ]);
        return [
          ...mismatches(a, ny, nz, [[0, nx], [0, ny - 1], [nz - 1, nz]], (i, j) => cell(left, i, j, 0)),
          // (the corner j = ny-1, k = nz-1 is in both faces: whichever came last holds it)
          ...mismatches(a, ny, nz, [[0, nx], [ny - 1, ny], [0, nz - 1]], (i, _j, k) => cell(right, i, 0, k)),
          ...mismatches(a, ny, nz, [[0, nx], [0, ny - 1], [0, nz - 1]], (i, j, k) => cell(me, i, j, k)),
        ];
      },
    });
    expect(r.rankResults).toEqual([[], [], [], []]);
  });

  it.each([
    { name: 'over the network (nodes=4, ppn=1)', nodes: 4, ppn: 1 },
    { name: 'over shared memory (nodes=1, ppn=4)', nodes: 1, ppn: 4 },
  ])('4 ranks in a ring swap subarray halos with sendrecv, $name', async ({ nodes, ppn }) => {
    // a (n+2) x (m+2) array with a halo of one; columns go around the ring, rows to self
    for (const [n, m] of [[6, 5], [1100, 4]] as const) {
      const r = await simulate({
        machine: 'xe6',
        nodes,
        ppn,
        program: async ({ mpi }) => {
          const rows = n + 2;
          const cols = m + 2;
          const me = mpi.rank;
          const right = (me + 1) % mpi.size;
          const left = (me + mpi.size - 1) % mpi.size;
          const a = new Float64Array(rows * cols).fill(-1);
          for (let i = 1; i <= n; i++) for (let j = 1; j <= m; j++) a[i * cols + j] = cell(me, i, j, 0);
          const col = (start: number): Datatype => mpi.typeCommit(mpi.typeCreateSubarray(2, [rows, cols], [n, 1], [1, start], mpi.ORDER_C, mpi.DOUBLE));
          const lastCol = col(m);
          const firstCol = col(1);
          const leftHalo = col(0);
          const rightHalo = col(m + 1);
          // to the right, from the left; then to the left, from the right
          await mpi.sendrecv(a, 1, lastCol, right, 5, a, 1, leftHalo, left, 5);
          await mpi.sendrecv(a, 1, firstCol, left, 6, a, 1, rightHalo, right, 6);
          const bad: string[] = [];
          for (let i = 1; i <= n; i++) {
            if (a[i * cols] !== cell(left, i, m, 0)) bad.push(`left halo row ${i}: ${a[i * cols]}`);
            if (a[i * cols + m + 1] !== cell(right, i, 1, 0)) bad.push(`right halo row ${i}: ${a[i * cols + m + 1]}`);
            for (let j = 1; j <= m; j++) if (a[i * cols + j] !== cell(me, i, j, 0)) bad.push(`interior (${i},${j})`);
          }
          // corners and the top and bottom halo rows stay untouched
          for (let j = 0; j < cols; j++) if (a[j] !== -1 || a[(rows - 1) * cols + j] !== -1) bad.push(`halo row, column ${j}`);
          return bad.slice(0, 3);
        },
      });
      expect(r.rankResults, `${n} x ${m}`).toEqual([[], [], [], []]);
    }
  });
});

describe('receives of another signature, partial elements, truncation', () => {
  it('getCount is UNDEFINED when the bytes end inside an element; getElements counts basic elements', async () => {
    const r = await simulate({
      machine: 'xe6',
      nodes: 2,
      program: async ({ mpi }) => {
        if (mpi.rank === 0) {
          await mpi.send(Uint8Array.from({ length: 20 }, (_, i) => i + 1), 1, 0);
          await mpi.send(new Uint8Array(24), 1, 1);
          await mpi.send(new Uint8Array(16), 1, 2);
          return null;
        }
        // struct { int; double }, 12 bytes of data
        const s = mpi.typeCommit(mpi.typeCreateStruct(2, [1, 1], [0, 8], [mpi.INT, mpi.DOUBLE]));
        const v = mpi.typeCommit(mpi.typeVector(4, 1, 2, mpi.DOUBLE));
        const into = new Uint8Array(64).fill(0xee);
        const st: Status = await mpi.recv(into, 1, v, 0, 0);
        // 4 structs of extent 16
        const s24 = await mpi.recv(new Uint8Array(64), 4, s, 0, 1);
        const s16 = await mpi.recv(new Uint8Array(64), 4, s, 0, 2);
        return {
          count: st.count,
          bytes: st.bytes,
          asDouble: mpi.getCount(st, mpi.DOUBLE),
          asByte: mpi.getCount(st, mpi.BYTE),
          asVector: mpi.getCount(st, v),
          elements: mpi.getElements(st, mpi.DOUBLE),
          // the 20 bytes fill vector blocks 0 and 1 (bytes 0..8, 16..24) and half of block 2 (32..36)
          landed: Array.from(into.subarray(0, 48)),
          struct24: [mpi.getCount(s24, s), mpi.getElements(s24, s)],
          struct16: [mpi.getCount(s16, s), mpi.getElements(s16, s)],
          undefinedIs: mpi.UNDEFINED,
        };
      },
    });
    const got = r.rankResults[1] as Record<string, unknown>;
    const U = got.undefinedIs;
    const landed = new Array<number>(48).fill(0xee);
    for (let i = 0; i < 20; i++) landed[[0, 1, 2, 3, 4, 5, 6, 7, 16, 17, 18, 19, 20, 21, 22, 23, 32, 33, 34, 35][i]!] = i + 1;
    expect(got).toEqual({
      count: 0, // whole elements of the 32-byte vector
      bytes: 20,
      asDouble: U,
      asByte: 20,
      asVector: U,
      elements: U,
      landed,
      struct24: [2, 4],
      // one struct (int + double) and the int of the next
      struct16: [U, 3],
      undefinedIs: -32766,
    });
  });

  it('a message longer than count x datatype is MPI_ERR_TRUNCATE', async () => {
    const e = await rejection(
      simulate({
        machine: 'xe6',
        nodes: 2,
        program: async ({ mpi }) => {
          if (mpi.rank === 0) await mpi.send(new Float64Array(5), 1, 0);
          else await mpi.recv(new Float64Array(8), 2, mpi.typeCommit(mpi.typeVector(2, 1, 2, mpi.DOUBLE)), 0, 0);
        },
      }),
    );
    expect(e.message).toMatch(/MPI_ERR_TRUNCATE: message of 40 bytes from rank 0 \(tag 0\) does not fit the 32-byte receive buffer/);
  });
});

describe('what packing costs', () => {
  const N = 500;
  const params = resolveMachine(machineSpec('xe6'), 2).mpi;
  /** The pack (or unpack) time of N blocks of one double, from the machine's parameters (ps). */
  const packPs = (blockPs: number): number => Math.ceil((N * 8) / params.copyBytesPerPs + N * blockPs);

  /**
   * Rank 0 sends N doubles, strided (vector(N, 1, 2)) or contiguous; rank 1 receives them into a
   * strided or a contiguous layout. Returns (us) rank 0's time in its isend, and when rank 1's
   * receive completed, from a common start.
   */
  async function run(sendStrided: boolean, recvStrided: boolean, set: Record<string, string> = {}): Promise<{ isendUs: number; recvUs: number }> {
    const r = await simulate({
      machine: 'xe6',
      nodes: 2,
      set,
      program: async (ctx: RankContext) => {
        const { mpi } = ctx;
        const v = mpi.typeCommit(mpi.typeVector(N, 1, 2, mpi.DOUBLE));
        const a = new Float64Array(2 * N);
        await mpi.barrier();
        const t0 = ctx.now();
        if (mpi.rank === 0) {
          const req = sendStrided ? mpi.isend(a, 1, v, 1, 0) : mpi.isend(a.subarray(0, N), 1, 0);
          const isendUs = ctx.now() - t0;
          await req.wait();
          return isendUs;
        }
        await (recvStrided ? mpi.recv(a, 1, v, 0, 0) : mpi.recv(a.subarray(0, N), 0, 0));
        return ctx.now() - t0;
      },
    });
    return { isendUs: r.rankResults[0] as number, recvUs: r.rankResults[1] as number };
  }

  it('a strided send costs its pack time (bytes at the copy rate + blocks x mpi.packBlock) more than a contiguous one', async () => {
    const contig = await run(false, false);
    const strided = await run(true, false);
    expect(params.packBlockPs).toBeGreaterThan(0);
    expect((strided.isendUs - contig.isendUs) * 1e6).toBeCloseTo(packPs(params.packBlockPs), 0);
    // the message leaves, and arrives, that much later
    expect((strided.recvUs - contig.recvUs) * 1e6).toBeCloseTo(packPs(params.packBlockPs), 0);
  });

  it('a strided receive costs its unpack time at completion; a contiguous datatype costs nothing extra', async () => {
    const contig = await run(false, false);
    const strided = await run(false, true);
    expect((strided.recvUs - contig.recvUs) * 1e6).toBeCloseTo(packPs(params.packBlockPs), 0);
    // a contiguous derived type sends from the buffer itself
    const c = await simulate({
      machine: 'xe6',
      nodes: 2,
      program: async (ctx: RankContext) => {
        const { mpi } = ctx;
        const t = mpi.typeCommit(mpi.typeContiguous(N, mpi.DOUBLE));
        const t0 = ctx.now();
        if (mpi.rank === 0) mpi.isend(new Float64Array(N), 1, t, 1, 0);
        else await mpi.recv(new Float64Array(N), 1, t, 0, 0);
        return ctx.now() - t0;
      },
    });
    expect(c.rankResults[1]).toBeCloseTo(contig.recvUs, 6);
  });

  it('mpi.packBlock is paid once per block: 200 ns more per block adds N x 200 ns to the send', async () => {
    const base = await run(true, false, { 'mpi.packBlock': '0ns' });
    const more = await run(true, false, { 'mpi.packBlock': '200ns' });
    expect(more.isendUs - base.isendUs).toBeCloseTo(N * 0.2, 3);
    expect(base.isendUs * 1e6).toBeGreaterThanOrEqual(packPs(0));
  });
});

describe('instrumentation of the long forms', () => {
  it('--metrics counts the bytes of count x datatype, not of the whole buffer', async () => {
    const r = await simulate({
      machine: 'xe6',
      nodes: 2,
      metrics: true,
      program: async ({ mpi }) => {
        const v = mpi.typeCommit(mpi.typeVector(3, 2, 4, mpi.DOUBLE));
        const a = new Float64Array(100);
        if (mpi.rank === 0) await mpi.send(a, 1, v, 1, 7);
        else await mpi.recv(a, 1, v, 0, 7);
      },
    });
    const calls = r.metrics!.calls;
    expect(calls.find((c) => c.name === 'MPI_Send')).toMatchObject({ calls: 1, bytes: 48 });
    expect(calls.find((c) => c.name === 'MPI_Recv')).toMatchObject({ calls: 1, bytes: 48 });
  });
});
