/**
 * The provider ids are the keys of `PROVIDERS` (`registry.ts`), which fills this interface in by
 * declaration merging (the pattern of TanStack Router's `Register`). So there is one list, and
 * the modules below the registry (catalog types, env, credentials, render contracts) can name a
 * provider without importing every adapter, and without an import cycle.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- filled in by registry.ts
export interface ProviderRegistry {}

/** Every upstream the gateway can speak to; `<P>_API_KEY` in the environment turns one on. */
export type ProviderId = keyof ProviderRegistry & string;
