-- D29 in the dashboard: an organization a claimed human made records the account that owns it
-- (`owner_account_id`, null for the operator's), and that account lists the organizations it made
-- (`owned_organizations`, written before the organization exists, so none is ever left unlisted).
ALTER TABLE `account` ADD `owner_account_id` text;--> statement-breakpoint
CREATE TABLE `owned_organizations` (
	`organization_id` text PRIMARY KEY NOT NULL,
	`created_at` integer NOT NULL
);
