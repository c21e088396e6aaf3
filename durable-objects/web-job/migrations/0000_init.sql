CREATE TABLE `items` (
	`seq` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`data` text NOT NULL
);
--> statement-breakpoint
CREATE TABLE `job` (
	`id` text PRIMARY KEY NOT NULL,
	`account_id` text NOT NULL,
	`kind` text NOT NULL,
	`status` text NOT NULL,
	`params` text NOT NULL,
	`hold_id` text NOT NULL,
	`base` text NOT NULL,
	`created_at` integer NOT NULL,
	`deadline_at` integer NOT NULL,
	`settled_at` integer,
	`cost_micros` integer,
	`result_key` text,
	`failed_urls` integer DEFAULT 0 NOT NULL,
	`last_failure` text,
	`error` text
);
--> statement-breakpoint
CREATE TABLE `queue` (
	`seq` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`url` text NOT NULL,
	`state` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `queue_url_unique` ON `queue` (`url`);