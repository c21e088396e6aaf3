-- A render is claimed before it runs (README "Image jobs"): the claim's token and the end of its lease.
ALTER TABLE `media_jobs` ADD `claim` text;--> statement-breakpoint
ALTER TABLE `media_jobs` ADD `claimed_until` integer;
