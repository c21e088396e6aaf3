-- D36: after an operator reset the account is claimed again only through the reset human's
-- verified address, or, with none on record, the operator's one-time claim token (hash, expiry).
ALTER TABLE `human_claim` ADD `reset_at` integer;--> statement-breakpoint
ALTER TABLE `human_claim` ADD `reclaim_email` text;--> statement-breakpoint
ALTER TABLE `human_claim` ADD `reclaim_token_hash` text;--> statement-breakpoint
ALTER TABLE `human_claim` ADD `reclaim_token_expires_at` integer;--> statement-breakpoint
-- D29: an invite's joins, counted at join; invites made before keep no limit (null) as issued.
ALTER TABLE `org_invites` ADD `uses` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `org_invites` ADD `max_uses` integer;--> statement-breakpoint
UPDATE `org_invites` SET `uses` = (SELECT COUNT(*) FROM `org_members` WHERE `org_members`.`invite_id` = `org_invites`.`id`);
