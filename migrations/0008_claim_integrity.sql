-- Issue 20: a passkey belongs to the claim that registered it (only the claim the account's Durable
-- Object approved signs in); mails per recipient address are counted; operator resets are recorded.
ALTER TABLE `passkeys` ADD `claim_id` text;--> statement-breakpoint
-- Passkeys stored before: the one stored with its claim's approval (same instant) keeps working;
-- a passkey left by a claim that was never approved (the interleaving this fixes) stays NULL and never signs in.
UPDATE `passkeys` SET `claim_id` = (
	SELECT `c`.`id` FROM `claims` `c`
	WHERE `c`.`account_id` = `passkeys`.`account_id` AND `c`.`status` = 'approved' AND `c`.`approved_at` = `passkeys`.`created_at`
	LIMIT 1
);--> statement-breakpoint
CREATE TABLE `claim_mail_sends` (
	`address_hash` text NOT NULL,
	`sent_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `claim_mail_sends_address` ON `claim_mail_sends` (`address_hash`,`sent_at`);--> statement-breakpoint
CREATE TABLE `human_resets` (
	`id` text PRIMARY KEY NOT NULL,
	`account_id` text NOT NULL,
	`reason` text NOT NULL,
	`passkeys_removed` integer NOT NULL,
	`sessions_revoked` integer NOT NULL,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `human_resets_account` ON `human_resets` (`account_id`,`created_at`);
