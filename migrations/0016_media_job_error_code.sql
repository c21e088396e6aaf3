-- A failed job's envelope code beside its message (`error_code` on GET /v1/images/jobs/{id} and /v1/videos/generations/{id}).
ALTER TABLE `media_jobs` ADD `error_code` text;
