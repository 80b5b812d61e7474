/**
 * Reductions on the types whose values no typed array holds one to one: MPI_LONG_DOUBLE (a double
 * and 8 bytes of padding, see Parts) and the complex types (real part, then imaginary part).
 * MPI-3.1 §5.9.2 defines MPI_SUM, MPI_PROD, MPI_MIN and MPI_MAX on long double ("floating
 * point") and MPI_SUM and MPI_PROD on complex; the ops run on their floats, element by element,
 * except MPI_PROD on complex, which is the complex product. Padding is reduced as a value: its
 * bytes mean nothing.
 */
import type { Parts, ValueArrayType } from './datatype.ts';
import { MAX, MIN, PREDEFINED_OPS, PROD, SUM, type Op } from './ops.ts';
import { MpiError } from './request.ts';

/** The float array and op of a reduction on a long double or complex type, refusing the predefined ops MPI leaves undefined on it. */
export function partsReduction(call: string, name: string, parts: Parts, op: Op): { array: ValueArrayType; op: Op } {
  const allowed = parts.complex ? [SUM, PROD] : [SUM, PROD, MIN, MAX];
  if (Object.values(PREDEFINED_OPS).includes(op) && !allowed.includes(op)) {
    throw new MpiError('MPI_ERR_OP', `${call}: ${op.name} is not defined on ${name}; it takes ${allowed.map((o) => o.name).join(', ')} or a user op`);
  }
  return { array: parts.array, op: parts.complex && op === PROD ? complexProd(parts.per) : op };
}

/** MPI_PROD on complex values of `per` floats each, the imaginary part `per / 2` after the real one (padding between left alone). */
function complexProd(per: number): Op {
  const im = per / 2;
  return {
    name: 'MPI_PROD',
    commutative: true,
    unit: per,
    apply(inout, input) {
      const a = inout as Float64Array;
      const b = input as Float64Array;
      for (let i = 0; i + im < a.length; i += per) {
        const re = a[i]! * b[i]! - a[i + im]! * b[i + im]!;
        a[i + im] = a[i]! * b[i + im]! + a[i + im]! * b[i]!;
        a[i] = re;
      }
    },
  };
}
