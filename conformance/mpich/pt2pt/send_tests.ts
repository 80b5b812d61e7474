// MPICH test/mpi/pt2pt/send_tests.c: sends from rank 0 to ranks 1 and 2, small and large, with
// every combination of unexpected arrival, MPI_ANY_SOURCE, MPI_ANY_TAG and synchronous mode.
import type { MTest, MTestResult } from '../mtest.ts';
import type { Mpi, Request } from '../../../runtime/mpi/mpi.ts';

const MAX_SIZE = 10000;
const SMALL = 1;
const LARGE = 10000;
const TAG = 1234;
const IS_UNEXP = 0x1;
const IS_ANYSRC = 0x2;
const IS_ANYTAG = 0x4;
const IS_SSEND = 0x8;
const MAX_FLAG = 0xf;

export default async function sendTests(mt: MTest): Promise<MTestResult> {
  const comm = mt.mpi;
  let errs = 0;
  const buf = new Int32Array(MAX_SIZE);
  if (comm.size !== 3) {
    mt.printf('This test require at least 3 processes');
    return mt.finalize(errs);
  }
  const dstList = [1, 2];
  const cntList = [SMALL, LARGE];
  for (let i = 0; i < 2; i++) {
    for (let j = 0; j < 2; j++) {
      for (let flag = 0; flag <= MAX_FLAG; flag++) errs += await testSend(mt, comm, buf, comm.rank, 0, dstList[i]!, cntList[j]!, flag);
    }
  }
  return mt.finalize(errs);
}

async function testSend(mt: MTest, comm: Mpi, buf: Int32Array, rank: number, src: number, dst: number, count: number, flag: number): Promise<number> {
  let errs = 0;
  let req: Request;
  if (rank === src) {
    if (!(flag & IS_UNEXP)) await comm.barrier();
    if (flag & IS_SSEND) req = comm.issend(buf.subarray(0, count), dst, TAG);
    else req = comm.isend(buf.subarray(0, count), dst, TAG);
    if (flag & IS_UNEXP) await comm.barrier();
    await comm.wait(req);
  } else if (rank === dst) {
    if (flag & IS_UNEXP) await comm.barrier();
    const srcRank = flag & IS_ANYSRC ? comm.ANY_SOURCE : src;
    const tag = flag & IS_ANYTAG ? comm.ANY_TAG : TAG;
    req = comm.irecv(buf.subarray(0, count), srcRank, tag);
    if (!(flag & IS_UNEXP)) await comm.barrier();
    const status = await comm.wait(req);
    if (status.source !== src) {
      errs++;
      mt.printf(` - expect status.MPI_SOURCE ${src}, got ${status.source}`);
    }
    if (status.tag !== TAG) {
      errs++;
      mt.printf(` - expect status.MPI_TAG ${TAG}, got ${status.tag}`);
    }
  } else {
    await comm.barrier();
  }
  return errs;
}
