CREATE TABLE `card_payments` (
	`id` text PRIMARY KEY NOT NULL,
	`account_id` text NOT NULL,
	`amount_micros` integer NOT NULL,
	`status` text NOT NULL,
	`session_id` text,
	`created_at` integer NOT NULL,
	`expires_at` integer NOT NULL,
	`paid_at` integer
);
--> statement-breakpoint
CREATE UNIQUE INDEX `card_payments_session_id_unique` ON `card_payments` (`session_id`);--> statement-breakpoint
CREATE INDEX `card_payments_account` ON `card_payments` (`account_id`,`status`);--> statement-breakpoint
CREATE TABLE `deposits` (
	`id` text PRIMARY KEY NOT NULL,
	`tx_hash` text NOT NULL,
	`log_index` integer NOT NULL,
	`block_number` integer NOT NULL,
	`block_hash` text NOT NULL,
	`from_address` text NOT NULL,
	`amount` text NOT NULL,
	`status` text NOT NULL,
	`intent_id` text,
	`account_id` text,
	`seen_at` integer NOT NULL,
	`credited_at` integer,
	`note` text
);
--> statement-breakpoint
CREATE INDEX `deposits_status` ON `deposits` (`status`,`block_number`);--> statement-breakpoint
CREATE INDEX `deposits_account` ON `deposits` (`account_id`);--> statement-breakpoint
CREATE TABLE `funding_intents` (
	`id` text PRIMARY KEY NOT NULL,
	`account_id` text NOT NULL,
	`amount_usd` integer NOT NULL,
	`amount_micros` integer NOT NULL,
	`status` text NOT NULL,
	`created_at` integer NOT NULL,
	`expires_at` integer NOT NULL,
	`deposit_id` text
);
--> statement-breakpoint
CREATE UNIQUE INDEX `funding_intents_open_amount` ON `funding_intents` (`amount_micros`) WHERE status = 'open';--> statement-breakpoint
CREATE INDEX `funding_intents_account` ON `funding_intents` (`account_id`,`created_at`);--> statement-breakpoint
ALTER TABLE `accounts` ADD `fund_token_hash` text;--> statement-breakpoint
CREATE UNIQUE INDEX `accounts_fund_token_hash_unique` ON `accounts` (`fund_token_hash`);--> statement-breakpoint
ALTER TABLE `ip_daily_counters` ADD `funding_sessions` integer DEFAULT 0 NOT NULL;