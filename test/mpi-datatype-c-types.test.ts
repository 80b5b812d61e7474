/**
 * The predefined types of C that MPI names beyond the basic ones (runtime/mpi/datatype.ts):
 * MPI_WCHAR, MPI_AINT, MPI_OFFSET, MPI_COUNT, MPI_LONG_DOUBLE and the complex types. Their sizes
 * and alignments are x86-64's (System V AMD64 ABI §3.1.2, Table 3.1: wchar_t 4, long double 16
 * aligned 16, complex T twice T aligned as T), checked through the padding of a struct { char; T };
 * reductions take the ops MPI-3.1 §5.9.2 defines on them, with results worked out by hand;
 * one-sided accumulates refuse them (not yet served) with a line saying so.
 */
import { describe, expect, it } from 'vitest';
import { MpiError, type Datatype, type Mpi } from '../runtime/mpi/mpi.ts';
import { simulate } from '../runtime/simulate.ts';

/** Runs `program` on `nodes` xe6 ranks and returns each rank's result. */
async function ranks<R>(nodes: number, program: (mpi: Mpi) => Promise<R>): Promise<R[]> {
  const r = await simulate({ machine: 'xe6', nodes, program: async ({ mpi }) => program(mpi) });
  return r.rankResults as R[];
}

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

describe('C types beyond the basic ones', () => {
  it('have x86-64 sizes, and a struct { char; T } is padded to their alignment', async () => {
    const [out] = await ranks(1, async (mpi) => {
      const struct = (t: Datatype, at: number): number => mpi.typeGetExtent(mpi.typeCreateStruct(2, [1, 1], [0, at], [mpi.CHAR, t])).extent;
      return {
        sizes: [mpi.WCHAR, mpi.AINT, mpi.OFFSET, mpi.COUNT, mpi.LONG_DOUBLE, mpi.C_COMPLEX, mpi.C_DOUBLE_COMPLEX, mpi.C_LONG_DOUBLE_COMPLEX].map((t) => mpi.typeSize(t)),
        // offsetof(struct, b) is the type's alignment; sizeof(struct) rounds up to it
        structs: [struct(mpi.WCHAR, 4), struct(mpi.AINT, 8), struct(mpi.LONG_DOUBLE, 16), struct(mpi.C_FLOAT_COMPLEX, 4), struct(mpi.C_DOUBLE_COMPLEX, 8), struct(mpi.C_LONG_DOUBLE_COMPLEX, 16)],
        names: [mpi.typeGetName(mpi.LONG_DOUBLE), mpi.typeGetName(mpi.C_COMPLEX), mpi.typeGetName(mpi.LONG_LONG_INT), mpi.typeGetName(mpi.COUNT)],
      };
    });
    expect(out!.sizes).toEqual([4, 8, 8, 8, 16, 8, 16, 32]);
    expect(out!.structs).toEqual([8, 16, 32, 12, 24, 48]);
    // MPI_C_COMPLEX and MPI_LONG_LONG_INT are MPI's synonyms of C_FLOAT_COMPLEX and LONG_LONG
    expect(out!.names).toEqual(['MPI_LONG_DOUBLE', 'MPI_C_FLOAT_COMPLEX', 'MPI_LONG_LONG', 'MPI_COUNT']);
  });

  it('reduce as MPI defines: complex sums and products, long double sums and maxima, 8-byte integer bit operations', async () => {
    const out = await ranks(3, async (mpi) => {
      const r = mpi.rank;
      // rank r holds (r + 1) + r i
      const z = Float64Array.of(r + 1, r);
      const zsum = new Float64Array(2);
      const zprod = new Float64Array(2);
      await mpi.allreduce(z, zsum, 1, mpi.C_DOUBLE_COMPLEX, mpi.SUM);
      await mpi.allreduce(z, zprod, 1, mpi.C_DOUBLE_COMPLEX, mpi.PROD);
      // the same numbers as long double complex: (re, padding, im, padding)
      const lz = Float64Array.of(r + 1, 0, r, 0);
      const lzprod = new Float64Array(4);
      await mpi.allreduce(lz, lzprod, 1, mpi.C_LONG_DOUBLE_COMPLEX, mpi.PROD);
      // two long doubles per rank: r + 0.5 and 1 - r
      const ld = Float64Array.of(r + 0.5, 0, 1 - r, 0);
      const ldsum = new Float64Array(4);
      const ldmax = new Float64Array(4);
      await mpi.allreduce(ld, ldsum, 2, mpi.LONG_DOUBLE, mpi.SUM);
      await mpi.allreduce(ld, ldmax, 2, mpi.LONG_DOUBLE, mpi.MAX);
      const bits = new BigInt64Array(1);
      await mpi.allreduce(BigInt64Array.of(1n << BigInt(r)), bits, 1, mpi.AINT, mpi.BOR);
      // a float complex product on this rank alone: (1 + 2i)(3 + 4i)
      const f = Float32Array.of(3, 4);
      mpi.reduceLocal(Float32Array.of(1, 2), f, 1, mpi.C_COMPLEX, mpi.PROD);
      return { zsum: [...zsum], zprod: [...zprod], lzprod: [lzprod[0], lzprod[2]], ldsum: [ldsum[0], ldsum[2]], ldmax: [ldmax[0], ldmax[2]], bits: bits[0], f: [...f] };
    });
    for (const o of out) {
      // 1 + (2 + i) + (3 + 2i); 1 (2 + i)(3 + 2i) = 6 + 4i + 3i + 2i^2
      expect(o.zsum).toEqual([6, 3]);
      expect(o.zprod).toEqual([4, 7]);
      expect(o.lzprod).toEqual([4, 7]);
      expect(o.ldsum).toEqual([4.5, 0]);
      expect(o.ldmax).toEqual([2.5, 1]);
      expect(o.bits).toBe(7n);
      // 3 + 4i + 6i + 8i^2
      expect(o.f).toEqual([-5, 10]);
    }
  });

  it('refuse the ops MPI leaves undefined on them, naming op and type', async () => {
    const [errs] = await ranks(1, async (mpi) => {
      mpi.setErrhandler(mpi.ERRORS_RETURN);
      const two = new Float64Array(2);
      return [thrown(() => mpi.reduceLocal(two, new Float64Array(2), 1, mpi.C_DOUBLE_COMPLEX, mpi.MAX)), thrown(() => mpi.reduceLocal(two, new Float64Array(2), 1, mpi.LONG_DOUBLE, mpi.BAND))];
    });
    expect(errs![0]).toBe('MPI_ERR_OP: reduceLocal: MPI_MAX is not defined on MPI_C_DOUBLE_COMPLEX; it takes MPI_SUM, MPI_PROD or a user op');
    expect(errs![1]).toBe('MPI_ERR_OP: reduceLocal: MPI_BAND is not defined on MPI_LONG_DOUBLE; it takes MPI_SUM, MPI_PROD, MPI_MIN, MPI_MAX or a user op');
  });

  it('are refused by one-sided accumulates with a line saying so', async () => {
    const out = await ranks(2, async (mpi) => {
      const win = await mpi.winCreate(new Float64Array(4), 8);
      win.setErrhandler(mpi.ERRORS_RETURN);
      await win.fence(0);
      let msg = '';
      try {
        await win.accumulate(new Float64Array(2), 1, mpi.C_DOUBLE_COMPLEX, 1 - mpi.rank, 0, 1, mpi.C_DOUBLE_COMPLEX, mpi.SUM);
      } catch (e) {
        msg = (e as MpiError).message;
      }
      await win.fence(0);
      await win.free();
      return msg;
    });
    expect(out[0]).toBe("MPI_ERR_TYPE: accumulate: originType MPI_C_DOUBLE_COMPLEX is made of MPI_C_DOUBLE_COMPLEX, which phit's one-sided accumulates do not take yet (point-to-point and collectives do)");
  });
});
