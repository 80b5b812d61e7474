// MPICH test/mpi/pt2pt/issendselfcancel.c: an issend to self found by MPI_Probe, cancelled and freed
// (the request is not MPI_REQUEST_NULL after the cancel), then a receive cancelled and waited on.
import { assert, type MTest, type MTestResult } from '../mtest.ts';

export default async function issendselfcancel(mt: MTest): Promise<MTestResult> {
  const { mpi } = mt;
  const self = mpi.COMM_SELF;
  let req = self.issend(new Uint8Array(0), 0, 123);
  const status = await self.probe(mpi.ANY_SOURCE, mpi.ANY_TAG);
  assert(status.source === 0, 'status.MPI_SOURCE == 0');
  assert(status.tag === 123, 'status.MPI_TAG == 123');
  self.cancel(req);
  assert(req !== mpi.REQUEST_NULL, 'req != MPI_REQUEST_NULL');
  self.requestFree(req);
  req = self.irecv(new Uint8Array(0), 0, 123);
  self.cancel(req);
  await self.wait(req);
  return mt.finalize(0);
}
