-- D26 request lookup: one row per billed request, written in the call that settles or releases its
-- hold; rows older than 30 days are pruned a few at a time on insert.
CREATE TABLE `request_records` (
	`request_id` text PRIMARY KEY NOT NULL,
	`path` text NOT NULL,
	`model` text,
	`provider` text,
	`status` text NOT NULL,
	`created_at` integer NOT NULL,
	`duration_ms` integer NOT NULL,
	`streamed` integer NOT NULL,
	`cost_micros` integer NOT NULL,
	`usage` text NOT NULL
);--> statement-breakpoint
CREATE INDEX `request_records_created_at` ON `request_records` (`created_at`);
