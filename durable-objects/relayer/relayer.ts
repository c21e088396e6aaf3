import { DurableObject } from 'cloudflare:workers';
import { x402Config } from '../../src/x402/config';
import type { RelayedTransaction, RelayerWallet } from '../../src/x402/relayer-wallet';

/**
 * The x402 relayer's one serialization point (`idFromName("relayer:<chain id>")`, issue 35): every
 * transaction its key signs gets its nonce here, one after the other, so payers settling at once
 * never collide on a nonce (with 2-second blocks, concurrent settlements that each asked the node
 * for the pending count sent the same nonce, and all but one failed). The nonce is kept in memory:
 * read from the node (`pending`) on the first send and after any failed one, then counted up.
 * Only the signing and sending are serialized; each caller waits for its receipt on its own.
 */
export class RelayerDurableObject extends DurableObject<Env> {
  #nonce: number | undefined;
  #queue: Promise<unknown> = Promise.resolve();
  #wallet: RelayerWallet | undefined;

  /** Signs `tx` with the next nonce and sends it; its hash. Throws what the node said when it was refused. */
  async send(tx: RelayedTransaction): Promise<`0x${string}`> {
    const turn = this.#queue.then(() => this.#sendNow(tx));
    this.#queue = turn.catch(() => undefined);
    return turn;
  }

  async #sendNow(tx: RelayedTransaction): Promise<`0x${string}`> {
    const wallet = await this.#relayer();
    for (let attempt = 0; ; attempt++) {
      this.#nonce ??= await wallet.pendingNonce();
      try {
        const hash = await wallet.send(tx, this.#nonce);
        this.#nonce++;
        return hash;
      } catch (err) {
        // The count may be stale (a transaction dropped, or sent with this key elsewhere): ask the node again.
        this.#nonce = undefined;
        if (attempt === 0 && /nonce/i.test(err instanceof Error ? err.message : String(err))) continue;
        throw err;
      }
    }
  }

  async #relayer(): Promise<RelayerWallet> {
    if (this.#wallet) return this.#wallet;
    const config = x402Config(this.env);
    if (!config || config.settlement.kind !== 'relayer') throw new Error('x402 settles through a facilitator or is off: no relayer key');
    // viem's accounts load with the first settlement, not with every Worker start (README "Startup").
    const { relayerWallet } = await import('../../src/x402/relayer-wallet');
    this.#wallet = relayerWallet(config, config.settlement.privateKey);
    return this.#wallet;
  }
}
