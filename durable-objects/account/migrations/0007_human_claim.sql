-- The account's side of a human claim (issue 20): which claim init opened last, which claim's human
-- holds the account (its passkeys and sessions are the only ones that work), and the recent inits
-- for the per-account limit. Accounts claimed before this migration keep their human as 'legacy'.
CREATE TABLE `human_claim` (
	`id` integer PRIMARY KEY NOT NULL,
	`current_claim_id` text,
	`human_claim_id` text
);--> statement-breakpoint
INSERT INTO `human_claim` (`id`, `current_claim_id`, `human_claim_id`) SELECT 1, NULL, 'legacy' FROM `account` WHERE `claimed_at` IS NOT NULL;--> statement-breakpoint
CREATE TABLE `claim_inits` (
	`at` integer NOT NULL
);
