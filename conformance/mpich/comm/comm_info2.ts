// MPICH test/mpi/comm/comm_info2.c: the communicator info calls do not break: MPI_Comm_dup,
// MPI_Comm_set_info and MPI_Comm_get_info, a dup of a communicator with hints, MPI_Comm_dup_with_info
// with two keys and with MPI_INFO_NULL, and MPI_Comm_split_type with info. Nothing is expected of
// the hints themselves.
import type { MTest, MTestResult } from '../mtest.ts';

export default async function commInfo2(mt: MTest): Promise<MTestResult> {
  const { mpi } = mt;
  const errs = 0;
  const queryKey = 'arbitrary_key';
  const val = 'arbitrary_val';
  const rank = mpi.rank;

  // Test 1: comm_dup
  if (rank === 0) mt.printfMsg(1, 'Testing MPI_Comm_dup with a source comm that has default comm infohints');
  const comm = await mpi.dup();

  // Test 2: comm_set_info and comm_get_info
  if (rank === 0) mt.printfMsg(1, 'Testing MPI_Comm_set_info and MPI_Comm_get_info');
  const infoIn = mpi.infoCreate();
  infoIn.set(queryKey, val);
  comm.setInfo(infoIn);
  comm.getInfo().free();

  // Test 3: comm_dup after info is set in the source comm
  if (rank === 0) mt.printfMsg(1, 'Testing MPI_Comm_dup: source comm has user provided comm infohint');
  const commDup2 = await comm.dup();
  commDup2.getInfo().free();
  await commDup2.free();

  // Test 4: comm_dup_with_info with 2 hints
  if (rank === 0) mt.printfMsg(1, 'Testing MPI_Comm_dup_with_info');
  const infoIn3 = mpi.infoCreate();
  infoIn3.set(queryKey, val);
  infoIn3.set('arbitrary_key_2', 'arbitrary_value_2');
  const commDup3 = await comm.dupWithInfo(infoIn3);
  const infoOut3 = commDup3.getInfo();
  infoIn3.free();
  infoOut3.free();
  await commDup3.free();

  // Test 5: MPI_Comm_split_type
  const commSplit1 = (await mpi.splitType(mpi.COMM_TYPE_SHARED, 0, infoIn))!;
  commSplit1.getInfo().free();
  await commSplit1.free();

  // Test 6: comm_dup_with_info with MPI_INFO_NULL
  if (rank === 0) mt.printfMsg(1, 'Testing MPI_Comm_dup_with_info with MPI_INFO_NULL');
  const commDup4 = await comm.dupWithInfo(mpi.INFO_NULL);
  await commDup4.free();

  infoIn.free();
  await comm.free();
  return mt.finalize(errs);
}
