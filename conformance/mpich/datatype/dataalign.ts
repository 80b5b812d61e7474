// MPICH test/mpi/datatype/dataalign.c: a struct { int i; char c; } type has the C struct's extent
// (8, padded to the int's alignment), and 10 of them (a contiguous type) go to rank ^ 1 and back
// intact.
import type { MTest, MTestResult } from '../mtest.ts';

/** sizeof(struct a { int i; char c; }) on x86-64. */
const SIZEOF_A = 8;

export default async function dataalign(mt: MTest): Promise<MTestResult> {
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
  let tsize = mpi.typeSize(con);
  let text = mpi.typeGetExtent(con).extent;
  mt.printfMsg(0, `Size of MPI array is ${tsize}, extent is ${text}`);
  text = mpi.typeGetExtent(str).extent;
  tsize = mpi.typeSize(str);
  mt.printfMsg(0, `Size of MPI struct is ${tsize}, extent is ${text}`);
  mt.printfMsg(0, `Size of C struct is ${SIZEOF_A}`);
  if (text !== SIZEOF_A) {
    mt.printf(`Extent of struct a (${text}) does not match sizeof (${SIZEOF_A})`);
    errs++;
  }
  await mpi.send(s, 1, con, rank ^ 1, 0);
  const status = await mpi.recv(s1, 1, con, rank ^ 1, 0);
  for (let j = 0; j < 10; j++) {
    const i = s1.getInt32(j * SIZEOF_A, true);
    const c = s1.getInt8(j * SIZEOF_A + 4);
    if (i !== j + status.source) {
      errs++;
      mt.printf(`Got s[${j}].i = ${i}; expected ${j + status.source}`);
    }
    const want = ('a'.charCodeAt(0) + j + status.source) << 24 >> 24;
    if (c !== want) {
      errs++;
      mt.printf(`Got s[${j}].c = ${c.toString(16)}; expected ${String.fromCharCode(want)}`);
    }
  }
  mpi.typeFree(str);
  mpi.typeFree(con);
  return mt.finalize(errs);
}
