export type Tier = 'standard' | 'stealth';

export type RailResult =
  | { ok: true; status: number; html: string; finalUrl: string; contentType: string }
  /** `rejected`: the URL guard refused a hop; `failed`: network, timeout, unreadable; `unavailable`: rail off. */
  | { ok: false; kind: 'rejected' | 'failed' | 'unavailable'; message: string };
