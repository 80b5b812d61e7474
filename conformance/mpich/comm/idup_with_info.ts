// MPICH test/mpi/comm/idup_with_info.c: MPIX_Comm_idup_with_info (MPI_Comm_idup_with_info of MPI
// 4.0) with no info, then with three info keys from two communicators started in opposite orders
// on even and odd ranks, then with the info freed before the copies are complete.
import type { MTest, MTestResult } from '../mtest.ts';
import type { Comm, Request } from '../../../runtime/mpi/mpi.ts';
import { runTests, threeKeys } from './dup_with_info.ts';

export default async function idupWithInfo(mt: MTest): Promise<MTestResult> {
  const { mpi } = mt;
  let errs = 0;
  const rank = mpi.rank;
  // dup with no info
  let r = mpi.idupWithInfo(mpi.INFO_NULL);
  await mpi.wait(r.request);
  const newcomm1 = r.comm;
  errs += await runTests(mt, newcomm1);
  r = mpi.idupWithInfo(mpi.INFO_NULL);
  await mpi.wait(r.request);
  const newcomm2 = r.comm;
  errs += await runTests(mt, newcomm2);
  for (const freeEarly of [false, true]) {
    // with info keys in mixed order; the second time the info is freed before the waits
    const info = threeKeys(mt);
    let newcomm3: Comm, newcomm4: Comm;
    const reqs: Request[] = [];
    if (rank % 2 === 0) {
      const a = newcomm1.idupWithInfo(info);
      const b = newcomm2.idupWithInfo(info);
      [newcomm3, newcomm4] = [a.comm, b.comm];
      reqs.push(a.request, b.request);
    } else {
      const b = newcomm2.idupWithInfo(info);
      const a = newcomm1.idupWithInfo(info);
      [newcomm3, newcomm4] = [a.comm, b.comm];
      reqs.push(b.request, a.request);
    }
    if (freeEarly) info.free();
    await mpi.waitAll(reqs);
    errs += await runTests(mt, newcomm3);
    errs += await runTests(mt, newcomm4);
    if (!freeEarly) info.free();
    await newcomm4.free();
    await newcomm3.free();
  }
  await newcomm2.free();
  await newcomm1.free();
  return mt.finalize(errs);
}
