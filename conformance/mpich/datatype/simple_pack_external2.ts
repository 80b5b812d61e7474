// MPICH test/mpi/datatype/simple_pack_external2.c: 2 unsigned ints and then 24 doubles packed one
// after the other into one buffer of their two MPI_Pack_external_size sizes: the second pack
// starts at the position the first returned and must fit (the C test counts no errors of its
// own; an error of a call fails it, MPI_ERRORS_ARE_FATAL).
import type { MTest, MTestResult } from '../mtest.ts';

const UINT_COUNT = 2;
const DBLE_COUNT = 24;

export default async function simplePackExternal2(mt: MTest): Promise<MTestResult> {
  const { mpi } = mt;
  const datarep = 'external32';
  const uintData = new Uint32Array(UINT_COUNT);
  const dbleData = new Float64Array(DBLE_COUNT);
  const uintPackSize = mpi.packExternalSize(datarep, UINT_COUNT, mpi.UNSIGNED);
  const dblePackSize = mpi.packExternalSize(datarep, DBLE_COUNT, mpi.DOUBLE);
  const packBuffer = new Uint8Array(uintPackSize + dblePackSize);
  let position = 0;
  position = mpi.packExternal(datarep, uintData, UINT_COUNT, mpi.UNSIGNED, packBuffer, position);
  mpi.packExternal(datarep, dbleData, DBLE_COUNT, mpi.DOUBLE, packBuffer, position);
  return mt.finalize(0);
}
