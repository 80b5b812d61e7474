// MPICH test/mpi/pt2pt/rqfree.c: MPI_Request_free of Isend, Ibsend, Issend and Irsend requests (the
// messages still arrive) and of receives never waited on (allowed: MPI_Finalize completes them).
import type { MTest, MTestResult } from '../mtest.ts';
import { BSEND_OVERHEAD, type Request } from '../../../runtime/mpi/mpi.ts';

const LARGE = 10000;

export default async function rqfree(mt: MTest): Promise<MTestResult> {
  const { mpi } = mt;
  const comm = mpi.COMM_WORLD;
  const dest: number = 1;
  const src: number = 0;
  const tag = 1;
  let errs = 0;
  const rank = mpi.rank;
  const size = mpi.size;
  if (src >= size || dest >= size) throw new Error(`This program requires ${Math.max(src, dest) - 1} processes`);
  const largeBuf = new Int32Array(LARGE);
  if (rank === src) {
    await mpi.barrier();
    const s1 = mpi.packSize(5, mpi.INT);
    const bufsize = BSEND_OVERHEAD + s1 + 2000;
    comm.bufferAttach(bufsize);
    const smsg = new Int32Array(5);
    // MPI_Request_free(&r) frees the request and sets r to MPI_REQUEST_NULL
    const freeAndCheck = (q: Request): void => {
      mpi.requestFree(q);
      const r: Request = mpi.REQUEST_NULL;
      if (r !== mpi.REQUEST_NULL) {
        errs++;
        mt.printf('Request not set to NULL after request free');
      }
    };
    mt.printfMsg(10, 'About create and free Isend request');
    smsg[0] = 10;
    freeAndCheck(comm.isend(smsg.subarray(0, 1), dest, tag));
    mt.printfMsg(10, 'About create and free Ibsend request');
    smsg[1] = 11;
    freeAndCheck(comm.ibsend(smsg.subarray(1, 2), dest, tag + 1));
    mt.printfMsg(10, 'About create and free Issend request');
    smsg[2] = 12;
    freeAndCheck(comm.issend(smsg.subarray(2, 3), dest, tag + 2));
    mt.printfMsg(10, 'About create and free Irsend request');
    smsg[3] = 13;
    freeAndCheck(comm.irsend(smsg.subarray(3, 4), dest, tag + 3));
    smsg[4] = 14;
    let r = comm.isend(smsg.subarray(4, 5), dest, tag + 4);
    await mpi.wait(r);
    // we can't guarantee that messages arrive until the detach
    await comm.bufferDetach();
    // a large message that may need a handshake (rendezvous)
    r = comm.isend(largeBuf, dest, tag + 5);
    await mpi.wait(r);
  }
  if (rank === dest) {
    const rmsg = new Int32Array(6);
    const r: Request[] = [];
    for (let i = 0; i < 5; i++) r[i] = comm.irecv(rmsg.subarray(i, i + 1), src, tag + i);
    r[5] = comm.irecv(largeBuf, src, tag + 5);
    if (rank !== src) await mpi.barrier();
    for (let i = 0; i < 4; i++) {
      await mpi.wait(r[i]!);
      if (rmsg[i] !== 10 + i) {
        errs++;
        mt.printf(`message ${i} (${rmsg[i]}) should be ${10 + i}`);
      }
    }
    // freeing a request without completing it is allowed (MPI Forum, 2021)
    mt.printfMsg(10, 'About  free Irecv request');
    mpi.requestFree(r[4]!);
    mpi.requestFree(r[5]!);
  }
  if (rank !== dest && rank !== src) await mpi.barrier();
  return mt.finalize(errs);
}
