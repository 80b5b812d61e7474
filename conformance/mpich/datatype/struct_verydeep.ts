// MPICH test/mpi/datatype/struct_verydeep.c: builds and commits the deeply nested struct of two
// HDF5-like types (vectors of resized vectors of structs of 4-byte contiguous types, five levels
// deep), then frees it; the test passes if no call fails.
import type { MTest, MTestResult } from '../mtest.ts';
import type { Datatype, Mpi } from '../../../runtime/mpi/mpi.ts';

/** makeHDF5type0 (`innerStruct`: the struct at 2,000 bytes sits at level 2) or makeHDF5type1 (at 20 bytes, level 1). */
function makeHDF5type(mpi: Mpi, which: 0 | 1): Datatype {
  const ctg = mpi.typeContiguous(4, mpi.BYTE);
  const vect = mpi.typeVector(1, 5, 1, ctg);
  let structype: Datatype;
  let structype2: Datatype;
  let vec2: Datatype;
  if (which === 0) {
    structype = mpi.typeCreateResized(vect, 0, 40);
    vec2 = mpi.typeVector(1, 5, 1, structype);
    const tmp = mpi.typeCreateStruct(1, [1], [2000], [vec2]);
    structype2 = mpi.typeCreateResized(tmp, 0, 400);
    mpi.typeFree(tmp);
  } else {
    const tmp = mpi.typeCreateStruct(1, [1], [20], [vect]);
    structype = mpi.typeCreateResized(tmp, 0, 40);
    mpi.typeFree(tmp);
    vec2 = mpi.typeVector(1, 5, 1, structype);
    structype2 = mpi.typeCreateResized(vec2, 0, 400);
  }
  const vec3 = mpi.typeVector(1, 5, 1, structype2);
  const structype3 = mpi.typeCreateResized(vec3, 0, 4000);
  const vec4 = mpi.typeVector(1, 5, 1, structype3);
  const structype4 = mpi.typeCreateResized(vec4, 0, 40000);
  const vec5 = mpi.typeVector(1, 1, 1, structype4);
  const tmp = mpi.typeCreateStruct(1, [1], [160000], [vec5]);
  const type = mpi.typeCreateResized(tmp, 0, 200000);
  mpi.typeFree(tmp);
  for (const t of [ctg, vect, structype, vec2, structype2, vec3, structype3, vec4, structype4, vec5]) mpi.typeFree(t);
  mpi.typeCommit(type);
  return type;
}

export default async function structVerydeep(mt: MTest): Promise<MTestResult> {
  const { mpi } = mt;
  const NTYPES = 2;
  const types = [makeHDF5type(mpi, 0), makeHDF5type(mpi, 1)];
  const hdf5type = mpi.typeCreateStruct(NTYPES, [1, 1], [0, 0], types);
  mpi.typeCommit(hdf5type);
  for (const t of types) mpi.typeFree(t);
  mpi.typeFree(hdf5type);
  return mt.finalize(0);
}
