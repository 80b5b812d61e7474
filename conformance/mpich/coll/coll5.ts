// MPICH test/mpi/coll/coll5.c: MPI_Scatterv of a 10x10 table's rows from rank 0.
import type { MTest, MTestResult } from '../mtest.ts';

const MAX_PROCESSES = 10;

export default async function coll5(mt: MTest): Promise<MTestResult> {
  const { mpi } = mt;
  const rank = mpi.rank;
  const size = mpi.size;
  const table = new Int32Array(MAX_PROCESSES * MAX_PROCESSES);
  const row = new Int32Array(MAX_PROCESSES);
  const displs = new Int32Array(MAX_PROCESSES);
  const sendCounts = new Int32Array(MAX_PROCESSES);
  let errors = 0;
  const participants = size > MAX_PROCESSES ? MAX_PROCESSES : size;
  if (rank < participants) {
    const recvCount = MAX_PROCESSES;
    if (rank === 0) {
      for (let i = 0; i < participants; i++) {
        sendCounts[i] = recvCount;
        displs[i] = i * MAX_PROCESSES;
        for (let j = 0; j < MAX_PROCESSES; j++) table[i * MAX_PROCESSES + j] = i + j;
      }
    }
    await mpi.scatterv(table, sendCounts.subarray(0, size), displs.subarray(0, size), row, 0);
    for (let i = 0; i < MAX_PROCESSES; i++) if (row[i] !== i + rank) errors++;
  }
  return mt.finalize(errors);
}
