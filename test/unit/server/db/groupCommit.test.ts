import { describe, expect, it } from 'vitest';
import { GroupCommit } from '../../../../reference-app/server/db/groupCommit';

// Group commit (docs/jobs.md: speed): the first item is written at once, the items that arrive
// while its write is in flight go together in the next write, and one bad item fails alone.

function recorder(fail?: (item: number) => boolean) {
  const writes: number[][] = [];
  const releases: Array<() => void> = [];
  const commit = new GroupCommit<number, string>(async (items) => {
    writes.push(items);
    await new Promise<void>((resolve) => releases.push(resolve));
    if (items.some((item) => fail?.(item))) throw new Error(`bad item in ${items.join(',')}`);
    return items.map((item) => `wrote ${item}`);
  }, 3);
  const flush = async () => {
    for (let i = 0; i < 20 && releases.length; i++) {
      for (const release of releases.splice(0)) release();
      await new Promise((r) => setTimeout(r, 0));
    }
  };
  return { commit, writes, flush };
}

describe('GroupCommit', () => {
  it('writes the first item alone and the ones that wait meanwhile together, at most maxBatch at a time', async () => {
    const { commit, writes, flush } = recorder();
    const answers = [1, 2, 3, 4, 5].map((n) => commit.add('user-a', n));
    await flush();
    expect(await Promise.all(answers)).toEqual(['wrote 1', 'wrote 2', 'wrote 3', 'wrote 4', 'wrote 5']);
    expect(writes).toEqual([[1], [2, 3, 4], [5]]);
  });

  it('keeps keys apart: another key does not wait for the first one', async () => {
    const { commit, writes, flush } = recorder();
    const answers = [commit.add('a', 1), commit.add('b', 2), commit.add('a', 3)];
    await flush();
    expect(await Promise.all(answers)).toEqual(['wrote 1', 'wrote 2', 'wrote 3']);
    expect(writes).toEqual([[1], [2], [3]]);
  });

  it('writes the items of a failed batch one by one, so only the bad one fails', async () => {
    const { commit, writes, flush } = recorder((item) => item === 3);
    const answers = [1, 2, 3, 4].map((n) => commit.add('k', n).catch((error: Error) => error.message));
    await flush();
    expect(await Promise.all(answers)).toEqual(['wrote 1', 'wrote 2', 'bad item in 3', 'wrote 4']);
    expect(writes).toEqual([[1], [2, 3, 4], [2], [3], [4]]);
  });
});
