import { Validator } from '@seriousme/openapi-schema-validator';
import { describe, expect, inject, it } from 'vitest';

describe('GET /openapi.json', () => {
  it('is a valid OpenAPI 3.1 document', async () => {
    const res = await fetch(`${inject('gatewayUrl')}/openapi.json`);
    expect(res.status).toBe(200);
    const document = (await res.json()) as { openapi: string; info: { version: string } };
    expect(document.openapi).toBe('3.1.0');
    expect(document.info.version).toBe('1.0.0');
    const validator = new Validator();
    const result = await validator.validate(document);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(validator.version).toBe('3.1');
  });
});
