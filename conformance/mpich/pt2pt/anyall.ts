// MPICH test/mpi/pt2pt/anyall.c: one implementation delivered incorrect data when an MPI receive
// uses both ANY_SOURCE and ANY_TAG; the test relies on the ordering rules for messages.
import type { MTest, MTestResult } from '../mtest.ts';
import type { Request } from '../../../runtime/mpi/mpi.ts';

const MAX_MSGS = 30;

export default async function anyall(mt: MTest): Promise<MTestResult> {
  const { mpi } = mt;
  let errs = 0;
  const wrank = mpi.rank;
  const comm = mpi.COMM_WORLD;
  const sender = 0;
  const receiver = 1;
  const r: (Request | null)[] = new Array(MAX_MSGS).fill(null);
  const buf: Int32Array[] = [];
  for (let i = 0; i < MAX_MSGS; i++) buf[i] = new Int32Array(MAX_MSGS);
  if (wrank === sender) {
    for (let i = 0; i < MAX_MSGS; i++) for (let j = 0; j < MAX_MSGS; j++) buf[i]![j] = i * MAX_MSGS + j;
    await mpi.barrier();
    for (let i = 0; i < MAX_MSGS; i++) await comm.send(buf[i]!.subarray(0, MAX_MSGS - i), receiver, 3);
  } else if (wrank === receiver) {
    for (let i = 0; i < MAX_MSGS; i++) buf[i]!.fill(-1);
    for (let i = 0; i < MAX_MSGS; i++) r[i] = comm.irecv(buf[i]!.subarray(0, MAX_MSGS - i), mpi.ANY_SOURCE, mpi.ANY_TAG);
    await mpi.barrier();
    for (let i = 0; i < MAX_MSGS; i++) {
      const { index: idx, status } = await comm.waitAny(r);
      // MPI_Waitany sets the completed request to MPI_REQUEST_NULL
      r[idx] = null;
      // message idx should have length MAX_MSGS-idx
      const count = status!.count;
      if (count !== MAX_MSGS - idx) {
        errs++;
      } else {
        for (let j = 0; j < MAX_MSGS - idx; j++) {
          if (buf[idx]![j] !== idx * MAX_MSGS + j) {
            errs++;
            mt.printf(`Message ${idx} [${j}] is ${buf[idx]![j]}, should be ${idx * MAX_MSGS + j}`);
          }
        }
      }
    }
  } else {
    await mpi.barrier();
  }
  return mt.finalize(errs);
}
