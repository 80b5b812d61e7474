// MPICH test/mpi/pt2pt/pt2pt_large.c: MPI_Send_c and MPI_Recv_c of chars between 2 ranks, checked
// element by element: -option=0 1024 chars, -option=1 INT_MAX + 100 chars, -option=2 INT_MAX + 100
// chars of a resized MPI_CHAR (extent 2: every other byte). phit's counts are numbers exact to
// 2^53, so its one send and recv are the `_c` forms (as MPI 4.0's mpi_f08 binding keeps one name
// for both).
import type { MTest, MTestResult } from '../mtest.ts';
import type { Datatype } from '../../../runtime/mpi/mpi.ts';

const INT_MAX = 2147483647;

/** init_buf: `count` chars `stride` apart, each `val`. */
function initBuf(count: number, stride: number, val: number): Int8Array {
  const buf = new Int8Array(count * stride);
  for (let i = 0; i < count; i++) buf[i * stride] = val;
  return buf;
}

export default async function pt2ptLarge(mt: MTest): Promise<MTestResult> {
  const { mpi } = mt;
  let errs = 0;
  const option = mt.argInt('option', 0);
  const comm = mpi;
  const rank = comm.rank;
  if (comm.size !== 2) {
    mt.printf('Run test with 2 procs!');
    return { errors: 1 };
  }
  let count: number;
  let datatype: Datatype;
  let stride: number;
  let datatypeNeedFree = false;
  switch (option) {
    case 0: // small count, just test the _c API
      count = 1024;
      datatype = mpi.CHAR;
      stride = 1;
      break;
    case 1: // large count, contiguous datatype
      count = INT_MAX + 100;
      datatype = mpi.CHAR;
      stride = 1;
      break;
    case 2: // large count, non-contig datatype
      count = INT_MAX + 100;
      datatype = mpi.typeCommit(mpi.typeCreateResized(mpi.CHAR, 0, 2));
      stride = 2;
      datatypeNeedFree = true;
      break;
    default:
      if (rank === 0) mt.printf(`Unexpected option: ${option}`);
      return mt.finalize(errs);
  }
  const tag = 0;
  if (rank === 0) {
    const sendbuf = initBuf(count, stride, 1);
    await comm.send(sendbuf, count, datatype, 1, tag);
  } else if (rank === 1) {
    const recvbuf = initBuf(count, stride, 0);
    await comm.recv(recvbuf, count, datatype, 0, tag);
    // check_buf
    for (let i = 0; i < count; i++) {
      if (recvbuf[i * stride] !== 1) {
        if (errs < 10) mt.printf(`i = ${i}, expect 1, got ${recvbuf[i * stride]}`);
        errs++;
      }
    }
  }
  if (datatypeNeedFree) mpi.typeFree(datatype);
  return mt.finalize(errs);
}
