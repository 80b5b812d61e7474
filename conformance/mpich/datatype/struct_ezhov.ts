// MPICH test/mpi/datatype/struct_ezhov.c: 1131 of a struct of 56 floats and 2 floats at byte 332,
// resized to 340 bytes, sent to self with MPI_Isend and received (a regression test: it must not
// crash).
import type { MTest, MTestResult } from '../mtest.ts';

const COUNT = 2;
const SIZE = 340;
const EL_COUNT = 1131;

export default async function structEzhov(mt: MTest): Promise<MTestResult> {
  const { mpi } = mt;
  const sBuf = new Uint8Array(EL_COUNT * SIZE);
  const rBuf = new Uint8Array(EL_COUNT * SIZE);
  const disp1 = [0, 332];
  const block1 = [56, 2];
  const type1 = [mpi.FLOAT, mpi.FLOAT];
  const tmpType = mpi.typeCreateStruct(COUNT, block1, disp1, type1);
  const structType = mpi.typeCreateResized(tmpType, 0, 340);
  mpi.typeFree(tmpType);
  mpi.typeCommit(structType);
  const request = mpi.isend(sBuf, EL_COUNT, structType, 0, 4);
  await mpi.recv(rBuf, EL_COUNT, structType, 0, 4);
  await mpi.wait(request);
  mpi.typeFree(structType);
  return mt.finalize(0);
}
