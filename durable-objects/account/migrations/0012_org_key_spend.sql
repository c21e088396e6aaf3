-- D29, in a member account: what each of its keys was charged in an organization it has left, per
-- period, as that organization last reported it. Its key counters absorb only the growth of these
-- figures, so a charge that settles in the organization after the leave is counted once, and a
-- rejoin hands the figures back to the organization (they are subtracted and deleted).
CREATE TABLE `org_key_spend` (
	`organization_id` text NOT NULL,
	`key_id` text NOT NULL,
	`period` text NOT NULL,
	`spent_micros` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`organization_id`, `key_id`, `period`)
);
