import { defineConfig } from 'drizzle-kit';

/** D1 schema; `npm run db:generate` writes migrations that `npm start` and the tests apply. */
export default defineConfig({
  dialect: 'sqlite',
  schema: './src/db/schema.ts',
  out: './migrations',
});
