// MPICH test/mpi/comm/commcreate1.c: communicators from various subsets of world and of a dup of
// world (MPI_Group_range_incl: the odd ranks by a negative stride, the high half, the even ranks),
// disjoint groups in one MPI_Comm_create call (MPI 2.2), and MPI_GROUP_EMPTY (an empty group here).
import type { MTest, MTestResult } from '../mtest.ts';
import type { Comm, Group } from '../../../runtime/mpi/mpi.ts';

export default async function commcreate1(mt: MTest): Promise<MTestResult> {
  const { mpi } = mt;
  let errs = 0;
  const wsize = mpi.size;
  const wrank = mpi.rank;
  const wGroup = mpi.group;
  mt.printfMsg(2, 'Creating groups');
  const godd = wGroup.rangeIncl([[2 * Math.floor(wsize / 2) - 1, 1, -2]]);
  if (godd.size !== Math.floor(wsize / 2)) {
    mt.printf(`Group godd size is ${godd.size} should be ${Math.floor(wsize / 2)}`);
    errs++;
  }
  const ghigh = wGroup.rangeIncl([[Math.floor(wsize / 2) + 1, wsize - 1, 1]]);
  const geven = wGroup.rangeIncl([[0, wsize - 1, 2]]);
  const groupEmpty = wGroup.incl([]);
  const dupWorld = await mpi.dup();
  dupWorld.setName('Dup of world');

  const buildComm = async (oldcomm: Comm, group: Group, gname: string): Promise<number> => {
    let e = 0;
    const grank = group.rank;
    const gsize = group.size;
    mt.printfMsg(2, `Testing comm ${oldcomm.getName()} from ${gname}`);
    const newcomm = await oldcomm.create(group);
    if (newcomm === null && grank !== mpi.UNDEFINED) {
      e++;
      mt.printf('newcomm is null but process is in group');
    }
    if (newcomm !== null && grank === mpi.UNDEFINED) {
      e++;
      mt.printf('newcomm is not null but process is not in group');
    }
    if (newcomm !== null && grank !== mpi.UNDEFINED) {
      if (newcomm.rank !== grank) {
        e++;
        mt.printf(`Rank is ${newcomm.rank} should be ${grank} in comm from ${gname}`);
      }
      if (newcomm.size !== gsize) {
        e++;
        mt.printf(`Size is ${newcomm.size} should be ${gsize} in comm from ${gname}`);
      }
      await newcomm.free();
    }
    return e;
  };

  errs += await buildComm(mpi, ghigh, 'ghigh');
  errs += await buildComm(mpi, godd, 'godd');
  errs += await buildComm(mpi, geven, 'geven');
  errs += await buildComm(dupWorld, ghigh, 'ghigh');
  errs += await buildComm(dupWorld, godd, 'godd');
  errs += await buildComm(dupWorld, geven, 'geven');
  // several communicators from one MPI_Comm_create call, the groups disjoint (MPI 2.2)
  errs += await buildComm(mpi, wrank % 2 ? godd : geven, 'godd+geven');
  errs += await buildComm(dupWorld, wrank % 2 ? godd : geven, 'godd+geven');
  errs += await buildComm(mpi, groupEmpty, 'MPI_GROUP_EMPTY');
  errs += await buildComm(dupWorld, groupEmpty, 'MPI_GROUP_EMPTY');
  await dupWorld.free();
  return mt.finalize(errs);
}
