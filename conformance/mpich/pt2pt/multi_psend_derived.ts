// MPICH test/mpi/pt2pt/multi_psend_derived.c: a persistent send of a dup of MPI_INT (the dup freed
// right after MPI_Send_init) started 16 times against plain receives, then plain sends against a
// persistent MPI_ANY_SOURCE receive of such a dup; every value must arrive.
import type { MTest, MTestResult } from '../mtest.ts';

const ITER = 16;

export default async function multiPsendDerived(mt: MTest): Promise<MTestResult> {
  const { mpi } = mt;
  let errs = 0;
  const rank = mpi.rank;
  // MPI_Abort
  if (mpi.size !== 2) throw new Error('Launch with two processes');
  const v = Int32Array.of(1);
  // Test 1: Persistent send - Recv
  if (rank === 0) {
    const intDup = mpi.typeDup(mpi.INT);
    v[0] = 42;
    const req = mpi.sendInit(v, 1, intDup, 1, 0);
    mpi.typeFree(intDup);
    for (let i = 0; i < ITER; i++) {
      mpi.start(req);
      await mpi.wait(req);
    }
    mpi.requestFree(req);
  } else {
    for (let i = 0; i < ITER; i++) {
      v[0] = -1;
      await mpi.recv(v, 1, mpi.INT, 0, 0);
      if (v[0] !== 42) {
        errs++;
        mt.printf(`Psend-recv iteration ${i}: Expected 42 but got ${v[0]}`);
      }
    }
  }
  // Test 2: Send - Persistent recv (with ANY_SOURCE)
  if (rank === 0) {
    for (let i = 0; i < ITER; i++) {
      v[0] = i;
      await mpi.send(v, 1, mpi.INT, 1, 0);
    }
  } else {
    const intDup = mpi.typeDup(mpi.INT);
    const req = mpi.recvInit(v, 1, intDup, mpi.ANY_SOURCE, 0);
    mpi.typeFree(intDup);
    for (let i = 0; i < ITER; i++) {
      v[0] = -1;
      mpi.start(req);
      await mpi.wait(req);
      if (v[0] !== i) {
        errs++;
        mt.printf(`Send-precv(anysrc) iteration ${i}: Expected ${i} but got ${v[0]}`);
      }
    }
    mpi.requestFree(req);
  }
  return mt.finalize(errs);
}
