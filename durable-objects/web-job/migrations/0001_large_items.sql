ALTER TABLE `items` ADD `r2_key` text;
--> statement-breakpoint
ALTER TABLE `items` ADD `bytes` integer;
--> statement-breakpoint
ALTER TABLE `job` ADD `result_offset` integer;
--> statement-breakpoint
ALTER TABLE `job` ADD `result_length` integer;
--> statement-breakpoint
ALTER TABLE `job` ADD `step_failures` integer DEFAULT 0 NOT NULL;
