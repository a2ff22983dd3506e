/**
 * What an outsider learns or reads without credentials (issue 15, items 14 and 16): the probes named the
 * drivers and the version (pglite, local, outbox, pocketsphinx…), and a developer's outbox, full of
 * confirmation and reset links, answered anyone on the local network.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../src/server/test/harness.js';

const REVEALING = /pglite|postgres|local|s3|outbox|smtp|pocketsphinx|whisper|version|\d+\.\d+\.\d+/i;
const TOKEN = 'b1f0c9d2e8a7465f93c2d1e0f7a6b5c4';

describe('probes', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ env: { METRICS_TOKEN: TOKEN } });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('tell an anonymous caller ok or not ok, never which drivers run or which version', async () => {
    for (const headers of [{}, { 'x-forwarded-for': '127.0.0.1' }, { authorization: 'Bearer ' }]) {
      const health = await t.app.inject({ method: 'GET', url: '/api/health', headers });
      expect(health.statusCode).toBe(200);
      expect(health.json()).toEqual({ status: 'ok' });
      expect(health.body).not.toMatch(REVEALING);
      const ready = await t.app.inject({ method: 'GET', url: '/api/ready', headers });
      expect(ready.body).not.toMatch(REVEALING);
    }
    expect((await t.app.inject({ method: 'GET', url: '/api/ready' })).json()).toEqual({ status: 'ready' });
  });

  it('give the details only to the metrics token', async () => {
    const guessed = await t.app.inject({ method: 'GET', url: '/api/ready', headers: { authorization: 'Bearer change-me-metrics-token-0123456789' } });
    expect(guessed.statusCode).toBe(401);
    expect(guessed.body).not.toMatch(REVEALING);
    const operator = await t.app.inject({ method: 'GET', url: '/api/ready', headers: { authorization: `Bearer ${TOKEN}` } });
    expect(operator.statusCode).toBe(200);
    expect(operator.json().health).toMatchObject({ version: expect.any(String), checks: { storage: { driver: 'local' }, mail: { transport: 'outbox' } } });
  });
});

describe('the development outbox', () => {
  let t: TestApp;
  beforeAll(async () => {
    // Behind a proxy (TRUST_PROXY=1), a forwarded address could claim to be loopback: it must not count.
    t = await createTestApp({ env: { NODE_ENV: 'development', TRUST_PROXY: '1' } });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('answers 404 to a client of the local network, whatever it forwards', async () => {
    for (const url of ['/dev/outbox', '/dev/outbox/messages.json', '/dev/outbox/x.eml', '/dev/outbox/x.eml/raw']) {
      for (const remoteAddress of ['192.168.1.23', '10.0.0.7', 'fe80::1', '::ffff:192.168.1.23']) {
        for (const headers of [{}, { 'x-forwarded-for': '127.0.0.1' }]) {
          const res = await t.app.inject({ method: 'GET', url, remoteAddress, headers });
          expect(res.statusCode, `${url} from ${remoteAddress} ${JSON.stringify(headers)}`).toBe(404);
          expect(res.json().code).toBe('not_found');
        }
      }
    }
  });

  it('still serves the developer on this machine', async () => {
    for (const remoteAddress of ['127.0.0.1', '::1', '::ffff:127.0.0.1']) {
      const res = await t.app.inject({ method: 'GET', url: '/dev/outbox', remoteAddress });
      expect(res.statusCode, remoteAddress).toBe(200);
      expect(res.body).toContain('Outbox');
    }
  });

  it('listens on loopback by default outside production', () => {
    expect(t.config.host).toBe('127.0.0.1');
  });
});
