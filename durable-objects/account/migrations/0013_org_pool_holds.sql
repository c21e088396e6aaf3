-- D29, in a member account: holds its organization placed ahead of its requests (the member's
-- hold pool, org-hold-pool.ts), not yet handed to a request. A hold handed out leaves this table
-- in the same step; the rest go back to the organization when idle or near their deadline.
CREATE TABLE `org_pool_holds` (
	`hold_id` text PRIMARY KEY NOT NULL,
	`organization_id` text NOT NULL,
	`key_id` text NOT NULL,
	`purpose` text NOT NULL,
	`amount_micros` integer NOT NULL,
	`expires_at` integer NOT NULL
);
--> statement-breakpoint
-- An organization's expired, maybe still charged, holds per member and time (Organization.memberKeySpend).
CREATE INDEX `ledger_member_expired` ON `ledger` (`member_account_id`,`created_at`) WHERE kind = 'release' AND note = 'expired';
