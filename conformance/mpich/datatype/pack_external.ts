// MPICH test/mpi/datatype/pack_external.c: for each predefined type of its list that has input
// data (int, long, long long, float, C bool: the test's long double and complex cases are compiled
// out, TEST_LONG_DOUBLE and TEST_COMPLEX undefined), MPI_Pack_external_size of 2 elements is
// 2 x the external32 length of the list, MPI_Pack_external writes the reference big-endian bytes
// and moves the position by that size, and MPI_Unpack_external gives the input back (C bool by
// truth value). The list's Fortran types are MPI_DATATYPE_NULL in phit, as in an MPICH built
// without Fortran; they have no input data, so the test skips them either way.
import type { MTest, MTestResult } from '../mtest.ts';
import type { Datatype, Mpi } from '../../../runtime/mpi/mpi.ts';

const COUNT = 2;
const OFFSET = 0;

/** The test's list: each type (null: MPI_DATATYPE_NULL here) and its external32 length. */
function dtList(mpi: Mpi): { name: string; type: Datatype | null; length: number }[] {
  const l = (name: string, type: Datatype | null, length: number): { name: string; type: Datatype | null; length: number } => ({ name, type, length });
  return [
    l('MPI_PACKED', mpi.PACKED, 1),
    l('MPI_BYTE', mpi.BYTE, 1),
    l('MPI_CHAR', mpi.CHAR, 1),
    l('MPI_UNSIGNED_CHAR', mpi.UNSIGNED_CHAR, 1),
    l('MPI_SIGNED_CHAR', mpi.SIGNED_CHAR, 1),
    l('MPI_WCHAR', mpi.WCHAR, 2),
    l('MPI_SHORT', mpi.SHORT, 2),
    l('MPI_UNSIGNED_SHORT', mpi.UNSIGNED_SHORT, 2),
    l('MPI_INT', mpi.INT, 4),
    l('MPI_UNSIGNED', mpi.UNSIGNED, 4),
    l('MPI_LONG', mpi.LONG, 4),
    l('MPI_UNSIGNED_LONG', mpi.UNSIGNED_LONG, 4),
    l('MPI_LONG_LONG_INT', mpi.LONG_LONG_INT, 8),
    l('MPI_UNSIGNED_LONG_LONG', mpi.UNSIGNED_LONG_LONG, 8),
    l('MPI_FLOAT', mpi.FLOAT, 4),
    l('MPI_DOUBLE', mpi.DOUBLE, 8),
    l('MPI_LONG_DOUBLE', mpi.LONG_DOUBLE, 16),
    l('MPI_C_BOOL', mpi.C_BOOL, 1),
    l('MPI_INT8_T', mpi.INT8_T, 1),
    l('MPI_INT16_T', mpi.INT16_T, 2),
    l('MPI_INT32_T', mpi.INT32_T, 4),
    l('MPI_INT64_T', mpi.INT64_T, 8),
    l('MPI_UINT8_T', mpi.UINT8_T, 1),
    l('MPI_UINT16_T', mpi.UINT16_T, 2),
    l('MPI_UINT32_T', mpi.UINT32_T, 4),
    l('MPI_UINT64_T', mpi.UINT64_T, 8),
    l('MPI_AINT', mpi.AINT, 8),
    l('MPI_COUNT', mpi.COUNT, 8),
    l('MPI_OFFSET', mpi.OFFSET, 8),
    l('MPI_C_COMPLEX', mpi.C_COMPLEX, 2 * 4),
    l('MPI_C_FLOAT_COMPLEX', mpi.C_FLOAT_COMPLEX, 2 * 4),
    l('MPI_C_DOUBLE_COMPLEX', mpi.C_DOUBLE_COMPLEX, 2 * 8),
    l('MPI_C_LONG_DOUBLE_COMPLEX', mpi.C_LONG_DOUBLE_COMPLEX, 2 * 16),
    l('MPI_CHARACTER', null, 1),
    l('MPI_LOGICAL', null, 4),
    l('MPI_INTEGER', null, 4),
    l('MPI_REAL', null, 4),
    l('MPI_DOUBLE_PRECISION', null, 8),
    l('MPI_COMPLEX', null, 2 * 4),
    l('MPI_DOUBLE_COMPLEX', null, 2 * 8),
  ];
}

/** The input data ({1, -2}, {1.0, 2.0}, C bool {2, 0}, which C stores as {1, 0}) and reference packs of the types that have them. */
function data(mpi: Mpi, t: Datatype): { buf: Uint8Array; pack: number[] } | null {
  const bytes = (a: ArrayBufferView): Uint8Array => new Uint8Array(a.buffer, a.byteOffset, a.byteLength);
  if (t === mpi.INT) return { buf: bytes(Int32Array.of(1, -2)), pack: [0, 0, 0, 1, 0xff, 0xff, 0xff, 0xfe] };
  if (t === mpi.LONG) return { buf: bytes(BigInt64Array.of(1n, -2n)), pack: [0, 0, 0, 1, 0xff, 0xff, 0xff, 0xfe, 0, 0, 0, 0, 0, 0, 0, 0] };
  if (t === mpi.LONG_LONG_INT) return { buf: bytes(BigInt64Array.of(1n, -2n)), pack: [0, 0, 0, 0, 0, 0, 0, 1, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xfe] };
  if (t === mpi.FLOAT) return { buf: bytes(Float32Array.of(1, 2)), pack: [0x3f, 0x80, 0, 0, 0x40, 0, 0, 0] };
  if (t === mpi.C_BOOL) return { buf: Uint8Array.of(1, 0), pack: [1, 0] };
  return null;
}

const isBool = (mpi: Mpi, t: Datatype): boolean => t === mpi.C_BOOL;

/** get_bool_val: 1 if any of the element's bytes is non-zero. */
const boolVal = (b: Uint8Array): number => (b.some((x) => x !== 0) ? 1 : 0);
const dump = (b: Uint8Array): string => [...b].map((x) => x.toString(16).padStart(2, '0')).join('');

export default async function packExternal(mt: MTest): Promise<MTestResult> {
  const { mpi } = mt;
  let errs = 0;
  for (const dt of dtList(mpi)) {
    const d = dt.type ? data(mpi, dt.type) : null;
    if (!dt.type || !d) continue;
    const t = dt.type;
    const size = mpi.packExternalSize('external32', COUNT, t);
    if (size !== COUNT * dt.length) {
      mt.printf(`MPI_Pack_external_size of ${mpi.typeGetName(t)}: returns ${size}, expect ${COUNT * dt.length}`);
      errs++;
    }
    const packBuf = new Uint8Array(COUNT * 32 + OFFSET);
    let pos = mpi.packExternal('external32', d.buf, COUNT, t, packBuf, OFFSET);
    if (pos !== size + OFFSET) {
      mt.printf(`MPI_Pack_external ${mpi.typeGetName(t)}: updated pos to ${pos}, expect ${size + OFFSET}`);
      errs++;
    }
    if (!isBool(mpi, t)) {
      const got = packBuf.subarray(OFFSET, OFFSET + size);
      if (got.some((x, j) => x !== d.pack[j])) {
        mt.printf(`MPI_Pack_external ${mpi.typeGetName(t)}: results mismatch!`);
        errs++;
        got.forEach((x, j) => {
          if (x !== d.pack[j]) mt.printf(`    pack_buf[${j}] is 0x${x.toString(16)}, expect 0x${d.pack[j]!.toString(16)}`);
        });
      }
    }
    const unpackBuf = new Uint8Array(COUNT * 32);
    pos = mpi.unpackExternal('external32', packBuf, OFFSET, unpackBuf, COUNT, t);
    if (pos !== size + OFFSET) {
      mt.printf(`MPI_Unpack_external ${mpi.typeGetName(t)}: updated pos to ${pos}, expect ${size + OFFSET}`);
      errs++;
    }
    const dtSize = mpi.typeSize(t);
    for (let j = 0; j < COUNT; j++) {
      const p = d.buf.subarray(j * dtSize, (j + 1) * dtSize);
      const q = unpackBuf.subarray(j * dtSize, (j + 1) * dtSize);
      if (isBool(mpi, t)) {
        if (boolVal(p) !== boolVal(q)) {
          mt.printf(`MPI_Unpack_external ${mpi.typeGetName(t)}: element ${j} mismatch, got ${boolVal(q)}, expect ${boolVal(p)}`);
          errs++;
        }
      } else if (p.some((x, k) => x !== q[k])) {
        mt.printf(`MPI_Unpack_external ${mpi.typeGetName(t)}: element ${j} mismatch, got ${dump(q)}, expect ${dump(p)}`);
        errs++;
      }
    }
  }
  return mt.finalize(errs);
}
