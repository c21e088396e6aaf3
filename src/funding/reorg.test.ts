import { describe, expect, it } from 'vitest';
import { pruneReadBlocks, READ_BLOCKS_KEPT, type ReadBlock } from './reorg';

const blocks = (count: number, first = 1): ReadBlock[] => Array.from({ length: count }, (_, i) => ({ number: first + i, hash: `0x${(first + i).toString(16)}` }));

describe('pruneReadBlocks', () => {
  it('keeps every block above finalized, and the last 256 whatever finalized says', () => {
    expect(pruneReadBlocks(blocks(600), 100)).toEqual(blocks(500, 101));
    expect(pruneReadBlocks(blocks(300), 100)).toEqual(blocks(READ_BLOCKS_KEPT, 45));
    expect(pruneReadBlocks(blocks(300), 290)).toEqual(blocks(READ_BLOCKS_KEPT, 45));
    expect(pruneReadBlocks(blocks(10), 5)).toEqual(blocks(10));
  });

  it('keeps at most 1024 however far behind finalized is', () => {
    const kept = pruneReadBlocks(blocks(2000), 0);
    expect(kept).toHaveLength(1024);
    expect(kept.at(-1)!.number).toBe(2000);
  });
});
