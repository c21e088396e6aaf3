ALTER TABLE `funding_intents` ADD `sub_key_id` text;--> statement-breakpoint
ALTER TABLE `generations` ADD `key_id` text;--> statement-breakpoint
ALTER TABLE `media_jobs` ADD `key_id` text;--> statement-breakpoint
ALTER TABLE `uploads` ADD `key_id` text;--> statement-breakpoint
ALTER TABLE `web_jobs` ADD `key_id` text;