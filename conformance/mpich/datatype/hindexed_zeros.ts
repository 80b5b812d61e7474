// MPICH test/mpi/datatype/hindexed_zeros.c: an hindexed type of three zero-length blocks sent to
// and received from self (count and elements 0), then a short receive of 6 ints into 2 of a sparse
// hindexed type with a zero-length block (the data in its place, the rest untouched, count
// MPI_UNDEFINED, elements 6) (errors returned and counted).
import { rc, type MTest, type MTestResult } from '../mtest.ts';
import type { Datatype, Request, Status } from '../../../runtime/mpi/mpi.ts';

const SIZEOF_INT = 4;

export default async function hindexedZeros(mt: MTest): Promise<MTestResult> {
  const { mpi } = mt;
  let errs = 0;
  const verbose = mt.argv[0] === '-v';
  mpi.setErrhandler(mpi.ERRORS_RETURN);
  const self = mpi.COMM_SELF;

  // receives `rcount` of mytype into recvbuf from `send` on self; the checks of the calls' errors
  const exchange = async (mytype: Datatype, recvbuf: Int32Array, rcount: number, send: () => Promise<unknown>): Promise<{ e: number; status: Status | null }> => {
    let e = 0;
    let request: Request | null = null;
    let status: Status | null = null;
    if (
      await rc(() => {
        request = self.irecv(recvbuf, rcount, mytype, 0, 0);
      })
    ) {
      e++;
      if (verbose) mt.printf('MPI_Irecv returned error');
    }
    if (await rc(send)) {
      e++;
      if (verbose) mt.printf('MPI_Send returned error');
    }
    if (
      await rc(async () => {
        status = await request!.wait();
      })
    ) {
      e++;
      if (verbose) mt.printf('MPI_Wait returned error');
    }
    return { e, status };
  };
  const countAndElements = async (status: Status | null, mytype: Datatype, wantCount: number, wantElements: number): Promise<number> => {
    let e = 0;
    let count = -1;
    let elements = -1;
    if (
      await rc(() => {
        count = mpi.getCount(status!, mytype);
      })
    ) {
      e++;
      if (verbose) mt.printf('MPI_Get_count returned error');
    }
    if (count !== wantCount) {
      e++;
      if (verbose) mt.printf(`count = ${count}; should be ${wantCount}`);
    }
    if (
      await rc(() => {
        elements = mpi.getElements(status!, mytype);
      })
    ) {
      e++;
      if (verbose) mt.printf('MPI_Get_elements returned error');
    }
    if (elements !== wantElements) {
      e++;
      if (verbose) mt.printf(`elements = ${elements}; should be ${wantElements}`);
    }
    return e;
  };
  const create = async (count: number, blks: number[], disps: number[]): Promise<{ e: number; mytype: Datatype }> => {
    let mytype = mpi.INT;
    const e = await rc(() => {
      mytype = mpi.typeCreateHindexed(count, blks, disps, mpi.INT);
    });
    if (e && verbose) mt.printf('MPI_Type_create_hindexed returned error');
    mpi.typeCommit(mytype);
    return { e: e ? 1 : 0, mytype };
  };

  // an hindexed type with all zero length blocks (C passes NULL buffers)
  const hindexedZerotypeTest = async (): Promise<number> => {
    const { e: ce, mytype } = await create(3, [0, 0, 0], [0, 4, 16]);
    const none = new Int32Array(0);
    const { e, status } = await exchange(mytype, none, 2, () => self.send(none, 1, mytype, 0, 0));
    const r = ce + e + (await countAndElements(status, mytype, 0, 0));
    mpi.typeFree(mytype);
    return r;
  };

  // a short receive into a sparse hindexed type with a zero length block in it
  const hindexedSparsetypeTest = async (): Promise<number> => {
    const sendbuf = Int32Array.of(1, 2, 3, 4, 5, 6);
    const recvbuf = new Int32Array(16);
    const correct = [1, -2, 4, -4, 2, 3, 5, -8, -9, -10, 6, -12, -13, -14, -15, -16];
    const { e: ce, mytype } = await create(4, [1, 0, 2, 1], [0, 1 * SIZEOF_INT, 4 * SIZEOF_INT, 2 * SIZEOF_INT]);
    for (let i = 0; i < 16; i++) recvbuf[i] = -(i + 1);
    const { e, status } = await exchange(mytype, recvbuf, 2, () => self.send(sendbuf, 6, mpi.INT, 0, 0));
    let r = ce + e;
    // verify data
    for (let i = 0; i < 16; i++) {
      if (recvbuf[i] !== correct[i]) {
        r++;
        if (verbose) mt.printf(`recvbuf[${i}] = ${recvbuf[i]}; should be ${correct[i]}`);
      }
    }
    r += await countAndElements(status, mytype, mpi.UNDEFINED, 6);
    mpi.typeFree(mytype);
    return r;
  };

  let err = await hindexedZerotypeTest();
  if (verbose && err) mt.printf('error in hindexed_zerotype_test');
  errs += err;
  err = await hindexedSparsetypeTest();
  if (verbose && err) mt.printf('error in hindexed_sparsetype_test');
  errs += err;
  return mt.finalize(errs);
}
