// MPICH test/mpi/rma/reqops.c: the request-based RMA calls (MPI_Rput, MPI_Rget, MPI_Raccumulate,
// MPI_Rget_accumulate): to MPI_PROC_NULL; in a token ring where each rank in turn swaps its rank
// into rank 0's int (Rget_accumulate, Rget + Put + flush, Rget + Accumulate + flush) and gets the
// previous rank's; and with the requests waited for inside the epoch, after it, in a later epoch
// and in a fence epoch.
import type { Request } from '../../../runtime/mpi/mpi.ts';
import type { MTest, MTestResult } from '../mtest.ts';
import { assert } from '../mtest.ts';

const ITER = 100;

export default async function reqops(mt: MTest): Promise<MTestResult> {
  const { mpi } = mt;
  let errors = 0;
  const rank = mpi.rank;
  const nproc = mpi.size;
  if (nproc < 2) throw new Error('Error: must be run with two or more processes');
  // create using MPI_Win_create()
  let buf: Int32Array | null = null;
  let mem: Uint8Array | null = null;
  if (rank === 0) {
    mem = mpi.allocMem(4 * 4, mpi.INFO_NULL);
    buf = new Int32Array(mem.buffer, mem.byteOffset, 4);
    buf[0] = nproc - 1;
  }
  const window = await mpi.winCreate(buf ?? new Int32Array(0), 4, mpi.INFO_NULL);
  const myRank = Int32Array.of(rank);

  /** The four request-based calls to `target`, element i of val to displacement i. */
  const fourOps = async (target: number, val: Int32Array, res: Int32Array): Promise<Request[]> => {
    const req = [
      await window.rgetAccumulate(val.subarray(0), 1, mpi.INT, res, 1, mpi.INT, target, 0, 1, mpi.INT, mpi.REPLACE),
      await window.rget(val.subarray(1), 1, mpi.INT, target, 1, 1, mpi.INT),
      await window.rput(val.subarray(2), 1, mpi.INT, target, 2, 1, mpi.INT),
      await window.raccumulate(val.subarray(3), 1, mpi.INT, target, 3, 1, mpi.INT, mpi.REPLACE),
    ];
    for (let i = 0; i < 4; i++) assert(req[i] !== undefined && req[i] !== null, `pn_req[${i}] != MPI_REQUEST_NULL`);
    return req;
  };

  /** Token ring through rank 0's window: wait for the left neighbour, run `body`, check, pass on. */
  const ring = async (body: (val: Int32Array) => Promise<void>): Promise<void> => {
    for (let i = 0; i < ITER; i++) {
      const val = Int32Array.of(-1);
      if (rank > 0) await mpi.recv(new Uint8Array(0), 0, mpi.BYTE, rank - 1, 0);
      await body(val);
      const exp = (rank + nproc - 1) % nproc;
      if (val[0] !== exp) {
        mt.printf(`${rank} - Got ${val[0]}, expected ${exp}`);
        errors++;
      }
      if (rank < nproc - 1) await mpi.send(new Uint8Array(0), 0, mpi.BYTE, rank + 1, 0);
      await mpi.barrier();
    }
  };

  // PROC_NULL communication
  {
    const val = new Int32Array(4);
    const res = new Int32Array(1);
    await window.lockAll(0);
    const pnReq = await fourOps(mpi.PROC_NULL, val, res);
    await window.unlockAll();
    await mpi.waitAll(pnReq);
  }
  await mpi.barrier();
  await window.lock(mpi.LOCK_SHARED, 0, 0);
  // GET-ACC: third-party communication, through rank 0
  await ring(async (val) => {
    const gaccReq = await window.rgetAccumulate(myRank, 1, mpi.INT, val, 1, mpi.INT, 0, 0, 1, mpi.INT, mpi.REPLACE);
    await gaccReq.wait();
  });
  await mpi.barrier();
  if (rank === 0) buf![0] = nproc - 1;
  await window.sync();
  // GET+PUT: third-party communication, through rank 0; flush for remote completion
  await ring(async (val) => {
    const req = await window.rget(val, 1, mpi.INT, 0, 0, 1, mpi.INT);
    await req.wait();
    await window.put(myRank, 1, mpi.INT, 0, 0, 1, mpi.INT);
    await window.flush(0);
  });
  await mpi.barrier();
  if (rank === 0) buf![0] = nproc - 1;
  await window.sync();
  // GET+ACC: third-party communication, through rank 0; flush for remote completion
  await ring(async (val) => {
    const req = await window.rget(val, 1, mpi.INT, 0, 0, 1, mpi.INT);
    await req.wait();
    await window.accumulate(myRank, 1, mpi.INT, 0, 0, 1, mpi.INT, mpi.REPLACE);
    await window.flush(0);
  });
  await window.unlock(0);
  await mpi.barrier();
  const target = 0;
  // wait inside of an epoch
  {
    await window.lockAll(0);
    const pnReq = await fourOps(target, new Int32Array(4), new Int32Array(1));
    await mpi.waitAll(pnReq);
    await window.unlockAll();
  }
  await mpi.barrier();
  // wait outside of an epoch
  {
    await window.lockAll(0);
    const pnReq = await fourOps(target, new Int32Array(4), new Int32Array(1));
    await window.unlockAll();
    await mpi.waitAll(pnReq);
  }
  // wait in a different epoch
  {
    await window.lockAll(0);
    const pnReq = await fourOps(target, new Int32Array(4), new Int32Array(1));
    await window.unlockAll();
    await window.lockAll(0);
    await mpi.waitAll(pnReq);
    await window.unlockAll();
  }
  // wait in a fence epoch
  {
    await window.lockAll(0);
    const pnReq = await fourOps(target, new Int32Array(4), new Int32Array(1));
    await window.unlockAll();
    await window.fence(0);
    await mpi.waitAll(pnReq);
    await window.fence(0);
  }
  await window.free();
  if (mem) mpi.freeMem(mem);
  return mt.finalize(errors);
}
