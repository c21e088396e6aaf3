CREATE TABLE `accounts` (
	`id` text PRIMARY KEY NOT NULL,
	`created_at` integer NOT NULL,
	`expires_at` integer,
	`funded_at` integer,
	`claimed_at` integer
);
--> statement-breakpoint
CREATE INDEX `accounts_expiry` ON `accounts` (`expires_at`);--> statement-breakpoint
CREATE TABLE `ip_daily_counters` (
	`ip` text NOT NULL,
	`day` text NOT NULL,
	`registrations` integer DEFAULT 0 NOT NULL,
	`welcome_grants` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`ip`, `day`)
);
