// MPICH test/mpi/coll/coll12.c: MPI_MAXLOC (MPI_Reduce + MPI_Bcast) and MPI_MINLOC
// (MPI_Allreduce) on MPI_DOUBLE_INT pairs (interleaved (value, index) doubles here).
import type { MTest, MTestResult } from '../mtest.ts';

const TABLE_SIZE = 2;

export default async function coll12(mt: MTest): Promise<MTestResult> {
  const { mpi } = mt;
  const rank = mpi.rank;
  const size = mpi.size;
  let errors = 0;
  const a = new Float64Array(TABLE_SIZE);
  const inp = new Float64Array(2 * TABLE_SIZE);
  const out = new Float64Array(2 * TABLE_SIZE);
  const fill = (v: number): void => {
    a.fill(0);
    for (let i = rank; i < TABLE_SIZE; i++) a[i] = v;
    for (let i = 0; i < TABLE_SIZE; i++) {
      inp[2 * i] = a[i]!;
      inp[2 * i + 1] = rank;
    }
  };
  fill(rank + 1.0);
  await mpi.reduce(inp, out, mpi.MAXLOC, 0);
  await mpi.bcast(out, 0);
  for (let i = 0; i < TABLE_SIZE; i++) {
    if (i % size === rank && out[2 * i + 1] !== rank) {
      mt.printf(`MAX (ranks[${i}] = ${out[2 * i + 1]} != ${rank}`);
      errors++;
    }
  }
  fill(-rank - 1.0);
  await mpi.allreduce(inp, out, mpi.MINLOC);
  for (let i = 0; i < TABLE_SIZE; i++) {
    if (i % size === rank && out[2 * i + 1] !== rank) {
      mt.printf(`MIN (ranks[${i}] = ${out[2 * i + 1]} != ${rank}`);
      errors++;
    }
  }
  return mt.finalize(errors);
}
