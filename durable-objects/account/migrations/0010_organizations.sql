-- Organizations (D29). An organization is an account (kind `organization`, a name); a member
-- account records the organization it spends from (`organization_id`) and every organization it
-- belonged to (`memberships`, for its request lookups). The organization's own object keeps its
-- members, invites and the members' spend; its holds and ledger rows name the member account.
ALTER TABLE `account` ADD `kind` text DEFAULT 'account' NOT NULL;--> statement-breakpoint
ALTER TABLE `account` ADD `name` text;--> statement-breakpoint
ALTER TABLE `account` ADD `organization_id` text;--> statement-breakpoint
ALTER TABLE `holds` ADD `member_account_id` text;--> statement-breakpoint
ALTER TABLE `ledger` ADD `member_account_id` text;--> statement-breakpoint
ALTER TABLE `request_records` ADD `member_account_id` text;--> statement-breakpoint
CREATE TABLE `memberships` (
	`organization_id` text PRIMARY KEY NOT NULL,
	`joined_at` integer NOT NULL,
	`left_at` integer,
	`left_confirmed_at` integer
);--> statement-breakpoint
CREATE TABLE `org_members` (
	`account_id` text PRIMARY KEY NOT NULL,
	`status` text NOT NULL,
	`cap_micros` integer,
	`invite_id` text,
	`joined_at` integer NOT NULL,
	`approved_at` integer,
	`left_at` integer
);--> statement-breakpoint
CREATE TABLE `org_invites` (
	`id` text PRIMARY KEY NOT NULL,
	`hash` text NOT NULL,
	`cap_micros` integer,
	`auto_approve` integer DEFAULT false NOT NULL,
	`created_at` integer NOT NULL,
	`revoked_at` integer
);--> statement-breakpoint
CREATE UNIQUE INDEX `org_invites_hash_unique` ON `org_invites` (`hash`);--> statement-breakpoint
CREATE TABLE `member_spend` (
	`account_id` text NOT NULL,
	`key_id` text NOT NULL,
	`period` text NOT NULL,
	`spent_micros` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`account_id`, `key_id`, `period`)
);
