-- Closed holds live on in the ledger; the table keeps only the open ones.
DELETE FROM `holds` WHERE `state` <> 'open';--> statement-breakpoint
DROP INDEX `holds_open`;--> statement-breakpoint
ALTER TABLE `holds` DROP COLUMN `state`;--> statement-breakpoint
ALTER TABLE `holds` DROP COLUMN `charged_micros`;--> statement-breakpoint
ALTER TABLE `holds` DROP COLUMN `closed_at`;