ALTER TABLE `deposits` ADD `reversals` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `ip_hourly_counters` ADD `x402_attempts` integer DEFAULT 0 NOT NULL;