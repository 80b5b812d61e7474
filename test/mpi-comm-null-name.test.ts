/**
 * MPI_Comm_get_name in its C form (mpi.commGetName): the null handle is named MPI_COMM_NULL (MPI
 * 4.1), the predefined communicators by their names, others by what setName gave; anything else
 * is MPI_ERR_COMM.
 */
import { describe, expect, it } from 'vitest';
import { simulate } from '../runtime/simulate.ts';

describe('commGetName', () => {
  it('names MPI_COMM_NULL, MPI_COMM_WORLD, MPI_COMM_SELF, a named dup, and a split outside which a rank gets the null handle', async () => {
    const r = await simulate({
      machine: 'xe6',
      nodes: 3,
      program: async ({ mpi }) => {
        const dup = await mpi.dup();
        dup.setName('comm-0');
        const part = await mpi.split(mpi.rank === 2 ? mpi.UNDEFINED : 0, 0);
        return [mpi.commGetName(mpi.COMM_NULL), mpi.commGetName(mpi), mpi.commGetName(mpi.COMM_SELF), mpi.commGetName(dup), mpi.commGetName(part)];
      },
    });
    expect(r.rankResults[0]).toEqual(['MPI_COMM_NULL', 'MPI_COMM_WORLD', 'MPI_COMM_SELF', 'comm-0', '']);
    expect(r.rankResults[2]).toEqual(['MPI_COMM_NULL', 'MPI_COMM_WORLD', 'MPI_COMM_SELF', 'comm-0', 'MPI_COMM_NULL']);
  });

  it('refuses what is no communicator, naming it', async () => {
    const r = await simulate({
      machine: 'xe6',
      nodes: 1,
      program: async ({ mpi }) => {
        mpi.setErrhandler(mpi.ERRORS_RETURN);
        try {
          mpi.commGetName(7 as never);
        } catch (e) {
          return (e as Error).message;
        }
        return 'no error';
      },
    });
    expect(r.rankResults[0]).toBe('MPI_ERR_COMM: commGetName: comm must be a communicator or mpi.COMM_NULL, got number');
  });
});
