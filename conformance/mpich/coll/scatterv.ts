// MPICH test/mpi/coll/scatterv.c: the root scatters a matrix stored in Fortran order to a 2-D
// Cartesian grid of ranks, one nx x ny block each, with a vector type whose extent is resized to
// one column of a block (as the current test does with MPI_Type_create_resized; older versions used
// MPI_UB), so that the blocks' sources overlap; then again with MPI_IN_PLACE at the root, whose own
// block must stay untouched.
import type { MTest, MTestResult } from '../mtest.ts';

/** SetData of the original: the root's matrix, and -1 in every receive buffer. */
function setData(sendbuf: Float64Array | null, recvbuf: Float64Array, nx: number, ny: number, myrow: number, mycol: number, nrow: number, ncol: number): void {
  if (myrow === 0 && mycol === 0 && sendbuf) {
    const coldim = nx * nrow;
    for (let j = 0; j < ncol; j++)
      for (let i = 0; i < nrow; i++) {
        let p = i * nx + j * (ny * coldim);
        for (let m = 0; m < ny; m++) {
          for (let k = 0; k < nx; k++) sendbuf[p + k] = 1000 * j + 100 * i + m * nx + k;
          p += coldim;
        }
      }
  }
  recvbuf.fill(-1.0, 0, nx * ny);
}

/** CheckData of the original: returns the errors. */
function checkData(mt: MTest, recvbuf: Float64Array, nx: number, ny: number, myrow: number, mycol: number, expectNoValue: boolean): number {
  let errs = 0;
  let p = 0;
  for (let m = 0; m < ny; m++) {
    for (let k = 0; k < nx; k++) {
      // at the root with MPI_IN_PLACE the pre-scatterv value must stay
      const val = expectNoValue ? -1.0 : 1000 * mycol + 100 * myrow + m * nx + k;
      if (recvbuf[p + k] !== val) {
        errs++;
        if (errs < 10) mt.printf(`Error in (${m},${k}) [${myrow},${mycol}] location, got ${recvbuf[p + k]!.toFixed(6)} expected ${val.toFixed(6)}`);
        else if (errs === 10) mt.printf('Too many errors; suppressing printing');
      }
    }
    p += nx;
  }
  return errs;
}

/** The setup both builds share: the 2-D grid, the buffers, the resized block type and each rank's block. */
export async function scattervSetup(mt: MTest) {
  const { mpi } = mt;
  const size = mpi.size;
  // a 2-D decomposition of the processes
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
  // the transfer: Cart_coords makes the ranks match the coordinates that set the data
  let cnt = 0;
  for (let i = 0; i < dims[1]!; i++)
    for (let j = 0; j < dims[0]!; j++) {
      sendcounts[cnt] = 1;
      const lcoords = comm2d.cartCoords(cnt);
      scdispls[cnt++] = lcoords[0]! + lcoords[1]! * (dims[0]! * ny);
    }
  /** SetData for this rank. */
  const set = (): void => setData(sendbuf, recvbuf, nx, ny, myrow, mycol, dims[0]!, dims[1]!);
  /** CheckData for this rank. */
  const check = (expectNoValue: boolean): number => checkData(mt, recvbuf, nx, ny, myrow, mycol, expectNoValue);
  return { comm2d, nx, ny, recvbuf, sendbuf, sendcounts, scdispls, block, set, check };
}

export default async function scatterv(mt: MTest): Promise<MTestResult> {
  const { mpi } = mt;
  const { comm2d, nx, ny, recvbuf, sendbuf, sendcounts, scdispls, block, set, check } = await scattervSetup(mt);
  set();
  await comm2d.scatterv(sendbuf, sendcounts, scdispls, block, recvbuf, nx * ny, mpi.DOUBLE, 0);
  let errs = check(false);
  if (errs) mt.printf('Failed to transfer data');
  // once more, with MPI_IN_PLACE at the root
  set();
  await comm2d.scatterv(sendbuf, sendcounts, scdispls, block, mpi.rank === 0 ? mpi.IN_PLACE : recvbuf, nx * ny, mpi.DOUBLE, 0);
  const errsInPlace = check(mpi.rank === 0);
  if (errsInPlace) mt.printf('Failed to transfer data (MPI_IN_PLACE)');
  errs += errsInPlace;
  mpi.typeFree(block);
  await comm2d.free();
  return mt.finalize(errs);
}
