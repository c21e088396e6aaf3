/** D26: how long a request's record is kept before the prune may delete it. */
export const REQUEST_RECORD_RETENTION_MS = 30 * 24 * 60 * 60 * 1000;
/**
 * Expired records deleted by one prune. An insert prunes at most once a minute, so the settle path
 * almost never pays for it; a prune that finds a full batch runs again at the next insert, so a
 * backlog drains faster than any insert rate adds to it.
 */
const PRUNE_BATCH = 64;
const PRUNE_INTERVAL_MS = 60_000;
/** Bounds on what a caller may store: no prompt or output ever rides on a record. */
const MAX_TEXT = 200;
const MAX_USAGE_FIELDS = 8;
/** The upstream calls a chat record keeps (D34: failed attempts before the one that served). */
export const MAX_ATTEMPTS_RECORDED = 6;

/** What a billed route tells the account about a request when it settles or releases its hold (D26). */
export interface RequestRecord {
  /** The request's `X-Service-Request-Id`; absent: the one its hold was placed with (jobs). */
  requestId?: string;
  /** The public route, `/v1/chat/completions`. */
  path: string;
  model: string | null;
  provider: string | null;
  /** When the request reached the gateway (ms since epoch). */
  startedAt: number;
  durationMs: number;
  streamed: boolean;
  /** The route's units: tokens, images, seconds, characters, pages, records. */
  usage: Record<string, number>;
  /** Chat (D34): each upstream call, in order, when there was more than one; the serving one last. */
  attempts?: AttemptEntry[];
}

/** One upstream call of a request: `status` the upstream's HTTP status, null when none came. */
export interface AttemptEntry {
  provider: string;
  model: string;
  status: number | null;
  ms: number;
}

/** Whose request a record is: in an organization (D29) the member's, and the key's that held for it (D35). */
export interface RecordOwner {
  memberAccountId: string | null;
  keyId: string | null;
}

const NO_OWNER: RecordOwner = { memberAccountId: null, keyId: null };

/** A stored record, as the lookup reads it. */
export interface StoredRequest extends Omit<RequestRecord, 'usage' | 'requestId' | 'attempts'> {
  requestId: string;
  status: 'succeeded' | 'failed';
  costMicros: number;
  usage: Record<string, number>;
  attempts: AttemptEntry[];
}

/** A record as the account's activity lists it: with the key that made it. */
export interface ActivityRow extends StoredRequest {
  keyId: string | null;
}

/** One page of the account's activity, newest first, and where the next one starts. */
export interface ActivityPage {
  rows: ActivityRow[];
  /** The last row's place, for the next page; null at the end. */
  next: { at: number; id: string } | null;
}

interface Row extends Record<string, SqlStorageValue> {
  request_id: string;
  path: string;
  model: string | null;
  provider: string | null;
  status: string;
  created_at: number;
  duration_ms: number;
  streamed: number;
  cost_micros: number;
  usage: string;
  key_id: string | null;
}

const text = (value: unknown) => (typeof value === 'string' ? value.slice(0, MAX_TEXT) : null);
const whole = (value: unknown) => (typeof value === 'number' && Number.isFinite(value) ? Math.max(0, Math.round(value)) : 0);

/**
 * The usage column: the bounded units, and under `attempts` (no unit has that name) the bounded
 * attempts list, so a record's attempts need no column of their own.
 */
function boundedUsage(usage: unknown, attempts: unknown): string {
  const out: Record<string, unknown> = {};
  if (usage && typeof usage === 'object') {
    for (const [name, value] of Object.entries(usage).slice(0, MAX_USAGE_FIELDS)) {
      if (typeof value === 'number' && Number.isFinite(value) && name !== ATTEMPTS_KEY) out[name.slice(0, 40)] = value;
    }
  }
  const bounded = boundedAttempts(attempts);
  if (bounded.length > 0) out[ATTEMPTS_KEY] = bounded;
  return JSON.stringify(out);
}

const ATTEMPTS_KEY = 'attempts';

function boundedAttempts(attempts: unknown): AttemptEntry[] {
  if (!Array.isArray(attempts)) return [];
  return attempts.slice(0, MAX_ATTEMPTS_RECORDED).flatMap((entry: unknown) => {
    if (!entry || typeof entry !== 'object') return [];
    const { provider, model, status, ms } = entry as Record<string, unknown>;
    return [{ provider: text(provider) ?? '', model: text(model) ?? '', status: typeof status === 'number' && Number.isInteger(status) ? status : null, ms: whole(ms) }];
  });
}

/** The usage column read back: its units, and its attempts (`boundedUsage`). */
function readUsage(column: string): { usage: Record<string, number>; attempts: AttemptEntry[] } {
  const { [ATTEMPTS_KEY]: attempts, ...usage } = JSON.parse(column) as Record<string, unknown>;
  return { usage: usage as Record<string, number>, attempts: boundedAttempts(attempts) };
}

function stored(row: Row): StoredRequest {
  return {
    requestId: row.request_id,
    path: row.path,
    model: row.model,
    provider: row.provider,
    status: row.status === 'succeeded' ? 'succeeded' : 'failed',
    startedAt: row.created_at,
    durationMs: row.duration_ms,
    streamed: row.streamed === 1,
    costMicros: row.cost_micros,
    ...readUsage(row.usage),
  };
}

/**
 * The account's request records (D26): written in the same call that settles or releases the
 * request's hold, read by `GET /v1/requests/{id}`. A settlement's record wins over a release's (a
 * late settlement of a released hold is still charged); a repeated delivery writes nothing new.
 */
export class RequestRecords {
  /** When an insert may prune next (memory only: a restarted object prunes at its first insert). */
  #pruneAfter = 0;

  constructor(private readonly storage: DurableObjectStorage) {}

  /** Records a request whose hold was settled for `costMicros` (replaces a `failed` record of it). */
  settled(record: RequestRecord, holdRequestId: string | null, costMicros: number, now: number, owner: RecordOwner = NO_OWNER): void {
    this.#write(record, holdRequestId, owner, 'succeeded', costMicros, now, 'ON CONFLICT(request_id) DO UPDATE SET status = excluded.status, cost_micros = excluded.cost_micros, usage = excluded.usage, duration_ms = excluded.duration_ms WHERE status = \'failed\'');
  }

  /** Records a request whose hold was released, nothing charged; a settled record of it stays. */
  released(record: RequestRecord, holdRequestId: string | null, now: number, owner: RecordOwner = NO_OWNER): void {
    this.#write(record, holdRequestId, owner, 'failed', 0, now, 'ON CONFLICT(request_id) DO NOTHING');
  }

  /**
   * A request of this account; in an organization (D29), `memberAccountId` finds only that member's;
   * with `keyId` (a sub-key asking, D35), only that key's.
   */
  find(requestId: string, memberAccountId: string | null = null, keyId?: string): StoredRequest | null {
    const [row] = this.storage.sql
      .exec<Row>('SELECT * FROM request_records WHERE request_id = ? AND member_account_id IS ? AND (? IS NULL OR key_id = ?)', requestId, memberAccountId, keyId ?? null, keyId ?? null)
      .toArray();
    return row ? stored(row) : null;
  }

  /**
   * The account's own requests (not its members' in an organization), newest first, `limit` a page,
   * after `before` (the previous page's `next`): the dashboard's activity, failed requests included.
   */
  page(limit: number, before?: { at: number; id: string }): ActivityPage {
    const rows = this.storage.sql
      .exec<Row>(
        'SELECT * FROM request_records WHERE member_account_id IS NULL AND (? IS NULL OR created_at < ? OR (created_at = ? AND request_id < ?)) ORDER BY created_at DESC, request_id DESC LIMIT ?',
        before?.at ?? null,
        before?.at ?? null,
        before?.at ?? null,
        before?.id ?? null,
        limit + 1,
      )
      .toArray();
    const shown = rows.slice(0, limit).map((row) => ({ ...stored(row), keyId: row.key_id }));
    const last = shown.at(-1);
    return { rows: shown, next: rows.length > limit && last ? { at: last.startedAt, id: last.requestId } : null };
  }

  /** Deletes up to `limit` records older than the retention; the number deleted. */
  prune(now: number, limit = PRUNE_BATCH): number {
    return this.storage.sql.exec(
      'DELETE FROM request_records WHERE request_id IN (SELECT request_id FROM request_records WHERE created_at < ? ORDER BY created_at LIMIT ?)',
      now - REQUEST_RECORD_RETENTION_MS,
      limit,
    ).rowsWritten;
  }

  #write(record: RequestRecord, holdRequestId: string | null, owner: RecordOwner, status: 'succeeded' | 'failed', costMicros: number, now: number, onConflict: string): void {
    const requestId = text(record.requestId ?? holdRequestId);
    if (!requestId) return;
    const startedAt = whole(record.startedAt) || now;
    this.storage.sql.exec(
      `INSERT INTO request_records (request_id, path, model, provider, status, created_at, duration_ms, streamed, cost_micros, usage, member_account_id, key_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ${onConflict}`,
      requestId,
      text(record.path) ?? '',
      text(record.model),
      text(record.provider),
      status,
      startedAt,
      whole(record.durationMs),
      record.streamed === true ? 1 : 0,
      whole(costMicros),
      boundedUsage(record.usage, record.attempts),
      owner.memberAccountId,
      owner.keyId,
    );
    if (now >= this.#pruneAfter) this.#pruneAfter = this.prune(now) < PRUNE_BATCH ? now + PRUNE_INTERVAL_MS : now;
  }
}
