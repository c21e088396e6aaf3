/**
 * The R2 lifecycle rules the deploy sets on the media bucket, and the comparison with what
 * `wrangler r2 bucket lifecycle list` prints, so a second deploy leaves them alone.
 */

const DAY_SECONDS = 86_400;

export interface LifecycleRule {
  id: string;
  enabled: true;
  conditions: { prefix: string };
  deleteObjectsTransition: { condition: { type: 'Age'; maxAge: number } };
}

/**
 * outputs/ (generated media) one day past OUTPUT_RETENTION_DAYS, so the links the gateway lists
 * never outlive their objects by less than a day; uploads/ after 3 days (the spec keeps an
 * upload about 48 hours); results/ (crawl and extract result sets) after 30 days; stored chat
 * responses (responses/, read for 30 days) after 31, and their day markers (responses-by-day/,
 * which the cron's sweep walks) a day after them.
 */
export function desiredRules(outputRetentionDays: number): LifecycleRule[] {
  const rule = (id: string, prefix: string, days: number): LifecycleRule => ({
    id,
    enabled: true,
    conditions: { prefix },
    deleteObjectsTransition: { condition: { type: 'Age', maxAge: days * DAY_SECONDS } },
  });
  return [
    rule('gateway-outputs', 'outputs/', outputRetentionDays + 1),
    rule('gateway-uploads', 'uploads/', 3),
    rule('gateway-results', 'results/', 30),
    rule('gateway-responses', 'responses/', 31),
    rule('gateway-response-days', 'responses-by-day/', 32),
  ];
}

/** One rule as `wrangler r2 bucket lifecycle list` prints it (its name, enabled, prefix and action lines). */
function listed(rule: LifecycleRule): string {
  const days = rule.deleteObjectsTransition.condition.maxAge / DAY_SECONDS;
  return [rule.id, 'Yes', rule.conditions.prefix, `Expire objects after ${days} days`].join('|');
}

/** The rules in the output of `wrangler r2 bucket lifecycle list`, one `name|enabled|prefix|action` string each. */
export function parseListedRules(output: string): string[] {
  const rules: string[] = [];
  let current: Record<string, string> = {};
  const flush = () => {
    if (current.name) rules.push([current.name, current.enabled, current.prefix, current.action].join('|'));
    current = {};
  };
  for (const line of output.split('\n')) {
    const field = /^(name|enabled|prefix|action):\s+(.*?)\s*$/.exec(line);
    if (!field) continue;
    if (field[1] === 'name') flush();
    current[field[1]!] = field[2]!;
  }
  flush();
  return rules;
}

/** True when the bucket holds exactly the desired rules. */
export function rulesMatch(listedOutput: string, desired: LifecycleRule[]): boolean {
  const have = parseListedRules(listedOutput).sort();
  const want = desired.map(listed).sort();
  return have.length === want.length && have.every((rule, index) => rule === want[index]);
}

/** `outputs/ 31 days, uploads/ 3 days, results/ 30 days, ...` */
export function describeRules(rules: LifecycleRule[]): string {
  return rules.map((rule) => `${rule.conditions.prefix} ${rule.deleteObjectsTransition.condition.maxAge / DAY_SECONDS} days`).join(', ');
}
