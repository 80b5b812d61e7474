// MPICH test/mpi/coll/coll_large.c: the large-count (`_c`) forms of every collective and of
// MPI_Reduce_local on 4 ranks, blocking or with -nonblock their nonblocking forms, each checked
// element by element: -option=0 1024 signed chars with MPI_SUM, -option=1 INT_MAX + 100 of them,
// -option=2 INT_MAX + 100 of a resized signed char (extent 2) with a user sum, -option=3 1024 of
// that resized type with a user sum that walks its operands 2 bytes apart (phit hands a user op
// its operands laid out as the datatype describes). phit's counts are numbers exact to 2^53, so its
// one form of each call is the `_c` form, and its user op takes the count as a number (MPI_Op_create
// and MPI_Op_create_c alike); it has no MPI_Op_free.
import type { MTest, MTestResult } from '../mtest.ts';
import type { Datatype, Op, ReduceArray } from '../../../runtime/mpi/mpi.ts';

const INT_MAX = 2147483647;
const STRIDE = 2;
const MAX_PROC = 20;
const COLLS = ['allgather', 'allgatherv', 'allreduce', 'alltoall', 'alltoallv', 'alltoallw', 'bcast', 'gather', 'gatherv', 'reduce', 'scatter', 'scatterv', 'scan', 'exscan', 'reduce_scatter', 'reduce_scatter_block', 'reduce_local'] as const;

/** init_buf: `count` signed chars `stride` apart, each `val`. */
function initBuf(count: number, stride: number, val: number): Int8Array {
  const buf = new Int8Array(count * stride);
  for (let i = 0; i < count; i++) buf[i * stride] = val;
  return buf;
}

/** uop (and uop_c): inout[i] += in[i] for every STRIDE-th char of `count` elements. */
function uop(inoutbuf: ReduceArray, inbuf: ReduceArray, count: number): void {
  const inout = inoutbuf as Int8Array;
  const inp = inbuf as Int8Array;
  for (let i = 0; i < count * STRIDE; i += STRIDE) inout[i] = inout[i]! + inp[i]!;
}

export default async function collLarge(mt: MTest): Promise<MTestResult> {
  const { mpi } = mt;
  let errs = 0;
  const option = mt.argInt('option', 0);
  const collName = mt.argString('coll', '');
  const isNonblock = mt.argv.includes('-nonblock');
  const comm = mpi;
  const nprocs = comm.size;
  const rank = comm.rank;
  if (collName !== 'all' && !(COLLS as readonly string[]).includes(collName)) {
    mt.printf(`Invalid coll name "${collName}"`);
    return { errors: 1 };
  }
  if (nprocs > MAX_PROC) {
    mt.printf(`The number of procs (${nprocs}) exceed MAX_PROC (${MAX_PROC})`);
    return { errors: 1 };
  }
  let count: number;
  let datatype: Datatype;
  let stride: number;
  let useOp: Op = mpi.SUM;
  let datatypeNeedFree = false;
  switch (option) {
    case 0: // small count, just test the _c API
    case 1: // large count, contiguous datatype
      count = option === 0 ? 1024 : INT_MAX + 100;
      datatype = mpi.SIGNED_CHAR;
      stride = 1;
      break;
    case 2: // large count, non-contig datatype
    case 3: // small count, non-contig datatype
      count = option === 3 ? 1024 : INT_MAX + 100;
      datatype = mpi.typeCommit(mpi.typeCreateResized(mpi.SIGNED_CHAR, 0, STRIDE));
      stride = STRIDE;
      datatypeNeedFree = true;
      useOp = mpi.opCreate(uop, true);
      break;
    default:
      if (rank === 0) mt.printf(`Unexpected option: ${option}`);
      return { errors: 0 };
  }

  const checkBuf = (buf: Int8Array, at: number, val: number): void => {
    const want = (val << 24) >> 24; // as the C char
    for (let i = 0; i < count; i++) {
      const got = buf[at + i * stride]!;
      if (got !== want) {
        if (errs < 10) mt.printf(`i = ${i}, expect ${want}, got ${got}`);
        errs++;
      }
    }
  };
  /** Block i of a buffer of blocks of `count` elements, in chars. */
  const block = (i: number): number => i * count * stride;
  const counts = new Array<number>(nprocs).fill(count);
  const displs = Array.from({ length: nprocs }, (_, i) => i * count);
  const wait = async (run: () => Promise<void>, start: () => ReturnType<typeof mpi.ibarrier>): Promise<void> => {
    if (!isNonblock) await run();
    else await mpi.wait(start());
  };
  const reduced = (nprocs * (nprocs - 1)) / 2;
  const root = 0;

  const tests: Record<(typeof COLLS)[number], () => Promise<void>> = {
    allgather: async () => {
      const sendbuf = initBuf(count, stride, rank);
      const recvbuf = initBuf(count * nprocs, stride, -1);
      await wait(() => comm.allgather(sendbuf, count, datatype, recvbuf, count, datatype), () => comm.iallgather(sendbuf, count, datatype, recvbuf, count, datatype));
      for (let i = 0; i < nprocs; i++) checkBuf(recvbuf, block(i), i);
    },
    allgatherv: async () => {
      const sendbuf = initBuf(count, stride, rank);
      const recvbuf = initBuf(count * nprocs, stride, -1);
      await wait(() => comm.allgatherv(sendbuf, count, datatype, recvbuf, counts, displs, datatype), () => comm.iallgatherv(sendbuf, count, datatype, recvbuf, counts, displs, datatype));
      for (let i = 0; i < nprocs; i++) checkBuf(recvbuf, block(i), i);
    },
    allreduce: async () => {
      const sendbuf = initBuf(count, stride, rank);
      const recvbuf = initBuf(count, stride, -1);
      await wait(() => comm.allreduce(sendbuf, recvbuf, count, datatype, useOp), () => comm.iallreduce(sendbuf, recvbuf, count, datatype, useOp));
      for (let i = 0; i < nprocs; i++) checkBuf(recvbuf, 0, reduced);
    },
    alltoall: async () => {
      const sendbuf = initBuf(count * nprocs, stride, rank);
      const recvbuf = initBuf(count * nprocs, stride, -1);
      await wait(() => comm.alltoall(sendbuf, count, datatype, recvbuf, count, datatype), () => comm.ialltoall(sendbuf, count, datatype, recvbuf, count, datatype));
      for (let i = 0; i < nprocs; i++) checkBuf(recvbuf, block(i), i);
    },
    alltoallv: async () => {
      const sendbuf = initBuf(count * nprocs, stride, rank);
      const recvbuf = initBuf(count * nprocs, stride, -1);
      await wait(() => comm.alltoallv(sendbuf, counts, displs, datatype, recvbuf, counts, displs, datatype), () => comm.ialltoallv(sendbuf, counts, displs, datatype, recvbuf, counts, displs, datatype));
      for (let i = 0; i < nprocs; i++) checkBuf(recvbuf, block(i), i);
    },
    alltoallw: async () => {
      // displacements in bytes
      const bdispls = Array.from({ length: nprocs }, (_, i) => i * count * stride);
      const types = new Array<Datatype>(nprocs).fill(datatype);
      const sendbuf = initBuf(count * nprocs, stride, rank);
      const recvbuf = initBuf(count * nprocs, stride, -1);
      await wait(() => comm.alltoallw(sendbuf, counts, bdispls, types, recvbuf, counts, bdispls, types), () => comm.ialltoallw(sendbuf, counts, bdispls, types, recvbuf, counts, bdispls, types));
      for (let i = 0; i < nprocs; i++) checkBuf(recvbuf, block(i), i);
    },
    bcast: async () => {
      const buf = initBuf(count, stride, rank === root ? rank : -1);
      await wait(() => comm.bcast(buf, count, datatype, root), () => comm.ibcast(buf, count, datatype, root));
      if (rank !== root) checkBuf(buf, 0, root);
    },
    gather: async () => {
      const sendbuf = initBuf(count, stride, rank);
      const recvbuf = rank === root ? initBuf(count * nprocs, stride, -1) : new Int8Array(0);
      await wait(() => comm.gather(sendbuf, count, datatype, recvbuf, count, datatype, root), () => comm.igather(sendbuf, count, datatype, recvbuf, count, datatype, root));
      if (rank === root) for (let i = 0; i < nprocs; i++) checkBuf(recvbuf, block(i), i);
    },
    gatherv: async () => {
      const sendbuf = initBuf(count, stride, rank);
      const recvbuf = rank === root ? initBuf(count * nprocs, stride, -1) : new Int8Array(0);
      await wait(() => comm.gatherv(sendbuf, count, datatype, recvbuf, counts, displs, datatype, root), () => comm.igatherv(sendbuf, count, datatype, recvbuf, counts, displs, datatype, root));
      if (rank === root) for (let i = 0; i < nprocs; i++) checkBuf(recvbuf, block(i), i);
    },
    reduce: async () => {
      const sendbuf = initBuf(count, stride, rank);
      const recvbuf = rank === root ? initBuf(count * nprocs, stride, -1) : null;
      await wait(() => comm.reduce(sendbuf, recvbuf, count, datatype, useOp, root), () => comm.ireduce(sendbuf, recvbuf, count, datatype, useOp, root));
      if (rank === root) checkBuf(recvbuf!, 0, reduced);
    },
    scatter: async () => {
      const sendbuf = rank === root ? initBuf(count * nprocs, stride, rank) : new Int8Array(0);
      const recvbuf = initBuf(count * nprocs, stride, -1);
      await wait(() => comm.scatter(sendbuf, count, datatype, recvbuf, count, datatype, root), () => comm.iscatter(sendbuf, count, datatype, recvbuf, count, datatype, root));
      checkBuf(recvbuf, 0, root);
    },
    scatterv: async () => {
      const sendbuf = rank === root ? initBuf(count * nprocs, stride, rank) : new Int8Array(0);
      const recvbuf = initBuf(count * nprocs, stride, -1);
      await wait(() => comm.scatterv(sendbuf, counts, displs, datatype, recvbuf, count, datatype, root), () => comm.iscatterv(sendbuf, counts, displs, datatype, recvbuf, count, datatype, root));
      checkBuf(recvbuf, 0, root);
    },
    scan: async () => {
      const sendbuf = initBuf(count, stride, rank);
      const recvbuf = initBuf(count * nprocs, stride, -1);
      await wait(() => comm.scan(sendbuf, recvbuf, count, datatype, useOp), () => comm.iscan(sendbuf, recvbuf, count, datatype, useOp));
      checkBuf(recvbuf, 0, (rank * (rank + 1)) / 2);
    },
    exscan: async () => {
      const sendbuf = initBuf(count, stride, rank);
      const recvbuf = initBuf(count * nprocs, stride, -1);
      await wait(() => comm.exscan(sendbuf, recvbuf, count, datatype, useOp), () => comm.iexscan(sendbuf, recvbuf, count, datatype, useOp));
      if (rank > 0) checkBuf(recvbuf, 0, (rank * (rank - 1)) / 2);
    },
    reduce_scatter: async () => {
      const sendbuf = initBuf(count * nprocs, stride, rank);
      const recvbuf = initBuf(count, stride, -1);
      await wait(() => comm.reduceScatter(sendbuf, recvbuf, counts, datatype, useOp), () => comm.ireduceScatter(sendbuf, recvbuf, counts, datatype, useOp));
      checkBuf(recvbuf, 0, reduced);
    },
    reduce_scatter_block: async () => {
      const sendbuf = initBuf(count * nprocs, stride, rank);
      const recvbuf = initBuf(count, stride, -1);
      await wait(() => comm.reduceScatterBlock(sendbuf, recvbuf, count, datatype, useOp), () => comm.ireduceScatterBlock(sendbuf, recvbuf, count, datatype, useOp));
      checkBuf(recvbuf, 0, reduced);
    },
    reduce_local: async () => {
      const inbuf = initBuf(count, stride, 1);
      const inoutbuf = initBuf(count, stride, 2);
      mpi.reduceLocal(inbuf, inoutbuf, count, datatype, useOp);
      checkBuf(inoutbuf, 0, 3);
    },
  };
  for (const c of COLLS) if (collName === 'all' || collName === c) await tests[c]();
  if (datatypeNeedFree) mpi.typeFree(datatype);
  return mt.finalize(errs);
}
