CREATE TABLE `claims` (
	`id` text PRIMARY KEY NOT NULL,
	`account_id` text NOT NULL,
	`code_hash` text NOT NULL,
	`status` text NOT NULL,
	`email` text,
	`interval_seconds` integer NOT NULL,
	`last_poll_at` integer,
	`wrong_attempts` integer DEFAULT 0 NOT NULL,
	`ticket_hash` text,
	`email_code_hash` text,
	`email_sends` integer DEFAULT 0 NOT NULL,
	`email_verified_at` integer,
	`created_at` integer NOT NULL,
	`expires_at` integer NOT NULL,
	`approved_at` integer
);
--> statement-breakpoint
CREATE INDEX `claims_account` ON `claims` (`account_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `human_sessions` (
	`token_hash` text PRIMARY KEY NOT NULL,
	`account_id` text NOT NULL,
	`created_at` integer NOT NULL,
	`expires_at` integer NOT NULL,
	`revoked_at` integer
);
--> statement-breakpoint
CREATE INDEX `human_sessions_account` ON `human_sessions` (`account_id`);--> statement-breakpoint
CREATE INDEX `human_sessions_expiry` ON `human_sessions` (`expires_at`);--> statement-breakpoint
CREATE TABLE `ip_hourly_counters` (
	`ip` text NOT NULL,
	`hour` text NOT NULL,
	`wrong_claim_codes` integer DEFAULT 0 NOT NULL,
	`sign_in_challenges` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`ip`, `hour`)
);
--> statement-breakpoint
CREATE TABLE `passkey_challenges` (
	`challenge` text PRIMARY KEY NOT NULL,
	`purpose` text NOT NULL,
	`claim_id` text,
	`created_at` integer NOT NULL,
	`expires_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `passkey_challenges_expiry` ON `passkey_challenges` (`expires_at`);--> statement-breakpoint
CREATE TABLE `passkeys` (
	`id` text PRIMARY KEY NOT NULL,
	`account_id` text NOT NULL,
	`public_key` text NOT NULL,
	`counter` integer NOT NULL,
	`transports` text,
	`created_at` integer NOT NULL,
	`last_used_at` integer
);
--> statement-breakpoint
CREATE INDEX `passkeys_account` ON `passkeys` (`account_id`);