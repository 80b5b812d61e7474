/**
 * Writing a run's MPI calls as a trace (`phit run --dumpi/--otf2/--simgrid DIR`): a program's
 * calls, logged as it runs, are written by the DUMPI, OTF2 and SimGrid writers, read back by
 * phit's own readers and replayed on another machine; the replay makes the same calls, rank by
 * rank, with the same bytes. OTF2's own reader (otf2-print, Debian's otf2-tools) must read the
 * OTF2 archive too.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TraceCall, TraceSource } from '../replay/calls.ts';
import { CallLog } from '../replay/call-log.ts';
import { writeDumpi, type WrittenTrace } from '../replay/dumpi-writer.ts';
import { openTrace } from '../replay/open.ts';
import { writeOtf2 } from '../replay/otf2-writer.ts';
import { replayProgram } from '../replay/replay.ts';
import { writeSimgrid } from '../replay/simgrid-writer.ts';
import type { Request } from '../runtime/mpi/mpi.ts';
import type { RankContext } from '../runtime/rank.ts';
import { simulate, type SimulateResult } from '../runtime/simulate.ts';
import { phit } from './helpers.ts';
import { expectTracedCalls } from './replay-checks.ts';

const RANKS = 8;
const tmp = mkdtempSync(join(tmpdir(), 'phit-trace-out-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** A ring of irecv/isend + waitall, an allreduce, an alltoall, bcast and reduce, wait on single requests, a sendrecv, and collectives on a split communicator. */
async function mix(ctx: RankContext): Promise<void> {
  const { mpi } = ctx;
  const right = (ctx.rank + 1) % ctx.size;
  const left = (ctx.rank + ctx.size - 1) % ctx.size;
  const a = ctx.alloc(Float64Array, 512);
  const b = ctx.alloc(Float64Array, 512);
  for (let it = 0; it < 3; it++) {
    await ctx.compute(2_000_000 * (ctx.rank + 1));
    const reqs: Request[] = [mpi.irecv(b, left, it), mpi.isend(a, right, it)];
    await mpi.waitAll(reqs);
  }
  await mpi.allreduce(a.subarray(0, 16), b.subarray(0, 16), mpi.MAX);
  await mpi.alltoall(ctx.alloc(Int32Array, 4 * ctx.size), ctx.alloc(Int32Array, 4 * ctx.size));
  await mpi.bcast(a.subarray(0, 100), 3);
  await mpi.reduce(a.subarray(0, 10), ctx.rank === 1 ? b.subarray(0, 10) : null, mpi.SUM, 1);
  const s = mpi.isend(a.subarray(0, 8), right, 9);
  const r = mpi.irecv(b.subarray(0, 8), left, 9);
  await mpi.wait(r);
  await s.wait();
  await mpi.sendrecv(a.subarray(0, 64), right, 5, b.subarray(0, 64), left, 5);
  const half = (await mpi.split(ctx.rank % 2, ctx.size - ctx.rank))!;
  await half.allreduce(a.subarray(0, 4), b.subarray(0, 4), mpi.SUM);
  await half.bcast(a.subarray(0, 32), 0);
  await half.free();
  await ctx.compute(1_000_000);
  await mpi.barrier();
}

/** The calls a program made that a trace holds (no computation, no MPI_Init/Finalize). */
function readBack(source: TraceSource, rank: number): TraceCall[] {
  const out: TraceCall[] = [];
  const t = source.open(rank);
  for (let c = t.next(); c !== null; c = t.next()) if (c.call !== 'compute' && c.call !== 'local') out.push(c);
  return out;
}

/** The computation a trace gives one rank (ps). */
function computePs(source: TraceSource, rank: number): number {
  let ps = 0;
  const t = source.open(rank);
  for (let c = t.next(); c !== null; c = t.next()) if (c.call === 'compute') ps += c.ps;
  return ps;
}

/** What every format keeps of a call: its function, peers, tags, bytes and root (OTF2 keeps no datatype, op or handles). */
function shape(c: TraceCall): string {
  const sum = (xs: readonly number[] | null): number => (xs ?? []).reduce((x, y) => x + y, 0);
  switch (c.call) {
    case 'send':
    case 'recv':
      return `${c.name} peer ${c.peer} tag ${c.tag} ${c.bytes} B${c.req !== undefined ? ' nb' : ''}`;
    case 'sendrecv':
      return `${c.name} to ${c.dest}:${c.sendTag} ${c.sendBytes} B from ${c.source}:${c.recvTag} ${c.recvBytes} B`;
    case 'wait':
    case 'waitall':
    case 'test':
    case 'testall':
    case 'waitany':
    case 'testany':
    case 'waitsome':
    case 'testsome':
      return `${c.name} ${(c.reqs ?? []).length} requests`;
    case 'split':
    case 'dup':
    case 'free':
      return c.name;
    case 'alltoallv':
    case 'allgatherv':
    case 'gatherv':
    case 'scatterv':
    case 'reduceScatter':
      return `${c.name} ${sum(c.sendCounts) * c.typeBytes}/${sum(c.recvCounts) * c.typeBytes} B root ${c.root}`;
    case 'compute':
    case 'local':
    case 'unsupported':
      return c.name;
    default:
      if (!('root' in c) || !('count' in c)) return JSON.stringify(c);
      return `${c.name} ${c.count * c.typeBytes} B root ${c.root}${c.req !== undefined ? ' nb' : ''}`;
  }
}

/** The program's calls, rank by rank, as shapes. */
function shapes(log: CallLog): string[][] {
  return log.ranks.map((r) => r.calls.map((l) => shape(l.call)));
}

/** Replays `source` on `machine`, logging the replay's own MPI calls. */
async function replayLogged(source: TraceSource, machine: string): Promise<{ r: SimulateResult<unknown>; log: CallLog }> {
  const log = new CallLog(source.ranks);
  const r = await simulate({ machine, nodes: source.ranks, skeleton: true, metrics: true, calls: log, program: replayProgram(source) });
  return { r, log };
}

describe('a run written as DUMPI, OTF2 and SimGrid traces', () => {
  const log = new CallLog(RANKS);
  let run: SimulateResult<void>;
  beforeAll(async () => {
    run = await simulate({ machine: 'xe6', nodes: RANKS, skeleton: true, calls: log, program: mix });
    writeDumpi(tmp, 'mix', log);
    writeOtf2(tmp, 'mix', log, 'xe6');
    writeSimgrid(tmp, 'mix', log);
  });

  it('logs each call of the program with its arguments, in order, between its entry and exit', () => {
    expect(log.skipped).toEqual({});
    const names = log.ranks[2]!.calls.map((l) => l.call.name);
    expect(names).toEqual([
      ...Array<string[]>(3).fill(['MPI_Irecv', 'MPI_Isend', 'MPI_Waitall']).flat(),
      'MPI_Allreduce', 'MPI_Alltoall', 'MPI_Bcast', 'MPI_Reduce', 'MPI_Isend', 'MPI_Irecv', 'MPI_Wait', 'MPI_Wait', 'MPI_Sendrecv',
      'MPI_Comm_split', 'MPI_Allreduce', 'MPI_Bcast', 'MPI_Comm_free', 'MPI_Barrier',
    ]);
    const calls = log.ranks[2]!.calls;
    expect(calls[1]!.call).toEqual({ call: 'send', name: 'MPI_Isend', mode: 'standard', comm: 2, peer: 3, tag: 0, bytes: 4096, req: 3 });
    expect(calls[9]!).toMatchObject({ type: 'MPI_DOUBLE', typeBytes: 8, call: { call: 'allreduce', count: 16, op: 'max', comm: 2 } });
    expect(calls[10]!).toMatchObject({ type: 'MPI_INT', typeBytes: 4, call: { call: 'alltoall', count: 4 } });
    // the split: colour 0 for even ranks, keys reversing the order; rank 2 is rank 2 of 0, 2, 4, 6 reversed
    expect(calls[18]!.call).toEqual({ call: 'split', name: 'MPI_Comm_split', comm: 2, color: 0, key: 6, newComm: 4 });
    expect(log.ranks[2]!.comms.get(4)!.members).toEqual([6, 4, 2, 0]);
    for (const r of log.ranks) {
      let t = 0;
      for (const c of r.calls) {
        expect(c.fromPs).toBeGreaterThanOrEqual(t);
        expect(c.toPs).toBeGreaterThanOrEqual(c.fromPs);
        t = c.toPs;
      }
      expect(r.endPs).toBeGreaterThanOrEqual(t);
    }
    expect(Math.max(...log.ranks.map((r) => r.endPs)) / 1e6).toBeCloseTo(run.simulatedTimeUs, 6);
  });

  it("DUMPI: phit's reader gives back every call as logged, and the time between calls to the ns", () => {
    const source = openTrace(join(tmp, 'mix.meta'));
    expect(source.ranks).toBe(RANKS);
    for (let r = 0; r < RANKS; r++) {
      expect(readBack(source, r)).toEqual(log.ranks[r]!.calls.map((l) => l.call));
      const calls = log.ranks[r]!.calls;
      const gaps = calls.reduce((s, c, i) => s + c.fromPs - (i === 0 ? 0 : calls[i - 1]!.toPs), 0) + log.ranks[r]!.endPs - calls[calls.length - 1]!.toPs;
      expect(Math.abs(computePs(source, r) - gaps)).toBeLessThan(1000 * (calls.length + 2));
      expect(computePs(source, r)).toBeGreaterThan(2e6 * (r + 1) * 3);
    }
  });

  it("OTF2: phit's reader gives back every call with its peers, tags and bytes (OTF2 records no datatype or op)", () => {
    const source = openTrace(join(tmp, 'mix.otf2'));
    expect(source.ranks).toBe(RANKS);
    const want = shapes(log);
    for (let r = 0; r < RANKS; r++) expect(readBack(source, r).map(shape)).toEqual(want[r]);
  });

  it("SimGrid: phit's reader gives back the world communicator's messages and collectives", () => {
    const source = openTrace(join(tmp, 'mix.trace'));
    const got = readBack(source, 5).filter((c) => c.call === 'send' || c.call === 'recv' || c.call === 'sendrecv');
    const want = log.ranks[5]!.calls.map((l) => l.call).filter((c) => c.call === 'send' || c.call === 'recv' || c.call === 'sendrecv');
    expect(got.map((c) => (c.call === 'sendrecv' ? c.sendBytes + c.recvBytes : c.bytes))).toEqual(want.map((c) => (c.call === 'sendrecv' ? c.sendBytes + c.recvBytes : c.bytes)));
    expect(readBack(source, 5).map((c) => c.name)).toContain('alltoall');
  });

  for (const file of ['mix.meta', 'mix.otf2']) {
    it(`${file} replays on another machine (xc30) with the same calls, rank by rank, and the program's bytes`, async () => {
      const { r, log: again } = await replayLogged(openTrace(join(tmp, file)), 'xc30');
      expect(r.machine).toBe('xc30');
      expect(again.skipped).toEqual({});
      expect(shapes(again)).toEqual(shapes(log));
      const want: Record<string, number> = {};
      for (const rank of log.ranks) for (const l of rank.calls) want[l.call.name] = (want[l.call.name] ?? 0) + 1;
      expectTracedCalls(r, want, { MPI_Isend: RANKS * (3 * 4096 + 64), MPI_Alltoall: RANKS * 16 * RANKS, MPI_Sendrecv: RANKS * 512 });
    });
  }

  it.skipIf(DUMPI2ASCII === null)("DUMPI's own reader (dumpi2ascii) reads every rank's file: header, calls and footer counts", () => {
    for (let r = 0; r < RANKS; r++) {
      const p = spawnSync(DUMPI2ASCII!, ['-H', '-S', '-F', join(tmp, `mix-000${r}.bin`)], { encoding: 'utf8' });
      expect(p.status, p.stderr).toBe(0);
      expect(p.stdout).toContain('version=13.0.0');
      const entered: Record<string, number> = {};
      for (const m of p.stdout.matchAll(/^(MPI_\w+) entering at walltime/gm)) entered[m[1]!] = (entered[m[1]!] ?? 0) + 1;
      const want: Record<string, number> = { MPI_Init: 1, MPI_Finalize: 1 };
      for (const l of log.ranks[r]!.calls) want[l.call.name] = (want[l.call.name] ?? 0) + 1;
      expect(entered).toEqual(want);
      for (const [name, n] of Object.entries(want)) expect(p.stdout).toContain(`${name} called ${n} times`);
      // rank r's isends go to its right neighbour, as MPI_DOUBLE
      expect(p.stdout).toMatch(new RegExp(`MPI_Isend entering[^\n]*\nint count=512\nMPI_Datatype datatype=14 \\(MPI_DOUBLE\\)\nint dest=${(r + 1) % RANKS}\n`));
    }
  });

  it.skipIf(!hasOtf2Print())("OTF2's own reader (otf2-print) reads the archive: each rank enters every call's region", () => {
    const p = spawnSync('otf2-print', [join(tmp, 'mix.otf2')], { encoding: 'utf8' });
    expect(p.status, p.stderr).toBe(0);
    const enters: Record<string, number> = {};
    for (const m of p.stdout.matchAll(/^ENTER .*Region: "([^"]+)"/gm)) enters[m[1]!] = (enters[m[1]!] ?? 0) + 1;
    const want: Record<string, number> = { MPI_Init: RANKS, MPI_Finalize: RANKS };
    for (const rank of log.ranks) for (const l of rank.calls) want[l.call.name] = (want[l.call.name] ?? 0) + 1;
    expect(enters).toEqual(want);
    expect(p.stdout.match(/^MPI_COLLECTIVE_END .*Operation: ALLTOALL, Communicator: "MPI_COMM_WORLD" <0>, Root: NONE, Sent: 128, Received: 128/gm)).toHaveLength(RANKS);
  });
});

describe('calls a trace format cannot say', () => {
  it('are left out and counted, with the requests they made; a sendrecv of two datatypes keeps its bytes', async () => {
    const log = new CallLog(4);
    await simulate({
      machine: 'xe6',
      nodes: 4,
      skeleton: true,
      calls: log,
      program: async (ctx) => {
        const { mpi } = ctx;
        const buf = ctx.alloc(Float64Array, 8);
        // no format here has persistent collectives: left out of every trace
        const p = mpi.bcastInit(buf, 0);
        mpi.start(p);
        await mpi.wait(p);
        mpi.requestFree(p);
        // nor MPI_Win_lock_all: the window's calls from then on are left out, the epoch they need being missing
        const win = await mpi.winCreate(ctx.alloc(Float64Array, 4), 8);
        await win.lockAll();
        await win.put(buf.subarray(0, 1), 0, 0);
        await win.unlockAll();
        await win.free();
        // DUMPI has no nonblocking collectives (OTF2 has)
        await mpi.ibcast(buf, 0).wait();
        await mpi.waitAll([mpi.ibarrier()]);
        const right = (ctx.rank + 1) % ctx.size;
        const left = (ctx.rank + ctx.size - 1) % ctx.size;
        await mpi.sendrecv(buf, 2, mpi.DOUBLE, right, 1, ctx.alloc(Int32Array, 5), 5, mpi.INT, left, 1);
      },
    });
    expect(log.skipped).toEqual({ MPI_Bcast_init: 4, MPI_Start: 4, MPI_Wait: 4, MPI_Request_free: 4, MPI_Win_lock_all: 4, MPI_Put: 4, MPI_Win_unlock_all: 4, MPI_Win_free: 4 });
    const sendrecv = { call: 'sendrecv', name: 'MPI_Sendrecv', comm: 2, dest: 1, sendTag: 1, sendBytes: 16, source: 3, recvTag: 1, recvBytes: 20 };
    expect(log.ranks[0]!.calls.map((l) => l.call.name)).toEqual(['MPI_Win_create', 'MPI_Ibcast', 'MPI_Wait', 'MPI_Ibarrier', 'MPI_Waitall', 'MPI_Sendrecv']);
    const w = writeDumpi(tmp, 'left-out', log);
    expect(w.omitted).toEqual({ MPI_Ibcast: 4, MPI_Wait: 4, MPI_Ibarrier: 4, MPI_Waitall: 4 });
    expect(readBack(openTrace(w.path), 0)).toEqual([{ call: 'winCreate', name: 'MPI_Win_create', comm: 2, win: 1, bytes: 32, dispUnit: 8 }, sendrecv]);
    // what is left replays
    const again = await simulate({ machine: 'xc30', nodes: 4, skeleton: true, program: replayProgram(openTrace(w.path)) });
    expect(again.rankResults[0]!.issued).toBe(2);
    const o = writeOtf2(tmp, 'left-out', log, 'xe6');
    // OTF2 holds them all (the window too, with its size: its calls after MPI_Win_lock_all were left out of the log)
    expect(o.omitted).toEqual({});
    expect(readBack(openTrace(o.path), 0).map((c) => c.name)).toEqual(['MPI_Win_create', 'MPI_Ibcast', 'MPI_Wait', 'MPI_Ibarrier', 'MPI_Waitall', 'MPI_Sendrecv']);
    expect(readBack(openTrace(o.path), 0)[0]).toEqual({ call: 'winCreate', name: 'MPI_Win_create', comm: 2, win: 0, bytes: 32, dispUnit: 8 });
  });
});

describe('OTF2 event files larger than a chunk', () => {
  // two ranks exchanging 4,000 messages: 300 KiB of events per rank, over two chunks of 256 KiB (OTF2's smallest)
  const log = new CallLog(2);
  const N = 4000;
  for (const [r, rank] of log.ranks.entries()) {
    rank.comms.set(2, { handle: 2, key: 'world', members: [0, 1], parent: null });
    for (let i = 0; i < N; i++) {
      const t = i * 1_000_000;
      const at = { type: 'MPI_BYTE', typeBytes: 1 };
      rank.calls.push({ call: { call: 'recv', name: 'MPI_Irecv', comm: 2, peer: 1 - r, tag: i, bytes: 8, req: 2 * i + 2 }, fromPs: t, toPs: t, ...at });
      rank.calls.push({ call: { call: 'send', name: 'MPI_Isend', mode: 'standard', comm: 2, peer: 1 - r, tag: i, bytes: 8, req: 2 * i + 3 }, fromPs: t + 10, toPs: t + 20, ...at });
      rank.calls.push({ call: { call: 'waitall', name: 'MPI_Waitall', reqs: [2 * i + 2, 2 * i + 3] }, fromPs: t + 20, toPs: t + 500_000, completed: [2 * i + 2, 2 * i + 3], ...at });
    }
    rank.endPs = N * 1_000_000;
  }

  let w: WrittenTrace;
  beforeAll(() => {
    w = writeOtf2(tmp, 'chunked', log, 'xe6', { chunkSizeEvents: 256 * 1024 });
  });

  it("are cut into chunks that phit's reader reads whole", () => {
    expect(statSync(join(tmp, 'chunked', '0.evt')).size).toBeGreaterThan(256 * 1024);
    expect(w.records).toBe(2 * (4 + N * 10));
    const back = readBack(openTrace(w.path), 1);
    expect(back.map(shape)).toEqual(log.ranks[1]!.calls.map((l) => shape(l.call)));
    expect(() => writeOtf2(tmp, 'small', log, 'xe6', { chunkSizeEvents: 1024 })).toThrow(/chunks of 262144 to 16777216 bytes/);
  });

  it.skipIf(!hasOtf2Print())('are read by otf2-print', () => {
    const p = spawnSync('otf2-print', [w.path], { encoding: 'utf8', maxBuffer: 1 << 28 });
    expect(p.status, p.stderr).toBe(0);
    expect(p.stdout.match(/^MPI_ISEND /gm)).toHaveLength(2 * N);
    expect(p.stdout.match(/^MPI_IRECV /gm)).toHaveLength(2 * N);
  });
});

describe('phit run --dumpi / --otf2', () => {
  it('writes the traces of an app, and phit replay runs them on another machine', async () => {
    const dir = join(tmp, 'cli');
    const run = await phit('run', 'halo3d', '--nodes', '8', '--param', 'nx=8', '--param', 'ny=8', '--param', 'nz=8', '--param', 'iterations=2', '--dumpi', dir, '--otf2', dir);
    expect(run.code, run.err.join('\n')).toBe(0);
    expect(run.out.some((l) => l.startsWith(`dumpi trace: ${join(dir, 'halo3d.meta')} (9 files`))).toBe(true);
    expect(run.out.some((l) => l.startsWith(`otf2 trace: ${join(dir, 'halo3d.otf2')} (18 files`))).toBe(true);
    for (const file of ['halo3d.meta', 'halo3d.otf2']) {
      const rep = await phit('replay', join(dir, file), '--machine', 'xc30', '--json');
      expect(rep.code, rep.err.join('\n')).toBe(0);
      const j = JSON.parse(rep.out[0]!) as { machine: string; ranks: number; traced: Record<string, number>; sentBytes: number; unsupported: object };
      expect(j.machine).toBe('xc30');
      // 8 ranks, 2 iterations, 6 faces of 8x8 doubles each
      expect(j.traced.MPI_Isend).toBe(8 * 2 * 6);
      expect(j.traced.MPI_Waitall).toBe(8 * 2);
      expect(j.sentBytes).toBe(8 * 2 * 6 * 64 * 8);
      expect(j.unsupported).toEqual({});
    }
  });

  it('a trace folder that is a file is bad input: one line naming the option, exit code 2', async () => {
    const file = join(tmp, 'a-file');
    writeFileSync(file, '');
    for (const flag of ['--dumpi', '--otf2', '--simgrid']) {
      const r = await phit('run', 'pingpong', flag, file);
      expect(r.code).toBe(2);
      expect(r.err).toHaveLength(1);
      expect(r.err[0]).toContain(`${flag} ${file}: is a file`);
    }
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
