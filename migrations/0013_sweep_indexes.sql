-- The storage sweep (src/jobs/storage-sweep.ts) reads each table's oldest rows by these indexes.
CREATE INDEX `generations_expiry` ON `generations` (`expires_at`);--> statement-breakpoint
CREATE INDEX `web_jobs_created` ON `web_jobs` (`created_at`);--> statement-breakpoint
CREATE INDEX `ip_daily_counters_day` ON `ip_daily_counters` (`day`);--> statement-breakpoint
CREATE INDEX `ip_hourly_counters_hour` ON `ip_hourly_counters` (`hour`);--> statement-breakpoint
CREATE INDEX `funding_request_counters_hour` ON `funding_request_counters` (`hour`);--> statement-breakpoint
CREATE INDEX `funding_intents_expiry` ON `funding_intents` (`expires_at`);
