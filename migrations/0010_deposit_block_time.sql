ALTER TABLE `deposits` ADD `block_time` integer;--> statement-breakpoint
CREATE INDEX `funding_intents_amount` ON `funding_intents` (`amount_micros`,`created_at`);
