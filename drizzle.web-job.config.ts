import { defineConfig } from 'drizzle-kit';

/** The crawl/extract job Durable Object's SQLite schema; `npm run db:generate` writes its migrations. */
export default defineConfig({
  dialect: 'sqlite',
  driver: 'durable-sqlite',
  schema: './durable-objects/web-job/schema.ts',
  out: './durable-objects/web-job/migrations',
});
