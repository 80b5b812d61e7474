// MPICH test/mpi/datatype/struct_empty_el.c: a struct type whose first element has block length 0
// (dropped), then an int at 0 and two ints at 8, received 2 at a time on MPI_COMM_SELF from 6 ints:
// the data lands at a, c, d of each { a, b, c, d } and b stays -1; MPI_Get_count is 2 and
// MPI_Get_elements 6 (errors returned and counted).
import { rc, type MTest, type MTestResult } from '../mtest.ts';
import type { Request, Status } from '../../../runtime/mpi/mpi.ts';

export default async function structEmptyEl(mt: MTest): Promise<MTestResult> {
  const { mpi } = mt;
  let errs = 0;
  const verbose = mt.argv[0] === '-v';
  mpi.setErrhandler(mpi.ERRORS_RETURN);
  const sendbuf = Int32Array.of(1, 2, 3, 4, 5, 6);
  // ts1: two struct test_struct_1 { int a, b, c, d; }
  const ts1 = new Int32Array(8).fill(-1);
  // note: first element of struct has zero blklen and should be dropped
  const disps = [2 * 4, 0, 2 * 4];
  const blks = [0, 1, 2];
  const types = [mpi.FLOAT, mpi.INT, mpi.INT];
  let mystruct = mpi.INT;
  if (
    await rc(() => {
      mystruct = mpi.typeCreateStruct(3, blks, disps, types);
    })
  ) {
    errs++;
    if (verbose) mt.printf('MPI_Type_create_struct returned error');
  }
  mpi.typeCommit(mystruct);
  let request: Request | null = null;
  let status: Status | null = null;
  if (
    await rc(() => {
      request = mpi.COMM_SELF.irecv(ts1, 2, mystruct, 0, 0);
    })
  ) {
    errs++;
    if (verbose) mt.printf('MPI_Irecv returned error');
  }
  if (await rc(() => mpi.COMM_SELF.send(sendbuf, 6, mpi.INT, 0, 0))) {
    errs++;
    if (verbose) mt.printf('MPI_Send returned error');
  }
  if (
    await rc(async () => {
      status = await request!.wait();
    })
  ) {
    errs++;
    if (verbose) mt.printf('MPI_Wait returned error');
  }
  // verify data
  const want = [1, -1, 2, 3, 4, -1, 5, 6];
  for (let i = 0; i < 8; i++) {
    if (ts1[i] !== want[i]) {
      errs++;
      if (verbose) mt.printf(`ts1[${i >> 2}].${'abcd'[i & 3]} = ${ts1[i]}; should be ${want[i]}`);
    }
  }
  // verify count and elements
  let count = -1;
  let elements = -1;
  if (
    await rc(() => {
      count = mpi.getCount(status!, mystruct);
    })
  ) {
    errs++;
    if (verbose) mt.printf('MPI_Get_count returned error');
  }
  if (count !== 2) {
    errs++;
    if (verbose) mt.printf(`count = ${count}; should be 2`);
  }
  if (
    await rc(() => {
      elements = mpi.getElements(status!, mystruct);
    })
  ) {
    errs++;
    if (verbose) mt.printf('MPI_Get_elements returned error');
  }
  if (elements !== 6) {
    errs++;
    if (verbose) mt.printf(`elements = ${elements}; should be 6`);
  }
  mpi.typeFree(mystruct);
  return mt.finalize(errs);
}
