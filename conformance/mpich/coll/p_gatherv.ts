// MPICH test/mpi/coll/p_gatherv.c: a 10x10 table gathered to every rank in turn with one
// MPI_Gatherv_init request per root (the root's own rows in place), all started and waited in
// turn 10 times, the rows repainted before each round. (The C test passes an empty MPI_Info,
// which phit's init calls do not take.)
import type { MTest, MTestResult } from '../mtest.ts';
import type { Request } from '../../../runtime/mpi/mpi.ts';

const MAX_PROCESSES = 10;

export default async function pGatherv(mt: MTest): Promise<MTestResult> {
  const { mpi } = mt;
  const rank = mpi.rank;
  const size = mpi.size;
  const table = new Int32Array(MAX_PROCESSES * MAX_PROCESSES);
  let errors = 0;
  const displs = new Int32Array(MAX_PROCESSES);
  const recvCounts = new Int32Array(MAX_PROCESSES);
  // a maximum of MAX_PROCESSES processes can participate
  const participants = size > MAX_PROCESSES ? MAX_PROCESSES : size;
  if (MAX_PROCESSES % participants) throw new Error(`Number of processors must divide ${MAX_PROCESSES}`);
  const reqs: Request[] = [];
  if (rank < participants) {
    // the rows this rank is responsible for
    const blockSize = MAX_PROCESSES / participants;
    const beginRow = rank * blockSize;
    const endRow = (rank + 1) * blockSize;
    const sendCount = blockSize * MAX_PROCESSES;
    // the displacements and recv_counts
    for (let i = 0; i < participants; i++) {
      displs[i] = i * blockSize * MAX_PROCESSES;
      recvCounts[i] = sendCount;
    }
    const counts = recvCounts.subarray(0, participants);
    const ds = displs.subarray(0, participants);
    for (let i = 0; i < participants; i++) {
      const sendbuf = i === rank ? mpi.IN_PLACE : table.subarray(beginRow * MAX_PROCESSES, beginRow * MAX_PROCESSES + sendCount);
      reqs[i] = mpi.gathervInit(sendbuf, i === rank ? table : null, i === rank ? counts : null, i === rank ? ds : null, i);
    }
    for (let iter = 0; iter < 10; iter++) {
      // paint my rows my color
      for (let i = beginRow; i < endRow; i++) for (let j = 0; j < MAX_PROCESSES; j++) table[i * MAX_PROCESSES + j] = rank + 10;
      // gather everybody's result together, sort of like an inefficient allgather
      for (let i = 0; i < participants; i++) {
        mpi.start(reqs[i]!);
        await mpi.wait(reqs[i]!);
      }
      // everybody should have the same table now: table[i][j] = (i / block_size) + 10
      for (let i = 0; i < MAX_PROCESSES; i++) if (table[i * MAX_PROCESSES]! - table[i * MAX_PROCESSES + MAX_PROCESSES - 1]! !== 0) errors++;
      for (let i = 0; i < MAX_PROCESSES; i++) {
        for (let j = 0; j < MAX_PROCESSES; j++) if (table[i * MAX_PROCESSES + j] !== Math.floor(i / blockSize) + 10) errors++;
      }
      if (errors) {
        // print the table if there are any errors
        for (let i = 0; i < MAX_PROCESSES; i++) mt.printf(Array.from(table.subarray(i * MAX_PROCESSES, (i + 1) * MAX_PROCESSES), (v) => `  ${v}`).join(''));
      }
    }
    for (let i = 0; i < participants; i++) mpi.requestFree(reqs[i]!);
  }
  return mt.finalize(errors);
}
