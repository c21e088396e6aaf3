-- Open holds keyed by their id alone (WITHOUT ROWID): a hold and its settlement each write one
-- B-tree instead of the table and its primary-key index. Hand-written: drizzle's schema cannot
-- say WITHOUT ROWID (schema.ts says it in a comment). The table holds open holds only, so the copy is small.
CREATE TABLE `holds_new` (
	`id` text PRIMARY KEY NOT NULL,
	`key_id` text,
	`amount_micros` integer NOT NULL,
	`purpose` text NOT NULL,
	`created_at` integer NOT NULL,
	`expires_at` integer NOT NULL,
	`request_id` text
) WITHOUT ROWID;--> statement-breakpoint
INSERT INTO `holds_new` (`id`, `key_id`, `amount_micros`, `purpose`, `created_at`, `expires_at`, `request_id`)
	SELECT `id`, `key_id`, `amount_micros`, `purpose`, `created_at`, `expires_at`, `request_id` FROM `holds`;--> statement-breakpoint
DROP TABLE `holds`;--> statement-breakpoint
ALTER TABLE `holds_new` RENAME TO `holds`;
