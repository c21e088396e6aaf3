ALTER TABLE `account` ADD `suspended_at` integer;--> statement-breakpoint
ALTER TABLE `account` ADD `suspended_reason` text;
