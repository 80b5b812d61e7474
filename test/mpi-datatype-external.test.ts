/**
 * MPI_Pack_external, MPI_Unpack_external and MPI_Pack_external_size (runtime/mpi/datatype-external.ts):
 * the sizes of MPI-3.1 Table 13.2, the big-endian bytes of IEEE 754 values and two's-complement
 * integers written out by hand, long double as binary128 (sign, 15-bit exponent biased by
 * 16383, 112-bit fraction), round trips through derived types, and the errors.
 */
import { describe, expect, it } from 'vitest';
import { MpiError, type Mpi } from '../runtime/mpi/mpi.ts';
import { simulate } from '../runtime/simulate.ts';

/** Runs `program` on one xe6 rank and returns what it returned. */
async function one<R>(program: (mpi: Mpi) => R): Promise<R> {
  const r = await simulate({ machine: 'xe6', nodes: 1, program: async ({ mpi }) => program(mpi) });
  return r.rankResults[0] as R;
}

/** The bytes as hex, two digits each. */
const hex = (b: Uint8Array): string => [...b].map((x) => x.toString(16).padStart(2, '0')).join('');

/** The message of the MpiError `fn` throws. */
function thrown(fn: () => unknown): string {
  try {
    fn();
  } catch (e) {
    if (e instanceof MpiError) return e.message;
    throw e;
  }
  throw new Error('expected an MpiError');
}

describe('external32 packing', () => {
  it('takes the sizes of MPI Table 13.2, not the native ones', async () => {
    const sizes = await one((mpi) => [mpi.INT, mpi.LONG, mpi.UNSIGNED_LONG, mpi.WCHAR, mpi.LONG_LONG, mpi.LONG_DOUBLE, mpi.C_LONG_DOUBLE_COMPLEX, mpi.C_BOOL, mpi.DOUBLE_INT].map((t) => mpi.packExternalSize('external32', 2, t)));
    expect(sizes).toEqual([8, 8, 8, 4, 16, 32, 64, 2, 24]);
  });

  it('writes big-endian integers and IEEE values, long narrowed to 4 bytes and widened back with its sign', async () => {
    const out = await one((mpi) => {
      const ext = (buf: ArrayBufferView, t: Parameters<Mpi['packSize']>[1], n: number): Uint8Array => {
        const b = new Uint8Array(mpi.packExternalSize('external32', n, t));
        expect(mpi.packExternal('external32', buf, n, t, b, 0)).toBe(b.length);
        return b;
      };
      const ints = ext(Int32Array.of(1, -2), mpi.INT, 2);
      const longs = ext(BigInt64Array.of(1n, -2n), mpi.LONG, 2);
      const back = new BigInt64Array(2);
      mpi.unpackExternal('external32', longs, 0, back, 2, mpi.LONG);
      const ulongs = new BigUint64Array(1);
      mpi.unpackExternal('external32', Uint8Array.of(0xff, 0xff, 0xff, 0xfe), 0, ulongs, 1, mpi.UNSIGNED_LONG);
      return {
        ints: hex(ints),
        longs: hex(longs),
        back: [...back],
        ulong: ulongs[0],
        floats: hex(ext(Float32Array.of(1, 2), mpi.FLOAT, 2)),
        doubles: hex(ext(Float64Array.of(1, -2), mpi.DOUBLE, 2)),
        complex: hex(ext(Float64Array.of(1, -2), mpi.C_DOUBLE_COMPLEX, 1)),
      };
    });
    expect(out.ints).toBe('00000001fffffffe');
    expect(out.longs).toBe('00000001fffffffe');
    expect(out.back).toEqual([1n, -2n]);
    // unsigned: zero-extended
    expect(out.ulong).toBe(4294967294n);
    expect(out.floats).toBe('3f80000040000000');
    expect(out.doubles).toBe('3ff0000000000000c000000000000000');
    expect(out.complex).toBe(out.doubles);
  });

  it('writes long double as binary128 and reads it back exactly, subnormal doubles and infinities too', async () => {
    const out = await one((mpi) => {
      const vals = [1, 2, -0.75, 1 / 3, 5e-324, -Infinity];
      const ld = new Float64Array(2 * vals.length);
      vals.forEach((v, i) => (ld[2 * i] = v));
      const b = new Uint8Array(16 * vals.length);
      mpi.packExternal('external32', ld, vals.length, mpi.LONG_DOUBLE, b, 0);
      const back = new Float64Array(2 * vals.length).fill(7);
      mpi.unpackExternal('external32', b, 0, back, vals.length, mpi.LONG_DOUBLE);
      return { quads: vals.map((_, i) => hex(b.subarray(16 * i, 16 * i + 16))), back: [...back] };
    });
    // 1 = 2^0: exponent 16383 = 0x3fff; 2: 0x4000; -0.75 = -1.5 x 2^-1: sign, 0x3ffe, fraction .1000...
    expect(out.quads[0]).toBe('3fff' + '0'.repeat(28));
    expect(out.quads[1]).toBe('4000' + '0'.repeat(28));
    expect(out.quads[2]).toBe('bffe8' + '0'.repeat(27));
    // 1/3 = 1.0101... x 2^-2: the double's 52 fraction bits (5555555555555) then zeros
    expect(out.quads[3]).toBe('3ffd5555555555555' + '0'.repeat(15));
    // 2^-1074, the least subnormal double: a normal binary128 of exponent 16383 - 1074 = 0x3bcd
    expect(out.quads[4]).toBe('3bcd' + '0'.repeat(28));
    expect(out.quads[5]).toBe('ffff' + '0'.repeat(28));
    // values back, padding zeroed
    expect(out.back).toEqual([1, 0, 2, 0, -0.75, 0, 1 / 3, 0, 5e-324, 0, -Infinity, 0]);
  });

  it('packs a strided vector and a struct in type-map order, and unpacks into the same layout', async () => {
    const out = await one((mpi) => {
      const vec = mpi.typeCommit(mpi.typeVector(2, 1, 2, mpi.INT));
      const a = Int32Array.of(10, -1, 20, -1);
      const b = new Uint8Array(8);
      const pos = mpi.packExternal('external32', a, 1, vec, b, 0);
      const back = new Int32Array(4);
      mpi.unpackExternal('external32', b, 0, back, 1, vec);
      // struct { int i; double d; }: 12 bytes in external32, 16 natively
      const st = mpi.typeCommit(mpi.typeCreateStruct(2, [1, 1], [0, 8], [mpi.INT, mpi.DOUBLE]));
      const s = new DataView(new ArrayBuffer(16));
      s.setInt32(0, 3, true);
      s.setFloat64(8, 0.5, true);
      const sb = new Uint8Array(mpi.packExternalSize('external32', 1, st));
      mpi.packExternal('external32', s, 1, st, sb, 0);
      return { pos, vec: hex(b), back: [...back], struct: hex(sb) };
    });
    expect(out.pos).toBe(8);
    expect(out.vec).toBe('0000000a00000014');
    expect(out.back).toEqual([10, 0, 20, 0]);
    expect(out.struct).toBe('00000003' + '3fe0000000000000');
  });

  it('refuses another datarep and a buffer too small, naming them', async () => {
    const errs = await one((mpi) => {
      mpi.setErrhandler(mpi.ERRORS_RETURN);
      return [
        thrown(() => mpi.packExternalSize('native', 1, mpi.INT)),
        thrown(() => mpi.packExternal('external32', Int32Array.of(1, 2), 2, mpi.INT, new Uint8Array(7), 0)),
        thrown(() => mpi.unpackExternal('external32', new Uint8Array(4), 2, new Int32Array(1), 1, mpi.INT)),
      ];
    });
    expect(errs).toEqual([
      'MPI_ERR_ARG: packExternalSize: datarep="native" must be "external32"',
      "MPI_ERR_TRUNCATE: packExternal: 2 x MPI_INT (8 bytes in external32) at position 0 overflow outbuf's 7 bytes",
      "MPI_ERR_TRUNCATE: unpackExternal: 1 x MPI_INT (4 bytes in external32) at position 2 run past inbuf's 4 bytes",
    ]);
  });
});
