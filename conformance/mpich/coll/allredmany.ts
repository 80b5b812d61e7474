// MPICH test/mpi/coll/allredmany.c: 10,000 allreduces in a row (a flood of one-way messages).
import type { MTest, MTestResult } from '../mtest.ts';

export default async function allredmany(mt: MTest): Promise<MTestResult> {
  const { mpi } = mt;
  const wscale = Float64Array.of(10.0);
  const scale = new Float64Array(1);
  for (let i = 0; i < 10000; i++) await mpi.allreduce(wscale, scale, mpi.SUM);
  return mt.finalize(0);
}
