CREATE TABLE `generations` (
	`id` text PRIMARY KEY NOT NULL,
	`account_id` text NOT NULL,
	`kind` text NOT NULL,
	`model` text NOT NULL,
	`prompt` text NOT NULL,
	`keys` text NOT NULL,
	`created_at` integer NOT NULL,
	`expires_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `generations_account` ON `generations` (`account_id`,`created_at`,`id`);