/**
 * The C routines of MPI 4.0 (mpi-forum.org, MPI: A Message-Passing Interface Standard, version
 * 4.0, June 2021) of the chapters issue 22 names: point-to-point with requests (ch. 3),
 * datatypes (ch. 5), collectives (ch. 6), groups and communicators (ch. 7), topologies (ch. 8),
 * error handling with the environment calls phit has (ch. 9), info (ch. 10), one-sided
 * communication (ch. 12), MPI_Comm_disconnect of ch. 11 (a free that waits for the communication
 * in progress) and, of the external interfaces (ch. 13), generalized requests and the calls that
 * set a status. Each is served by a phit routine of the inventory (`mpi.send`), by a
 * property (`=file:text`, the declaration that serves it), or excluded (`!reason`, a key of
 * EXCLUDED). test/mpi-routines.test.ts checks the list both ways.
 */

/** Why phit leaves a routine out. */
export const EXCLUDED: Record<string, string> = {
  partitioned: 'partitioned communication (MPI 4.0 chapter 4) is not among the chapters phit serves',
  address: 'absolute addresses (MPI_Get_address, MPI_BOTTOM): a phit buffer is a typed array, with no address a C program could take',
  fortran: 'Fortran types and the Fortran language bindings',
  attributes: 'attribute caching on communicators and datatypes: phit lacks it (windows have it, runtime/mpi/attributes.ts)',
  sessions: 'the sessions model (MPI 4.0 chapter 11): phit starts every rank in the world model',
  userErrors: 'user-defined error classes, codes and strings: phit lacks them',
  winInfo: 'phit lacks it: a window takes its info when it is made, and has no info calls of its own',
  opFree: 'phit lacks it: an operation of opCreate is garbage collected, and needs no free',
  groupFree: 'phit lacks it: a group is a plain object, garbage collected, and needs no free',
  infoLen: 'phit lacks it: an info value is a JavaScript string, whose length a program reads off it',
  largeX: 'the _x forms of MPI 3 (MPI_Count results): phit answers every size as a JavaScript number, so the plain form serves them',
};

const LIST = `
MPI_Send send
MPI_Recv recv
MPI_Get_count getCount
MPI_Bsend bsend
MPI_Ssend ssend
MPI_Rsend rsend
MPI_Buffer_attach bufferAttach
MPI_Buffer_detach bufferDetach
MPI_Isend isend
MPI_Ibsend ibsend
MPI_Issend issend
MPI_Irsend irsend
MPI_Irecv irecv
MPI_Wait wait
MPI_Test test
MPI_Request_free requestFree
MPI_Waitany waitAny
MPI_Testany testAny
MPI_Waitall waitAll
MPI_Testall testAll
MPI_Waitsome waitSome
MPI_Testsome testSome
MPI_Request_get_status requestGetStatus
MPI_Iprobe iprobe
MPI_Probe probe
MPI_Improbe improbe
MPI_Mprobe mprobe
MPI_Mrecv mrecv
MPI_Imrecv imrecv
MPI_Cancel cancel
MPI_Test_cancelled =request.ts:readonly cancelled
MPI_Send_init sendInit
MPI_Bsend_init bsendInit
MPI_Ssend_init ssendInit
MPI_Rsend_init rsendInit
MPI_Recv_init recvInit
MPI_Start start
MPI_Startall startAll
MPI_Sendrecv sendrecv
MPI_Sendrecv_replace sendrecvReplace
MPI_Isendrecv isendrecv
MPI_Isendrecv_replace isendrecvReplace
MPI_Psend_init !partitioned
MPI_Precv_init !partitioned
MPI_Pready !partitioned
MPI_Pready_range !partitioned
MPI_Pready_list !partitioned
MPI_Parrived !partitioned
MPI_Type_contiguous typeContiguous
MPI_Type_vector typeVector
MPI_Type_create_hvector typeCreateHvector
MPI_Type_indexed typeIndexed
MPI_Type_create_hindexed typeCreateHindexed
MPI_Type_create_indexed_block typeCreateIndexedBlock
MPI_Type_create_hindexed_block typeCreateHindexedBlock
MPI_Type_create_struct typeCreateStruct
MPI_Type_create_subarray typeCreateSubarray
MPI_Type_create_darray typeCreateDarray
MPI_Get_address !address
MPI_Aint_add aintAdd
MPI_Aint_diff aintDiff
MPI_Type_size typeSize
MPI_Type_size_x !largeX
MPI_Type_get_extent typeGetExtent
MPI_Type_get_extent_x !largeX
MPI_Type_create_resized typeCreateResized
MPI_Type_get_true_extent typeGetTrueExtent
MPI_Type_get_true_extent_x !largeX
MPI_Type_commit typeCommit
MPI_Type_free typeFree
MPI_Type_dup typeDup
MPI_Get_elements getElements
MPI_Get_elements_x !largeX
MPI_Type_get_envelope typeGetEnvelope
MPI_Type_get_contents typeGetContents
MPI_Pack pack
MPI_Unpack unpack
MPI_Pack_size packSize
MPI_Pack_external packExternal
MPI_Unpack_external unpackExternal
MPI_Pack_external_size packExternalSize
MPI_Type_create_f90_real !fortran
MPI_Type_create_f90_complex !fortran
MPI_Type_create_f90_integer !fortran
MPI_Type_match_size typeMatchSize
MPI_Status_set_elements statusSetElements
MPI_Status_set_elements_x !largeX
MPI_Status_set_cancelled statusSetCancelled
MPI_Grequest_start grequestStart
MPI_Grequest_complete grequestComplete
MPI_Barrier barrier
MPI_Bcast bcast
MPI_Gather gather
MPI_Gatherv gatherv
MPI_Scatter scatter
MPI_Scatterv scatterv
MPI_Allgather allgather
MPI_Allgatherv allgatherv
MPI_Alltoall alltoall
MPI_Alltoallv alltoallv
MPI_Alltoallw alltoallw
MPI_Reduce reduce
MPI_Op_create opCreate
MPI_Op_free !opFree
MPI_Op_commutative =ops.ts:readonly commutative
MPI_Allreduce allreduce
MPI_Reduce_local reduceLocal
MPI_Reduce_scatter_block reduceScatterBlock
MPI_Reduce_scatter reduceScatter
MPI_Scan scan
MPI_Exscan exscan
MPI_Ibarrier ibarrier
MPI_Ibcast ibcast
MPI_Igather igather
MPI_Igatherv igatherv
MPI_Iscatter iscatter
MPI_Iscatterv iscatterv
MPI_Iallgather iallgather
MPI_Iallgatherv iallgatherv
MPI_Ialltoall ialltoall
MPI_Ialltoallv ialltoallv
MPI_Ialltoallw ialltoallw
MPI_Ireduce ireduce
MPI_Iallreduce iallreduce
MPI_Ireduce_scatter_block ireduceScatterBlock
MPI_Ireduce_scatter ireduceScatter
MPI_Iscan iscan
MPI_Iexscan iexscan
MPI_Barrier_init barrierInit
MPI_Bcast_init bcastInit
MPI_Gather_init gatherInit
MPI_Gatherv_init gathervInit
MPI_Scatter_init scatterInit
MPI_Scatterv_init scattervInit
MPI_Allgather_init allgatherInit
MPI_Allgatherv_init allgathervInit
MPI_Alltoall_init alltoallInit
MPI_Alltoallv_init alltoallvInit
MPI_Alltoallw_init alltoallwInit
MPI_Reduce_init reduceInit
MPI_Allreduce_init allreduceInit
MPI_Reduce_scatter_block_init reduceScatterBlockInit
MPI_Reduce_scatter_init reduceScatterInit
MPI_Scan_init scanInit
MPI_Exscan_init exscanInit
MPI_Group_size =group.ts:get size()
MPI_Group_rank =group.ts:get rank()
MPI_Group_translate_ranks group.translateRanks
MPI_Group_compare group.compare
MPI_Comm_group =comm-base.ts:get group()
MPI_Group_union group.union
MPI_Group_intersection group.intersection
MPI_Group_difference group.difference
MPI_Group_incl group.incl
MPI_Group_excl group.excl
MPI_Group_range_incl group.rangeIncl
MPI_Group_range_excl group.rangeExcl
MPI_Group_free !groupFree
MPI_Group_from_session_pset !sessions
MPI_Comm_size =comm-base.ts:get size()
MPI_Comm_rank =comm-base.ts:get rank()
MPI_Comm_compare compare
MPI_Comm_dup dup
MPI_Comm_dup_with_info dupWithInfo
MPI_Comm_idup idup
MPI_Comm_idup_with_info idupWithInfo
MPI_Comm_create create
MPI_Comm_create_group createGroup
MPI_Comm_create_from_group commCreateFromGroup
MPI_Comm_split split
MPI_Comm_split_type splitType
MPI_Comm_free free
MPI_Comm_disconnect disconnect
MPI_Comm_set_info setInfo
MPI_Comm_get_info getInfo
MPI_Comm_test_inter testInter
MPI_Comm_remote_size =intercomm-base.ts:get remoteSize()
MPI_Comm_remote_group =intercomm-base.ts:get remoteGroup()
MPI_Intercomm_create intercommCreate
MPI_Intercomm_create_from_groups intercommCreateFromGroups
MPI_Intercomm_merge inter.intercommMerge
MPI_Comm_create_keyval !attributes
MPI_Comm_free_keyval !attributes
MPI_Comm_set_attr !attributes
MPI_Comm_get_attr !attributes
MPI_Comm_delete_attr !attributes
MPI_Win_create_keyval winCreateKeyval
MPI_Win_free_keyval winFreeKeyval
MPI_Win_set_attr win.setAttr
MPI_Win_get_attr win.getAttr
MPI_Win_delete_attr win.deleteAttr
MPI_Type_create_keyval !attributes
MPI_Type_free_keyval !attributes
MPI_Type_set_attr !attributes
MPI_Type_get_attr !attributes
MPI_Type_delete_attr !attributes
MPI_Comm_set_name setName
MPI_Comm_get_name getName
MPI_Type_set_name typeSetName
MPI_Type_get_name typeGetName
MPI_Win_set_name win.setName
MPI_Win_get_name win.getName
MPI_Cart_create cartCreate
MPI_Dims_create dimsCreate
MPI_Graph_create graphCreate
MPI_Dist_graph_create_adjacent distGraphCreateAdjacent
MPI_Dist_graph_create distGraphCreate
MPI_Topo_test topoTest
MPI_Graphdims_get graphdimsGet
MPI_Graph_get graphGet
MPI_Cartdim_get =comm.ts:readonly dims
MPI_Cart_get =comm.ts:readonly coords
MPI_Cart_rank cart.cartRank
MPI_Cart_coords cart.cartCoords
MPI_Graph_neighbors_count graphNeighborsCount
MPI_Graph_neighbors graphNeighbors
MPI_Dist_graph_neighbors_count distGraphNeighborsCount
MPI_Dist_graph_neighbors distGraphNeighbors
MPI_Cart_shift cart.cartShift
MPI_Cart_sub cart.cartSub
MPI_Cart_map cartMap
MPI_Graph_map graphMap
MPI_Neighbor_allgather neighborAllgather
MPI_Neighbor_allgatherv neighborAllgatherv
MPI_Neighbor_alltoall neighborAlltoall
MPI_Neighbor_alltoallv neighborAlltoallv
MPI_Neighbor_alltoallw neighborAlltoallw
MPI_Ineighbor_allgather ineighborAllgather
MPI_Ineighbor_allgatherv ineighborAllgatherv
MPI_Ineighbor_alltoall ineighborAlltoall
MPI_Ineighbor_alltoallv ineighborAlltoallv
MPI_Ineighbor_alltoallw ineighborAlltoallw
MPI_Neighbor_allgather_init neighborAllgatherInit
MPI_Neighbor_allgatherv_init neighborAllgathervInit
MPI_Neighbor_alltoall_init neighborAlltoallInit
MPI_Neighbor_alltoallv_init neighborAlltoallvInit
MPI_Neighbor_alltoallw_init neighborAlltoallwInit
MPI_Alloc_mem allocMem
MPI_Free_mem freeMem
MPI_Wtime wtime
MPI_Comm_create_errhandler commCreateErrhandler
MPI_Comm_set_errhandler setErrhandler
MPI_Comm_get_errhandler getErrhandler
MPI_Win_create_errhandler winCreateErrhandler
MPI_Win_set_errhandler win.setErrhandler
MPI_Win_get_errhandler win.getErrhandler
MPI_Errhandler_free errhandlerFree
MPI_Comm_call_errhandler callErrhandler
MPI_Win_call_errhandler win.callErrhandler
MPI_Error_string errorString
MPI_Error_class errorClass
MPI_Add_error_class !userErrors
MPI_Add_error_code !userErrors
MPI_Add_error_string !userErrors
MPI_Info_create infoCreate
MPI_Info_set info.set
MPI_Info_delete info.delete
MPI_Info_get info.get
MPI_Info_get_string info.get
MPI_Info_get_valuelen !infoLen
MPI_Info_get_nkeys =info.ts:get nkeys()
MPI_Info_get_nthkey info.nthkey
MPI_Info_dup info.dup
MPI_Info_free info.free
MPI_Win_create winCreate
MPI_Win_allocate winAllocate
MPI_Win_allocate_shared winAllocateShared
MPI_Win_shared_query win.sharedQuery
MPI_Win_create_dynamic winCreateDynamic
MPI_Win_attach win.attach
MPI_Win_detach win.detach
MPI_Win_free win.free
MPI_Win_get_group win.getGroup
MPI_Win_set_info !winInfo
MPI_Win_get_info !winInfo
MPI_Put win.put
MPI_Get win.get
MPI_Accumulate win.accumulate
MPI_Get_accumulate win.getAccumulate
MPI_Fetch_and_op win.fetchAndOp
MPI_Compare_and_swap win.compareAndSwap
MPI_Rput win.rput
MPI_Rget win.rget
MPI_Raccumulate win.raccumulate
MPI_Rget_accumulate win.rgetAccumulate
MPI_Win_fence win.fence
MPI_Win_start win.start
MPI_Win_complete win.complete
MPI_Win_post win.post
MPI_Win_wait win.wait
MPI_Win_test win.test
MPI_Win_lock win.lock
MPI_Win_unlock win.unlock
MPI_Win_lock_all win.lockAll
MPI_Win_unlock_all win.unlockAll
MPI_Win_flush win.flush
MPI_Win_flush_all win.flushAll
MPI_Win_flush_local win.flushLocal
MPI_Win_flush_local_all win.flushLocalAll
MPI_Win_sync win.sync
`;

/** One C routine of MPI 4.0: the phit routine that serves it, the declaration of the property that does, or why it is left out. */
export interface SpecRoutine {
  readonly c: string;
  readonly phit?: string;
  /** `file:text`: runtime/mpi/ (or rma/) `file` declares `text`. */
  readonly prop?: string;
  readonly exclude?: string;
}

/** The list, parsed: a bare name is a routine of `ctx.mpi`. */
export function specRoutines(): SpecRoutine[] {
  return LIST.trim()
    .split('\n')
    .map((line) => {
      const [c, what] = line.split(' ', 2) as [string, string];
      if (what.startsWith('!')) return { c, exclude: EXCLUDED[what.slice(1)] ?? `unknown reason ${what}` };
      if (what.startsWith('=')) return { c, prop: what.slice(1) };
      return { c, phit: what.includes('.') ? what : `mpi.${what}` };
    });
}

/** phit routines that serve no C routine of the list, with why. */
export const PHIT_EXTRAS: Record<string, string> = {
  'mpi.requestGetStatusAny': 'MPI 4.1 (MPI_Request_get_status_any), after the 4.0 list',
  'mpi.requestGetStatusAll': 'MPI 4.1 (MPI_Request_get_status_all), after the 4.0 list',
  'mpi.requestGetStatusSome': 'MPI 4.1 (MPI_Request_get_status_some), after the 4.0 list',
  'mpi.bufferFlush': 'MPI 4.1 (MPI_Buffer_flush), after the 4.0 list',
  'mpi.bufferIflush': 'MPI 4.1 (MPI_Buffer_iflush), after the 4.0 list',
  'mpi.algorithmFor': "phit's question of which collective algorithm a call would run",
  'mpi.collective': "phit's entry for running a user-written collective algorithm",
  'mpi.commGetName': 'MPI_Comm_get_name in its C form, taking the handle, so that it takes MPI_COMM_NULL (named so since MPI 4.1); getName serves the 4.0 routine',
  'mpi.worldRank': "phit's translation of a communicator rank to its world rank",
  'inter.worldRank': "phit's translation of a remote group's rank to its world rank",
};

/** Groups of C routines deliberately not listed, with why. */
export const SPEC_LEFT_OUT = [
  'the large-count _c forms of MPI 4.0 (MPI_Send_c, ...): phit counts are JavaScript numbers, exact to 2^53, so the one form serves both',
  'the environment calls of chapter 9 other than error handling, memory and time (MPI_Init, MPI_Finalize, MPI_Abort, MPI_Get_version, MPI_Get_processor_name, MPI_Wtick, ...): phit starts and ends the ranks itself',
  'I/O (chapter 14), dynamic processes (chapter 11 spawn and connect), threads (MPI_Init_thread, MPI_Query_thread), the tools interface (chapter 15) and the language bindings (chapter 19)',
];
