-- Each job kind's sweep (src/jobs/render-jobs.ts, src/jobs/video-jobs.ts) reads its own oldest open rows by this index.
CREATE INDEX `media_jobs_kind_open` ON `media_jobs` (`kind`,`status`,`updated_at`);
