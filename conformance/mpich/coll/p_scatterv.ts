// MPICH test/mpi/coll/p_scatterv.c: scatterv.c's scatter of a Fortran-order matrix to a 2-D grid
// with MPI_Scatterv_init (persistent, MPI 4.0): started ten times, each checked (as in the
// original, only the last start's error count is kept), then an MPI_IN_PLACE request at the root
// started twice. The info argument of the original carries no hints.
import type { MTest, MTestResult } from '../mtest.ts';
import { checkData, setData } from './scatterv.ts';

export default async function pScatterv(mt: MTest): Promise<MTestResult> {
  const { mpi } = mt;
  const rank = mpi.rank;
  const size = mpi.size;
  const dims = mpi.dimsCreate(size, [0, 0]);
  const comm2d = (await mpi.cartCreate(dims, [false, false], false))!;
  const [myrow, mycol] = comm2d.coords as [number, number];
  const nx = 10;
  const ny = 8;
  const stride = nx * dims[0]!;
  const recvbuf = new Float64Array(nx * ny);
  const sendbuf = myrow === 0 && mycol === 0 ? new Float64Array(nx * ny * size) : null;
  const sendcounts = new Int32Array(size);
  const scdispls = new Int32Array(size);
  const vec = mpi.typeVector(ny, nx, stride, mpi.DOUBLE);
  const block = mpi.typeCommit(mpi.typeCreateResized(vec, 0, nx * 8));
  mpi.typeFree(vec);
  let cnt = 0;
  for (let i = 0; i < dims[1]!; i++)
    for (let j = 0; j < dims[0]!; j++) {
      sendcounts[cnt] = 1;
      const lcoords = comm2d.cartCoords(cnt);
      scdispls[cnt++] = lcoords[0]! + lcoords[1]! * (dims[0]! * ny);
    }
  let errs = 0;
  const req1 = comm2d.scattervInit(sendbuf, sendcounts, scdispls, block, recvbuf, nx * ny, mpi.DOUBLE, 0);
  for (let i = 0; i < 10; ++i) {
    setData(sendbuf, recvbuf, nx, ny, myrow, mycol, dims[0]!, dims[1]!);
    mpi.start(req1);
    await mpi.wait(req1);
    if ((errs = checkData(mt, recvbuf, nx, ny, myrow, mycol, false))) mt.printf('Failed to transfer data');
  }
  mpi.requestFree(req1);
  // once more, with MPI_IN_PLACE at the root
  const req2 = comm2d.scattervInit(sendbuf, sendcounts, scdispls, block, rank === 0 ? mpi.IN_PLACE : recvbuf, nx * ny, mpi.DOUBLE, 0);
  for (let i = 0; i < 2; ++i) {
    setData(sendbuf, recvbuf, nx, ny, myrow, mycol, dims[0]!, dims[1]!);
    mpi.start(req2);
    await mpi.wait(req2);
    const errsInPlace = checkData(mt, recvbuf, nx, ny, myrow, mycol, rank === 0);
    if (errsInPlace) mt.printf('Failed to transfer data (MPI_IN_PLACE)');
    errs += errsInPlace;
  }
  mpi.requestFree(req2);
  mpi.typeFree(block);
  await comm2d.free();
  return mt.finalize(errs);
}
