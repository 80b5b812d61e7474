/**
 * The NAS parallel benchmarks' random number generator (NPB 3 common/randdp.f): the linear
 * congruential generator x = a x mod 2^46, worked out exactly in double arithmetic by splitting
 * each factor into 23-bit halves, as randlc does.
 */

/** NPB's multiplier, 5^13 (cg.f, ft.f: amult / A). */
export const NPB_A = 1220703125;
/** NPB's seed of CG's and FT's draws (cg.f: tran; ft.f: seed). */
export const NPB_SEED = 314159265;

/** randlc: sets `state.x` to a x mod 2^46 and returns it divided by 2^46 (in (0, 1)). */
export function randlc(state: { x: number }, a: number): number {
  const r23 = 2 ** -23;
  const t23 = 2 ** 23;
  const r46 = r23 * r23;
  const t46 = t23 * t23;
  const a1 = Math.trunc(r23 * a);
  const a2 = a - t23 * a1;
  const x1 = Math.trunc(r23 * state.x);
  const x2 = state.x - t23 * x1;
  const t1 = a1 * x2 + a2 * x1;
  const t2 = Math.trunc(r23 * t1);
  const z = t1 - t23 * t2;
  const t3 = t23 * z + a2 * x2;
  const t4 = Math.trunc(r46 * t3);
  state.x = t3 - t46 * t4;
  return r46 * state.x;
}

/** ipow46: a^exponent mod 2^46, the multiplier that jumps the generator `exponent` draws ahead. */
export function ipow46(a: number, exponent: number): number {
  let result = 1;
  let q = a;
  for (let e = exponent; e > 0; e = Math.floor(e / 2)) {
    if (e % 2 === 1) {
      const s = { x: result };
      randlc(s, q);
      result = s.x;
    }
    const s = { x: q };
    randlc(s, q);
    q = s.x;
  }
  return result;
}
