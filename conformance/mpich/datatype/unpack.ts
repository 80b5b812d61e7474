// MPICH test/mpi/datatype/unpack.c: MPI_Unpack of 2 of an indexed type (blocks 1, 2 at 0, 2) of
// the same indexed type of chars, from a buffer that was never packed ("abcd..."): the bytes land
// where the type map says (a regression test).
import type { MTest, MTestResult } from '../mtest.ts';

const COUNT = 2;

const correctBuf = 'a_bc____d_efg_hij_kl____m_nop_qr';

export default async function unpack(mt: MTest): Promise<MTestResult> {
  const { mpi } = mt;
  let errs = 0;
  const blkArr = [1, 2];
  const dspArr = [0, 2];
  // the datatype to unpack with
  const tmpDtype = mpi.typeIndexed(COUNT, blkArr, dspArr, mpi.CHAR);
  mpi.typeCommit(tmpDtype);
  const memDtype = mpi.typeIndexed(COUNT, blkArr, dspArr, tmpDtype);
  mpi.typeFree(tmpDtype);
  mpi.typeCommit(memDtype);
  const memDtypeSz = mpi.typeSize(memDtype);
  const memDtypeExt = mpi.typeGetExtent(memDtype).extent;
  const memBufSz = 2 * memDtypeExt;
  const unpackBufSz = 2 * memDtypeSz;
  const memBuf = new Uint8Array(memBufSz).fill('_'.charCodeAt(0));
  const unpackBuf = new Uint8Array(unpackBufSz);
  for (let i = 0; i < unpackBufSz; i++) unpackBuf[i] = 'a'.charCodeAt(0) + i;
  // unpack without a pack is not technically correct, but should work with MPICH
  mpi.unpack(unpackBuf, 0, memBuf, 2, memDtype);
  if (new TextDecoder().decode(memBuf.subarray(0, 2 * memDtypeExt)) !== correctBuf.slice(0, 2 * memDtypeExt)) {
    mt.printf('Unpacked buffer does not match expected buffer');
    errs++;
  }
  mpi.typeFree(memDtype);
  return mt.finalize(errs);
}
