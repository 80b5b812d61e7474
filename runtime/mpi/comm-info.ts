/**
 * A communicator's info hints (MPI 4.0 §7.4.4): the assertions MPI defines for communicators,
 * each `true` or `false`. A program sets them with `setInfo` or `dupWithInfo` and reads back
 * those in effect with `getInfo`; keys MPI does not define for communicators, and values other
 * than `true` and `false`, are ignored, as MPICH ignores them (its comm_info test checks that an
 * unknown key does not come back). phit's matching does not depend on them, so they change no
 * result or timing.
 */
import { checkInfo, Info } from './info.ts';

/** The communicator hints MPI 4.0 defines. */
export const COMM_HINT_KEYS: readonly string[] = ['mpi_assert_no_any_tag', 'mpi_assert_no_any_source', 'mpi_assert_exact_length', 'mpi_assert_allow_overtaking'];

/** No hints set. */
export const NO_HINTS: ReadonlyMap<string, string> = new Map();

/** The hints of `info` a communicator keeps (checking `info` as `call`'s argument). */
export function commHints(call: string, info: Info | null | undefined): ReadonlyMap<string, string> {
  checkInfo(call, info);
  if (!info) return NO_HINTS;
  const kept = new Map<string, string>();
  for (const key of COMM_HINT_KEYS) {
    const v = info.get(key);
    if (v === 'true' || v === 'false') kept.set(key, v);
  }
  return kept.size === 0 ? NO_HINTS : kept;
}

/** A new info object holding `hints` (what MPI_Comm_get_info returns). */
export function infoOf(hints: ReadonlyMap<string, string>): Info {
  const info = new Info();
  for (const [k, v] of hints) info.set(k, v);
  return info;
}
