/**
 * Every MPI call of phit that a trace format can hold, written and read back: persistent
 * requests (init, startall, free), probes, MPI_Sendrecv_replace, cancel, nonblocking collectives,
 * and MPI-2 one-sided calls (a window made by MPI_Win_create, put, get and accumulate in fence,
 * post/start/complete/wait and lock/unlock epochs, MPI_Win_free). The DUMPI trace holds all but
 * the nonblocking collectives, the OTF2 trace all of them (the one-sided calls in detail:
 * trace-out-otf2-rma.test.ts); each is read back rank by rank with every field, and replayed on
 * another machine with the same calls and bytes.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TraceCall, TraceSource } from '../replay/calls.ts';
import { CallLog, type LoggedCall } from '../replay/call-log.ts';
import { writeDumpi, type WrittenTrace } from '../replay/dumpi-writer.ts';
import { openTrace } from '../replay/open.ts';
import { writeOtf2 } from '../replay/otf2-writer.ts';
import { replayProgram, type RankReplay } from '../replay/replay.ts';
import type { RankContext } from '../runtime/rank.ts';
import { simulate, type SimulateResult } from '../runtime/simulate.ts';

const RANKS = 8;
const tmp = mkdtempSync(join(tmpdir(), 'phit-trace-out-calls-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** Persistent requests, probes, sendrecv_replace and cancel (point-to-point: both formats hold them). */
async function p2p(ctx: RankContext): Promise<void> {
  const { mpi } = ctx;
  const right = (ctx.rank + 1) % ctx.size;
  const left = (ctx.rank + ctx.size - 1) % ctx.size;
  const out = ctx.alloc(Float64Array, 256);
  const inb = ctx.alloc(Float64Array, 256);
  const reqs = [mpi.recvInit(inb, left, 3), mpi.sendInit(out, right, 3)];
  for (let it = 0; it < 2; it++) {
    mpi.startAll(reqs);
    await mpi.waitAll(reqs);
  }
  const one = mpi.ssendInit(out.subarray(0, 4), right, 4);
  const back = mpi.irecv(inb.subarray(0, 4), left, 4);
  mpi.start(one);
  await mpi.waitAll([one, back]);
  for (const r of [...reqs, one]) mpi.requestFree(r);
  await mpi.send(ctx.alloc(Int32Array, 10), right, 7);
  await mpi.probe(left, 7);
  await mpi.iprobe(mpi.ANY_SOURCE, 99);
  await mpi.recv(ctx.alloc(Int32Array, 10), left, 7);
  await mpi.sendrecvReplace(ctx.alloc(Int16Array, 30), right, 8, left, 8);
  await ctx.compute(500_000);
}

/** Nonblocking collectives (OTF2 holds them; DUMPI has no record for them). */
async function nonblocking(ctx: RankContext): Promise<void> {
  const { mpi } = ctx;
  const a = ctx.alloc(Float64Array, 64);
  const b = ctx.alloc(Float64Array, 64 * ctx.size);
  const bc = mpi.ibcast(a.subarray(0, 20), 2);
  await ctx.compute(300_000);
  await mpi.wait(bc);
  const counts = Array.from({ length: ctx.size }, (_, r) => r + 1);
  const displs = counts.map((_, r) => (r * (r + 1)) / 2);
  await mpi.waitAll([mpi.iallreduce(a.subarray(0, 8), b.subarray(0, 8), mpi.SUM), mpi.iallgatherv(a.subarray(0, ctx.rank + 1), b, counts, displs), mpi.ibarrier()]);
}

/** MPI-2 one-sided calls on a window of 64 doubles (DUMPI holds them). */
async function oneSided(ctx: RankContext): Promise<void> {
  const { mpi } = ctx;
  const right = (ctx.rank + 1) % ctx.size;
  const left = (ctx.rank + ctx.size - 1) % ctx.size;
  const mem = ctx.alloc(Float64Array, 64);
  const win = await mpi.winCreate(mem, 8);
  const x = ctx.alloc(Float64Array, 16);
  await win.fence();
  await win.put(x.subarray(0, 4), right, ctx.rank);
  await win.fence();
  await win.get(x.subarray(0, 8), left, 8);
  await win.accumulate(x.subarray(0, 2), right, 16, mpi.SUM);
  await win.fence(mpi.MODE_NOSUCCEED);
  await win.post(mpi.group.incl([left]));
  await win.start(mpi.group.incl([right]));
  await win.put(x.subarray(0, 3), right, 20);
  await win.complete();
  await win.wait();
  await mpi.barrier();
  await win.lock(mpi.LOCK_EXCLUSIVE, right);
  await win.put(x.subarray(0, 5), right, 30);
  await win.unlock(right);
  await win.lock(mpi.LOCK_SHARED, left);
  await win.get(x.subarray(0, 1), left, 40);
  await win.unlock(left);
  await win.free();
}

/** The calls a trace gives back (no computation, no MPI_Init/Finalize or other local calls). */
function readBack(source: TraceSource, rank: number): TraceCall[] {
  const out: TraceCall[] = [];
  const t = source.open(rank);
  for (let c = t.next(); c !== null; c = t.next()) if (c.call !== 'compute' && c.call !== 'local') out.push(c);
  return out;
}

/** What an OTF2 trace keeps of a call: peers, tags, bytes, root, requests (no datatype, op or persistent init, as Score-P writes them). */
function shape(c: TraceCall): string {
  switch (c.call) {
    case 'send':
    case 'recv':
      return `${c.call} ${c.peer}:${c.tag} ${c.bytes} B req ${c.req ?? '-'}`;
    case 'sendrecv':
      return `${c.name} ${c.dest}:${c.sendTag} ${c.sendBytes} B ${c.source}:${c.recvTag} ${c.recvBytes} B`;
    case 'wait':
    case 'waitall':
    case 'waitany':
    case 'waitsome':
    case 'test':
    case 'testall':
    case 'testany':
    case 'testsome':
      return `${c.name} ${(c.reqs ?? []).join(',')}`;
    case 'alltoallv':
    case 'allgatherv':
    case 'gatherv':
    case 'scatterv':
    case 'reduceScatter':
      return `${c.name} ${(c.sendCounts ?? []).map((x) => x * c.typeBytes).join(',')}/${(c.recvCounts ?? []).map((x) => x * c.typeBytes).join(',')} root ${c.root} req ${c.req ?? '-'}`;
    case 'barrier':
    case 'bcast':
    case 'reduce':
    case 'allreduce':
    case 'scan':
    case 'exscan':
    case 'alltoall':
    case 'allgather':
    case 'gather':
    case 'scatter':
      return `${c.name} ${c.count * c.typeBytes} B root ${c.root} req ${c.req ?? '-'}`;
    default:
      // one-sided calls: the OTF2 trace numbers windows across ranks (from 0), the log per rank (from 1); one window here
      return JSON.stringify('win' in c ? { ...c, win: 'the window' } : c);
  }
}

/**
 * A rank's calls as an OTF2 trace of Score-P's records gives them back: a persistent init, free
 * and the probes are regions without events (local calls); each start is the isend or irecv of
 * the operation it starts.
 */
function otf2View(calls: readonly LoggedCall[]): string[] {
  const ops = new Map<number, TraceCall>();
  const out: string[] = [];
  for (const { call: c } of calls) {
    if (c.call === 'init') ops.set(c.req, c.op);
    else if (c.call === 'start') for (const r of c.reqs) out.push(shape(ops.get(r)!));
    else if (c.call !== 'requestFree' && c.call !== 'probe' && c.call !== 'iprobe') out.push(shape(c));
  }
  return out;
}

/** Shapes with request handles numbered in the order calls make them (a trace may reuse a handle, as a persistent request's starts do; a replay's log numbers its own). */
function renumbered(calls: readonly TraceCall[]): string[] {
  const latest = new Map<string, string>();
  let made = 0;
  const named = (r: string): string => latest.get(r) ?? `unknown ${r}`;
  return calls.map((c) =>
    shape(c)
      .replace(/req (\d+)$/, (_, r: string) => {
        latest.set(r, `r${made++}`);
        return `req ${latest.get(r)!}`;
      })
      .replace(/^(MPI_(?:Wait|Test)\w*) ([\d,]+)$/, (_, n: string, rs: string) => `${n} ${rs.split(',').map(named).join(',')}`),
  );
}

/** Totals of a replay's ranks. */
function replayed(r: SimulateResult<RankReplay>): { sent: number; rma: number; unsupported: number } {
  const ranks = r.rankResults;
  return { sent: ranks.reduce((a, x) => a + x.sentBytes, 0), rma: ranks.reduce((a, x) => a + x.rmaBytes, 0), unsupported: ranks.reduce((a, x) => a + Object.keys(x.unsupported).length, 0) };
}

/** Point-to-point bytes each rank sends: two starts of a 256-double persistent send, a 4-double ssend start, 10 ints, 30 shorts (sendrecv_replace). */
const SENT = 2 * 2048 + 32 + 40 + 60;
/** One-sided bytes each rank moves: puts of 4, 3 and 5 doubles, gets of 8 and 1, an accumulate of 2. */
const RMA = 8 * (4 + 3 + 5 + 8 + 1 + 2);

describe('every MPI call a trace format can hold', () => {
  const log = new CallLog(RANKS);
  let dumpi: WrittenTrace;
  let otf2: WrittenTrace;
  beforeAll(async () => {
    await simulate({
      machine: 'xe6',
      nodes: RANKS,
      skeleton: true,
      calls: log,
      program: async (ctx) => {
        await p2p(ctx);
        await nonblocking(ctx);
        await oneSided(ctx);
      },
    });
    dumpi = writeDumpi(tmp, 'calls', log);
    otf2 = writeOtf2(tmp, 'calls', log, 'xe6');
  });

  it('are logged with their fields: requests, peers, tags, bytes, window, target, displacement, group, lock type, assertions', () => {
    expect(log.skipped).toEqual({});
    const c = log.ranks[1]!.calls.map((l) => l.call);
    // rank 1: left neighbour 0, right neighbour 2
    expect(c[0]).toEqual({ call: 'init', name: 'MPI_Recv_init', req: 2, op: { call: 'recv', name: 'MPI_Recv_init', comm: 2, peer: 0, tag: 3, bytes: 2048, req: 2 } });
    expect(c[2]).toEqual({ call: 'start', name: 'MPI_Startall', reqs: [2, 3] });
    expect(c.find((x) => x.name === 'MPI_Ssend_init')).toMatchObject({ op: { mode: 'sync', peer: 2, tag: 4, bytes: 32 } });
    expect(c.filter((x) => x.call === 'requestFree').map((x) => x.call === 'requestFree' && x.req)).toEqual([2, 3, 4]);
    expect(c.find((x) => x.call === 'probe')).toEqual({ call: 'probe', name: 'MPI_Probe', comm: 2, peer: 0, tag: 7 });
    expect(c.find((x) => x.call === 'iprobe')).toEqual({ call: 'iprobe', name: 'MPI_Iprobe', comm: 2, peer: -1, tag: 99 });
    expect(c.find((x) => x.name === 'MPI_Sendrecv_replace')).toMatchObject({ dest: 2, source: 0, sendBytes: 60, recvBytes: 60 });
    expect(c.find((x) => x.name === 'MPI_Ibcast')).toMatchObject({ call: 'bcast', count: 20, typeBytes: 8, root: 2 });
    expect(c.find((x) => x.name === 'MPI_Iallgatherv')).toMatchObject({ sendCounts: [2], recvCounts: [1, 2, 3, 4, 5, 6, 7, 8] });
    expect(c.find((x) => x.call === 'winCreate')).toEqual({ call: 'winCreate', name: 'MPI_Win_create', comm: 2, win: 1, bytes: 512, dispUnit: 8 });
    expect(c.filter((x) => x.call === 'put').map((x) => x.call === 'put' && [x.target, x.disp, x.count, x.typeBytes])).toEqual([[2, 1, 4, 8], [2, 20, 3, 8], [2, 30, 5, 8]]);
    expect(c.find((x) => x.call === 'accumulate')).toMatchObject({ target: 2, disp: 16, count: 2, op: 'sum' });
    expect(c.filter((x) => x.call === 'fence').map((x) => x.call === 'fence' && x.assert)).toEqual([0, 0, 16]);
    expect(c.find((x) => x.call === 'winPost')).toMatchObject({ group: [0] });
    expect(c.find((x) => x.call === 'winStart')).toMatchObject({ group: [2] });
    expect(c.filter((x) => x.call === 'lock').map((x) => x.call === 'lock' && [x.target, x.exclusive])).toEqual([[2, true], [0, false]]);
  });

  it("DUMPI: phit's reader gives back every call but the nonblocking collectives, field by field, rank by rank", () => {
    expect(dumpi.omitted).toEqual({ MPI_Ibcast: RANKS, MPI_Wait: RANKS, MPI_Iallreduce: RANKS, MPI_Iallgatherv: RANKS, MPI_Ibarrier: RANKS, MPI_Waitall: RANKS });
    const source = openTrace(dumpi.path);
    const nb = new Set(['MPI_Ibcast', 'MPI_Wait', 'MPI_Iallreduce', 'MPI_Iallgatherv', 'MPI_Ibarrier']);
    for (let r = 0; r < RANKS; r++) {
      const calls = log.ranks[r]!.calls.map((l) => l.call);
      // the nonblocking collectives' waits: the MPI_Wait and the waitall of three collectives
      const want = calls.filter((c) => !nb.has(c.name) && !(c.call === 'waitall' && c.reqs!.length === 3));
      expect(readBack(source, r)).toEqual(want);
    }
  });

  it("OTF2: phit's reader gives back every call, as Score-P's records (and phit's attributes on the one-sided ones) keep them", () => {
    expect(otf2.omitted).toEqual({});
    const source = openTrace(otf2.path);
    for (let r = 0; r < RANKS; r++) expect(readBack(source, r).map(shape)).toEqual(otf2View(log.ranks[r]!.calls));
  });

  it('the DUMPI trace replays on another machine (xc30) with the same calls, rank by rank, and the same bytes', async () => {
    const source = openTrace(dumpi.path);
    const again = new CallLog(RANKS);
    const r = await simulate({ machine: 'xc30', nodes: RANKS, skeleton: true, calls: again, program: replayProgram(source) });
    expect(again.skipped).toEqual({});
    const back = openTrace(dumpi.path);
    for (let k = 0; k < RANKS; k++) expect(again.ranks[k]!.calls.map((l) => l.call)).toEqual(readBack(back, k));
    expect(replayed(r)).toEqual({ sent: RANKS * SENT, rma: RANKS * RMA, unsupported: 0 });
  });

  it('the OTF2 trace replays on xc30: nonblocking collectives as themselves with their waits, persistent starts as their sends and receives, the one-sided calls', async () => {
    const source = openTrace(otf2.path);
    const again = new CallLog(RANKS);
    const r = await simulate({ machine: 'xc30', nodes: RANKS, skeleton: true, calls: again, program: replayProgram(source) });
    expect(again.skipped).toEqual({});
    // a fresh reader: the replay's moved the cursors that read the other ranks' counted collectives
    const back = openTrace(otf2.path);
    for (let k = 0; k < RANKS; k++) expect(renumbered(again.ranks[k]!.calls.map((l) => l.call))).toEqual(renumbered(readBack(back, k)));
    expect(replayed(r)).toEqual({ sent: RANKS * SENT, rma: RANKS * RMA, unsupported: 0 });
  });

  it.skipIf(DUMPI2ASCII === null)("DUMPI's own reader (dumpi2ascii) reads every record: persistent requests, probes, windows, groups", () => {
    for (let r = 0; r < RANKS; r++) {
      const p = spawnSync(DUMPI2ASCII!, ['-H', '-S', '-F', join(tmp, `calls-000${r}.bin`)], { encoding: 'utf8', maxBuffer: 1 << 26 });
      expect(p.status, p.stderr).toBe(0);
      const entered: Record<string, number> = {};
      for (const m of p.stdout.matchAll(/^(MPI_\w+) entering at walltime/gm)) entered[m[1]!] = (entered[m[1]!] ?? 0) + 1;
      // every call DUMPI holds, MPI_Init and MPI_Finalize, and each epoch's group (MPI_Comm_group, MPI_Group_incl)
      const want: Record<string, number> = { MPI_Init: 1, MPI_Finalize: 1, MPI_Comm_group: 2, MPI_Group_incl: 2 };
      for (const c of readBack(openTrace(dumpi.path), r)) want[c.name] = (want[c.name] ?? 0) + 1;
      expect(entered).toEqual(want);
      for (const [name, n] of Object.entries(want)) expect(p.stdout).toContain(`${name} called ${n} times`);
      // the first put: 4 doubles to the right neighbour at displacement r
      expect(p.stdout).toMatch(new RegExp(`MPI_Put entering[^\n]*\nint origincount=4\nMPI_Datatype origintype=14 \\(MPI_DOUBLE\\)\nint targetrank=${(r + 1) % RANKS}\nint targetdisp=${r}\n`));
    }
  });

  it.skipIf(!hasOtf2Print())("OTF2's own reader (otf2-print) reads the nonblocking collectives' requests and completions and the persistent starts", () => {
    const p = spawnSync('otf2-print', [otf2.path], { encoding: 'utf8', maxBuffer: 1 << 26 });
    expect(p.status, p.stderr).toBe(0);
    const count = (re: RegExp): number => p.stdout.match(re)?.length ?? 0;
    // 4 nonblocking collectives per rank
    expect(count(/^NON_BLOCKING_COLLECTIVE_REQUEST /gm)).toBe(4 * RANKS);
    expect(count(/^NON_BLOCKING_COLLECTIVE_COMPLETE /gm)).toBe(4 * RANKS);
    expect(count(/^NON_BLOCKING_COLLECTIVE_COMPLETE .*Operation: BCAST, Communicator: "MPI_COMM_WORLD" <0>, Root: 2/gm)).toBe(RANKS);
    // each rank's isends: 2 starts of the persistent send and one of the ssend
    expect(count(/^MPI_ISEND /gm)).toBe(3 * RANKS);
    expect(count(/^ENTER .*Region: "MPI_Probe"/gm)).toBe(RANKS);
    expect(count(/^ENTER .*Region: "MPI_Send_init"/gm)).toBe(RANKS);
  });
});

/** DUMPI's dumpi2ascii: $PHIT_DUMPI2ASCII, else on the PATH (scripts/dumpi-tools.sh builds it), else null. */
const DUMPI2ASCII = ((): string | null => {
  const tool = process.env.PHIT_DUMPI2ASCII ?? 'dumpi2ascii';
  if (spawnSync(tool, ['-h']).error === undefined) return tool;
  console.warn('dumpi2ascii test skipped: dumpi2ascii is not installed (scripts/dumpi-tools.sh builds it; set PHIT_DUMPI2ASCII to its path)');
  return null;
})();

/** Whether OTF2's otf2-print is installed (Debian's otf2-tools). */
function hasOtf2Print(): boolean {
  const ok = spawnSync('otf2-print', ['--version']).status === 0;
  if (!ok) console.warn('otf2-print test skipped: otf2-print is not installed (Debian package otf2-tools)');
  return ok;
}
