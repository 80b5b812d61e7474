// MPICH test/mpi/comm/comm_info.c: a key MPI does not define for communicators, set with
// MPI_Comm_set_info, is ignored: MPI_Comm_get_info does not return it (MPICH's behaviour).
import type { MTest, MTestResult } from '../mtest.ts';

export default async function commInfo(mt: MTest): Promise<MTestResult> {
  const { mpi } = mt;
  const invalidKey = 'invalid_test_key';
  let errors = 0;
  const infoIn = mpi.infoCreate();
  infoIn.set(invalidKey, 'true');
  const comm = await mpi.dup();
  comm.setInfo(infoIn);
  const infoOut = comm.getInfo();
  if (infoOut.get(invalidKey) !== undefined) {
    mt.printf(`${mpi.rank}: ${invalidKey} was not ignored`);
    errors++;
  }
  infoIn.free();
  infoOut.free();
  await comm.free();
  const errs = new Int32Array(1);
  await mpi.reduce(Int32Array.of(errors), errs, mpi.SUM, 0);
  return mt.finalize(errs[0]!);
}
