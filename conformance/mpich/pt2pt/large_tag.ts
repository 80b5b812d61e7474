// MPICH test/mpi/pt2pt/large_tag.c: send/receive with tag values from the upper bound down, as
// some MPI-based libraries (PETSc) use them. The bound is MPI_TAG_UB (MPI_Comm_get_attr in C;
// phit has it as a constant).
import type { MTest, MTestResult } from '../mtest.ts';

const ITER = 5;
const BUF_COUNT = 16;

export default async function largeTag(mt: MTest): Promise<MTestResult> {
  const { mpi } = mt;
  let errs = 0;
  const size = mpi.size;
  const rank = mpi.rank;
  const recvbuf = new Int32Array(BUF_COUNT);
  const sendbuf = new Int32Array(BUF_COUNT);
  // perform the test only with two or more processes
  if (size >= 2) {
    let tag = mpi.TAG_UB;
    const flag = true;
    if (!flag || tag < 32767) {
      mt.printf(`${rank} -- Incorrect MPI_TAG_UB, found flag=${flag}, tag=${tag}`);
      errs++;
    } else {
      for (let x = 0; x < ITER; x++) {
        if (rank === 0) {
          for (let i = 0; i < BUF_COUNT; i++) sendbuf[i] = x * BUF_COUNT + i;
          await mpi.send(sendbuf, 1, tag);
        } else if (rank === 1) {
          await mpi.recv(recvbuf, 0, tag);
          for (let i = 0; i < BUF_COUNT; i++) {
            const expected = x * BUF_COUNT + i;
            if (recvbuf[i] !== expected) {
              errs++;
              mt.printf(`${rank} -- Received ${recvbuf[i]} at index ${i} with tag ${tag}, expected ${expected}`);
            }
          }
        }
        tag--;
      }
    }
  }
  return mt.finalize(errs);
}
