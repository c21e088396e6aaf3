-- D36: after an operator reset the account is claimed again only through the reset human's
-- verified address, or, with none on record, the operator's one-time claim token (hash, expiry).
ALTER TABLE `human_claim` ADD `reset_at` integer;--> statement-breakpoint
ALTER TABLE `human_claim` ADD `reclaim_email` text;--> statement-breakpoint
ALTER TABLE `human_claim` ADD `reclaim_token_hash` text;--> statement-breakpoint
ALTER TABLE `human_claim` ADD `reclaim_token_expires_at` integer;--> statement-breakpoint
-- A claimed account nobody holds was reset before D36: its claim token no longer claims it either
-- (the operator's next reset gives it an address on record or a one-time token).
UPDATE `human_claim` SET `reset_at` = CAST(strftime('%s', 'now') AS INTEGER) * 1000 WHERE `human_claim_id` IS NULL AND EXISTS (SELECT 1 FROM `account` WHERE `claimed_at` IS NOT NULL);--> statement-breakpoint
-- D29: an invite's joins, counted at join.
ALTER TABLE `org_invites` ADD `uses` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `org_invites` ADD `max_uses` integer;--> statement-breakpoint
UPDATE `org_invites` SET `uses` = (SELECT COUNT(*) FROM `org_members` WHERE `org_members`.`invite_id` = `org_invites`.`id`);--> statement-breakpoint
-- Issued before the count: a use each account that joined with it took, and no more (one left when none did), so an old reusable code cannot hand out caps either.
UPDATE `org_invites` SET `max_uses` = MAX(`uses`, 1) WHERE `max_uses` IS NULL;
