CREATE TABLE `welcome_credit_days` (
	`day` text PRIMARY KEY NOT NULL,
	`granted_micros` integer DEFAULT 0 NOT NULL,
	`grants` integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE `funding_request_counters` (
	`account_id` text NOT NULL,
	`hour` text NOT NULL,
	`requests` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`account_id`, `hour`)
);
