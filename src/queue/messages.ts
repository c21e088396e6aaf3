/**
 * Messages on the jobs queue, one kind per step of a job (docs/contributors/storage.md, "Queue and cron"). Queues deliver at least
 * once, so every handler is idempotent. A new kind is added here and handled in `./consumer.ts`:
 * the consumer's `switch` does not compile until it is.
 */
export type QueueMessage =
  | {
      kind: 'account.expire';
      accountId: string;
      /** The sweep's clock: the account is deleted only if it expired before this instant (ms). */
      now: number;
    }
  /** Render an image job, or finish a sync image render its Worker left (`src/products/render/jobs.ts`). */
  | { kind: 'image.render'; jobId: string }
  /** Finish a sync speech render its Worker left (`src/products/render/jobs.ts`). */
  | { kind: 'speech.render'; jobId: string }
  /** Poll a video job's upstream once (`src/products/videos/job.ts`). */
  | { kind: 'video.poll'; jobId: string };

export type QueueMessageKind = QueueMessage['kind'];

const KINDS: Record<QueueMessageKind, true> = { 'account.expire': true, 'image.render': true, 'speech.render': true, 'video.poll': true };

/** Whether a delivered body is a message this Worker knows (an older or newer deploy may have sent another). */
export function isQueueMessage(body: unknown): body is QueueMessage {
  return typeof body === 'object' && body !== null && 'kind' in body && typeof body.kind === 'string' && Object.hasOwn(KINDS, body.kind);
}
