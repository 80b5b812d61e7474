// MPICH test/mpi/datatype/lots_of_types.c: 1,024 indexed types of 1,024 int blocks each, each used
// to receive 4 ints on MPI_COMM_SELF (a short receive: the data lands in the first block, count
// MPI_UNDEFINED, elements 4) (errors returned and counted).
import { rc, type MTest, type MTestResult } from '../mtest.ts';
import type { Datatype, Request, Status } from '../../../runtime/mpi/mpi.ts';

const NUM_DTYPES = 1024;
const NUM_BLOCKS = 1024;

export default async function lotsOfTypes(mt: MTest): Promise<MTestResult> {
  const { mpi } = mt;
  let errs = 0;
  const verbose = true;
  mpi.setErrhandler(mpi.ERRORS_RETURN);

  const lotsOfTypesTest = async (): Promise<number> => {
    let e = 0;
    const mytypes: (Datatype | null)[] = new Array<Datatype | null>(NUM_DTYPES).fill(null);
    const sendbuf = Int32Array.of(1, 2, 3, 4);
    const disps = new Int32Array(NUM_BLOCKS);
    const blks = new Int32Array(NUM_BLOCKS);
    const exit = (): number => {
      for (const t of mytypes) if (t) mpi.typeFree(t);
      return e;
    };
    for (let i = 0; i < NUM_DTYPES; i++) {
      disps[0] = 0;
      blks[0] = 4;
      for (let j = 1; j < NUM_BLOCKS; j++) {
        disps[j] = 4 * j;
        blks[j] = (j % 3) + 1;
      }
      if (
        await rc(() => {
          mytypes[i] = mpi.typeIndexed(NUM_BLOCKS, blks, disps, mpi.INT);
        })
      ) {
        e++;
        if (verbose) mt.printf(`MPI_Type_indexed returned error on type ${i}`);
        mytypes[i] = null;
        return exit();
      }
      mpi.typeCommit(mytypes[i]!);
    }
    for (let i = 0; i < NUM_DTYPES; i++) {
      const t = mytypes[i]!;
      // we will only receive 4 ints, so short buffer is ok: in C. phit checks that a buffer covers
      // the bytes its type spans (a C library cannot), so recvbuf is the first 4 ints of a buffer
      // that does, and the ints beyond them must stay -1
      const whole = new Int32Array(mpi.typeGetExtent(t).extent / 4).fill(-1);
      const recvbuf = whole.subarray(0, 4);
      let request: Request | null = null;
      let status: Status | null = null;
      if (
        await rc(() => {
          request = mpi.COMM_SELF.irecv(whole, 1, t, 0, 0);
        })
      ) {
        e++;
        if (verbose) mt.printf('MPI_Irecv returned error');
      }
      if (await rc(() => mpi.COMM_SELF.send(sendbuf, 4, mpi.INT, 0, 0))) {
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
      // verify data
      for (let j = 0; j < 4; j++) {
        if (recvbuf[j] !== sendbuf[j]) {
          e++;
          if (verbose) mt.printf(`recvbuf[${j}] = ${recvbuf[j]}; should be ${sendbuf[j]}`);
        }
      }
      if (whole.subarray(4).some((v) => v !== -1)) {
        e++;
        if (verbose) mt.printf('the receive wrote beyond the 4 ints it received');
      }
      // verify count and elements
      let count = -1;
      let elements = -1;
      if (
        await rc(() => {
          count = mpi.getCount(status!, t);
        })
      ) {
        e++;
        if (verbose) mt.printf('MPI_Get_count returned error');
      }
      if (count !== mpi.UNDEFINED) {
        e++;
        if (verbose) mt.printf(`count = ${count}; should be MPI_UNDEFINED (${mpi.UNDEFINED})`);
      }
      if (
        await rc(() => {
          elements = mpi.getElements(status!, t);
        })
      ) {
        e++;
        if (verbose) mt.printf('MPI_Get_elements returned error');
      }
      if (elements !== 4) {
        e++;
        if (verbose) mt.printf(`elements = ${elements}; should be 4`);
      }
    }
    return exit();
  };

  const err = await lotsOfTypesTest();
  if (verbose && err) mt.printf('error in lots_of_types_test');
  errs += err;
  return mt.finalize(errs);
}
