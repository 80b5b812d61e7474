// MPICH test/mpi/pt2pt/probe_unexp.c: MPI_Probe must return when an unexpected message arrives
// after the probe was called (MPICH req #375), for messages of 1 B to 4 MiB, over MTest's
// intracommunicators. (MPI_ERRORS_RETURN is set only to report failures, which here end the run.)
import type { MTest, MTestResult } from '../mtest.ts';

const MAX_BUF_SIZE_LG = 22;
const NUM_MSGS_PER_BUF_SIZE = 5;

export default async function probeUnexp(mt: MTest): Promise<MTestResult> {
  const { mpi } = mt;
  let errs = 0;
  const buf = new Uint8Array(1 << MAX_BUF_SIZE_LG);
  for await (const comm of mt.intracomms(2, true)) {
    if (!comm) continue;
    const pSize = comm.size;
    const pRank = comm.rank;
    for (let msgSizeLg = 0; msgSizeLg <= MAX_BUF_SIZE_LG; msgSizeLg++) {
      const msgSize = 1 << msgSizeLg;
      for (let msgCnt = 0; msgCnt < NUM_MSGS_PER_BUF_SIZE; msgCnt++) {
        const tag = msgSizeLg * NUM_MSGS_PER_BUF_SIZE + msgCnt;
        if (pRank === 0) {
          for (let p = 1; p < pSize; p++) {
            // wait for the synchronization message
            const status = await comm.recv(new Uint8Array(0), mpi.ANY_SOURCE, tag);
            if (status.tag !== tag && errs++ < 10) mt.printf(`ERROR: unexpected message tag from MPI_Recv(): lp=0, rp=${status.source}, expected=${status.tag}, actual=${tag}, count=${msgCnt}`);
            // send an unexpected message which MPI_Probe() is hopefully already waiting for
            await comm.send(buf.subarray(0, msgSize), status.source, status.tag);
          }
        } else {
          // send the synchronization message
          await comm.send(new Uint8Array(0), 0, tag);
          // probe, hopefully before the main process can send its reply
          let status = await comm.probe(mpi.ANY_SOURCE, mpi.ANY_TAG);
          let incomingMsgSize = status.count;
          if (status.source !== 0 && errs++ < 10) mt.printf(`ERROR: unexpected message source from MPI_Probe(): p=${pRank}, expected=0, actual=${status.source}, count=${msgCnt}`);
          if (status.tag !== tag && errs++ < 10) mt.printf(`ERROR: unexpected message tag from MPI_Probe(): p=${pRank}, expected=${tag}, actual=${status.tag}, count=${msgCnt}`);
          if (incomingMsgSize !== msgSize && errs++ < 10) mt.printf(`ERROR: unexpected message size from MPI_Probe(): p=${pRank}, expected=${msgSize}, actual=${incomingMsgSize}, count=${msgCnt}`);
          // receive the probed message from the main process
          status = await comm.recv(buf.subarray(0, msgSize), 0, tag);
          incomingMsgSize = status.count;
          if (status.source !== 0 && errs++ < 10) mt.printf(`ERROR: unexpected message source from MPI_Recv(): p=${pRank}, expected=0, actual=${status.source}, count=${msgCnt}`);
          if (status.tag !== tag && errs++ < 10) mt.printf(`ERROR: unexpected message tag from MPI_Recv(): p=${pRank}, expected=${tag}, actual=${status.tag}, count=${msgCnt}`);
          if (incomingMsgSize !== msgSize && errs++ < 10) mt.printf(`ERROR: unexpected message size from MPI_Recv(): p=${pRank}, expected=${msgSize}, actual=${incomingMsgSize}, count=${msgCnt}`);
        }
      }
    }
  }
  return mt.finalize(errs);
}
