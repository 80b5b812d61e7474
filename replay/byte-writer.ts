/** Bytes built up in memory for a trace file: integers in a fixed byte order, strings, and the offset reached. */
export class ByteWriter {
  private buf = new Uint8Array(1 << 12);
  private view = new DataView(this.buf.buffer);
  private len = 0;

  constructor(private readonly little: boolean) {}

  /** Bytes written so far (the offset of the next one). */
  get offset(): number {
    return this.len;
  }

  private room(n: number): void {
    if (this.len + n <= this.buf.length) return;
    let size = this.buf.length * 2;
    while (size < this.len + n) size *= 2;
    const next = new Uint8Array(size);
    next.set(this.buf.subarray(0, this.len));
    this.buf = next;
    this.view = new DataView(next.buffer);
  }

  u8(v: number): void {
    this.room(1);
    this.buf[this.len++] = v & 0xff;
  }

  u16(v: number): void {
    this.room(2);
    this.view.setUint16(this.len, v & 0xffff, this.little);
    this.len += 2;
  }

  /** A 32-bit integer; negative values in two's complement. */
  u32(v: number): void {
    this.room(4);
    this.view.setUint32(this.len, v >>> 0, this.little);
    this.len += 4;
  }

  /** A 64-bit unsigned integer, exact to 2^53. */
  u64(v: number): void {
    const hi = Math.floor(v / 2 ** 32);
    const lo = v - hi * 2 ** 32;
    if (this.little) {
      this.u32(lo);
      this.u32(hi);
    } else {
      this.u32(hi);
      this.u32(lo);
    }
  }

  bytes(b: Uint8Array): void {
    this.room(b.length);
    this.buf.set(b, this.len);
    this.len += b.length;
  }

  /** The bytes written. */
  result(): Uint8Array {
    return this.buf.subarray(0, this.len);
  }
}
