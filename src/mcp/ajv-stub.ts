/**
 * Build-time stand-in for `ajv` and `ajv-formats` (wrangler.toml `[alias]`). The MCP SDK's server
 * imports its ajv validator statically, but ajv compiles with eval, which Workers forbid, so the
 * gateway passes CfWorkerJsonSchemaValidator and never constructs ajv; this keeps ~100 KiB of it out.
 */
export default class Ajv {
  constructor() {
    throw new Error('ajv is not bundled: use CfWorkerJsonSchemaValidator');
  }
}
