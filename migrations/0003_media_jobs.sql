CREATE TABLE `media_jobs` (
	`id` text PRIMARY KEY NOT NULL,
	`account_id` text NOT NULL,
	`kind` text NOT NULL,
	`model` text NOT NULL,
	`status` text NOT NULL,
	`params` text NOT NULL,
	`base` text NOT NULL,
	`hold_id` text NOT NULL,
	`predicted_micros` integer NOT NULL,
	`actual_micros` integer,
	`keys` text,
	`error` text,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `media_jobs_account` ON `media_jobs` (`account_id`);--> statement-breakpoint
CREATE INDEX `media_jobs_open` ON `media_jobs` (`status`,`updated_at`);