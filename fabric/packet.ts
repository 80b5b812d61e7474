/**
 * Packets as a struct-of-arrays pool indexed by packet id. The fabric and the NIC allocate and
 * free ids; nothing is allocated per packet once the pool has grown to the run's peak.
 * Every field is typed: the fabric's routing state (dimension, dateline) sits beside the NIC's
 * transaction fields, each owned by one layer.
 */
/** Packets per payload chunk (a power of two): 64 Ki, at most 256 MiB of 4 KiB coarse payloads. */
const DATA_CHUNK_BITS = 16;
const DATA_CHUNK = 1 << DATA_CHUNK_BITS;
const DATA_CHUNK_MASK = DATA_CHUNK - 1;

export class PacketPool {
  capacity = 0;
  /** Bytes of payload each packet can carry in `data`. */
  readonly maxPayload: number;
  // --- fabric fields
  /** Source and destination node. */
  src = new Int32Array(0);
  dst = new Int32Array(0);
  /** Size on the wire in phits (flits), without link-layer overhead. */
  phits = new Int32Array(0);
  /**
   * Hardware packets this packet stands for: 1, or at the coarse fidelity level the packets of
   * a bulk transfer carried as one (each of them still pays its link-layer overhead).
   */
  units = new Uint16Array(0);
  /**
   * A coarse packet's group of parallel channels at its current hop (first channel and count),
   * set where it is routed: its hardware packets would spread over the group, so it does too.
   */
  gFirst = new Int32Array(0);
  gCount = new Uint8Array(0);
  /** VC class: 0 = request, 1 = response. */
  vcClass = new Uint8Array(0);
  /** VC the packet uses on its next (or current) channel. */
  vc = new Uint8Array(0);
  /** Global input port the packet sits at (router * radix + port), or the NIC pseudo-port. */
  at = new Int32Array(0);
  /** Time the packet's tail reaches its current position (ps). */
  tailAt = new Float64Array(0);
  /** Time the packet left its NIC's queue onto the injection channel (ps): its age counts from here. */
  injectedAt = new Float64Array(0);
  /** Router-to-router hops taken so far. */
  hops = new Int16Array(0);
  /** With crosspoint credits: the credit pool of the packet's output at the next router (set when it is routed). */
  xbSlot = new Uint8Array(0);
  /** Next packet in whatever queue holds this one, or -1. */
  next = new Int32Array(0);
  /** Torus routing: dimension being routed (-1 before the first hop). */
  rDim = new Int8Array(0);
  /** Torus routing: 1 once the packet has crossed the dateline of its current dimension. */
  rDateline = new Uint8Array(0);
  /** Routing phase: dragonfly 0 = toward the intermediate router, 1 = toward the destination. */
  rPhase = new Uint8Array(0);
  /** Dragonfly: intermediate (Valiant) router, or -1 for a minimal route. */
  rInter = new Int32Array(0);
  /** Dragonfly: VC stage (rises by one per global hop and at the intermediate router). */
  rStage = new Uint8Array(0);
  /** Dragonfly: global port (router * radix + port) chosen to leave the current group, or -1. */
  rGate = new Int32Array(0);
  /** Source routing: the remaining route string; its format belongs to the routing (Kautz: 3 bits per hop, see kautz-routing.ts). */
  rRoute = new Uint32Array(0);
  /** Source routing: hops left in `rRoute`. */
  rLeft = new Uint8Array(0);
  /** Sliced networks (BlackWidow): the slice the packet travels in, or 0xff before its first router. */
  rPlane = new Uint8Array(0);
  /** Random bits drawn from the run's generator at injection, for routing choices. */
  rSalt = new Uint32Array(0);
  /** Detour around failed links (routing/fault-routing.ts): 0 none, 1 up*, 2 down* phase. */
  rDetour = new Uint8Array(0);
  /** Deterministic (hashed) routing requested instead of adaptive. */
  ordered = new Uint8Array(0);
  /** Independent path the source asks for, in its routing's numbering (0xff: the routing chooses); a response keeps it. */
  path = new Uint8Array(0);
  // --- NIC fields
  /** NIC packet kind (put request, get response, ...); meaning owned by the NIC. */
  kind = new Uint8Array(0);
  /** Transaction index at the source NIC. */
  txn = new Int32Array(0);
  /** Byte offset of this packet's payload within its transaction. */
  offset = new Float64Array(0);
  /** Payload bytes. */
  bytes = new Int32Array(0);
  /** 1: a skeleton payload (its source or target is a skeleton buffer): sizes travel, `data` is not filled. */
  skel = new Uint8Array(0);
  /**
   * Payload storage, `maxPayload` bytes per packet, in chunks of `DATA_CHUNK` packets (a run with
   * millions of packets in flight would pass V8's largest typed array in one piece): packet p's
   * payload is `dataOf(p)` from byte `dataAt(p)`.
   */
  private chunks: Uint8Array[] = [];

  private freeList = new Int32Array(0);
  private freeTop = 0;
  /** Packets currently allocated. */
  live = 0;

  /** The chunk that holds packet p's payload (from byte `dataAt(p)`). */
  dataOf(p: number): Uint8Array {
    return this.chunks[p >>> DATA_CHUNK_BITS]!;
  }

  /** Where packet p's payload starts in `dataOf(p)`. */
  dataAt(p: number): number {
    return (p & DATA_CHUNK_MASK) * this.maxPayload;
  }

  constructor(maxPayload: number, initial = 1024) {
    this.maxPayload = maxPayload;
    this.grow(initial);
  }

  /** Allocates a packet id with its fabric fields reset. */
  alloc(): number {
    if (this.freeTop === 0) this.grow(this.capacity * 2);
    const p = this.freeList[--this.freeTop]!;
    this.next[p] = -1;
    this.hops[p] = 0;
    this.units[p] = 1;
    this.ordered[p] = 0;
    this.path[p] = 0xff;
    this.skel[p] = 0;
    this.startRoute(p, 0);
    this.live++;
    return p;
  }

  /** Clears every routing field of packet p for a new trip; `salt` feeds its random routing choices. */
  startRoute(p: number, salt: number): void {
    this.rDim[p] = -1;
    this.rDateline[p] = 0;
    this.rPhase[p] = 0;
    this.rInter[p] = -1;
    this.rStage[p] = 0;
    this.rGate[p] = -1;
    this.rRoute[p] = 0;
    this.rLeft[p] = 0xff; // no source route yet: the first router computes it
    this.rPlane[p] = 0xff;
    this.rSalt[p] = salt;
    this.rDetour[p] = 0;
  }

  /** Returns a packet id to the pool. */
  free(p: number): void {
    this.freeList[this.freeTop++] = p;
    this.live--;
  }

  private grow(n: number): void {
    const old = this.capacity;
    const g = <T extends Int32Array | Uint32Array | Uint8Array | Int8Array | Int16Array | Uint16Array | Float64Array>(a: T): T => {
      const b = new (a.constructor as new (n: number) => T)(n);
      b.set(a);
      return b;
    };
    this.src = g(this.src);
    this.dst = g(this.dst);
    this.phits = g(this.phits);
    this.units = g(this.units);
    this.gFirst = g(this.gFirst);
    this.gCount = g(this.gCount);
    this.vcClass = g(this.vcClass);
    this.vc = g(this.vc);
    this.at = g(this.at);
    this.tailAt = g(this.tailAt);
    this.injectedAt = g(this.injectedAt);
    this.hops = g(this.hops);
    this.xbSlot = g(this.xbSlot);
    this.next = g(this.next);
    this.rDim = g(this.rDim);
    this.rDateline = g(this.rDateline);
    this.rPhase = g(this.rPhase);
    this.rInter = g(this.rInter);
    this.rSalt = g(this.rSalt);
    this.rDetour = g(this.rDetour);
    this.rStage = g(this.rStage);
    this.rGate = g(this.rGate);
    this.rRoute = g(this.rRoute);
    this.rLeft = g(this.rLeft);
    this.rPlane = g(this.rPlane);
    this.ordered = g(this.ordered);
    this.path = g(this.path);
    this.kind = g(this.kind);
    this.txn = g(this.txn);
    this.offset = g(this.offset);
    this.bytes = g(this.bytes);
    this.skel = g(this.skel);
    // every chunk full but the last, which grows (copied) until it is full
    for (let c = 0; c * DATA_CHUNK < n; c++) {
      const want = (Math.min(n, (c + 1) * DATA_CHUNK) - c * DATA_CHUNK) * this.maxPayload;
      const had = this.chunks[c];
      if (had && had.length >= want) continue;
      const d = new Uint8Array(want);
      if (had) d.set(had);
      this.chunks[c] = d;
    }
    const f = new Int32Array(n);
    f.set(this.freeList.subarray(0, this.freeTop));
    let top = this.freeTop;
    for (let p = n - 1; p >= old; p--) f[top++] = p;
    this.freeList = f;
    this.freeTop = top;
    this.capacity = n;
  }
}
