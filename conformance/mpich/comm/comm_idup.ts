// MPICH test/mpi/comm/comm_idup.c: MPI_Comm_idup of MPI_COMM_WORLD must not block (rank 0 posts
// its idup only after a synchronous send from every other rank, which each makes after its own
// idup), then the same on an intercommunicator of the even and odd ranks (the non-leaders
// ssend to the remote leader); each copy then carries an allreduce.
import type { MTest, MTestResult } from '../mtest.ts';
import type { Comm } from '../../../runtime/mpi/mpi.ts';

export default async function commIdup(mt: MTest): Promise<MTestResult> {
  const { mpi } = mt;
  let errs = 0;
  const check = (ok: boolean, what: string): void => {
    if (!ok) {
      ++errs;
      if (errs < 10) mt.printf(`check failed: (${what})`);
    }
  };
  const rank = mpi.rank;
  const size = mpi.size;
  if (size < 2) throw new Error('this test requires at least 2 processes');
  const buf = new Int32Array(2);
  // rank 0 waits in a blocking recv until every other rank has posted its idup, then posts last
  let newcomm: Comm;
  if (rank === 0) {
    for (let i = 1; i < size; ++i) {
      buf[0] = 0x01234567;
      buf[1] = 0x89abcdef | 0;
      await mpi.recv(buf, i, 0);
    }
    const r = mpi.idup();
    newcomm = r.comm;
    await mpi.wait(r.request);
  } else {
    const r = mpi.idup();
    newcomm = r.comm;
    buf[0] = rank;
    buf[1] = size + rank;
    await mpi.ssend(buf, 0, 0);
    await mpi.wait(r.request);
  }
  // some communication to make sure newcomm works
  buf[0] = rank;
  buf[1] = 0xfeedface | 0;
  const sum = new Int32Array(1);
  await newcomm.allreduce(buf.subarray(0, 1), sum, mpi.SUM);
  check(sum[0] === (size * (size - 1)) / 2, 'buf[1] == (size * (size - 1) / 2)');
  await newcomm.free();
  // an intercommunicator, dup'ed too
  const localcomm = (await mpi.split(rank % 2, rank))!;
  const ic = await localcomm.intercommCreate(0, mpi, rank === 0 ? 1 : 0, 1234);
  // a communicator on the right-hand group only, to stagger the context ids
  const staggerComm = rank % 2 ? await localcomm.dup() : null;
  const lrank = ic.rank;
  const lsize = ic.size;
  const rsize = ic.remoteSize;
  let icdup;
  if (lrank === 0) {
    for (let i = 1; i < rsize; ++i) {
      buf[0] = 0x01234567;
      buf[1] = 0x89abcdef | 0;
      await ic.recv(buf, i, 0);
    }
    const r = ic.idup();
    icdup = r.comm;
    await mpi.wait(r.request);
  } else {
    const r = ic.idup();
    icdup = r.comm;
    buf[0] = lrank;
    buf[1] = lsize + lrank;
    await ic.ssend(buf, 0, 0);
    await mpi.wait(r.request);
  }
  buf[0] = lrank;
  buf[1] = 0xfeedface | 0;
  await icdup.allreduce(buf.subarray(0, 1), sum, mpi.SUM);
  check(sum[0] === (rsize * (rsize - 1)) / 2, 'buf[1] == (rsize * (rsize - 1) / 2)');
  await localcomm.free();
  if (staggerComm) await staggerComm.free();
  await icdup.free();
  await ic.free();
  return mt.finalize(errs);
}
