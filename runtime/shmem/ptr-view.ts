import type { ElemArray } from './elements.ts';

/** The typed array behind each view `notifyingView` made. */
const TARGETS = new WeakMap<object, ElemArray>();

/** Methods of a typed array that store into it (over the whole view, or the range their arguments give). */
const MUTATORS = new Set<PropertyKey>(['set', 'fill', 'copyWithin', 'reverse', 'sort']);

/**
 * A view of `target` (another PE's memory, as `shmem.ptr` gives it) that calls `stored(from,
 * bytes)` after every store through it, `from` a byte offset into `target.buffer`: an element
 * assignment (`v[i] = x`), `set`, `fill`, `copyWithin`, `reverse` and `sort`. Everything else
 * reads through to `target`; `subarray` gives such a view again. A typed array made over its
 * `.buffer` is a plain one: stores through it are not seen.
 *
 * It is a Proxy, so `ArrayBuffer.isView` says false of it; the SHMEM calls that take a private
 * buffer look through it (`unwrapView`).
 */
export function notifyingView<T extends ElemArray>(target: T, stored: (from: number, bytes: number) => void): T {
  const bpe = target.BYTES_PER_ELEMENT;
  const view: T = new Proxy(target, {
    get(t, key) {
      if (key === 'subarray') return (begin?: number, end?: number): ElemArray => notifyingView(t.subarray(begin, end), stored);
      const v: unknown = Reflect.get(t, key);
      if (typeof v !== 'function' || key === 'constructor') return v;
      const f = v as (...a: unknown[]) => unknown;
      return (...args: unknown[]): unknown => {
        const r = f.apply(t, args);
        if (MUTATORS.has(key)) {
          const [from, n] = key === 'set' ? setRange(t, args) : key === 'fill' ? fillRange(t, args) : [0, t.length];
          if (n > 0) stored(t.byteOffset + from * bpe, n * bpe);
        }
        // methods that return their array (fill, sort, reverse, copyWithin) return the view
        return r === t ? view : r;
      };
    },
    set(t, key, value) {
      const ok = Reflect.set(t, key, value);
      if (typeof key === 'string') {
        const i = Number(key);
        if (Number.isInteger(i) && i >= 0 && i < t.length && String(i) === key) stored(t.byteOffset + i * bpe, bpe);
      }
      return ok;
    },
  });
  TARGETS.set(view, target);
  return view;
}

/** The typed array behind a view of `notifyingView`; anything else as it is. */
export function unwrapView<T>(x: T): T {
  return ((typeof x === 'object' && x !== null && TARGETS.get(x)) || x) as T;
}

/** The elements `set(source, offset)` stored: [first, count]. */
function setRange(t: ElemArray, args: readonly unknown[]): [number, number] {
  const src = args[0] as ArrayLike<unknown> | null | undefined;
  const off = Math.trunc(Number(args[1] ?? 0)) || 0;
  const n = typeof src?.length === 'number' ? src.length : 0;
  return [off, Math.max(0, Math.min(n, t.length - off))];
}

/** The elements `fill(value, start, end)` stored: [first, count], negative bounds from the end as the method takes them. */
function fillRange(t: ElemArray, args: readonly unknown[]): [number, number] {
  const len = t.length;
  const at = (v: unknown, dflt: number): number => {
    if (v === undefined) return dflt;
    const i = Math.trunc(Number(v)) || 0;
    return i < 0 ? Math.max(len + i, 0) : Math.min(i, len);
  };
  const start = at(args[1], 0);
  const end = at(args[2], len);
  return [start, Math.max(0, end - start)];
}
