// The API address (src/api/baseUrl.ts): https, or http on loopback only, without credentials.
import assert from 'node:assert/strict';
import { checkBaseUrl } from '../../../src/api';

describe('checkBaseUrl', () => {
  it('accepts https and strips the trailing slash', () => {
    assert.equal(checkBaseUrl('https://api.mintlify.com/'), 'https://api.mintlify.com');
    assert.equal(checkBaseUrl('https://proxy.example.com/mintlify/'), 'https://proxy.example.com/mintlify');
  });
  for (const loopback of ['http://127.0.0.1:4010', 'http://localhost:8080', 'http://[::1]:9000', 'http://127.1.2.3']) {
    it(`accepts loopback http ${loopback}`, () => assert.ok(checkBaseUrl(loopback).startsWith('http://')));
  }
  for (const bad of [
    'http://api.mintlify.com',
    'http://127.0.0.1.evil.com',
    'ftp://x',
    'not a url',
    'https://user:pw@api.mintlify.com',
    'javascript:alert(1)',
  ]) {
    it(`refuses ${bad}`, () => assert.throws(() => checkBaseUrl(bad), { kind: 'insecureBaseUrl' }));
  }
});
