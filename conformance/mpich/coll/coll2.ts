// MPICH test/mpi/coll/coll2.c: a 10x10 table gathered to every rank in turn, the root's own rows
// in place (with -nonblocking, as MPI_Igather).
import { inPlace, type MTest, type MTestResult } from '../mtest.ts';

const MAX_PROCESSES = 10;

export default async function coll2(mt: MTest): Promise<MTestResult> {
  const { mpi } = mt;
  if (mt.argInt('nonblocking', 0)) throw new Error('needs MPI_Igather (nonblocking collectives)');
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
      const sendbuf = i === rank ? inPlace(mpi) : table.subarray(beginRow * MAX_PROCESSES, beginRow * MAX_PROCESSES + sendCount);
      await mpi.gather(sendbuf, i === rank ? table.subarray(0, sendCount * size) : null, i);
    }
    for (let i = 0; i < MAX_PROCESSES; i++) if (table[i * MAX_PROCESSES]! - table[i * MAX_PROCESSES + MAX_PROCESSES - 1]! !== 0) errors++;
  }
  return mt.finalize(errors);
}
