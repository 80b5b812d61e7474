// MPICH test/mpi/coll/nonblocking2.c: every nonblocking collective on MPI_COMM_WORLD with 10 ints
// per rank, checked value by value, once with MPI_INT and once with a non-contiguous type (one int,
// extent two ints: a resized vector), each with root 0 and root size - 1. Reductions on the
// non-contiguous type use a user sum that walks its operands by the datatype's extent, as C's does
// (phit's user ops get (inout, input, len, datatype) laid out as the datatype describes). The C
// test frees the op and a dup'ed type before the wait; phit has no MPI_Op_free (its ops are
// garbage collected), so only the type is freed early. The buffers are global and carry over from
// one round to the next, as in C (0xdeadbeef is the int -559038737).
import type { MTest, MTestResult } from '../mtest.ts';
import type { Datatype, Mpi, Op, ReduceArray } from '../../../runtime/mpi/mpi.ts';

const COUNT = 10;
const PRIME = 17;
const DEADBEEF = 0xdeadbeef | 0;

/** sum_fn: on MPI_INT element by element, else one int per element, extent / 4 ints apart. */
function sumFn(mpi: Mpi): (inout: ReduceArray, input: ReduceArray, len: number, datatype: Datatype) => void {
  return (inoutvec, invec, len, datatype) => {
    const inout = inoutvec as Int32Array;
    const inp = invec as Int32Array;
    if (datatype === mpi.INT) {
      for (let i = 0; i < len; ++i) inout[i] = inp[i]! + inout[i]!;
    } else {
      const stride = datatype.extent / 4;
      for (let i = 0; i < len; ++i) inout[i * stride] = inout[i * stride]! + inp[i * stride]!;
    }
  };
}

/** The global buffers of the C test. */
interface Bufs {
  buf: Int32Array;
  recvbuf: Int32Array;
  sendcounts: Int32Array;
  recvcounts: Int32Array;
  sdispls: Int32Array;
  rdispls: Int32Array;
  sendtypes: Datatype[];
  recvtypes: Datatype[];
}

export default async function nonblocking2(mt: MTest): Promise<MTestResult> {
  const { mpi } = mt;
  let errs = 0;
  const rank = mpi.rank;
  const size = mpi.size;
  const noncontigStride = 2;
  const dtVector = mpi.typeVector(1, 1, noncontigStride, mpi.INT);
  const dtNoncontig = mpi.typeCreateResized(dtVector, 0, 4 * noncontigStride);
  mpi.typeFree(dtVector);
  mpi.typeCommit(dtNoncontig);
  const op = mpi.opCreate(sumFn(mpi), true);
  const b: Bufs = {
    buf: new Int32Array(COUNT * size * noncontigStride),
    recvbuf: new Int32Array(COUNT * size * noncontigStride),
    sendcounts: new Int32Array(size),
    recvcounts: new Int32Array(size),
    sdispls: new Int32Array(size),
    rdispls: new Int32Array(size),
    sendtypes: new Array<Datatype>(size),
    recvtypes: new Array<Datatype>(size),
  };
  errs += await testIcollWithRoot(mt, b, rank, size, 0, mpi.INT, 1, op);
  errs += await testIcollWithRoot(mt, b, rank, size, size - 1, mpi.INT, 1, op);
  errs += await testIcollWithRoot(mt, b, rank, size, 0, dtNoncontig, noncontigStride, op);
  errs += await testIcollWithRoot(mt, b, rank, size, size - 1, dtNoncontig, noncontigStride, op);
  mpi.typeFree(dtNoncontig);
  return mt.finalize(errs);
}

async function testIcollWithRoot(mt: MTest, b: Bufs, rank: number, size: number, root: number, datatype: Datatype, stride: number, opUser: Op): Promise<number> {
  const { mpi } = mt;
  const { buf, recvbuf, sendcounts, recvcounts, sdispls, rdispls, sendtypes, recvtypes } = b;
  const comm = mpi;
  let errs = 0;
  const check = (name: string, a: Int8Array | Int32Array, idx: number, val: number): void => {
    if (a[idx] !== val) {
      if (errs < 10) mt.printf(`${name}[${idx}] expect ${val}, got ${a[idx]}`);
      errs++;
    }
  };
  const opSum = datatype !== mpi.INT ? opUser : mpi.SUM;

  // MPI_Ibcast
  for (let i = 0; i < COUNT; ++i) buf[i * stride] = rank === root ? i : DEADBEEF;
  await mpi.wait(comm.ibcast(buf, COUNT, datatype, root));
  for (let i = 0; i < COUNT; ++i) check('buf', buf, i * stride, i);

  // MPI_Ibcast (again, but designed to stress scatter/allgather impls)
  if (datatype === mpi.INT) {
    const bufAlias = new Int8Array(buf.buffer, buf.byteOffset, buf.byteLength);
    for (let i = 0; i < PRIME; ++i) bufAlias[i] = rank === root ? i : 0xdb;
    for (let i = PRIME; i < COUNT * size * 4; ++i) bufAlias[i] = 0xbf;
    await mpi.wait(comm.ibcast(bufAlias, PRIME, mpi.SIGNED_CHAR, root));
    for (let i = 0; i < PRIME; ++i) check('buf_alias', bufAlias, i, i);
  }

  // MPI_Ibarrier
  if (datatype === mpi.INT) await mpi.wait(comm.ibarrier());

  // MPI_Ireduce
  for (let i = 0; i < COUNT; ++i) {
    buf[i * stride] = rank + i;
    recvbuf[i * stride] = DEADBEEF;
  }
  await mpi.wait(comm.ireduce(buf, recvbuf, COUNT, datatype, opSum, root));
  if (rank === root) for (let i = 0; i < COUNT; ++i) check('recvbuf', recvbuf, i * stride, (size * (size - 1)) / 2 + i * size);

  // same again, use a user op (the C test frees it before the wait)
  {
    const tmpOp = mpi.opCreate(sumFn(mpi), true);
    for (let i = 0; i < COUNT; ++i) {
      buf[i * stride] = rank + i;
      recvbuf[i * stride] = DEADBEEF;
    }
    await mpi.wait(comm.ireduce(buf, recvbuf, COUNT, datatype, tmpOp, root));
    if (rank === root) for (let i = 0; i < COUNT; ++i) check('recvbuf', recvbuf, i * stride, (size * (size - 1)) / 2 + i * size);
  }

  // MPI_Iallreduce
  for (let i = 0; i < COUNT; ++i) {
    buf[i * stride] = rank + i;
    recvbuf[i * stride] = DEADBEEF;
  }
  await mpi.wait(comm.iallreduce(buf, recvbuf, COUNT, datatype, opSum));
  for (let i = 0; i < COUNT; ++i) check('recvbuf', recvbuf, i * stride, (size * (size - 1)) / 2 + i * size);

  // MPI_Ialltoallv (a weak test, neither irregular nor sparse)
  for (let i = 0; i < size; ++i) {
    sendcounts[i] = COUNT;
    recvcounts[i] = COUNT;
    sdispls[i] = COUNT * i;
    rdispls[i] = COUNT * i;
    for (let j = 0; j < COUNT; ++j) {
      buf[(i * COUNT + j) * stride] = rank + i * j;
      recvbuf[(i * COUNT + j) * stride] = DEADBEEF;
    }
  }
  await mpi.wait(comm.ialltoallv(buf, sendcounts, sdispls, datatype, recvbuf, recvcounts, rdispls, datatype));
  for (let i = 0; i < size; ++i) for (let j = 0; j < COUNT; ++j) check('recvbuf', recvbuf, (i * COUNT + j) * stride, i + rank * j);

  // MPI_Igather
  for (let i = 0; i < size * COUNT; ++i) {
    buf[i * stride] = rank + i;
    recvbuf[i * stride] = DEADBEEF;
  }
  await mpi.wait(comm.igather(buf, COUNT, datatype, recvbuf, COUNT, datatype, root));
  if (rank === root) {
    for (let i = 0; i < size; ++i) for (let j = 0; j < COUNT; ++j) check('recvbuf', recvbuf, (i * COUNT + j) * stride, i + j);
  } else {
    for (let i = 0; i < size * COUNT; ++i) check('recvbuf', recvbuf, i * stride, DEADBEEF);
  }

  // same test again, just use a dup'ed datatype and free it before the wait
  {
    const type = mpi.typeDup(datatype);
    for (let i = 0; i < size * COUNT; ++i) {
      buf[i * stride] = rank + i;
      recvbuf[i * stride] = DEADBEEF;
    }
    const req = comm.igather(buf, COUNT, datatype, recvbuf, COUNT, type, root);
    mpi.typeFree(type); // should cause implementations that don't refcount correctly to blow up or hang in the wait
    await mpi.wait(req);
    if (rank === root) {
      for (let i = 0; i < size; ++i) for (let j = 0; j < COUNT; ++j) check('recvbuf', recvbuf, (i * COUNT + j) * stride, i + j);
    } else {
      for (let i = 0; i < size * COUNT; ++i) check('recvbuf', recvbuf, i * stride, DEADBEEF);
    }
  }

  // MPI_Iscatter
  for (let i = 0; i < size; ++i) {
    for (let j = 0; j < COUNT; ++j) {
      buf[(i * COUNT + j) * stride] = rank === root ? i + j : DEADBEEF;
      recvbuf[(i * COUNT + j) * stride] = DEADBEEF;
    }
  }
  await mpi.wait(comm.iscatter(buf, COUNT, datatype, recvbuf, COUNT, datatype, root));
  for (let j = 0; j < COUNT; ++j) check('recvbuf', recvbuf, j * stride, rank + j);
  // check we didn't corrupt the sendbuf somehow
  if (rank !== root) for (let i = 0; i < size * COUNT; ++i) check('buf', buf, i * stride, DEADBEEF);

  // MPI_Iscatterv (weak test, just the regular case where all counts are equal)
  for (let i = 0; i < size; ++i) {
    sendcounts[i] = COUNT;
    sdispls[i] = i * COUNT;
    for (let j = 0; j < COUNT; ++j) {
      buf[(i * COUNT + j) * stride] = rank === root ? i + j : DEADBEEF;
      recvbuf[(i * COUNT + j) * stride] = DEADBEEF;
    }
  }
  await mpi.wait(comm.iscatterv(buf, sendcounts, sdispls, datatype, recvbuf, COUNT, datatype, root));
  for (let j = 0; j < COUNT; ++j) check('recvbuf', recvbuf, j * stride, rank + j);
  if (rank !== root) for (let i = 0; i < size * COUNT; ++i) check('buf', buf, i * stride, DEADBEEF);
  // check we didn't corrupt the rest of the recvbuf
  for (let i = 1; i < size; ++i) for (let j = 0; j < COUNT; ++j) check('recvbuf', recvbuf, (i * COUNT + j) * stride, DEADBEEF);

  // MPI_Ireduce_scatter
  for (let i = 0; i < size; ++i) {
    recvcounts[i] = COUNT;
    for (let j = 0; j < COUNT; ++j) {
      buf[(i * COUNT + j) * stride] = rank + i;
      recvbuf[(i * COUNT + j) * stride] = DEADBEEF;
    }
  }
  await mpi.wait(comm.ireduceScatter(buf, recvbuf, recvcounts, datatype, opSum));
  for (let j = 0; j < COUNT; ++j) check('recvbuf', recvbuf, j * stride, size * rank + ((size - 1) * size) / 2);
  for (let i = 1; i < size; ++i) for (let j = 0; j < COUNT; ++j) check('recvbuf', recvbuf, (i * COUNT + j) * stride, DEADBEEF);

  // MPI_Ireduce_scatter_block
  for (let i = 0; i < size; ++i) {
    for (let j = 0; j < COUNT; ++j) {
      buf[(i * COUNT + j) * stride] = rank + i;
      recvbuf[(i * COUNT + j) * stride] = DEADBEEF;
    }
  }
  await mpi.wait(comm.ireduceScatterBlock(buf, recvbuf, COUNT, datatype, opSum));
  for (let j = 0; j < COUNT; ++j) check('recvbuf', recvbuf, j * stride, size * rank + ((size - 1) * size) / 2);
  for (let i = 1; i < size; ++i) for (let j = 0; j < COUNT; ++j) check('recvbuf', recvbuf, (i * COUNT + j) * stride, DEADBEEF);

  // MPI_Igatherv
  for (let i = 0; i < size * COUNT; ++i) {
    buf[i * stride] = DEADBEEF;
    recvbuf[i * stride] = DEADBEEF;
  }
  for (let i = 0; i < COUNT; ++i) buf[i * stride] = rank + i;
  for (let i = 0; i < size; ++i) {
    recvcounts[i] = COUNT;
    rdispls[i] = i * COUNT;
  }
  await mpi.wait(comm.igatherv(buf, COUNT, datatype, recvbuf, recvcounts, rdispls, datatype, root));
  if (rank === root) {
    for (let i = 0; i < size; ++i) for (let j = 0; j < COUNT; ++j) check('recvbuf', recvbuf, (i * COUNT + j) * stride, i + j);
  } else {
    for (let i = 0; i < size * COUNT; ++i) check('recvbuf', recvbuf, i * stride, DEADBEEF);
  }

  // MPI_Ialltoall
  for (let i = 0; i < size; ++i) {
    for (let j = 0; j < COUNT; ++j) {
      buf[(i * COUNT + j) * stride] = rank + i * j;
      recvbuf[(i * COUNT + j) * stride] = DEADBEEF;
    }
  }
  await mpi.wait(comm.ialltoall(buf, COUNT, datatype, recvbuf, COUNT, datatype));
  for (let i = 0; i < size; ++i) for (let j = 0; j < COUNT; ++j) check('recvbuf', recvbuf, (i * COUNT + j) * stride, i + rank * j);

  // MPI_Iallgather
  for (let i = 0; i < size * COUNT; ++i) {
    buf[i * stride] = rank + i;
    recvbuf[i * stride] = DEADBEEF;
  }
  await mpi.wait(comm.iallgather(buf, COUNT, datatype, recvbuf, COUNT, datatype));
  for (let i = 0; i < size; ++i) for (let j = 0; j < COUNT; ++j) check('recvbuf', recvbuf, (i * COUNT + j) * stride, i + j);

  // MPI_Iallgatherv
  for (let i = 0; i < size; ++i) {
    for (let j = 0; j < COUNT; ++j) recvbuf[(i * COUNT + j) * stride] = DEADBEEF;
    recvcounts[i] = COUNT;
    rdispls[i] = i * COUNT;
  }
  for (let i = 0; i < COUNT; ++i) buf[i * stride] = rank + i;
  await mpi.wait(comm.iallgatherv(buf, COUNT, datatype, recvbuf, recvcounts, rdispls, datatype));
  for (let i = 0; i < size; ++i) for (let j = 0; j < COUNT; ++j) check('recvbuf', recvbuf, (i * COUNT + j) * stride, i + j);

  // MPI_Iscan
  for (let i = 0; i < COUNT; ++i) {
    buf[i * stride] = rank + i;
    recvbuf[i * stride] = DEADBEEF;
  }
  await mpi.wait(comm.iscan(buf, recvbuf, COUNT, datatype, opSum));
  for (let i = 0; i < COUNT; ++i) check('recvbuf', recvbuf, i * stride, (rank * (rank + 1)) / 2 + i * (rank + 1));

  // MPI_Iexscan
  for (let i = 0; i < COUNT; ++i) {
    buf[i * stride] = rank + i;
    recvbuf[i * stride] = DEADBEEF;
  }
  await mpi.wait(comm.iexscan(buf, recvbuf, COUNT, datatype, opSum));
  for (let i = 0; i < COUNT; ++i) if (rank !== 0) check('recvbuf', recvbuf, i * stride, (rank * (rank + 1)) / 2 + i * (rank + 1) - (rank + i));

  // MPI_Ialltoallw (a weak test, neither irregular nor sparse); displacements in bytes
  for (let i = 0; i < size; ++i) {
    sendcounts[i] = COUNT;
    recvcounts[i] = COUNT;
    sdispls[i] = COUNT * i * 4 * stride;
    rdispls[i] = COUNT * i * 4 * stride;
    sendtypes[i] = datatype;
    recvtypes[i] = datatype;
    for (let j = 0; j < COUNT; ++j) {
      buf[(i * COUNT + j) * stride] = rank + i * j;
      recvbuf[(i * COUNT + j) * stride] = DEADBEEF;
    }
  }
  await mpi.wait(comm.ialltoallw(buf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts, rdispls, recvtypes));
  for (let i = 0; i < size; ++i) for (let j = 0; j < COUNT; ++j) check('recvbuf', recvbuf, (i * COUNT + j) * stride, i + rank * j);
  return errs;
}
