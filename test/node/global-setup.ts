import type { TestProject } from 'vitest/node';
import { startOpenAIUpstream } from '../upstreams/openai';
import type { Upstream } from '../upstreams/server';
import { devVarsFromExample, startGateway, type RunningGateway } from './gateway-process';

export const E2E_ADMIN_TOKEN = 'e2e-admin-token-0123456789';

declare module 'vitest' {
  export interface ProvidedContext {
    gatewayUrl: string;
    /** The project copy the gateway runs in: its `.dev.vars`, where the README's commands run. */
    gatewayDir: string;
    /** What `npm start` printed until the gateway answered (wrangler's binding table among it). */
    gatewayStartLog: string;
  }
}

let gateway: RunningGateway | undefined;
let upstreams: Upstream[] = [];

/**
 * One gateway for the end-to-end files that need no simulator of their own, configured only
 * through `.dev.vars` as the README's quick start says. Base URLs use the spellings the other
 * stack does not: OpenAI's bare, Together's with `/v1`.
 */
export async function setup(project: TestProject) {
  const [openai, together] = await Promise.all([startOpenAIUpstream(), startOpenAIUpstream({ name: 'together' })]);
  upstreams = [openai, together];
  // `cp .dev.vars.example .dev.vars`, then the few values the quick start asks for.
  const devVars = devVarsFromExample({
    ADMIN_TOKEN: E2E_ADMIN_TOKEN,
    OPENAI_API_KEY: 'sk-quick-start',
    OPENAI_BASE_URL: openai.url,
    TOGETHER_API_KEY: 'together-quick-start',
    TOGETHER_BASE_URL: `${together.url}/v1`,
  });
  gateway = await startGateway({ devVars });
  project.provide('gatewayUrl', gateway.url);
  project.provide('gatewayDir', gateway.dir);
  project.provide('gatewayStartLog', gateway.output());
}

export async function teardown() {
  await gateway?.stop();
  await Promise.all(upstreams.map((upstream) => upstream.stop()));
}
