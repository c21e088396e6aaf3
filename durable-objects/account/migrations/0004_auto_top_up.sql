CREATE TABLE `top_up_settings` (
	`id` integer PRIMARY KEY NOT NULL,
	`enabled` integer DEFAULT false NOT NULL,
	`threshold_micros` integer DEFAULT 0 NOT NULL,
	`amount_micros` integer DEFAULT 0 NOT NULL,
	`customer_id` text,
	`payment_method_id` text,
	`card_brand` text,
	`card_last4` text,
	`stopped_by` integer,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `top_ups` (
	`n` integer PRIMARY KEY NOT NULL,
	`status` text NOT NULL,
	`amount_micros` integer NOT NULL,
	`customer_id` text NOT NULL,
	`payment_method_id` text NOT NULL,
	`attempts` integer DEFAULT 0 NOT NULL,
	`next_attempt_at` integer NOT NULL,
	`payment_intent_id` text,
	`failure_code` text,
	`failure_message` text,
	`created_at` integer NOT NULL,
	`ended_at` integer
);
--> statement-breakpoint
CREATE UNIQUE INDEX `top_ups_one_pending` ON `top_ups` (`status`) WHERE status = 'pending';