DROP INDEX `holds_open`;--> statement-breakpoint
-- Closed holds live on in the ledger; the table keeps only the open ones (deleted before the
-- column drops below, so that each of those rewrites a table of a few rows).
DELETE FROM `holds` WHERE `state` <> 'open';--> statement-breakpoint
ALTER TABLE `holds` DROP COLUMN `state`;--> statement-breakpoint
ALTER TABLE `holds` DROP COLUMN `charged_micros`;--> statement-breakpoint
ALTER TABLE `holds` DROP COLUMN `closed_at`;
