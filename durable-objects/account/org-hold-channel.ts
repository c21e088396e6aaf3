import type { MemberHoldReply, MemberHoldRequest, MemberHoldResult } from './org-protocol';

export type { MemberHoldReply, MemberHoldResult };

interface Waiting {
  input: MemberHoldRequest;
  resolve: (result: MemberHoldResult) => void;
  reject: (err: unknown) => void;
}

/**
 * A member's holds on its way to the organization's Durable Object (D29), as a group commit: the
 * holds of one batch from a Worker go in one call, and those that arrive while a call is in flight
 * go together in the next. Without it, a busy member would make one organization call per request
 * and the organization's object would meet its limit of about a thousand calls a second at a
 * thousand requests a second, whatever the Workers batch.
 */
export class OrgHoldChannel {
  readonly #send: (inputs: MemberHoldRequest[]) => Promise<MemberHoldReply[]>;
  #queue: Waiting[] = [];
  #inFlight = false;
  #scheduled = false;

  constructor(send: (inputs: MemberHoldRequest[]) => Promise<MemberHoldReply[]>) {
    this.#send = send;
  }

  hold(input: MemberHoldRequest): Promise<MemberHoldResult> {
    const done = new Promise<MemberHoldResult>((resolve, reject) => this.#queue.push({ input, resolve, reject }));
    // A microtask later: every hold of the batch being applied now has joined the queue.
    if (!this.#inFlight && !this.#scheduled) {
      this.#scheduled = true;
      queueMicrotask(() => {
        this.#scheduled = false;
        void this.#flush();
      });
    }
    return done;
  }

  async #flush(): Promise<void> {
    if (this.#inFlight || this.#queue.length === 0) return;
    this.#inFlight = true;
    const batch = this.#queue;
    this.#queue = [];
    try {
      const results = await this.#send(batch.map((waiting) => waiting.input));
      batch.forEach((waiting, i) => {
        const reply = results[i];
        if (reply === undefined) waiting.reject(new Error('the organization answered fewer holds than it was sent'));
        else if ('error' in reply) waiting.reject(new Error(reply.error));
        else waiting.resolve(reply);
      });
    } catch (err) {
      for (const waiting of batch) waiting.reject(err);
    } finally {
      this.#inFlight = false;
      void this.#flush();
    }
  }
}
