-- The operator's account search (`GET /admin/accounts`): all accounts newest first, and the
-- accounts of a claimed email or of a USDC sender's wallet (compared in lowercase).
CREATE INDEX `accounts_created` ON `accounts` (`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `claims_email` ON `claims` (`email`) WHERE status = 'approved';--> statement-breakpoint
CREATE INDEX `deposits_from` ON `deposits` (lower(`from_address`));
