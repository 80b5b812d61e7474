/**
 * One-sided calls in an OTF2 trace (`phit run --otf2 DIR`): a program's puts, gets and
 * accumulates in fence, post/start/complete/wait and lock/unlock epochs, on a window of the world
 * and one of a split communicator, are written as Score-P's RMA records with phit's attributes
 * (window size and unit, displacement, element size, op, assertions), read back rank by rank with
 * every field, replayed on xc30 with the same calls, bytes and displacements, and read by OTF2's
 * own otf2-print. Without the attributes (a trace as Score-P writes it) the calls replay at
 * displacement 0 on windows sized to the largest access, with one warning. A cut or malformed
 * RMA record fails with the file, the offset and what was expected. Event files of several
 * chunks keep every attribute list with its event.
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TraceFormatError, type TraceCall, type TraceSource } from '../replay/calls.ts';
import { CallLog, type LoggedCall } from '../replay/call-log.ts';
import { openTrace } from '../replay/open.ts';
import { Otf2EventReader } from '../replay/otf2-events.ts';
import { writeOtf2 } from '../replay/otf2-writer.ts';
import { RMA } from '../replay/otf2-rma-records.ts';
import { replayProgram, type RankReplay } from '../replay/replay.ts';
import type { RankContext } from '../runtime/rank.ts';
import { simulate, type SimulateResult } from '../runtime/simulate.ts';
import { phit } from './helpers.ts';

const RANKS = 8;
const tmp = mkdtempSync(join(tmpdir(), 'phit-otf2-rma-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** Puts, gets and accumulates in every kind of epoch, on a window of the world (unit 8) and one of each half of the ranks (unit 1). */
async function oneSided(ctx: RankContext): Promise<void> {
  const { mpi } = ctx;
  const right = (ctx.rank + 1) % ctx.size;
  const left = (ctx.rank + ctx.size - 1) % ctx.size;
  const win = await mpi.winCreate(ctx.alloc(Float64Array, 64), 8);
  const x = ctx.alloc(Float64Array, 16);
  await win.fence();
  await win.put(x.subarray(0, 4), right, ctx.rank);
  await win.get(x.subarray(0, 8), left, 8);
  await win.accumulate(x.subarray(0, 2), right, 16, mpi.MAX);
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
  await win.lock(mpi.LOCK_SHARED, left, mpi.MODE_NOCHECK);
  await win.get(ctx.alloc(Int32Array, 2), left, 40);
  await win.unlock(left);
  await win.free();
  // a window of a split communicator: even and odd ranks, in world order
  const half = (await mpi.split(ctx.rank % 2, ctx.rank))!;
  const hr = (half.rank + 1) % half.size;
  const hl = (half.rank + half.size - 1) % half.size;
  const w2 = await half.winCreate(ctx.alloc(Uint8Array, 100), 1);
  await w2.fence();
  await w2.put(ctx.alloc(Uint8Array, 10), hr, 5);
  await w2.fence();
  await w2.post(half.group.incl([hl]));
  await w2.start(half.group.incl([hr]));
  await w2.put(ctx.alloc(Uint8Array, 6), hr, 50);
  await w2.complete();
  await w2.wait();
  await w2.free();
  await half.free();
}

/** One-sided bytes each rank moves: world window puts of 4, 3 and 5 doubles, gets of 8 doubles and 2 ints, an accumulate of 2 doubles; half window puts of 10 and 6 bytes. */
const RMA_BYTES = 8 * (4 + 3 + 5 + 8 + 2) + 4 * 2 + 10 + 6;

/** A rank's calls from a trace (no computation, no MPI_Init/Finalize or other local calls). */
function readBack(source: TraceSource, rank: number): TraceCall[] {
  const out: TraceCall[] = [];
  const t = source.open(rank);
  for (let c = t.next(); c !== null; c = t.next()) if (c.call !== 'compute' && c.call !== 'local') out.push(c);
  return out;
}

/**
 * Calls with windows and communicators numbered in the order the rank made them (the log numbers
 * a rank's windows from 1, the trace across ranks from 0; the trace's communicators are its
 * definitions' ids, and it keeps a split's members, not its colour and key).
 */
function byCreation(calls: readonly TraceCall[]): TraceCall[] {
  const wins = new Map<number, number>();
  const comms = new Map<number, number>();
  const comm = (h: number): number => {
    if (!comms.has(h)) comms.set(h, comms.size);
    return comms.get(h)!;
  };
  return calls.map((c) => {
    if (c.call === 'split' || c.call === 'dup' || c.call === 'free') return { ...c, comm: comm(c.comm), color: 0, key: 0, newComm: c.newComm === null ? null : comm(c.newComm) };
    if (!('win' in c)) return c;
    if (c.call === 'winCreate') {
      wins.set(c.win, wins.size);
      return { ...c, win: wins.get(c.win)!, comm: comm(c.comm) };
    }
    return { ...c, win: wins.get(c.win) ?? -1 };
  });
}

/** Totals of a replay's ranks. */
function totals(r: SimulateResult<RankReplay>): { rma: number; unsupported: number } {
  return { rma: r.rankResults.reduce((a, x) => a + x.rmaBytes, 0), unsupported: r.rankResults.reduce((a, x) => a + Object.keys(x.unsupported).length, 0) };
}

/** Whether OTF2's otf2-print is installed (Debian's otf2-tools). */
function hasOtf2Print(): boolean {
  const ok = spawnSync('otf2-print', ['--version']).status === 0;
  if (!ok) console.warn('otf2-print test skipped: otf2-print is not installed (Debian package otf2-tools)');
  return ok;
}

describe('one-sided calls in an OTF2 trace', () => {
  const log = new CallLog(RANKS);
  let path = '';
  let bare = '';
  beforeAll(async () => {
    await simulate({ machine: 'xe6', nodes: RANKS, skeleton: true, calls: log, program: oneSided });
    path = writeOtf2(tmp, 'rma', log, 'xe6').path;
    bare = writeOtf2(tmp, 'bare', log, 'xe6', { rmaAttributes: false }).path;
  });

  it('are read back rank by rank with every field: window size and unit, target, displacement, count, element size, op, group, lock type, assertions', () => {
    expect(log.skipped).toEqual({});
    const source = openTrace(path);
    expect(source.warnings).toEqual([]);
    for (let r = 0; r < RANKS; r++) expect(byCreation(readBack(source, r)), `rank ${r}`).toEqual(byCreation(log.ranks[r]!.calls.map((l) => l.call)));
    // rank 1: left 0, right 2; in the odd half (world 1, 3, 5, 7) it is rank 0, its left 3 and right 1
    const c = readBack(source, 1);
    // one window id for the world's window on every rank, one for each half's
    expect(c.filter((x) => x.call === 'winCreate')).toEqual([
      { call: 'winCreate', name: 'MPI_Win_create', comm: 2, win: 0, bytes: 512, dispUnit: 8 },
      { call: 'winCreate', name: 'MPI_Win_create', comm: expect.any(Number) as number, win: 2, bytes: 100, dispUnit: 1 },
    ]);
    expect(readBack(source, 0).filter((x) => x.call === 'winCreate').map((x) => 'win' in x && x.win)).toEqual([0, 1]);
    expect(c.filter((x) => x.call === 'put' || x.call === 'get' || x.call === 'accumulate').map((x) => x.call !== 'put' && x.call !== 'get' && x.call !== 'accumulate' ? null : [x.call, x.target, x.disp, x.count, x.typeBytes, x.op])).toEqual([
      ['put', 2, 1, 4, 8, 'sum'], ['get', 0, 8, 8, 8, 'sum'], ['accumulate', 2, 16, 2, 8, 'max'], ['put', 2, 20, 3, 8, 'sum'], ['put', 2, 30, 5, 8, 'sum'], ['get', 0, 40, 2, 4, 'sum'],
      ['put', 1, 5, 10, 1, 'sum'], ['put', 1, 50, 6, 1, 'sum'],
    ]);
    expect(c.filter((x) => x.call === 'fence').map((x) => x.call === 'fence' && x.assert)).toEqual([0, 16, 0, 0]);
    expect(c.filter((x) => x.call === 'winPost' || x.call === 'winStart').map((x) => (x.call === 'winPost' || x.call === 'winStart') && [x.call, x.group])).toEqual([['winPost', [0]], ['winStart', [2]], ['winPost', [3]], ['winStart', [1]]]);
    expect(c.filter((x) => x.call === 'lock').map((x) => x.call === 'lock' && [x.target, x.exclusive, x.assert])).toEqual([[2, true, 0], [0, false, 1]]);
    expect(c.filter((x) => x.call === 'unlock').map((x) => x.call === 'unlock' && x.target)).toEqual([2, 0]);
  });

  it('replay on xc30 with the same calls rank by rank, the same one-sided bytes and displacements', async () => {
    const again = new CallLog(RANKS);
    const r = await simulate({ machine: 'xc30', nodes: RANKS, skeleton: true, calls: again, program: replayProgram(openTrace(path)) });
    expect(again.skipped).toEqual({});
    const back = openTrace(path);
    for (let k = 0; k < RANKS; k++) expect(byCreation(again.ranks[k]!.calls.map((l) => l.call)), `rank ${k}`).toEqual(byCreation(readBack(back, k)));
    expect(totals(r)).toEqual({ rma: RANKS * RMA_BYTES, unsupported: 0 });
  });

  it.skipIf(!hasOtf2Print())("are read by OTF2's own reader (otf2-print): Score-P's RMA records, matching ids and phit's attributes", () => {
    const p = spawnSync('otf2-print', [path], { encoding: 'utf8', maxBuffer: 1 << 26 });
    expect(p.status, p.stderr).toBe(0);
    expect(p.stderr).toBe('');
    const count = (re: RegExp): number => p.stdout.match(re)?.length ?? 0;
    // two windows per rank; puts: 3 + 2, gets 2, one accumulate; two locks; a start, post, complete and wait per window
    expect(count(/^RMA_WIN_CREATE /gm)).toBe(2 * RANKS);
    expect(count(/^RMA_WIN_DESTROY /gm)).toBe(2 * RANKS);
    expect(count(/^RMA_PUT /gm)).toBe(5 * RANKS);
    expect(count(/^RMA_GET /gm)).toBe(2 * RANKS);
    expect(count(/^RMA_ATOMIC .*Type: ACCUMULATE, Sent: 16, Received: 0/gm)).toBe(RANKS);
    expect(count(/^RMA_REQUEST_LOCK /gm)).toBe(2 * RANKS);
    expect(count(/^RMA_RELEASE_LOCK /gm)).toBe(2 * RANKS);
    expect(count(/^RMA_GROUP_SYNC /gm)).toBe(8 * RANKS);
    // create and free: process level; fences: process and memory
    expect(count(/^RMA_COLLECTIVE_END .*Operation: CREATE_HANDLE, .*\{PROCESS\}/gm)).toBe(2 * RANKS);
    expect(count(/^RMA_COLLECTIVE_END .*Operation: DESTROY_HANDLE, .*\{PROCESS\}/gm)).toBe(2 * RANKS);
    expect(count(/^RMA_COLLECTIVE_END .*Operation: BARRIER, .*\{PROCESS, MEMORY\}/gm)).toBe(4 * RANKS);
    // rank 1's first put: 4 doubles to rank 2 at displacement 1
    expect(p.stdout).toMatch(/^RMA_PUT +1 +\d+ +Window: "MPI window 0" <0>, Remote: 2 \("MPI Rank 2" <2>\), Bytes: 32, Matching: (\d+)\n +ADDITIONAL ATTRIBUTES: \("phit::displacement" <\d+>; UINT64; 1\), \("phit::element_bytes" <\d+>; UINT32; 8\)$/m);
    expect(p.stdout).toMatch(/^RMA_WIN_CREATE +1 +\d+ +Window: "MPI window 0" <0>\n +ADDITIONAL ATTRIBUTES: \("phit::window_bytes" <\d+>; UINT64; 512\), \("phit::displacement_unit" <\d+>; UINT32; 8\)$/m);
    expect(p.stdout).toMatch(/^RMA_ATOMIC +1 .*\n +ADDITIONAL ATTRIBUTES: .*\("phit::op" <\d+>; STRING; "MPI_MAX" <\d+>\)$/m);
    // rank 1's first fence epoch, as Score-P matches them: the put and the accumulate to rank 2 share a matching id, the get has its own;
    // the fence completes both locally and the get remotely too, target by target (the get's is rank 0)
    const mine = p.stdout.split('\n').filter((l) => /^RMA_\w+ +1 /.test(l));
    const put = /Matching: (\d+)/.exec(mine.find((l) => l.startsWith('RMA_PUT'))!)![1];
    const get = /Matching: (\d+)/.exec(mine.find((l) => l.startsWith('RMA_GET'))!)![1];
    expect(put).not.toBe(get);
    expect(mine.find((l) => l.startsWith('RMA_ATOMIC'))).toContain(`Matching: ${put}`);
    const fence = mine.findIndex((l) => l.startsWith('RMA_ATOMIC')) + 1;
    expect(mine.slice(fence, fence + 5).map((l) => l.replace(/ +1 +\d+ +/, ' '))).toEqual([
      'RMA_COLLECTIVE_BEGIN ',
      `RMA_OP_COMPLETE_NON_BLOCKING Window: "MPI window 0" <0>, Matching: ${get}`,
      `RMA_OP_COMPLETE_REMOTE Window: "MPI window 0" <0>, Matching: ${get}`,
      `RMA_OP_COMPLETE_NON_BLOCKING Window: "MPI window 0" <0>, Matching: ${put}`,
      'RMA_COLLECTIVE_END Operation: BARRIER, Window: "MPI window 0" <0>, Level of Synchronicity: {PROCESS, MEMORY}, Root: NONE, Sent: 0, Received: 0',
    ]);
    // the exclusive lock's epoch: requested, the put completed locally and remotely by the unlock, released
    const lock = mine.findIndex((l) => l.startsWith('RMA_REQUEST_LOCK'));
    expect(mine[lock]).toMatch(/Remote: 2 .*Lock: 0, Type: EXCLUSIVE$/);
    expect(mine.slice(lock + 1, lock + 5).map((l) => l.split(/ +/)[0])).toEqual(['RMA_PUT', 'RMA_OP_COMPLETE_NON_BLOCKING', 'RMA_OP_COMPLETE_REMOTE', 'RMA_RELEASE_LOCK']);
  });

  it("without phit's attributes (as Score-P writes them) replay at displacement 0 on windows sized to the largest access, saying so once", async () => {
    const source = openTrace(bare);
    expect(source.warnings).toHaveLength(1);
    expect(source.warnings![0]).toMatch(/no window size or displacement .*displacement 0 on windows sized to the largest access seen \(3 windows, at most 64 bytes\)/);
    const c = readBack(source, 1);
    // the world's window: its largest access is a get of 8 doubles; the odd half's a put of 10 bytes
    expect(c.filter((x) => x.call === 'winCreate').map((x) => x.call === 'winCreate' && [x.bytes, x.dispUnit])).toEqual([[64, 1], [10, 1]]);
    const transfers = c.filter((x) => x.call === 'put' || x.call === 'get' || x.call === 'accumulate');
    expect(transfers.map((x) => (x.call === 'put' || x.call === 'get' || x.call === 'accumulate') && [x.call, x.target, x.disp, x.count * x.typeBytes])).toEqual([
      ['put', 2, 0, 32], ['get', 0, 0, 64], ['accumulate', 2, 0, 16], ['put', 2, 0, 24], ['put', 2, 0, 40], ['get', 0, 0, 8], ['put', 1, 0, 10], ['put', 1, 0, 6],
    ]);
    const r = await simulate({ machine: 'xc30', nodes: RANKS, skeleton: true, program: replayProgram(openTrace(bare)) });
    expect(totals(r)).toEqual({ rma: RANKS * RMA_BYTES, unsupported: 0 });
    const run = await phit('replay', bare, '--machine', 'xc30');
    expect(run.code, run.err.join('\n')).toBe(0);
    expect(run.err.filter((l) => l.includes('warning'))).toEqual([`phit: warning: ${source.warnings![0]!}`]);
  });

  it('a cut or malformed RMA record fails with the file, the offset and what was expected', async () => {
    // rank 1's first RmaPut: type, length, window, remote, bytes, matching id
    const evt = join(tmp, 'rma', '1.evt');
    const reader = new Otf2EventReader(evt, 1 << 20, 0, { string: null, attribute: null, region: null, group: null, comm: null, rmaWin: null });
    let at = -1;
    for (let e = reader.next(); e !== null && at < 0; e = reader.next()) if (e.type === RMA.put) at = e.at;
    expect(at).toBeGreaterThan(0);
    const copy = (name: string): string => {
      mkdirSync(join(tmp, name), { recursive: true });
      for (const f of ['.otf2', '.def']) copyFileSync(join(tmp, `rma${f}`), join(tmp, `${name}${f}`));
      for (let r = 0; r < RANKS; r++) for (const f of ['.evt', '.def']) copyFileSync(join(tmp, 'rma', `${r}${f}`), join(tmp, name, `${r}${f}`));
      return join(tmp, name, '1.evt');
    };
    const failure = (name: string): string => {
      try {
        readBack(openTrace(join(tmp, `${name}.otf2`)), 1);
      } catch (e) {
        expect(e).toBeInstanceOf(TraceFormatError);
        return (e as Error).message;
      }
      return 'no error';
    };
    // cut after the window: the remote rank is missing
    truncateSync(copy('cut'), at + 3);
    expect(failure('cut')).toBe(`${join(tmp, 'cut', '1.evt')}: truncated at byte ${at + 3}: expected a remote rank`);
    const run = await phit('replay', join(tmp, 'cut.otf2'), '--machine', 'xc30');
    expect(run.code).toBe(2);
    expect(run.err.at(-1)).toContain(`truncated at byte ${at + 3}: expected a remote rank`);
    // a length of 1: the fields run past the record
    const bad = copy('short');
    const bytes = readFileSync(bad);
    bytes[at + 1] = 1;
    writeFileSync(bad, bytes);
    expect(failure('short')).toMatch(new RegExp(`^${bad.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: byte \\d+: event record ${RMA.put} at byte ${at} is longer than its record length says$`));
  });
});

describe('one-sided calls over several chunks of an OTF2 event file', () => {
  // two ranks, each putting to the other 3,000 times in lock epochs, displacements 0 to 999: over 256 KiB (OTF2's smallest chunk) per rank
  const N = 3000;
  const log = new CallLog(2);
  for (const [r, rank] of log.ranks.entries()) {
    rank.comms.set(2, { handle: 2, key: 'world', members: [0, 1], parent: null });
    const at = (call: TraceCall, t: number): LoggedCall => ({ call, fromPs: t, toPs: t + 100_000, type: 'MPI_DOUBLE', typeBytes: 8 });
    const sync = { win: 1, group: null, exclusive: true, assert: 0 };
    rank.calls.push(at({ call: 'winCreate', name: 'MPI_Win_create', comm: 2, win: 1, bytes: 8000, dispUnit: 8 }, 0));
    for (let i = 0; i < N; i++) {
      const t = (i + 1) * 1_000_000;
      rank.calls.push(at({ call: 'lock', name: 'MPI_Win_lock', target: 1 - r, ...sync }, t));
      rank.calls.push(at({ call: 'put', name: 'MPI_Put', win: 1, target: 1 - r, disp: i % 1000, count: 1 + (i % 7), typeBytes: 8, op: 'sum' }, t + 200_000));
      rank.calls.push(at({ call: 'unlock', name: 'MPI_Win_unlock', target: 1 - r, ...sync, exclusive: false }, t + 400_000));
    }
    rank.calls.push(at({ call: 'winFree', name: 'MPI_Win_free', target: -1, ...sync, exclusive: false }, (N + 1) * 1_000_000));
    rank.endPs = (N + 2) * 1_000_000;
  }
  let path = '';
  beforeAll(() => {
    path = writeOtf2(tmp, 'chunked', log, 'xe6', { chunkSizeEvents: 256 * 1024 }).path;
  });

  it("are read back whole by phit's reader, every attribute with its event", () => {
    expect(statSync(join(tmp, 'chunked', '0.evt')).size).toBeGreaterThan(256 * 1024);
    for (let r = 0; r < 2; r++) expect(byCreation(readBack(openTrace(path), r))).toEqual(byCreation(log.ranks[r]!.calls.map((l) => l.call)));
  });

  it.skipIf(!hasOtf2Print())('are read by otf2-print, every put with its attributes', () => {
    const p = spawnSync('otf2-print', [path], { encoding: 'utf8', maxBuffer: 1 << 28 });
    expect(p.status, p.stderr).toBe(0);
    expect(p.stdout.match(/^RMA_PUT .*\n +ADDITIONAL ATTRIBUTES: \("phit::displacement"/gm)).toHaveLength(2 * N);
  });
});
