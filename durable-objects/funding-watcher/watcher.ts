import { DurableObject } from 'cloudflare:workers';
import { usdcConfig } from '../../src/funding/usdc-config';
import { watchPass, type CursorStore } from '../../src/funding/watch';

/** Seconds between passes while an intent is open or a deposit awaits confirmations. */
const BUSY_INTERVAL_MS = 3_000;
/** After a failed pass (the chain endpoint down): try again, a little later. */
const RETRY_INTERVAL_MS = 10_000;

/**
 * The one USDC watcher (`idFromName('usdc')`): an alarm a few seconds apart while anything is
 * open, none otherwise. `POST /agent/fund` and the cron wake it. Its only state is the last block
 * read; deposits and intents live in D1, and credits are idempotent in each account's Durable
 * Object, so a pass cut off anywhere is simply done again.
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
      const outcome = await watchPass(this.env, config, this.#cursor());
      if (outcome.busy) await this.ctx.storage.setAlarm(Date.now() + BUSY_INTERVAL_MS);
    } catch (err) {
      console.error('USDC watcher pass failed', err);
      await this.ctx.storage.setAlarm(Date.now() + RETRY_INTERVAL_MS);
    }
  }

  #cursor(): CursorStore {
    const storage = this.ctx.storage;
    return {
      get: () => storage.get<number>('cursor'),
      set: (block) => storage.put('cursor', block),
    };
  }
}
