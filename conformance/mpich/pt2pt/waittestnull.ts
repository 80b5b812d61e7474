// MPICH test/mpi/pt2pt/waittestnull.c: MPI_Test* and MPI_Wait* accept empty lists of requests
// (errors returned and counted).
import { rc, type MTest, type MTestResult } from '../mtest.ts';
import type { Request } from '../../../runtime/mpi/mpi.ts';

export default async function waittestnull(mt: MTest): Promise<MTestResult> {
  const { mpi } = mt;
  let errs = 0;
  mpi.setErrhandler(mpi.ERRORS_RETURN);
  const reqs: (Request | null)[] = [];
  const report = (call: string, code: number): void => {
    mt.printf(`${call} returned failure: ${mpi.errorString(code)}`);
    errs++;
  };
  let flag = false;
  let code = await rc(async () => {
    flag = (await mpi.testAll(reqs)) !== null;
  });
  if (code) report('MPI_Testall', code);
  else if (!flag) {
    mt.printf('MPI_Testall(0, ...) did not return a true flag');
    errs++;
  }
  code = await rc(() => mpi.waitAll(reqs));
  if (code) report('MPI_Waitall', code);
  code = await rc(async () => {
    flag = (await mpi.testAny(reqs)).flag;
  });
  if (code) report('MPI_Testany', code);
  else if (!flag) {
    mt.printf('MPI_Testany(0, ...) did not return a true flag');
    errs++;
  }
  code = await rc(() => mpi.waitAny(reqs));
  if (code) report('MPI_Waitany', code);
  code = await rc(() => mpi.testSome(reqs));
  if (code) report('MPI_Testsome', code);
  code = await rc(() => mpi.waitSome(reqs));
  if (code) report('MPI_Waitsome', code);
  return mt.finalize(errs);
}
