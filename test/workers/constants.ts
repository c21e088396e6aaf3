/** Shared by vitest.config.mts (which binds it) and the tests (which send it). */
export const ADMIN_TOKEN = 'test-admin-token-0123456789';
