import type { TestProject } from 'vitest/node';
import { startGateway, type RunningGateway } from './gateway-process';

export const E2E_ADMIN_TOKEN = 'e2e-admin-token-0123456789';

declare module 'vitest' {
  export interface ProvidedContext {
    gatewayUrl: string;
  }
}

let gateway: RunningGateway | undefined;

/** One `wrangler dev` for every end-to-end test file. */
export async function setup(project: TestProject) {
  gateway = await startGateway({ ADMIN_TOKEN: E2E_ADMIN_TOKEN });
  project.provide('gatewayUrl', gateway.url);
}

export async function teardown() {
  await gateway?.stop();
}
