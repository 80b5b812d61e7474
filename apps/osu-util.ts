import type { RankContext } from '../runtime/rank.ts';
import { checkSizeRange, round, sizeSweep, skeletonCheck, type App, type ParamSpec, type ParamValues, type Row } from './app.ts';

/** Bytes of the acknowledgement that closes each window in stream mode (OSU's 4-byte reply). */
export const ACK_BYTES = 4;

/** The byte at offset `i` of the `bytes`-long message the point-to-point apps send. */
export function patternByte(i: number, bytes: number): number {
  return (i * 7 + bytes) & 255;
}

/** Fills `msg` with the pattern of a `msg.length`-byte message. */
export function fillPattern(msg: Uint8Array): void {
  const bytes = msg.length;
  for (let i = 0; i < bytes; i++) msg[i] = patternByte(i, bytes);
}

/** Offset of the first byte of `msg` that differs from the pattern, or -1. */
export function patternMismatch(msg: Uint8Array): number {
  const bytes = msg.length;
  for (let i = 0; i < bytes; i++) if (msg[i] !== patternByte(i, bytes)) return i;
  return -1;
}

/**
 * `iters` round trips between rank 0 and `peer`: each side sends `out` and receives into `inb`
 * (one buffer for both bounces the same bytes back and forth).
 */
export async function pingPongs(ctx: RankContext, out: Uint8Array, inb: Uint8Array, peer: number, iters: number): Promise<void> {
  const { mpi } = ctx;
  for (let i = 0; i < iters; i++) {
    if (mpi.rank === 0) {
      await mpi.send(out, peer, 1);
      await mpi.recv(inb, peer, 1);
    } else if (mpi.rank === peer) {
      await mpi.recv(inb, 0, 1);
      await mpi.send(out, 0, 1);
    }
  }
}

/** `iters` windows of `window` messages (`out`) from rank 0 to `peer` (into `inb`), each answered by one small ack. */
export async function streamWindows(ctx: RankContext, out: Uint8Array, inb: Uint8Array, peer: number, window: number, iters: number): Promise<void> {
  const { mpi } = ctx;
  const ack = new Uint8Array(ACK_BYTES);
  for (let i = 0; i < iters; i++) {
    if (mpi.rank === 0) {
      const reqs = [];
      for (let k = 0; k < window; k++) reqs.push(mpi.isend(out, peer, 2));
      await mpi.waitAll(reqs);
      await mpi.recv(ack, peer, 3);
    } else if (mpi.rank === peer) {
      // every receive of a window lands in the same buffer, as in OSU's test
      const reqs = [];
      for (let k = 0; k < window; k++) reqs.push(mpi.irecv(inb, 0, 2));
      await mpi.waitAll(reqs);
      await mpi.send(ack, 0, 3);
    }
  }
}

/**
 * `iters` windows in both directions at once between rank 0 and `peer`, as OSU's osu_bibw: each
 * side posts `window` receives into `inb`, then `window` sends of `out`, and waits for all of
 * them; no acknowledgement (the receives of the other side's window close each one).
 */
export async function biWindows(ctx: RankContext, out: Uint8Array, inb: Uint8Array, peer: number, window: number, iters: number): Promise<void> {
  const { mpi } = ctx;
  const other = mpi.rank === 0 ? peer : mpi.rank === peer ? 0 : -1;
  if (other < 0) return;
  for (let i = 0; i < iters; i++) {
    const reqs = [];
    for (let k = 0; k < window; k++) reqs.push(mpi.irecv(inb, other, 4));
    for (let k = 0; k < window; k++) reqs.push(mpi.isend(out, other, 4));
    await mpi.waitAll(reqs);
  }
}

/** Parameters every OSU-style app shares (OSU's defaults: 1 B to 4 MiB, window 64). */
export const OSU_PARAMS: Readonly<Record<string, ParamSpec>> = {
  minBytes: { type: 'bytes', default: 1, min: 0, help: 'smallest message' },
  maxBytes: { type: 'bytes', default: 4 * 1024 * 1024, min: 1, help: 'largest message (sizes double from minBytes)' },
  iterations: { type: 'int', default: 10, min: 1, help: 'timed round trips (bandwidth: windows) per size (fewer above 64 KiB of traffic each)' },
  warmup: { type: 'int', default: 2, min: 0, help: 'untimed round trips (bandwidth: windows) before each size, as OSU\'s skip' },
  peer: { type: 'int', default: 1, min: 1, help: 'rank that answers rank 0' },
};

/** The window parameter of osu-bw and osu-bibw. */
export const WINDOW_PARAM: ParamSpec = { type: 'int', default: 64, min: 1, help: 'messages in flight per window (OSU: 64)' };

/** Timed repetitions of a round of `perRound` bytes: `iterations`, fewer when each round is large (at least `least`). */
export function itersFor(iterations: number, perRound: number, least: number): number {
  return Math.max(least, Math.min(iterations, Math.floor((iterations * 65536) / Math.max(perRound, 1))));
}

/** What one OSU-style app measures for one message size. */
interface OsuKind {
  /** Bytes of one timed round (the size of an iteration count). */
  perRound(bytes: number, window: number): number;
  /** Runs `iters` rounds on every rank (idle ranks return at once). */
  rounds(ctx: RankContext, out: Uint8Array, inb: Uint8Array, peer: number, window: number, iters: number): Promise<void>;
  /** Ranks whose receive buffer holds the message when the rounds end. */
  checkers(peer: number): readonly number[];
  /** The row for `iters` rounds that took `us`. */
  row(bytes: number, window: number, iters: number, us: number): Row;
}

/**
 * An OSU micro-benchmark app between rank 0 and `peer`, one row per message size. Its message
 * buffers come from `ctx.alloc`: a skeleton run moves sizes only and skips the pattern check.
 */
export function osuApp(name: string, summary: string, withWindow: boolean, kind: OsuKind): App {
  return {
    name,
    summary,
    minRanks: 2,
    params: withWindow ? { ...OSU_PARAMS, window: WINDOW_PARAM } : OSU_PARAMS,
    check: (p) => checkSizeRange(name, p),
    main: (ctx, p) => runOsu(name, ctx, p, withWindow, kind),
  };
}

async function runOsu(name: string, ctx: RankContext, p: ParamValues, withWindow: boolean, kind: OsuKind): Promise<{ rows: Row[]; peer: number; hops: number; check?: string } | undefined> {
  checkSizeRange(name, p);
  const { mpi } = ctx;
  const peer = p.peer as number;
  if (peer >= mpi.size) throw new RangeError(`parameter peer=${peer} of app ${name}: not a rank (size ${mpi.size})`);
  const window = withWindow ? (p.window as number) : 1;
  const sizes = sizeSweep(p.minBytes as number, p.maxBytes as number);
  const largest = sizes[sizes.length - 1] ?? 0;
  const outAll = ctx.alloc(Uint8Array, largest);
  const inAll = ctx.alloc(Uint8Array, largest);
  const real = !ctx.skeleton;
  const rows: Row[] = [];
  for (const bytes of sizes) {
    const out = outAll.subarray(0, bytes);
    const inb = inAll.subarray(0, bytes);
    const iters = itersFor(p.iterations as number, kind.perRound(bytes, window), 1);
    const warmup = p.warmup as number;
    if (real) fillPattern(out);
    if (real) inb.fill(0);
    if (warmup > 0) await kind.rounds(ctx, out, inb, peer, window, warmup);
    if (real) inb.fill(0);
    await mpi.barrier();
    const t0 = ctx.now();
    await kind.rounds(ctx, out, inb, peer, window, iters);
    const us = ctx.now() - t0;
    if (real && kind.checkers(peer).includes(mpi.rank)) {
      const bad = patternMismatch(inb);
      if (bad >= 0) throw new Error(`${name}: rank ${mpi.rank}: byte ${bad} of the ${bytes}-byte message is ${inb[bad]}, expected ${patternByte(bad, bytes)}`);
    }
    if (mpi.rank === 0) rows.push(kind.row(bytes, window, iters, us));
  }
  return mpi.rank === 0 ? { rows, peer, hops: ctx.machine.hops(0, peer), ...skeletonCheck(ctx) } : undefined;
}

/** MB/s (1e6 bytes/s, OSU's unit) and GB/s of `bytes` moved in `us`. */
export function rates(bytes: number, us: number): { bandwidthMBs: number; bandwidthGBs: number } {
  return { bandwidthMBs: round(bytes / us), bandwidthGBs: round(bytes / us / 1000) };
}

/** A collective benchmark's timing: `sync` as IMB and OSU time a collective, `loop` back to back. */
export const COLL_TIMING = ['loop', 'sync'] as const;

/**
 * The mean time in us of `iters` calls of `call` on the ranks of `comm`, this rank's. `loop`: the
 * calls run back to back after one barrier. `sync`: each call is timed on its own and followed by a
 * barrier that is not timed, as IMB times a collective (`-sync 1`, its default since IMB 2018:
 * IMB_alltoall.c, IMB_allreduce.c) and as OSU's osu_alltoall and osu_allreduce do.
 */
export async function timeCalls(ctx: RankContext, comm: { barrier(): Promise<void> }, iters: number, timing: string, call: () => Promise<void>): Promise<number> {
  await comm.barrier();
  if (timing !== 'sync') {
    const t0 = ctx.now();
    for (let i = 0; i < iters; i++) await call();
    return (ctx.now() - t0) / iters;
  }
  let sum = 0;
  for (let i = 0; i < iters; i++) {
    const t0 = ctx.now();
    await call();
    sum += ctx.now() - t0;
    await comm.barrier();
  }
  return sum / iters;
}
