// MPICH test/mpi/comm/cmsplit_type.c: MPI_Comm_split_type returns for every split type: with
// MPI_COMM_TYPE_SHARED a communicator; with MPI_COMM_TYPE_HW_GUIDED and (MPI 4.1)
// MPI_COMM_TYPE_RESOURCE_GUIDED each of hwloc's resource names of mpi_hw_resource_type (the
// communicator depends on the machine: phit's levels are listed in runtime/mpi/split-type.ts);
// MPI_COMM_NULL for HW_GUIDED with MPI_INFO_NULL or without the key and for RESOURCE_GUIDED with
// a value no machine has; with MPI_COMM_TYPE_HW_UNGUIDED a proper subset whose resource type is
// set in the info; and MPI_UNDEFINED gives MPI_COMM_NULL. The MPICH-only
// MPIX_COMM_TYPE_NEIGHBORHOOD parts (under `#if defined(MPIX_COMM_TYPE_NEIGHBORHOOD)`) are not
// compiled for an MPI without it, as here; the testlist's argument "." is theirs.
import type { Comm } from '../../../runtime/mpi/mpi.ts';
import type { MTest, MTestResult } from '../mtest.ts';

const SPLIT_TOPO = ['machine', 'socket', 'package', 'numanode', 'core', 'hwthread', 'pu', 'l1cache', 'l1ucache', 'l1dcache', 'l1icache', 'l2cache', 'l2ucache', 'l2dcache', 'l2icache', 'l3cache', 'l3ucache', 'l3dcache', 'l3icache', 'pci:x', 'ib', 'ibx', 'gpu', 'gpux', 'en', 'enx', 'eth', 'ethx', 'hfi', 'hfix'];

export default async function cmsplitType(mt: MTest): Promise<MTestResult> {
  const { mpi } = mt;
  let errs = 0;
  const verbose = false;
  const wrank = mpi.rank;
  const worldSize = mpi.size;
  let rank = 0;
  let size = 0;
  let comm: Comm | null;

  // MPI_COMM_TYPE_SHARED
  comm = await mpi.splitType(mpi.COMM_TYPE_SHARED, 0, mpi.INFO_NULL);
  if (comm === null) {
    mt.printf('MPI_COMM_TYPE_SHARED (no hint): got MPI_COMM_NULL');
    errs++;
  } else {
    rank = comm.rank;
    size = comm.size;
    if (rank === 0 && verbose) mt.printf(`MPI_COMM_TYPE_SHARED (no hint): Created shared subcommunicator of size ${size}`);
    await comm.free();
  }

  // MPI_COMM_TYPE_HW_GUIDED: the result depends on the machine, only the return is checked
  // (a failing call is fatal here, as under MPI_ERRORS_ARE_FATAL)
  for (const t of SPLIT_TOPO) {
    const info = mpi.infoCreate();
    info.set('mpi_hw_resource_type', t);
    comm = await mpi.splitType(mpi.COMM_TYPE_HW_GUIDED, 0, info);
    if (comm !== null) await comm.free();
    info.free();
  }

  // MPI_COMM_TYPE_HW_GUIDED with MPI_INFO_NULL must return MPI_COMM_NULL
  comm = await mpi.splitType(mpi.COMM_TYPE_HW_GUIDED, 0, mpi.INFO_NULL);
  if (comm !== null) {
    mt.printf("MPI_COMM_TYPE_HW_GUIDED with MPI_INFO_NULL didn't return MPI_COMM_NULL");
    errs++;
    await comm.free();
  }

  // MPI_COMM_TYPE_HW_GUIDED with info without the right key must return MPI_COMM_NULL
  let info = mpi.infoCreate();
  info.set('shmem_topo', SPLIT_TOPO[0]!);
  comm = await mpi.splitType(mpi.COMM_TYPE_HW_GUIDED, 0, info);
  if (comm !== null) {
    mt.printf("MPI_COMM_TYPE_HW_GUIDED without correct key didn't return MPI_COMM_NULL");
    errs++;
    await comm.free();
  }
  info.free();

  // MPI_COMM_TYPE_HW_UNGUIDED
  info = mpi.infoCreate();
  comm = await mpi.splitType(mpi.COMM_TYPE_HW_UNGUIDED, 0, info);
  if (comm !== null) {
    const newsize = comm.size;
    if (!(newsize < worldSize)) {
      mt.printf('MPI_COMM_TYPE_HW_UNGUIDED: Expected comm to be a proper sub communicator');
      errs++;
    }
    const resourceType = info.get('mpi_hw_resource_type');
    if (resourceType === undefined || resourceType.length === 0) {
      mt.printf('MPI_COMM_TYPE_HW_UNGUIDED: info for mpi_hw_resource_type not returned');
      errs++;
    }
    await comm.free();
  }

  // MPI_COMM_TYPE_RESOURCE_GUIDED (MPI 4.1)
  for (const t of SPLIT_TOPO) {
    info = mpi.infoCreate();
    info.set('mpi_hw_resource_type', t);
    comm = await mpi.splitType(mpi.COMM_TYPE_RESOURCE_GUIDED, 0, info);
    if (comm !== null) await comm.free();
    info.free();
  }

  // topology hints that differ between processes (rank and size are those of the shared communicator)
  info = mpi.infoCreate();
  info.set('mpi_hw_resource_type', rank % 2 === 0 ? SPLIT_TOPO[0]! : SPLIT_TOPO[1]!);
  comm = await mpi.splitType(mpi.COMM_TYPE_RESOURCE_GUIDED, 0, info);
  if (comm !== null) {
    const newsize = comm.size;
    if (newsize > size) {
      mt.printf(`MPI_COMM_TYPE_RESOURCE_GUIDED (mpi_hw_resource_type): comm size (${newsize}) > node size (${size})`);
      errs++;
    }
    await comm.free();
  }
  info.free();

  // a hint given to some processes but not others
  const some = rank % 2 === 0 ? mpi.infoCreate() : mpi.INFO_NULL;
  if (some !== mpi.INFO_NULL) some.set('mpi_hw_resource_type', SPLIT_TOPO[0]!);
  comm = await mpi.splitType(mpi.COMM_TYPE_RESOURCE_GUIDED, 0, some);
  if (comm !== null) {
    const newsize = comm.size;
    if (newsize > size) {
      mt.printf(`MPI_COMM_TYPE_RESOURCE_GUIDED (mpi_hw_resource_type): comm size (${newsize}) > node size (${size})`);
      errs++;
    }
    await comm.free();
  }
  if (some !== mpi.INFO_NULL) some.free();

  // an invalid value behaves as no key
  info = mpi.infoCreate();
  info.set('mpi_hw_resource_type', '__garbage_value__');
  comm = await mpi.splitType(mpi.COMM_TYPE_RESOURCE_GUIDED, 0, info);
  if (comm !== null) {
    mt.printf("MPI_COMM_TYPE_RESOURCE_GUIDED (mpi_hw_resource_type): invalid info value didn't result in MPI_COMM_NULL");
    errs++;
  }
  info.free();

  // MPI_UNDEFINED is respected
  comm = await mpi.splitType(wrank % 2 === 0 ? mpi.COMM_TYPE_SHARED : mpi.UNDEFINED, 0, mpi.INFO_NULL);
  if (wrank % 2 !== 0 && comm !== null) {
    mt.printf('MPI_UNDEFINED: Expected MPI_COMM_NULL, but did not get one');
    errs++;
  }
  if (wrank % 2 === 0) {
    if (comm === null) {
      mt.printf('MPI_UNDEFINED: Expected a non-null communicator, but got MPI_COMM_NULL');
      errs++;
    } else {
      rank = comm.rank;
      size = comm.size;
      if (rank === 0 && verbose) mt.printf(`Created shared subcommunicator of size ${size}`);
      await comm.free();
    }
  }
  const totErrs = new Int32Array(1);
  await mpi.reduce(Int32Array.of(errs), totErrs, mpi.SUM, 0);
  return mt.finalize(errs);
}
