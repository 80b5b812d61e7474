// MPICH test/mpi/coll/longuser.c: a user-defined sum on 1 to 65,536 doubles (pipelining of
// reductions with user-defined operations).
import { userOp, type MTest, type MTestResult } from '../mtest.ts';

export default async function longuser(mt: MTest): Promise<MTestResult> {
  const { mpi } = mt;
  const rank = mpi.rank;
  const size = mpi.size;
  let errcnt = 0;
  const add = (invec: Float64Array, inoutvec: Float64Array, len: number): void => {
    for (let i = 0; i < len; i++) inoutvec[i] = invec[i]! + inoutvec[i]!;
  };
  const op = userOp(mpi, add, true);
  for (let bufsize = 1; bufsize < 100000; bufsize *= 2) {
    const inbuf = new Float64Array(bufsize).fill(rank & 0x1 ? 1.0 : -1.0);
    const outbuf = new Float64Array(bufsize).fill(100.0);
    await mpi.allreduce(inbuf, outbuf, op);
    const value = size & 0x1 ? -1.0 : 0.0;
    for (let i = 0; i < bufsize; i++) {
      if (outbuf[i] !== value) {
        if (errcnt < 10) mt.printf(`outbuf[${i}] = ${outbuf[i]}, should = ${value}`);
        errcnt++;
      }
    }
  }
  return mt.finalize(errcnt);
}
