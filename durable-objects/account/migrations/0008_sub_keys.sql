-- D27 sub-keys: the route classes a key may use (JSON array; NULL allows every route) and the key
-- that minted it through POST /agent/keys (NULL for the account's own keys).
ALTER TABLE `api_keys` ADD `allowed_routes` text;--> statement-breakpoint
ALTER TABLE `api_keys` ADD `parent_key_id` text;
