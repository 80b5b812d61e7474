// MPICH test/mpi/datatype/get_elements_pairtype.c: a struct { double; int; double; int } sent to
// self and received as 2 MPI_DOUBLE_INT: valid, and MPI_Get_elements counts 4 basic elements
// (errors returned and counted).
import { rc, type MTest, type MTestResult } from '../mtest.ts';
import type { Status } from '../../../runtime/mpi/mpi.ts';

export default async function getElementsPairtype(mt: MTest): Promise<MTestResult> {
  const { mpi } = mt;
  let errs = 0;
  const verbose = mt.argv[0] === '-v';
  mpi.setErrhandler(mpi.ERRORS_RETURN);
  // send a { double, int, double, int } tuple and receive it as a pair of MPI_DOUBLE_INTs: valid,
  // with an element count of 4
  const doubleIntTest = async (): Promise<number> => {
    let e = 0;
    let count = 0;
    // foo and bar: { double a; int b; double c; int d; }, 32 bytes
    const foo = new DataView(new ArrayBuffer(32));
    const bar = new DataView(new ArrayBuffer(32));
    const blks = [1, 1, 1, 1];
    // the offsets of b, c and d from a
    const disps = [0, 8, 16, 24];
    const types = [mpi.DOUBLE, mpi.INT, mpi.DOUBLE, mpi.INT];
    const stype = mpi.typeCreateStruct(4, blks, disps, types);
    mpi.typeCommit(stype);
    let recvstatus: Status | null = null;
    let err = await rc(async () => {
      recvstatus = await mpi.COMM_SELF.sendrecv(foo, 1, stype, 0, 0, bar, 2, mpi.DOUBLE_INT, 0, 0);
    });
    if (err) {
      e++;
      if (verbose) mt.printf(`MPI_Sendrecv returned error (${err})`);
      return e;
    }
    err = await rc(() => {
      count = mpi.getElements(recvstatus!, mpi.DOUBLE_INT);
    });
    if (err) {
      e++;
      if (verbose) mt.printf(`MPI_Get_elements returned error (${err})`);
    }
    if (count !== 4) {
      e++;
      if (verbose) mt.printf(`MPI_Get_elements returned count of ${count}, should be 3`);
    }
    mpi.typeFree(stype);
    return e;
  };
  // some tests
  const err = await doubleIntTest();
  if (err && verbose) mt.printf(`${err} errors in double_int test.`);
  errs += err;
  return mt.finalize(errs);
}
