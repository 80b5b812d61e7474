/**
 * hypre's DataExchangeList (utilities/exchange_data.c), which the amg app's setup uses to find a
 * level's communication package: each rank sends a contact message to each rank of its list; a
 * receiver does not know how many contacts it gets, so it answers each one as it comes, and the
 * ranks learn that every contact has been answered by a termination sweep over a binary tree.
 * This is how hypre builds a communication package with its assumed partition (Baker, Falgout and
 * Yang, "An assumed partition algorithm for determining processor inter-communication", Parallel
 * Computing 32, 2006; hypre_ParCSRCommPkgCreateApart_core in parcsr_mv/new_commpkg.c) instead of
 * an exchange of counts with every rank: a rank sends and receives messages only from the ranks
 * it shares rows with, plus about two zero-byte messages of the sweep.
 */
import type { Request } from '../runtime/mpi/mpi.ts';
import type { RankContext } from '../runtime/rank.ts';

/** A contact: the rank it goes to and its data. */
export interface Contact {
  readonly rank: number;
  readonly data: Int32Array;
}

/**
 * The parent and children of `me` in hypre_CreateBinaryTree's tree over `size` ranks: at step
 * i = 1, 2, 4, ... a rank whose remaining index is even adopts me + i, an odd one has me - i as
 * parent and stops.
 */
export function binaryTree(me: number, size: number): { parent: number; children: number[] } {
  const children: number[] = [];
  let proc = me;
  for (let i = 1; i < size; i *= 2) {
    if (proc % 2 === 1) return { parent: me - i, children };
    if (me + i < size) children.push(me + i);
    proc = Math.floor(proc / 2);
  }
  return { parent: -1, children };
}

/**
 * Sends each contact to its rank and returns the contacts this rank received (source and data,
 * sources ascending). `maxLength` bounds the elements of any contact this rank can receive. As
 * hypre_DataExchangeList: the receives of the responses posted, the contacts sent; contacts
 * answered as they come (here each answer a confirmation of one integer, hypre's response with
 * max_response_size 0: its size word); once a rank has all its answers and its children in the
 * tree have reported, it reports to its parent; the root, then each rank, tells its children to
 * stop. hypre polls for contacts with MPI_Iprobe between the tests; here the rank waits on a
 * posted receive from any source together with the requests of its current stage (the same
 * messages, without counting polls). `tag` and the next two tags are used.
 */
export async function dataExchangeList(ctx: RankContext, contacts: readonly Contact[], maxLength: number, tag: number): Promise<Contact[]> {
  const { mpi } = ctx;
  const world = mpi.COMM_WORLD;
  const me = mpi.rank;
  const contactTag = tag;
  const responseTag = tag + 1;
  const termTag = tag + 2;
  const answers = contacts.map(() => new Int32Array(1));
  let stage: (Request | null)[] = contacts.map((c, i) => world.irecv(answers[i]!, c.rank, responseTag));
  const sends = contacts.map((c) => world.isend(c.data, c.rank, contactTag));
  const { parent, children } = binaryTree(me, mpi.size);
  const none = new Int32Array(0);
  const fromChildren = children.map((c) => world.irecv(none, c, termTag));
  let step: 'answers' | 'children' | 'parent' = 'answers';
  const box = new Int32Array(Math.max(1, maxLength));
  let incoming: Request | null = world.irecv(box, mpi.ANY_SOURCE, contactTag);
  const got: Contact[] = [];
  const confirm = Int32Array.of(1);
  let toParent: Request | null = null;
  for (;;) {
    // the stage's requests all done: the next stage
    if (stage.every((r) => r === null)) {
      if (step === 'answers') {
        step = 'children';
        stage = [...fromChildren];
        continue;
      }
      if (step === 'children' && parent >= 0) {
        step = 'parent';
        toParent = world.isend(none, parent, termTag);
        stage = [world.irecv(none, parent, termTag)];
        continue;
      }
      break;
    }
    const list = [incoming, ...stage];
    const { index, status } = await world.waitAny(list);
    if (index === 0) {
      got.push({ rank: status.source, data: box.slice(0, status.count) });
      await world.send(confirm, status.source, responseTag);
      incoming = world.irecv(box, mpi.ANY_SOURCE, contactTag);
    } else stage[index - 1] = null;
  }
  // every contact of every rank has been answered: none is left to come
  world.cancel(incoming);
  await incoming.wait();
  if (toParent) await toParent.wait();
  for (const c of children) await world.send(none, c, termTag);
  await world.waitAll(sends);
  return got.sort((a, b) => a.rank - b.rank);
}
