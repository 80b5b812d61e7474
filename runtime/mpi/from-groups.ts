import type { Proc } from '../proc.ts';
import type { RankState } from './comm-base.ts';
import { Comm, InterComm } from './comm.ts';
import { describe } from './constants.ts';
import type { MpiWorld } from './core.ts';
import { ERRORS_ARE_FATAL, Errhandler } from './errhandler.ts';
import { Group } from './group.ts';
import { checkInfo, type Info } from './info.ts';
import { MpiError } from './request.ts';

/** What the communicators made from groups alone stand on: the world, the calling rank and its state. */
export interface FromGroupsHost {
  readonly world: MpiWorld;
  readonly proc: Proc;
  readonly state: RankState;
}

/**
 * A communicator of the ranks of `group`, made from the group alone (MPI_Comm_create_from_group,
 * MPI 4.0 §7.4.2): collective over the group's ranks, which pass the same group and `stringtag`
 * (ranks outside it do not take part); the new communicator has `errhandler`. Calls with the
 * same group and tag pair up in the order each rank makes them. `info`'s hints are accepted and
 * ignored, as MPI allows.
 */
export async function commCreateFromGroup(h: FromGroupsHost, group: Group, stringtag: string, info?: Info | null, errhandler: Errhandler = ERRORS_ARE_FATAL): Promise<Comm> {
  const call = 'commCreateFromGroup';
  checkArgs(call, 'group', group, stringtag, info, errhandler);
  if (!group.ranks.includes(h.proc.rank)) throw new MpiError('MPI_ERR_GROUP', `${call}: only the group's ranks call it, and world rank ${h.proc.rank} is not in the group [${group.ranks.join(', ')}]`);
  const id = `${stringtag}|${group.ranks.join(',')}`;
  const c = h.world.registry.commFor(`from-group/${id}/${nextCall(h, id)}`, group.ranks);
  const comm = new Comm(h.world, h.proc, h.state, { ...c, rank: c.inv[h.proc.rank]! });
  comm.setErrhandler(errhandler);
  // the context is agreed over the group (MPICH: an allreduce on it)
  await comm.barrier();
  return comm;
}

/**
 * An intercommunicator between `localGroup`, which holds the calling rank, and the disjoint
 * `remoteGroup`, made from the groups alone (MPI_Intercomm_create_from_groups, MPI 4.0 §7.6.2):
 * collective over both groups; the ranks of a group pass the same groups, leaders and
 * `stringtag`, and the other group's ranks pass them the other way round. `localLeader` and
 * `remoteLeader` are ranks in the groups (MPICH's leaders swap the groups; here both groups are
 * known to every rank, so they only have to be valid). The new intercommunicator has `errhandler`;
 * `info`'s hints are accepted and ignored.
 */
export async function intercommCreateFromGroups(h: FromGroupsHost, localGroup: Group, localLeader: number, remoteGroup: Group, remoteLeader: number, stringtag: string, info?: Info | null, errhandler: Errhandler = ERRORS_ARE_FATAL): Promise<InterComm> {
  const call = 'intercommCreateFromGroups';
  checkArgs(call, 'localGroup', localGroup, stringtag, info, errhandler);
  if (!(remoteGroup instanceof Group)) throw new MpiError('MPI_ERR_GROUP', `${call}: remoteGroup must be a Group, got ${describe(remoteGroup)}`);
  const local = localGroup.ranks;
  const remote = remoteGroup.ranks;
  if (!local.includes(h.proc.rank)) throw new MpiError('MPI_ERR_GROUP', `${call}: world rank ${h.proc.rank} is not in localGroup [${local.join(', ')}]: the ranks of each group pass their own group as localGroup`);
  if (remote.length === 0) throw new MpiError('MPI_ERR_GROUP', `${call}: remoteGroup is empty`);
  const both = remote.find((w) => local.includes(w));
  if (both !== undefined) throw new MpiError('MPI_ERR_GROUP', `${call}: world rank ${both} is in both localGroup and remoteGroup: the groups must be disjoint`);
  checkLeader(call, 'localLeader', localLeader, local.length);
  checkLeader(call, 'remoteLeader', remoteLeader, remote.length);
  const [low, high] = local[0]! < remote[0]! ? [local, remote] : [remote, local];
  const id = `${stringtag}|${low.join(',')}|${high.join(',')}`;
  const { world, proc, state } = h;
  const ic = InterComm.make(world, proc, state, `intercomm-from-groups/${id}/${nextCall(h, id)}`, low, high, (shape) => new Comm(world, proc, state, shape));
  ic.setErrhandler(errhandler);
  // the contexts are agreed over both groups
  await ic.barrier();
  return ic;
}

/** The group, string tag, info and error handler of both calls. */
function checkArgs(call: string, name: string, group: unknown, stringtag: unknown, info: unknown, errhandler: unknown): void {
  if (!(group instanceof Group)) throw new MpiError('MPI_ERR_GROUP', `${call}: ${name} must be a Group, got ${describe(group)}`);
  if (typeof stringtag !== 'string') throw new MpiError('MPI_ERR_TAG', `${call}: stringtag must be a string, got ${describe(stringtag)}`);
  checkInfo(call, info);
  if (!(errhandler instanceof Errhandler)) throw new MpiError('MPI_ERR_ARG', `${call}: errhandler must be mpi.ERRORS_ARE_FATAL, mpi.ERRORS_RETURN or a handler of commCreateErrhandler, got ${describe(errhandler)}`);
}

function checkLeader(call: string, name: string, v: number, size: number): void {
  if (!Number.isInteger(v) || v < 0 || v >= size) throw new MpiError('MPI_ERR_RANK', `${call}: ${name}=${v} is not a rank of its group (0..${size - 1})`);
}

/** How many communicators this rank has made from the groups and tag of `id` before: the ranks pair their calls up in that order. */
function nextCall(h: FromGroupsHost, id: string): number {
  const calls = h.world.registry.memo(`from-groups/${h.proc.rank}`, () => new Map<string, number>());
  const n = calls.get(id) ?? 0;
  calls.set(id, n + 1);
  return n;
}
