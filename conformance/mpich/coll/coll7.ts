// MPICH test/mpi/coll/coll7.c: MPI_Allgather of a 10x10 table's rows with MPI_IN_PLACE.
import type { MTest, MTestResult } from '../mtest.ts';

const MAX_PROCESSES = 10;

export default async function coll7(mt: MTest): Promise<MTestResult> {
  const { mpi } = mt;
  const rank = mpi.rank;
  const size = mpi.size;
  const table = new Int32Array(MAX_PROCESSES * MAX_PROCESSES);
  let errors = 0;
  const participants = size > MAX_PROCESSES ? MAX_PROCESSES : size;
  if (MAX_PROCESSES % participants) throw new Error(`Number of processors must divide ${MAX_PROCESSES}`);
  if (rank < participants) {
    const blockSize = MAX_PROCESSES / participants;
    const beginRow = rank * blockSize;
    const endRow = (rank + 1) * blockSize;
    const recvCount = blockSize * MAX_PROCESSES;
    for (let i = beginRow; i < endRow; i++) for (let j = 0; j < MAX_PROCESSES; j++) table[i * MAX_PROCESSES + j] = rank + 10;
    await mpi.allgather(mpi.IN_PLACE, table.subarray(0, recvCount * size));
    for (let i = 0; i < MAX_PROCESSES; i++) if (table[i * MAX_PROCESSES]! - table[i * MAX_PROCESSES + MAX_PROCESSES - 1]! !== 0) errors++;
  }
  return mt.finalize(errors);
}
