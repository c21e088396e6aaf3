CREATE TABLE `account` (
	`id` text PRIMARY KEY NOT NULL,
	`created_at` integer NOT NULL,
	`balance_micros` integer DEFAULT 0 NOT NULL,
	`claim_token_hash` text NOT NULL,
	`claimed_at` integer,
	`funded_at` integer,
	`expires_at` integer,
	`card_funded_micros` integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE `api_keys` (
	`id` text PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`hash` text NOT NULL,
	`hint` text NOT NULL,
	`created_at` integer NOT NULL,
	`revoked_at` integer,
	`expires_at` integer,
	`daily_limit_micros` integer,
	`monthly_limit_micros` integer,
	`total_limit_micros` integer,
	`allowed_models` text
);
--> statement-breakpoint
CREATE UNIQUE INDEX `api_keys_hash_unique` ON `api_keys` (`hash`);--> statement-breakpoint
CREATE TABLE `holds` (
	`id` text PRIMARY KEY NOT NULL,
	`key_id` text,
	`amount_micros` integer NOT NULL,
	`purpose` text NOT NULL,
	`state` text NOT NULL,
	`charged_micros` integer,
	`created_at` integer NOT NULL,
	`expires_at` integer NOT NULL,
	`closed_at` integer
);
--> statement-breakpoint
CREATE INDEX `holds_open` ON `holds` (`state`,`expires_at`);--> statement-breakpoint
CREATE TABLE `key_spend` (
	`key_id` text NOT NULL,
	`period` text NOT NULL,
	`spent_micros` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`key_id`, `period`)
);
--> statement-breakpoint
CREATE TABLE `ledger` (
	`seq` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`kind` text NOT NULL,
	`amount_micros` integer NOT NULL,
	`balance_after_micros` integer NOT NULL,
	`hold_id` text,
	`key_id` text,
	`source` text,
	`idempotency_key` text NOT NULL,
	`note` text,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `ledger_idempotency_key_unique` ON `ledger` (`idempotency_key`);