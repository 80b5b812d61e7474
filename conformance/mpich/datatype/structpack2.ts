// MPICH test/mpi/datatype/structpack2.c: dataalign.c's 10 structs { int i; char c; } packed and
// unpacked instead of sent: the struct type has the C struct's extent (8) and the values come
// back.
import type { MTest, MTestResult } from '../mtest.ts';

/** sizeof(struct a { int i; char c; }) on x86-64. */
const SIZEOF_A = 8;

export default async function structpack2(mt: MTest): Promise<MTestResult> {
  const { mpi } = mt;
  let errs = 0;
  const rank = mpi.rank;
  // s[10] and s1[10] of struct a: i at byte 0, c at byte 4 of each
  const s = new DataView(new ArrayBuffer(10 * SIZEOF_A));
  const s1 = new DataView(new ArrayBuffer(10 * SIZEOF_A));
  for (let j = 0; j < 10; j++) {
    s.setInt32(j * SIZEOF_A, j + rank, true);
    s.setInt8(j * SIZEOF_A + 4, j + rank + 'a'.charCodeAt(0));
  }
  const blens = [1, 1];
  const disps = [0, 4];
  const bases = [mpi.INT, mpi.CHAR];
  const str = mpi.typeCreateStruct(2, blens, disps, bases);
  mpi.typeCommit(str);
  const con = mpi.typeContiguous(10, str);
  mpi.typeCommit(con);
  const text = mpi.typeGetExtent(str).extent;
  if (text !== SIZEOF_A) {
    mt.printf(`Extent of struct a (${text}) does not match sizeof (${SIZEOF_A})`);
    errs++;
  }
  const bufsize = mpi.packSize(1, con);
  const buffer = new Uint8Array(bufsize);
  const insize = mpi.pack(s, 1, con, buffer, 0);
  mpi.unpack(buffer.subarray(0, insize), 0, s1, 1, con);
  for (let j = 0; j < 10; j++) {
    const i = s1.getInt32(j * SIZEOF_A, true);
    const c = s1.getInt8(j * SIZEOF_A + 4);
    if (i !== j + rank) {
      errs++;
      mt.printf(`Got s[${j}].i = ${i} (${(i >>> 0).toString(16)}); expected ${j + rank}`);
    }
    if (c !== 'a'.charCodeAt(0) + j + rank) {
      errs++;
      mt.printf(`Got s[${j}].c = ${c.toString(16)}; expected ${String.fromCharCode(j + rank + 'a'.charCodeAt(0))}`);
    }
  }
  mpi.typeFree(str);
  mpi.typeFree(con);
  return mt.finalize(errs);
}
