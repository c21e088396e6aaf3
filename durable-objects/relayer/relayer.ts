import { DurableObject } from 'cloudflare:workers';
import { x402Config } from '../../src/x402/config';
import type { RelayedTransaction, RelayerWallet } from '../../src/x402/relayer-wallet';

/** A transaction the node does not know this long after it was sent is taken as dropped (a Base block). */
const DROPPED_AFTER_MS = 2_000;
/** Where the node does not serve `finalized`: sent transactions are remembered this many nonces below the mined count. */
const SENT_KEPT_WITHOUT_FINALIZED = 256;

/**
 * The x402 relayer's one serialization point (`idFromName("relayer:<chain id>")`, issue 35): every
 * transaction its key signs gets its nonce here, one after the other, so payers settling at once
 * never collide on a nonce (with 2-second blocks, concurrent settlements that each asked the node
 * for the pending count sent the same nonce, and all but one failed). The nonce is kept in memory:
 * read from the node (`pending`) on the first send and after any failed one, then counted up; a
 * gap a dropped transaction leaves is filled (`#nextNonce`). Only the signing and sending are
 * serialized; each caller waits for its receipt on its own.
 */
export class RelayerDurableObject extends DurableObject<Env> {
  #nonce: number | undefined;
  /**
   * What this object sent, by nonce, until it is final (below the node's `finalized` count): to
   * tell a dropped transaction from a slow one, also one a reorg took out of a mined block after
   * later nonces were sent.
   */
  #sent = new Map<number, { hash: `0x${string}`; at: number }>();
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
      const nonce = await this.#nextNonce(wallet);
      try {
        const hash = await wallet.send(tx, nonce);
        this.#sent.set(nonce, { hash, at: Date.now() });
        if (nonce === this.#nonce) this.#nonce++;
        return hash;
      } catch (err) {
        // The count may be stale (a transaction dropped, or sent with this key elsewhere): ask the node again.
        this.#nonce = undefined;
        if (attempt === 0 && /nonce/i.test(err instanceof Error ? err.message : String(err))) continue;
        throw err;
      }
    }
  }

  /**
   * The nonce of the next transaction: the count kept here, or the node's when it is ahead (the key
   * used elsewhere). A transaction sent here that the chain no longer has (a reorg took its block,
   * or the pool dropped it) leaves a gap every later nonce waits behind: the lowest unmined nonce
   * is sent again when the node no longer knows its transaction some seconds after it was sent.
   * Sent transactions are remembered until final, not only until mined: a reorg that drops a mined
   * one after later ones were sent moves the mined count back to its nonce, and the gap is found.
   */
  async #nextNonce(wallet: RelayerWallet): Promise<number> {
    const { mined, pending, finalized } = await wallet.nonces();
    const final = finalized ?? mined - SENT_KEPT_WITHOUT_FINALIZED;
    for (const nonce of this.#sent.keys()) if (nonce < final) this.#sent.delete(nonce);
    if (this.#nonce === undefined || this.#nonce < mined) this.#nonce = Math.max(mined, pending);
    const lowest = this.#sent.get(mined);
    if (mined < this.#nonce && lowest && Date.now() - lowest.at > DROPPED_AFTER_MS && !(await wallet.knows(lowest.hash))) return mined;
    return this.#nonce;
  }

  async #relayer(): Promise<RelayerWallet> {
    if (this.#wallet) return this.#wallet;
    const config = x402Config(this.env);
    if (!config || config.settlement.kind !== 'relayer') throw new Error('x402 settles through a facilitator or is off: no relayer key');
    // viem's accounts load with the first settlement, not with every Worker start (docs/contributors/architecture.md, "Startup").
    const { relayerWallet } = await import('../../src/x402/relayer-wallet');
    this.#wallet = relayerWallet(config, config.settlement.privateKey);
    return this.#wallet;
  }
}
