// MPICH test/mpi/pt2pt/bsend_iflush.c: with a buffer of one 100,000-byte message (plus
// MPI_BSEND_OVERHEAD) attached, a first MPI_Bsend to itself succeeds and a second fails with
// MPI_ERR_BUFFER (errors returned); MPI_Buffer_iflush's request completes once the rank has
// received the first message, and then the second MPI_Bsend succeeds; the buffer detaches.
import { rc, type MTest, type MTestResult } from '../mtest.ts';
import { BSEND_OVERHEAD, type Request } from '../../../runtime/mpi/mpi.ts';

const MSG_SIZE = 100000;

export default async function bsendIflush(mt: MTest): Promise<MTestResult> {
  const { mpi } = mt;
  let errs = 0;
  const sendBuf = new Uint8Array(MSG_SIZE);
  const sendBuf2 = new Uint8Array(MSG_SIZE);
  const recvBuf = new Uint8Array(MSG_SIZE);
  const recvBuf2 = new Uint8Array(MSG_SIZE);
  const rank = mpi.rank;
  mpi.bufferAttach(BSEND_OVERHEAD + MSG_SIZE);
  mpi.setErrhandler(mpi.ERRORS_RETURN);
  const tag = 0;
  let code = await rc(() => mpi.bsend(sendBuf, MSG_SIZE, mpi.BYTE, rank, tag));
  if (code !== 0) {
    mt.printf('First Bsend failed but we expect it to succeed.');
    errs++;
  }
  code = await rc(() => mpi.bsend(sendBuf2, MSG_SIZE, mpi.BYTE, rank, tag));
  const errClass = mpi.errorClass(code);
  if (errClass !== mpi.errorCodes['ERR_BUFFER']) {
    mt.printf(`We expect the 2nd Bsend to fail with MPI_ERR_BUFFER,but got error code ${code} (class ${errClass})`);
    errs++;
  }
  let request: Request | null = null;
  code = await rc(() => {
    request = mpi.bufferIflush();
  });
  if (code) {
    mt.printf(`Failed MPI_Buffer_iflush, error code = ${code}`);
    errs++;
  }
  // post a Recv or the flush won't complete
  code = await rc(() => mpi.recv(recvBuf, MSG_SIZE, mpi.BYTE, rank, tag));
  if (code) {
    mt.printf(`Failed the first MPI_Recv, error code = ${code}`);
    errs++;
  }
  // wait for flush to complete
  code = await rc(() => mpi.wait(request ?? mpi.REQUEST_NULL));
  if (code) {
    mt.printf(`Failed MPI_Wait, error code = ${code}`);
    errs++;
  }
  // now the 2nd bsend should succeed
  code = await rc(() => mpi.bsend(sendBuf2, MSG_SIZE, mpi.BYTE, rank, tag));
  if (code !== 0) {
    mt.printf('The 2nd Bsend failed but we expect it to succeed.');
    errs++;
  }
  code = await rc(() => mpi.recv(recvBuf2, MSG_SIZE, mpi.BYTE, rank, tag));
  if (code) {
    mt.printf(`Failed the second MPI_Recv, error code = ${code}`);
    errs++;
  }
  code = await rc(() => mpi.bufferDetach());
  if (code) {
    mt.printf(`Failed MPI_Buffer_detach, error code = ${code}`);
    errs++;
  }
  return mt.finalize(errs);
}
