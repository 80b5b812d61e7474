// MPICH test/mpi/datatype/pairtype_size_extent.c: each pair type (MPI_FLOAT_INT, MPI_DOUBLE_INT,
// MPI_LONG_INT, MPI_SHORT_INT) has the size of a struct of its two types built by hand, and the
// extent of that struct and of the equivalent C struct (x86-64 layouts: the int at byte 4 or 8,
// sizeof 8 or 16). No long double in TypeScript: MPI_LONG_DOUBLE_INT is skipped, as C does when
// the type is MPI_DATATYPE_NULL.
import type { MTest, MTestResult } from '../mtest.ts';

export default async function pairtypeSizeExtent(mt: MTest): Promise<MTestResult> {
  const { mpi } = mt;
  let errs = 0;
  let verbose = true;
  if (mt.argv[0] === '-v') verbose = true;
  if (mt.argv[0] === '-nov') verbose = false;
  // atype, ptype, name, and the C struct { atype a; int b; }: offset of b and sizeof
  const pairtypes = [
    { atype: mpi.FLOAT, ptype: mpi.FLOAT_INT, name: 'MPI_FLOAT_INT', disp: 4, size: 8 },
    { atype: mpi.DOUBLE, ptype: mpi.DOUBLE_INT, name: 'MPI_DOUBLE_INT', disp: 8, size: 16 },
    { atype: mpi.LONG, ptype: mpi.LONG_INT, name: 'MPI_LONG_INT', disp: 8, size: 16 },
    { atype: mpi.SHORT, ptype: mpi.SHORT_INT, name: 'MPI_SHORT_INT', disp: 4, size: 8 },
  ];
  const blks = [1, 1];
  const disps = [0, 0];
  const types = [mpi.INT, mpi.INT];
  for (const p of pairtypes) {
    types[0] = p.atype;
    disps[1] = p.disp;
    const handbuiltExtent = p.size;
    const stype = mpi.typeCreateStruct(2, blks, disps, types);
    const stypeSize = mpi.typeSize(stype);
    const ptypeSize = mpi.typeSize(p.ptype);
    if (stypeSize !== ptypeSize) {
      errs++;
      if (verbose) mt.printf(`size of ${p.name} (${ptypeSize}) does not match size of hand-built MPI struct (${stypeSize})`);
    }
    const stypeExtent = mpi.typeGetExtent(stype).extent;
    const ptypeExtent = mpi.typeGetExtent(p.ptype).extent;
    if (stypeExtent !== ptypeExtent || stypeExtent !== handbuiltExtent) {
      errs++;
      if (verbose) mt.printf(`extent of ${p.name} (${ptypeExtent}) does not match extent of either hand-built MPI struct (${stypeExtent}) or equivalent C struct (${handbuiltExtent})`);
    }
    mpi.typeFree(stype);
  }
  return mt.finalize(errs);
}
