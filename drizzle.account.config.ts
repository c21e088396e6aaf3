import { defineConfig } from 'drizzle-kit';

/** The account Durable Object's own SQLite schema; `npm run db:generate` writes its migrations. */
export default defineConfig({
  dialect: 'sqlite',
  driver: 'durable-sqlite',
  schema: './durable-objects/account/schema.ts',
  out: './durable-objects/account/migrations',
});
