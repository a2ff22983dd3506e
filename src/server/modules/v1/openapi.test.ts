import { Validator } from '@seriousme/openapi-schema-validator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { V1_OPERATION_LIST } from '../../../contract/api/v1.operations.js';
import { createTestApp, type TestApp } from '../../test/harness.js';
import { openApiPath } from './openapi.js';
import { API_REFERENCE_PAGE } from './v1-docs.routes.js';

type Doc = {
  openapi: string;
  servers: { url: string }[];
  paths: Record<string, Record<string, { operationId: string; responses: Record<string, unknown>; security: unknown[] }>>;
  components: { securitySchemes: Record<string, unknown> };
};

describe('the OpenAPI document of /api/v1 and its reference page', () => {
  let t: TestApp;
  let doc: Doc;
  beforeAll(async () => {
    t = await createTestApp({ env: { APP_URL: 'https://reviews.example.com' } });
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/openapi.json' });
    expect(res.statusCode, res.body).toBe(200);
    doc = res.json<Doc>();
  });
  afterAll(async () => t?.close());

  it('is public (no key), cacheable, and answers 304 to its own ETag', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/openapi.json' });
    expect(res.headers['content-type']).toContain('application/json');
    expect(res.headers['cache-control']).toBe('public, max-age=300');
    const etag = res.headers.etag as string;
    expect(etag).toMatch(/^".+"$/);
    const again = await t.app.inject({ method: 'GET', url: '/api/v1/openapi.json', headers: { 'if-none-match': etag } });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
  });

  it('validates as OpenAPI 3.1 with a maintained validator', async () => {
    expect(doc.openapi).toBe('3.1.0');
    const validator = new Validator();
    const result = await validator.validate(structuredClone(doc) as unknown as Parameters<Validator['validate']>[0]);
    expect(result.errors ?? [], JSON.stringify(result.errors, null, 2)).toEqual([]);
    expect(result.valid).toBe(true);
    expect(validator.version).toBe('3.1');
  });

  it('names its server from APP_URL and its bearer key scheme', () => {
    expect(doc.servers).toEqual([{ url: 'https://reviews.example.com/api/v1', description: 'This installation' }]);
    expect(doc.components.securitySchemes.apiKey).toMatchObject({ type: 'http', scheme: 'bearer' });
  });

  it('describes exactly the /api/v1 routes the server registered, and each with its errors', () => {
    const documented = Object.entries(doc.paths).flatMap(([path, item]) => Object.keys(item).map((method) => `${method.toUpperCase()} /api/v1${path}`));
    const registered = t.app.routeTable
      .filter((r) => r.url.startsWith('/api/v1/') && r.url !== '/api/v1/*' && r.url !== '/api/v1/openapi.json' && r.method !== 'OPTIONS')
      .map((r) => `${r.method} ${openApiPath(r.url)}`);
    expect(new Set(registered)).toEqual(new Set(documented));
    expect(documented).toHaveLength(V1_OPERATION_LIST.length);
    for (const item of Object.values(doc.paths)) {
      for (const op of Object.values(item)) {
        expect(op.operationId).toMatch(/^[a-z][A-Za-z]+$/);
        expect(op.security).toEqual([{ apiKey: [] }]);
        for (const status of ['401', '429']) expect(Object.keys(op.responses), `${op.operationId} ${status}`).toContain(status);
      }
    }
    const ids = Object.values(doc.paths).flatMap((item) => Object.values(item).map((op) => op.operationId));
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('has a readable reference page: public, every operation with its curl example, no outside address', async () => {
    const res = await t.app.inject({ method: 'GET', url: API_REFERENCE_PAGE });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/html');
    for (const op of V1_OPERATION_LIST) {
      expect(res.body).toContain(`id="${op.operationId}"`);
      expect(res.body).toContain(openApiPath(op.endpoint.route).replace('/api/v1', ''));
    }
    expect(res.body).toContain('curl -X POST &#39;https://reviews.example.com/api/v1/publications&#39;');
    expect(res.body).not.toMatch(/<script|<link|src="http/);
  });
});
