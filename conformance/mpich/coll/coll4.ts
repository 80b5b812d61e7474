// MPICH test/mpi/coll/coll4.c: MPI_Scatter of a 10x10 table's rows from rank 0.
import type { MTest, MTestResult } from '../mtest.ts';

const MAX_PROCESSES = 10;

export default async function coll4(mt: MTest): Promise<MTestResult> {
  const { mpi } = mt;
  const rank = mpi.rank;
  const size = mpi.size;
  const table = new Int32Array(MAX_PROCESSES * MAX_PROCESSES);
  const row = new Int32Array(MAX_PROCESSES);
  let errors = 0;
  let participants: number;
  let comm;
  if (size > MAX_PROCESSES) {
    participants = MAX_PROCESSES;
    comm = (await mpi.split(rank < MAX_PROCESSES ? 1 : 0, rank))!;
  } else {
    participants = size;
    comm = await mpi.dup();
  }
  if (rank < participants) {
    if (rank === 0) for (let i = 0; i < participants; i++) for (let j = 0; j < MAX_PROCESSES; j++) table[i * MAX_PROCESSES + j] = i + j;
    await comm.scatter(rank === 0 ? table.subarray(0, MAX_PROCESSES * comm.size) : null, row, 0);
    for (let i = 0; i < MAX_PROCESSES; i++) if (row[i] !== i + rank) errors++;
  }
  await comm.free();
  return mt.finalize(errors);
}
