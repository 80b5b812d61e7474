// MPICH test/mpi/coll/nonblocking.c: every nonblocking collective in its (buffer, count, datatype)
// form, each also with MPI_IN_PLACE where MPI allows it, started and waited in turn; only that
// they complete is checked. With MPI_IN_PLACE the C test passes count -1 and MPI_DATATYPE_NULL
// (ignored): phit has no null datatype, MPI_INT stands for it, and its long forms' types do not
// take MPI_IN_PLACE, so it is cast. MPI_Ialltoallw's displacements are bytes, as in C (i * 2).
import type { MTest, MTestResult } from '../mtest.ts';
import type { Datatype, Request } from '../../../runtime/mpi/mpi.ts';

const NUM_INTS = 2;

export default async function nonblocking(mt: MTest): Promise<MTestResult> {
  const { mpi } = mt;
  const errs = 0;
  const comm = mpi;
  const size = comm.size;
  const rank = comm.rank;
  // enough space for every process to contribute at least NUM_INTS ints to any collective
  const sbuf = new Int32Array(NUM_INTS * size);
  const rbuf = new Int32Array(NUM_INTS * size);
  const scounts = new Int32Array(size);
  const rcounts = new Int32Array(size);
  const sdispls = new Int32Array(size);
  const rdispls = new Int32Array(size);
  const types: Datatype[] = [];
  for (let i = 0; i < size; ++i) {
    sbuf[2 * i] = i;
    sbuf[2 * i + 1] = i;
    rbuf[2 * i] = i;
    rbuf[2 * i + 1] = i;
    scounts[i] = NUM_INTS;
    rcounts[i] = NUM_INTS;
    sdispls[i] = i * NUM_INTS;
    rdispls[i] = i * NUM_INTS;
    types[i] = mpi.INT;
  }
  const INT = mpi.INT;
  const SUM = mpi.SUM;
  const IN_PLACE = mpi.IN_PLACE as unknown as Int32Array;
  const DATATYPE_NULL = mpi.INT;
  const wait = async (req: Request): Promise<void> => {
    await mpi.wait(req);
  };

  await wait(comm.ibarrier());
  await wait(comm.ibcast(sbuf, NUM_INTS, INT, 0));
  await wait(comm.igather(sbuf, NUM_INTS, INT, rbuf, NUM_INTS, INT, 0));
  if (rank === 0) await wait(comm.igather(IN_PLACE, -1, DATATYPE_NULL, rbuf, NUM_INTS, INT, 0));
  else await wait(comm.igather(sbuf, NUM_INTS, INT, rbuf, NUM_INTS, INT, 0));
  await wait(comm.igatherv(sbuf, NUM_INTS, INT, rbuf, rcounts, rdispls, INT, 0));
  if (rank === 0) await wait(comm.igatherv(IN_PLACE, -1, DATATYPE_NULL, rbuf, rcounts, rdispls, INT, 0));
  else await wait(comm.igatherv(sbuf, NUM_INTS, INT, rbuf, rcounts, rdispls, INT, 0));
  await wait(comm.iscatter(sbuf, NUM_INTS, INT, rbuf, NUM_INTS, INT, 0));
  if (rank === 0) await wait(comm.iscatter(sbuf, NUM_INTS, INT, IN_PLACE, -1, DATATYPE_NULL, 0));
  else await wait(comm.iscatter(sbuf, NUM_INTS, INT, rbuf, NUM_INTS, INT, 0));
  await wait(comm.iscatterv(sbuf, scounts, sdispls, INT, rbuf, NUM_INTS, INT, 0));
  if (rank === 0) await wait(comm.iscatterv(sbuf, scounts, sdispls, INT, IN_PLACE, -1, DATATYPE_NULL, 0));
  else await wait(comm.iscatterv(sbuf, scounts, sdispls, INT, rbuf, NUM_INTS, INT, 0));
  await wait(comm.iallgather(sbuf, NUM_INTS, INT, rbuf, NUM_INTS, INT));
  await wait(comm.iallgather(IN_PLACE, -1, DATATYPE_NULL, rbuf, NUM_INTS, INT));
  await wait(comm.iallgatherv(sbuf, NUM_INTS, INT, rbuf, rcounts, rdispls, INT));
  await wait(comm.iallgatherv(IN_PLACE, -1, DATATYPE_NULL, rbuf, rcounts, rdispls, INT));
  await wait(comm.ialltoall(sbuf, NUM_INTS, INT, rbuf, NUM_INTS, INT));
  await wait(comm.ialltoall(IN_PLACE, -1, DATATYPE_NULL, rbuf, NUM_INTS, INT));
  await wait(comm.ialltoallv(sbuf, scounts, sdispls, INT, rbuf, rcounts, rdispls, INT));
  await wait(comm.ialltoallv(IN_PLACE, null as unknown as Int32Array, null as unknown as Int32Array, DATATYPE_NULL, rbuf, rcounts, rdispls, INT));
  await wait(comm.ialltoallw(sbuf, scounts, sdispls, types, rbuf, rcounts, rdispls, types));
  await wait(comm.ialltoallw(IN_PLACE, null as unknown as Int32Array, null as unknown as Int32Array, null as unknown as Datatype[], rbuf, rcounts, rdispls, types));
  await wait(comm.ireduce(sbuf, rbuf, NUM_INTS, INT, SUM, 0));
  if (rank === 0) await wait(comm.ireduce(IN_PLACE, rbuf, NUM_INTS, INT, SUM, 0));
  else await wait(comm.ireduce(sbuf, rbuf, NUM_INTS, INT, SUM, 0));
  await wait(comm.iallreduce(sbuf, rbuf, NUM_INTS, INT, SUM));
  await wait(comm.iallreduce(IN_PLACE, rbuf, NUM_INTS, INT, SUM));
  await wait(comm.ireduceScatter(sbuf, rbuf, rcounts, INT, SUM));
  await wait(comm.ireduceScatter(IN_PLACE, rbuf, rcounts, INT, SUM));
  await wait(comm.ireduceScatterBlock(sbuf, rbuf, NUM_INTS, INT, SUM));
  await wait(comm.ireduceScatterBlock(IN_PLACE, rbuf, NUM_INTS, INT, SUM));
  await wait(comm.iscan(sbuf, rbuf, NUM_INTS, INT, SUM));
  await wait(comm.iscan(IN_PLACE, rbuf, NUM_INTS, INT, SUM));
  await wait(comm.iexscan(sbuf, rbuf, NUM_INTS, INT, SUM));
  await wait(comm.iexscan(IN_PLACE, rbuf, NUM_INTS, INT, SUM));
  return mt.finalize(errs);
}
