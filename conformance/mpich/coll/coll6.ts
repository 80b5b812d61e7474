// MPICH test/mpi/coll/coll6.c: MPI_Allgatherv of a 10x10 table's rows; each rank's block already
// sits at its displacement, so the call is made with MPI_IN_PLACE.
import type { MTest, MTestResult } from '../mtest.ts';

const MAX_PROCESSES = 10;

export default async function coll6(mt: MTest): Promise<MTestResult> {
  const { mpi } = mt;
  const rank = mpi.rank;
  const size = mpi.size;
  const table = new Int32Array(MAX_PROCESSES * MAX_PROCESSES);
  const displs = new Int32Array(MAX_PROCESSES);
  const recvCounts = new Int32Array(MAX_PROCESSES);
  let errors = 0;
  const participants = size > MAX_PROCESSES ? MAX_PROCESSES : size;
  if (MAX_PROCESSES % participants) throw new Error(`Number of processors must divide ${MAX_PROCESSES}`);
  const testComm = (await mpi.split(rank < participants ? 1 : 0, rank))!;
  if (rank < participants) {
    const blockSize = MAX_PROCESSES / participants;
    const beginRow = rank * blockSize;
    const endRow = (rank + 1) * blockSize;
    const sendCount = blockSize * MAX_PROCESSES;
    for (let i = 0; i < participants; i++) {
      displs[i] = i * blockSize * MAX_PROCESSES;
      recvCounts[i] = sendCount;
    }
    for (let i = beginRow; i < endRow; i++) for (let j = 0; j < MAX_PROCESSES; j++) table[i * MAX_PROCESSES + j] = rank + 10;
    // &table[begin_row][0] is table + displs[rank]: in place
    await testComm.allgatherv(mpi.IN_PLACE, table, recvCounts.subarray(0, participants), displs.subarray(0, participants));
    for (let i = 0; i < MAX_PROCESSES; i++) if (table[i * MAX_PROCESSES]! - table[i * MAX_PROCESSES + MAX_PROCESSES - 1]! !== 0) errors++;
    for (let i = 0; i < MAX_PROCESSES; i++) for (let j = 0; j < MAX_PROCESSES; j++) if (table[i * MAX_PROCESSES + j] !== Math.trunc(i / blockSize) + 10) errors++;
    if (errors) for (let i = 0; i < MAX_PROCESSES; i++) mt.printf(Array.from(table.subarray(i * MAX_PROCESSES, (i + 1) * MAX_PROCESSES)).join('  '));
  }
  await testComm.free();
  return mt.finalize(errors);
}
