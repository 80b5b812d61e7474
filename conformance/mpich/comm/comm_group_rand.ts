// MPICH test/mpi/comm/comm_group_rand.c: 100 random subsets of world (C's rand(), seeded with the
// loop count) make communicators with MPI_Comm_create_group.
import { CRand, type MTest, type MTestResult } from '../mtest.ts';

const LOOPS = 100;

export default async function commGroupRand(mt: MTest): Promise<MTestResult> {
  const { mpi } = mt;
  const rank = mpi.rank;
  const size = mpi.size;
  const fullGroup = mpi.group;
  for (let j = 0; j < LOOPS; j++) {
    // deterministic seed
    const c = new CRand(j);
    const ranks: number[] = [];
    const included: boolean[] = [];
    for (let i = 0; i < size; i++) {
      included[i] = c.rand() % 2 === 1;
      if (included[i]) ranks.push(i);
    }
    const subGroup = fullGroup.incl(ranks);
    if (included[rank]) {
      const comm = await mpi.createGroup(subGroup, 0);
      await comm.barrier();
      await comm.free();
    }
  }
  return mt.finalize(0);
}
