import { DurableObject } from 'cloudflare:workers';
import { ChainMismatchError } from '../../src/funding/chain-mismatch';
import { usdcConfig, type UsdcConfig } from '../../src/funding/usdc-config';
import type { ReadBlock } from '../../src/funding/reorg';
import type { CursorStore, RecheckWalk } from '../../src/funding/watch';

/** Between passes while an intent is open or a deposit awaits confirmations or finality. */
const BUSY_INTERVAL_MS = 3_000;
/**
 * Between passes with nothing open: a reorg may still add a transfer at a height already read, or
 * someone may pay without an intent; either is found (credited or listed) within this long.
 */
const IDLE_INTERVAL_MS = 20_000;
/** After a failed pass (the chain endpoint down): try again, a little later. */
const RETRY_INTERVAL_MS = 10_000;
/** The endpoint serves another chain (a misconfiguration): look again, rarely, until the operator fixes it. */
const MISMATCH_INTERVAL_MS = 60_000;

/** The last block read, always a confirmed one. */
const CURSOR_KEY = 'confirmed_cursor';
/** The blocks read as they were then (`ReadBlock`), to find a reorg's fork point. */
const READ_BLOCKS_KEY = 'read_blocks';
/** A recheck of decided deposits a pass left unfinished (`RecheckWalk`). */
const RECHECK_WALK_KEY = 'recheck_walk';
/** Where an earlier watcher, which read up to the unconfirmed head, kept its place. */
const LEGACY_CURSOR_KEY = 'cursor';

/**
 * The one USDC watcher (`idFromName('usdc')`): an alarm a few seconds apart while anything is
 * open or a deposit is not yet final, every 20 seconds otherwise. `POST /agent/fund`, an x402
 * payment and the cron wake it. Its only state is the last block read and the hashes of the
 * blocks it read; deposits and intents live in D1, and credits are idempotent in each account's
 * Durable Object, so a pass cut off anywhere is simply done again. An endpoint on the wrong chain makes
 * every pass stop before reading anything, logged each time.
 */
export class FundingWatcherDurableObject extends DurableObject<Env> {
  /** Starts passes now unless one is already scheduled. */
  async wake(): Promise<void> {
    if ((await this.ctx.storage.getAlarm()) === null) await this.ctx.storage.setAlarm(Date.now());
  }

  override async alarm(): Promise<void> {
    const config = usdcConfig(this.env);
    if (!config) return;
    try {
      // The pass (D1, viem's chain reads) loads with the first alarm, not with every Worker start (docs/contributors/architecture.md, "Startup").
      const { watchPass } = await import('../../src/funding/watch');
      const outcome = await watchPass(this.env, config, this.#cursor(config));
      await this.ctx.storage.setAlarm(Date.now() + (outcome.busy ? BUSY_INTERVAL_MS : IDLE_INTERVAL_MS));
    } catch (err) {
      if (err instanceof ChainMismatchError) {
        console.error('USDC watcher: wrong chain, nothing read or credited', err.message);
        await this.ctx.storage.setAlarm(Date.now() + MISMATCH_INTERVAL_MS);
        return;
      }
      console.error('USDC watcher pass failed', err);
      await this.ctx.storage.setAlarm(Date.now() + RETRY_INTERVAL_MS);
    }
  }

  #cursor(config: UsdcConfig): CursorStore {
    const storage = this.ctx.storage;
    return {
      get: async () => {
        const cursor = await storage.get<number>(CURSOR_KEY);
        if (cursor !== undefined) return cursor;
        // The earlier watcher read blocks not yet confirmed: read those again, now that only confirmed ones count.
        const legacy = await storage.get<number>(LEGACY_CURSOR_KEY);
        return legacy === undefined ? undefined : Math.max(0, legacy - config.confirmations);
      },
      set: (block) => storage.put(CURSOR_KEY, block),
      readBlocks: async () => (await storage.get<ReadBlock[]>(READ_BLOCKS_KEY)) ?? [],
      setReadBlocks: (blocks) => storage.put(READ_BLOCKS_KEY, blocks),
      recheckWalk: () => storage.get<RecheckWalk>(RECHECK_WALK_KEY),
      setRecheckWalk: async (walk) => void (walk ? await storage.put(RECHECK_WALK_KEY, walk) : await storage.delete(RECHECK_WALK_KEY)),
    };
  }
}
