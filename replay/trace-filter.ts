/**
 * The calls of a run one trace format can hold: a writer keeps the logged calls its format has
 * records for and leaves out the others, with everything that depends on them: the requests
 * they made are taken out of the completion calls that name them (a completion call left with
 * none is left out too), and the starts, frees and cancels of a persistent request whose init was
 * left out go with it. What is left out is counted by MPI name, for the writer's warning.
 */
import type { TraceCall } from './calls.ts';
import type { LoggedCall, RankLog } from './call-log.ts';

/** The request a call makes, if any. */
function madeRequest(c: TraceCall): number | undefined {
  switch (c.call) {
    case 'send':
    case 'recv':
    case 'init':
      return c.req;
    default:
      return 'req' in c && typeof c.req === 'number' && c.call !== 'requestFree' && c.call !== 'cancel' ? c.req : undefined;
  }
}

/** Rank `rank`'s calls that `holds` keeps, with the requests of the others taken out; each call left out is counted in `omitted`. */
export function callsFor(rank: RankLog, holds: (c: TraceCall) => boolean, omitted: Record<string, number>): LoggedCall[] {
  const dropped = new Set<number>();
  const out: LoggedCall[] = [];
  const omit = (name: string): void => {
    omitted[name] = (omitted[name] ?? 0) + 1;
  };
  for (const l of rank.calls) {
    const c = l.call;
    if (!holds(c)) {
      const r = madeRequest(c);
      if (r !== undefined) dropped.add(r);
      omit(c.name);
      continue;
    }
    if (dropped.size === 0) {
      out.push(l);
      continue;
    }
    switch (c.call) {
      case 'wait':
      case 'waitall':
      case 'waitany':
      case 'waitsome':
      case 'test':
      case 'testall':
      case 'testany':
      case 'testsome': {
        const reqs = (c.reqs ?? []).filter((r) => !dropped.has(r));
        if (c.reqs !== null && reqs.length === 0) {
          omit(c.name);
          continue;
        }
        if (c.reqs === null || reqs.length === c.reqs.length) out.push(l);
        else out.push({ ...l, call: { ...c, reqs }, completed: (l.completed ?? []).filter((r) => !dropped.has(r)) });
        break;
      }
      case 'start': {
        const reqs = c.reqs.filter((r) => !dropped.has(r));
        if (reqs.length === 0) omit(c.name);
        else out.push(reqs.length === c.reqs.length ? l : { ...l, call: { ...c, reqs } });
        break;
      }
      case 'requestFree':
      case 'cancel':
        if (dropped.has(c.req)) omit(c.name);
        else out.push(l);
        break;
      default:
        out.push(l);
    }
  }
  return out;
}
