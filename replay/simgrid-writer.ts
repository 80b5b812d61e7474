/**
 * A run's MPI calls written as a SimGrid time-independent trace (what `smpirun -trace-ti` writes
 * and `simgrid.ts` reads): the list `<name>.trace` naming `<name>_files/rank-<n>.txt` (n = rank
 * + 1), each file one action per line, `<rank> <action> <arguments>`. SimGrid's format has world
 * ranks and no communicators: calls on other communicators than MPI_COMM_WORLD (or one of all
 * ranks in world order, as a Cartesian communicator without reordering) are left out
 * (counted in `omitted`), as are the communicator calls themselves but for `comm_split` and
 * `comm_dup` lines, which SimGrid writes too. Counts are elements of SMPI's datatype numbers
 * (0 double, 1 int, 2 char: other element sizes are written as chars); the time between calls
 * is a `sleep` of that many seconds; sendRecv carries no tags (SimGrid's has none).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ANY_SOURCE, ANY_TAG, PROC_NULL, WORLD } from './calls.ts';
import type { CallLog, LoggedCall, RankLog } from './call-log.ts';
import type { WrittenTrace } from './dumpi-writer.ts';

/** SMPI's MPI_PROC_NULL and MPI_ANY_SOURCE as its traces give them. */
const SMPI_PROC_NULL = -666;
const SMPI_ANY = -1;

/** Writes `log` as `<dir>/<name>.trace` and `<dir>/<name>_files/rank-<n>.txt`. */
export function writeSimgrid(dir: string, name: string, log: CallLog): WrittenTrace & { readonly omitted: Record<string, number> } {
  const files = `${name}_files`;
  mkdirSync(join(dir, files), { recursive: true });
  const omitted: Record<string, number> = {};
  let bytes = 0;
  let calls = 0;
  const list: string[] = [];
  log.ranks.forEach((rank, r) => {
    const lines = rankLines(rank, r, log.ranks.length, omitted);
    const text = lines.join('\n') + '\n';
    const file = `${files}/rank-${r + 1}.txt`;
    writeFileSync(join(dir, file), text);
    list.push(file);
    bytes += text.length;
    calls += lines.length;
  });
  const path = join(dir, `${name}.trace`);
  const text = list.join('\n') + '\n';
  writeFileSync(path, text);
  return { path, files: list.length + 1, bytes: bytes + text.length, records: calls, omitted };
}

/** SMPI's datatype number and count for `bytes` of elements of `typeBytes`. */
function dt(bytes: number, typeBytes: number): [number, number] {
  if (typeBytes === 8) return [bytes / 8, 0];
  if (typeBytes === 4) return [bytes / 4, 1];
  return [bytes, 2];
}

/** One rank's actions. */
function rankLines(rank: RankLog, r: number, size: number, omitted: Record<string, number>): string[] {
  const out = [`${r} init`];
  let last = 0;
  const sleep = (ps: number): void => {
    if (ps > last) out.push(`${r} sleep ${((ps - last) / 1e12).toFixed(12)}`);
  };
  const world = (peer: number, comm: number): number => (peer === PROC_NULL ? SMPI_PROC_NULL : peer === ANY_SOURCE ? SMPI_ANY : (rank.comms.get(comm)?.members[peer] ?? peer));
  // a communicator of every rank in world order (a Cartesian one without reordering) is the world to SimGrid
  const worldLike = (comm: number): boolean => comm === WORLD || (rank.comms.get(comm)?.members.every((m, i) => m === i) === true && rank.comms.get(comm)!.members.length === size);
  /** SimGrid's key of each pending request: source, destination, tag. */
  const keys = new Map<number, string>();
  for (const l of rank.calls) {
    const line = action(l, r, size, world, keys, worldLike);
    if (line === null) {
      omitted[l.call.name] = (omitted[l.call.name] ?? 0) + 1;
      continue;
    }
    sleep(l.fromPs);
    out.push(`${r} ${line}`);
    last = Math.max(last, l.toPs);
  }
  sleep(rank.endPs);
  out.push(`${r} finalize`);
  return out;
}

/** The action of one call (without the rank), or null when SimGrid's format cannot say it. */
function action(l: LoggedCall, me: number, size: number, world: (peer: number, comm: number) => number, keys: Map<number, string>, worldLike: (comm: number) => boolean): string | null {
  const c = l.call;
  if ('comm' in c && !worldLike(c.comm) && c.call !== 'split' && c.call !== 'dup') return null;
  // SimGrid's actions have no nonblocking collectives and no persistent requests
  if ('req' in c && c.req !== undefined && c.call !== 'send' && c.call !== 'recv') return null;
  const counts = (xs: readonly number[] | null, n = size): string => (xs && xs.length === n ? xs.join(' ') : null) ?? new Array<number>(n).fill(0).join(' ');
  switch (c.call) {
    case 'send':
    case 'recv': {
      const verb = `${c.req !== undefined ? 'i' : ''}${c.call === 'send' ? (c.mode === 'sync' ? 'ssend' : 'send') : 'recv'}`;
      const peer = world(c.peer, c.comm);
      const tag = c.tag === ANY_TAG ? -1 : c.tag;
      const [n, t] = dt(c.bytes, l.typeBytes);
      if (c.req !== undefined) keys.set(c.req, c.call === 'send' ? `${me} ${peer} ${tag}` : `${peer} ${me} ${tag}`);
      return `${verb} ${peer} ${tag} ${n} ${t}`;
    }
    case 'sendrecv': {
      const [sn, st] = dt(c.sendBytes, l.typeBytes);
      const [rn, rt] = dt(c.recvBytes, l.typeBytes);
      return `sendRecv ${sn} ${world(c.dest, c.comm)} ${rn} ${world(c.source, c.comm)} ${st} ${rt}`;
    }
    case 'wait':
    case 'test': {
      const key = keys.get(c.reqs?.[0] ?? -1);
      if (key === undefined) return null;
      if (c.call === 'wait' || (l.completed ?? []).length > 0) keys.delete(c.reqs![0]!);
      return `${c.call} ${key}`;
    }
    case 'waitall': {
      // SimGrid's waitall waits for every pending request: it says this call only when it named them all
      const named = new Set(c.reqs ?? []);
      if ([...keys.keys()].some((k) => !named.has(k))) return null;
      keys.clear();
      return 'waitall';
    }
    case 'barrier':
      return 'barrier';
    case 'bcast':
    case 'reduce':
    case 'allreduce':
    case 'scan':
    case 'exscan':
    case 'alltoall':
    case 'allgather':
    case 'gather':
    case 'scatter': {
      const [n, t] = dt(c.count * c.typeBytes, c.typeBytes);
      switch (c.call) {
        case 'bcast':
          return `bcast ${n} ${c.root} ${t}`;
        case 'reduce':
          return `reduce ${n} 0 ${c.root} ${t}`;
        case 'allreduce':
        case 'scan':
        case 'exscan':
          return `${c.call} ${n} 0 ${t}`;
        case 'gather':
        case 'scatter':
          return `${c.call} ${n} ${n} ${c.root} ${t} ${t}`;
        default:
          return `${c.call} ${n} ${n} ${t} ${t}`;
      }
    }
    case 'alltoallv':
    case 'allgatherv':
    case 'gatherv':
    case 'scatterv':
    case 'reduceScatter': {
      const t = c.typeBytes === 8 ? 0 : c.typeBytes === 4 ? 1 : 2;
      const k = t === 2 ? c.typeBytes : 1;
      const scale = (xs: readonly number[] | null): number[] | null => (xs ? xs.map((x) => x * k) : null);
      const send = scale(c.sendCounts);
      const recv = scale(c.recvCounts);
      const sum = (xs: readonly number[] | null): number => (xs ?? []).reduce((a, b) => a + b, 0);
      switch (c.call) {
        case 'alltoallv':
          return `alltoallv ${sum(send)} ${counts(send)} ${sum(recv)} ${counts(recv)} ${t} ${t}`;
        case 'allgatherv':
          return `allgatherv ${send?.[0] ?? 0} ${counts(recv)} ${t} ${t}`;
        case 'gatherv':
          return `gatherv ${send?.[0] ?? 0} ${counts(recv)} ${c.root} ${t} ${t}`;
        case 'scatterv':
          return `scatterv ${counts(send)} ${recv?.[0] ?? 0} ${c.root} ${t} ${t}`;
        default:
          return `reducescatter ${counts(recv)} 0 ${t}`;
      }
    }
    case 'split':
      return 'comm_split';
    case 'dup':
      return 'comm_dup';
    default:
      return null;
  }
}
