// MPICH test/mpi/comm/cmsplit2.c: MPI_Comm_split breaks ties in key values by the rank in the input
// communicator (a stable sort), for every communicator size 1 .. size(world) and key modulus.
import type { MTest, MTestResult } from '../mtest.ts';

const ERRLIMIT = 10;

export default async function cmsplit2(mt: MTest): Promise<MTestResult> {
  const { mpi } = mt;
  let errs = 0;
  const myAssert = (cond: boolean, what: string): void => {
    if (!cond) {
      if (errs < ERRLIMIT) mt.printf(`assertion "${what}" failed`);
      ++errs;
    }
  };
  const wrank = mpi.rank;
  const wsize = mpi.size;
  const identity: number[] = [];
  for (let i = 0; i < wsize; ++i) identity[i] = i;
  for (let cs = 1; cs <= wsize; ++cs) {
    const comm = await mpi.split(wrank < cs ? 0 : mpi.UNDEFINED, wrank);
    if (comm === null) continue;
    const rank = comm.rank;
    const size = comm.size;
    for (let modulus = 1; modulus <= size; ++modulus) {
      // ranks fall into modulus classes: the output is ordered by class, then by world rank
      const key = rank % modulus;
      const splitcomm = (await comm.split(5, key))!;
      myAssert(splitcomm.size === size, 'newsize == size');
      const wgroup = mpi.group;
      const newgroup = splitcomm.group;
      const oldranks = newgroup.translateRanks(identity.slice(0, size), wgroup);
      await splitcomm.free();
      if (rank === 0) {
        let pos = 0;
        for (let i = 0; i < modulus; ++i) {
          for (let j = 0; j < Math.trunc(size / modulus) + (i < size % modulus ? 1 : 0); ++j) {
            if (errs < ERRLIMIT && oldranks[pos] !== i + modulus * j) {
              mt.printf(`size=${size} i=${i} j=${j} modulus=${modulus} pos=${pos} i+modulus*j=${i + modulus * j} oldranks[pos]=${oldranks[pos]}`);
            }
            myAssert(oldranks[pos] === i + modulus * j, 'oldranks[pos] == i + modulus * j');
            ++pos;
          }
        }
      }
    }
    await comm.free();
  }
  return mt.finalize(errs);
}
