/** Typed arrays a skeleton buffer can be. */
export type SkeletonArray =
  | Int8Array
  | Uint8Array
  | Uint8ClampedArray
  | Int16Array
  | Uint16Array
  | Int32Array
  | Uint32Array
  | Float32Array
  | Float64Array
  | BigInt64Array
  | BigUint64Array;

/** A typed-array class (`Float64Array`, `Uint8Array`, ...) as `ctx.alloc` takes it. */
export interface ArrayType<T extends SkeletonArray> {
  new (length: number): T;
  new (buffer: ArrayBuffer, byteOffset: number, length: number): T;
  readonly BYTES_PER_ELEMENT: number;
  readonly name: string;
}

/** Largest skeleton buffer, in bytes (the largest resizable ArrayBuffer every supported Node allows). */
export const SKELETON_MAX_BYTES = 2 ** 32;

/** Pages the store grows by, so a run of slightly larger requests resizes it rarely. */
const GROW_BYTES = 1 << 16;

type Resizable = ArrayBuffer & { resize(byteLength: number): void };
const ResizableArrayBuffer = ArrayBuffer as unknown as new (byteLength: number, options: { maxByteLength: number }) => Resizable;

/**
 * The one backing store of a skeleton run's buffers: a resizable, zero-filled ArrayBuffer that
 * every skeleton buffer views from byte 0, grown to the largest request. Pages nobody writes cost
 * no resident memory, so buffers of any size cost (almost) nothing; all skeleton buffers alias.
 * A buffer is a skeleton buffer iff its `.buffer` is this store's `buffer`; the runtime and the
 * NIC skip every bulk copy into or out of one (timing unchanged: costs are charged by size).
 */
export class SkeletonStore {
  /** The store: compare a view's `.buffer` with it (one identity test). */
  readonly buffer: ArrayBuffer;
  /** Bytes handed out by `alloc` so far (the sum of every request; none of it resident). */
  requestedBytes = 0;

  constructor() {
    this.buffer = new ResizableArrayBuffer(0, { maxByteLength: SKELETON_MAX_BYTES });
  }

  /** Whether `v` views this store. */
  holds(v: ArrayBufferView): boolean {
    return v.buffer === this.buffer;
  }


  /** A skeleton `Type` array of `count` elements (reads as zeros while nobody writes the store). */
  alloc<T extends SkeletonArray>(Type: ArrayType<T>, count: number): T {
    const bytes = count * Type.BYTES_PER_ELEMENT;
    if (!Number.isInteger(count) || count < 0) throw new RangeError(`alloc: count=${count} must be a non-negative integer`);
    if (bytes > SKELETON_MAX_BYTES) throw new RangeError(`alloc: ${count} elements of ${Type.name} are ${bytes} bytes; a skeleton buffer holds at most ${SKELETON_MAX_BYTES}`);
    if (bytes > this.buffer.byteLength) (this.buffer as Resizable).resize(Math.min(SKELETON_MAX_BYTES, Math.ceil(bytes / GROW_BYTES) * GROW_BYTES));
    this.requestedBytes += bytes;
    return new Type(this.buffer, 0, count);
  }

  /** A skeleton array of `count` elements of `like`'s type. */
  allocLike<T extends SkeletonArray>(like: T, count: number): T {
    return this.alloc(like.constructor as ArrayType<T>, count);
  }
}

/**
 * Whether `v` views `store` (false without one). Outside a skeleton run `v.buffer` is never
 * read: reading it moves a small typed array's bytes off the JavaScript heap, an allocation
 * per message on the common paths.
 */
export function inStore(v: ArrayBufferView, store: SkeletonStore | null): boolean {
  return store !== null && store.holds(v);
}
