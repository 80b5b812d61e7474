// MPICH test/mpi/coll/coll2.c: a 10x10 table gathered to every rank in turn, the root's own rows
// in place (with -nonblocking, MPI_Igather and MPI_Wait).
import { mtestColl, type MTest, type MTestResult } from '../mtest.ts';

const MAX_PROCESSES = 10;

export default async function coll2(mt: MTest): Promise<MTestResult> {
  const { mpi } = mt;
  const isBlocking = !mt.argInt('nonblocking', 0);
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
    const sendCount = blockSize * MAX_PROCESSES;
    for (let i = beginRow; i < endRow; i++) for (let j = 0; j < MAX_PROCESSES; j++) table[i * MAX_PROCESSES + j] = rank + 10;
    // gather everybody's result together, sort of like an inefficient allgather
    for (let i = 0; i < participants; i++) {
      const sendbuf = i === rank ? mpi.IN_PLACE : table.subarray(beginRow * MAX_PROCESSES, beginRow * MAX_PROCESSES + sendCount);
      const recvbuf = i === rank ? table.subarray(0, sendCount * size) : null;
      await mtestColl(
        mpi,
        isBlocking,
        () => mpi.gather(sendbuf, recvbuf, i),
        () => mpi.igather(sendbuf, recvbuf, i),
      );
    }
    for (let i = 0; i < MAX_PROCESSES; i++) if (table[i * MAX_PROCESSES]! - table[i * MAX_PROCESSES + MAX_PROCESSES - 1]! !== 0) errors++;
  }
  return mt.finalize(errors);
}
