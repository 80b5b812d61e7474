// MPICH test/mpi/comm/comm_idup_iallreduce.c: MPI_Comm_idup overlapped with MPI_Iallreduce in nine
// scenarios: idup of MPI_COMM_WORLD with an iallreduce on it (once, then ten at a time); idup of a
// dup while reducing on MPI_COMM_WORLD, rank 0 starting them in the other order; the same with the
// even/odd split; idup of the split's intercommunicator while reducing on it and while reducing on
// the split; idup of the merged intercommunicator while reducing on MPI_COMM_WORLD, and reducing on
// it while duplicating MPI_COMM_WORLD (whose result the original does not check). Every copy is
// tested with MTestTestComm.
import type { MTest, MTestResult } from '../mtest.ts';
import type { Comm, InterComm, Request } from '../../../runtime/mpi/mpi.ts';

const ITERS = 10;

export default async function commIdupIallreduce(mt: MTest): Promise<MTestResult> {
  const { mpi } = mt;
  let errs = 0;
  const rank = mpi.rank;
  const size = mpi.size;
  if (size < 2) throw new Error('this test requires at least 2 processes');
  const inn = Int32Array.of(1);
  const out = new Int32Array(1);
  let sol = size;
  /** Starts `first` then `second` (or the other way round when `swap`), waits for both; returns the idup's copy. */
  const both = async (swap: boolean, reduce: () => Request, idup: () => { comm: Comm | InterComm; request: Request }): Promise<Comm | InterComm> => {
    let r: Request;
    let d: { comm: Comm | InterComm; request: Request };
    if (swap) {
      d = idup();
      r = reduce();
    } else {
      r = reduce();
      d = idup();
    }
    await mpi.waitAll([r, d.request]);
    return d.comm;
  };
  let newcomm = await both(true, () => mpi.iallreduce(inn, out, mpi.SUM), () => mpi.idup());
  if (sol !== out[0]) errs++;
  errs += await mt.testComm(newcomm);
  await newcomm.free();
  // ten at a time
  const sreq: Request[] = new Array<Request>(2 * ITERS);
  const newcommV: Comm[] = [];
  for (let i = 0; i < ITERS; i++) {
    const d = mpi.idup();
    newcommV.push(d.comm);
    sreq[i] = d.request;
    sreq[i + ITERS] = mpi.iallreduce(inn, out, mpi.SUM);
  }
  await mpi.waitAll(sreq);
  for (let i = 0; i < ITERS; i++) {
    errs += await mt.testComm(newcommV[i]!);
    await newcommV[i]!.free();
  }
  // idup of a dup while reducing on MPI_COMM_WORLD
  const dupComm = await mpi.dup();
  newcomm = await both(rank !== 0, () => mpi.iallreduce(inn, out, mpi.SUM), () => dupComm.idup());
  if (sol !== out[0]) errs++;
  errs += await mt.testComm(newcomm);
  await newcomm.free();
  await dupComm.free();
  // the even/odd split
  const split = (await mpi.split(rank % 2, rank))!;
  const lrank = split.rank;
  const lsize = split.size;
  sol = lsize;
  newcomm = await both(lrank !== 0, () => split.iallreduce(inn, out, mpi.SUM), () => mpi.idup());
  if (sol !== out[0]) errs++;
  errs += await mt.testComm(newcomm);
  await newcomm.free();
  sol = size;
  newcomm = await both(lrank !== 0, () => mpi.iallreduce(inn, out, mpi.SUM), () => split.idup());
  if (sol !== out[0]) errs++;
  errs += await mt.testComm(newcomm);
  await newcomm.free();
  // the split's intercommunicator
  const ic = await split.intercommCreate(0, mpi, rank === 0 ? 1 : 0, 1234);
  const rsize = ic.remoteSize;
  sol = rsize;
  newcomm = await both(true, () => ic.iallreduce(inn, out, mpi.SUM), () => ic.idup());
  if (sol !== out[0]) errs++;
  errs += await mt.testComm(newcomm);
  await newcomm.free();
  sol = lsize;
  newcomm = await both(lrank !== 0, () => split.iallreduce(inn, out, mpi.SUM), () => ic.idup());
  if (sol !== out[0]) errs++;
  errs += await mt.testComm(newcomm);
  await newcomm.free();
  // the merged intercommunicator
  const merge = await ic.intercommMerge(rank % 2 === 1);
  sol = size;
  newcomm = await both(rank !== 0, () => mpi.iallreduce(inn, out, mpi.SUM), () => merge.idup());
  if (sol !== out[0]) errs++;
  errs += await mt.testComm(newcomm);
  await newcomm.free();
  // the original sets sol to the merged size here and does not check the reduction
  newcomm = await both(rank !== 0, () => merge.iallreduce(inn, out, mpi.SUM), () => mpi.idup());
  await merge.free();
  await newcomm.free();
  await split.free();
  await ic.free();
  return mt.finalize(errs);
}
