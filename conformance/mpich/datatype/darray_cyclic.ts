// MPICH test/mpi/datatype/darray_cyclic.c: MPI_Type_create_darray with cyclic distributions: 1-D
// cyclic(1) and cyclic(2) over all ranks, then 2-D cyclic/cyclic and cyclic(2)/cyclic(3) on a
// (ranks/2) x 2 grid; each rank packs its part of a global array holding 0, 1, 2, ... and checks
// the packed values against the distribution's formula.
import type { MTest, MTestResult } from '../mtest.ts';
import type { Datatype, Mpi } from '../../../runtime/mpi/mpi.ts';

/** AllocateGrid of the original: src holds 0, 1, ...; dest holds -1, -2, .... */
function allocateGrid(nx: number, ny: number): { src: Int32Array; dest: Int32Array } {
  const src = Int32Array.from({ length: nx * ny }, (_, i) => i);
  const dest = Int32Array.from({ length: nx * ny }, (_, i) => -i - 1);
  return { src, dest };
}

/** PackUnpack: packs one darray element of src and unpacks `count` ints into dest. */
function packUnpack(mpi: Mpi, darraytype: Datatype, src: Int32Array, dest: Int32Array, count: number): void {
  mpi.typeCommit(darraytype);
  const packArray = new Uint8Array(mpi.packSize(1, darraytype));
  const packsize = mpi.pack(src, 1, darraytype, packArray, 0);
  mpi.unpack(packArray.subarray(0, packsize), 0, dest, count, mpi.INT);
}

export default async function darrayCyclic(mt: MTest): Promise<MTestResult> {
  const { mpi } = mt;
  let errs = 0;
  const wrank = mpi.rank;
  const wsize = mpi.size;
  const C = mpi.DISTRIBUTE_CYCLIC;
  // test 1: 1-D cyclic
  let { src, dest } = allocateGrid(1, 3 * wsize);
  let darraytype = mpi.typeCreateDarray(wsize, wrank, 1, [3 * wsize], [C], [1], [wsize], mpi.ORDER_C, mpi.INT);
  packUnpack(mpi, darraytype, src, dest, 3);
  for (let i = 0; i < 3; i++)
    if (dest[i] !== wrank + i * wsize) {
      mt.printf(`1D: ${i}: Expected ${wrank + i * wsize} but saw ${dest[i]}`);
      errs++;
    }
  mpi.typeFree(darraytype);
  // test 2: 1-D cyclic with blocks of 2
  ({ src, dest } = allocateGrid(1, 4 * wsize));
  darraytype = mpi.typeCreateDarray(wsize, wrank, 1, [4 * wsize], [C], [2], [wsize], mpi.ORDER_C, mpi.INT);
  packUnpack(mpi, darraytype, src, dest, 4);
  let loc = 0;
  for (let i = 0; i < 2; i++)
    for (let j = 0; j < 2; j++) {
      const want = 2 * wrank + i * 2 * wsize + j;
      if (dest[loc] !== want) {
        mt.printf(`1D(2): ${i}: Expected ${want} but saw ${dest[loc]}`);
        errs++;
      }
      loc++;
    }
  mpi.typeFree(darraytype);
  // 2-D decompositions
  const px = Math.floor(wsize / 2);
  const py = 2;
  const rx = wrank % px;
  const ry = Math.floor(wrank / px);
  if (px * py !== wsize) throw new Error('An even number of processes is required');
  // cyclic/cyclic; in C order index [1] varies fastest
  ({ src, dest } = allocateGrid(5 * px, 7 * py));
  let ny = 7 * py;
  let nx = 5 * px;
  darraytype = mpi.typeCreateDarray(wsize, wrank, 2, [ny, nx], [C, C], [1, 1], [py, px], mpi.ORDER_C, mpi.INT);
  packUnpack(mpi, darraytype, src, dest, 5 * 7);
  loc = 0;
  for (let j = 0; j < 7; j++)
    for (let i = 0; i < 5; i++) {
      const expected = rx + ry * nx + i * px + j * nx * py;
      if (dest[loc] !== expected) {
        errs++;
        mt.printf(`2D(cc): [${i},${j}] = ${dest[loc]}, expected ${expected}`);
      }
      loc++;
    }
  mpi.typeFree(darraytype);
  // cyclic(2)/cyclic(3)
  ({ src, dest } = allocateGrid(6 * px, 4 * py));
  ny = 4 * py;
  nx = 6 * px;
  const by = 2;
  const bx = 3;
  darraytype = mpi.typeCreateDarray(wsize, wrank, 2, [ny, nx], [C, C], [by, bx], [py, px], mpi.ORDER_C, mpi.INT);
  packUnpack(mpi, darraytype, src, dest, 4 * 6);
  loc = 0;
  for (let j = 0; j < 4 / by; j++)
    for (let jj = 0; jj < by; jj++)
      for (let i = 0; i < 6 / bx; i++)
        for (let ii = 0; ii < bx; ii++) {
          const expected = rx * bx + ry * by * nx + i * bx * px + ii + (j * by * py + jj) * nx;
          if (dest[loc] !== expected) {
            errs++;
            mt.printf(`2D(c(2)c(3)): [${i * bx + ii},${j * by + jj}] = ${dest[loc]}, expected ${expected}`);
          }
          loc++;
        }
  mpi.typeFree(darraytype);
  return mt.finalize(errs);
}
