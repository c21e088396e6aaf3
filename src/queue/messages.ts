/**
 * Messages on the jobs queue. Queues deliver at least once, so every consumer is idempotent.
 * Later capabilities add their kinds here (job polling, settlements).
 */
export type JobMessage =
  | {
      kind: 'account.expire';
      accountId: string;
      /** The sweep's clock: the account is deleted only if it expired before this instant (ms). */
      now: number;
    }
  /** Render an image job, or finish a sync image render its Worker left (`src/media/jobs.ts`). */
  | { kind: 'image.render'; jobId: string }
  /** Finish a sync speech render its Worker left (`src/media/jobs.ts`). */
  | { kind: 'speech.render'; jobId: string }
  /** Poll a video job's upstream once (`src/media/videos/job.ts`). */
  | { kind: 'video.poll'; jobId: string };
