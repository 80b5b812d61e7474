/** The compiler's message for a file that does not compile opens so ("Transform failed with 1 error:"). */
const TRANSFORM_FAILED = /^Transform failed with \d+ error/;

/**
 * What went wrong loading a user's file, on one line: the compiler's first error with its place
 * (its own message opens with a count line, "Transform failed with 1 error:"), Node's message for
 * a syntax error it found, else the error's first line.
 */
export function loadErrorLine(e: unknown): string {
  const text = e instanceof Error ? e.message : String(e);
  const lines = text.split('\n');
  if (TRANSFORM_FAILED.test(lines[0]!)) {
    const first = lines.find((l) => l.includes(': ERROR: '));
    if (first !== undefined) return first.replace(': ERROR: ', ': ');
  }
  return lines[0]!;
}

/** Whether `e` says the file does not compile (the compiler's error, or Node's syntax error). */
export function isCompileError(e: unknown): boolean {
  return e instanceof SyntaxError || (e instanceof Error && TRANSFORM_FAILED.test(e.message));
}
