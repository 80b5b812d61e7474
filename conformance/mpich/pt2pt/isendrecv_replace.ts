// MPICH test/mpi/pt2pt/isendrecv_replace.c: isendrecv.c with MPI_Isendrecv_replace.
import type { MTest, MTestResult } from '../mtest.ts';
import type { Request } from '../../../runtime/mpi/mpi.ts';

export default async function isendrecvReplace(mt: MTest): Promise<MTestResult> {
  const { mpi } = mt;
  let errs = 0;
  const elems = 20;
  const comm = mpi.COMM_WORLD;
  const rank = comm.rank;
  const nproc = comm.size;
  const reqs: Request[] = [];
  const buf = new Float32Array(elems * nproc);
  for (let offset = 0; offset < nproc - 1; offset++) {
    for (let i = 0; i < nproc; i++) for (let j = 0; j < elems; j++) buf[i * elems + j] = rank * 100.0 + j;
    for (let i = 0; i < nproc; i++) {
      const j = (i + offset) % nproc;
      reqs[i] = comm.isendrecvReplace(buf.subarray(elems * j, elems * (j + 1)), i, 0, j, 0);
    }
    await comm.waitAll(reqs);
    for (let i = 0; i < nproc; i++) {
      for (let j = 0; j < elems; j++) {
        if (buf[i * elems + j] !== i * 100.0 + j) {
          if (errs < 10) mt.printf(`buf(${i}, ${j}) mismatch, got ${buf[i * elems + j]}, expect ${i}`);
          errs++;
        }
      }
    }
  }
  return mt.finalize(errs);
}
