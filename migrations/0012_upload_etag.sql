-- A presigned upload goes straight to R2 (README "Uploads"): the ETag of the object last checked
-- (size and signature), so a later use sees whether the object was replaced since.
ALTER TABLE `uploads` ADD `etag` text;
