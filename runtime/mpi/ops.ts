/** A numeric typed array (any element type MPI reductions accept). */
export type NumericArray =
  | Int8Array
  | Uint8Array
  | Uint8ClampedArray
  | Int16Array
  | Uint16Array
  | Int32Array
  | Uint32Array
  | Float32Array
  | Float64Array;

/** A reduction operation: combines `input` into `inout` element by element. */
export interface Op {
  readonly name: string;
  apply(inout: NumericArray, input: NumericArray): void;
}

function op(name: string, f: (a: number, b: number) => number): Op {
  return {
    name,
    apply(inout, input) {
      for (let i = 0; i < inout.length; i++) inout[i] = f(inout[i]!, input[i]!);
    },
  };
}

/** MPI_SUM. */
export const SUM = op('MPI_SUM', (a, b) => a + b);
/** MPI_MIN. */
export const MIN = op('MPI_MIN', (a, b) => (b < a ? b : a));
/** MPI_MAX. */
export const MAX = op('MPI_MAX', (a, b) => (b > a ? b : a));
/** MPI_PROD. */
export const PROD = op('MPI_PROD', (a, b) => a * b);
