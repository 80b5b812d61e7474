/**
 * A ring allreduce written on phit's schedule API: a ring reduce-scatter of n pieces, then a
 * ring allgather. Plug it in with `phit run allreduce --coll allreduce=examples/collectives/ring-allreduce.ts`,
 * check it with `phit collectives --check allreduce=examples/collectives/ring-allreduce.ts`.
 */
import type { Op, Schedule } from '../../index.ts';

export default {
  collective: 'allreduce',
  // pieces are combined in ring order, not rank order
  commutativeOnly: true,
  *run(s: Schedule, sendBuf: Float64Array, recvBuf: Float64Array, op: Op) {
    const n = s.size;
    const me = s.rank;
    const count = sendBuf.length;
    yield s.copy(recvBuf, 0, sendBuf, 0, count);
    if (n === 1) return;
    const at = (i: number): number => Math.floor((((i % n) + n) % n) * count / n);
    const end = (i: number): number => Math.floor(((((i % n) + n) % n) + 1) * count / n);
    const tmp = s.alloc(recvBuf, count);
    const right = (me + 1) % n;
    const left = (me + n - 1) % n;
    // reduce-scatter: after n - 1 steps this rank holds piece me + 1 whole
    for (let k = 0; k < n - 1; k++) {
      const send = me - k;
      const recv = me - k - 1;
      yield [s.recv(tmp, left, { offset: at(recv), count: end(recv) - at(recv) }), s.send(recvBuf, right, { offset: at(send), count: end(send) - at(send) })];
      yield s.reduceLocal(op, recvBuf.subarray(at(recv), end(recv)), tmp.subarray(at(recv), end(recv)));
    }
    // allgather: the whole pieces go round
    for (let k = 0; k < n - 1; k++) {
      const send = me + 1 - k;
      const recv = me - k;
      yield [s.recv(recvBuf, left, { offset: at(recv), count: end(recv) - at(recv), tag: 1 }), s.send(recvBuf, right, { offset: at(send), count: end(send) - at(send), tag: 1 })];
    }
  },
};
