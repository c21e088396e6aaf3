import { drizzle } from 'drizzle-orm/d1';
import * as schema from './schema';

export type Database = ReturnType<typeof database>;

export function database(env: Env) {
  return drizzle(env.DB, { schema });
}
