ALTER TABLE `holds` ADD `request_id` text;--> statement-breakpoint
ALTER TABLE `ledger` ADD `request_id` text;--> statement-breakpoint
CREATE INDEX `ledger_expired` ON `ledger` (`hold_id`) WHERE kind = 'release' AND note = 'expired';