// MPICH test/mpi/pt2pt/isendrecv.c: isendirecv.c with MPI_Isendrecv, the source at every offset
// from the destination.
import type { MTest, MTestResult } from '../mtest.ts';
import type { Request } from '../../../runtime/mpi/mpi.ts';

export default async function isendrecv(mt: MTest): Promise<MTestResult> {
  const { mpi } = mt;
  let errs = 0;
  const elems = 20;
  const comm = mpi.COMM_WORLD;
  const rank = comm.rank;
  const nproc = comm.size;
  const reqs: Request[] = [];
  const inBuf = new Float32Array(elems * nproc);
  const outBuf = new Float32Array(elems * nproc);
  const part = (b: Float32Array, i: number): Float32Array => b.subarray(elems * i, elems * (i + 1));
  for (let offset = 0; offset < nproc - 1; offset++) {
    for (let i = 0; i < nproc; i++) {
      for (let j = 0; j < elems; j++) {
        inBuf[i * elems + j] = -1.0;
        outBuf[i * elems + j] = rank * 10000.0 + i * 100.0 + j;
      }
    }
    for (let i = 0; i < nproc; i++) {
      const j = (i + offset) % nproc;
      reqs[i] = comm.isendrecv(part(outBuf, i), i, 0, part(inBuf, j), j, 0);
    }
    await comm.waitAll(reqs);
    for (let i = 0; i < nproc; i++) for (let j = 0; j < elems; j++) if (inBuf[i * elems + j] !== i * 10000.0 + rank * 100.0 + j) errs++;
  }
  return mt.finalize(errs);
}
