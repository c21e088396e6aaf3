CREATE TABLE `uploads` (
	`key` text PRIMARY KEY NOT NULL,
	`account_id` text NOT NULL,
	`token_hash` text NOT NULL,
	`content_type` text NOT NULL,
	`bytes` integer NOT NULL,
	`day` text NOT NULL,
	`created_at` integer NOT NULL,
	`put_by` integer NOT NULL,
	`put_at` integer,
	`uploaded_at` integer,
	`expires_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `uploads_token_hash_unique` ON `uploads` (`token_hash`);--> statement-breakpoint
CREATE INDEX `uploads_account_day` ON `uploads` (`account_id`,`day`);--> statement-breakpoint
CREATE INDEX `uploads_account_listed` ON `uploads` (`account_id`,`uploaded_at`,`key`);--> statement-breakpoint
CREATE INDEX `uploads_expiry` ON `uploads` (`expires_at`);