/** Helpers shared by the test suites. */

/** Awaits `p` and returns what it rejected with; fails if it resolved. */
export async function rejection(p: Promise<unknown>): Promise<Error> {
  try {
    await p;
  } catch (e) {
    if (!(e instanceof Error)) throw new Error(`rejected with a non-Error: ${String(e)}`, { cause: e });
    return e;
  }
  throw new Error('expected the run to reject, but it resolved');
}
