import assert from 'node:assert/strict';
import { checkBaseUrl, endpointOf, ENDPOINTS, formatWait, parseApiDate, parseRetryAfter } from '../../../src/api';
import { plainText } from '../../../src/util/plainText';

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

describe('the endpoint a request went to, and whether the platform counts it in the hour', () => {
  it("tells a job's status read (not counted) from a follow-up and a new job (counted), whatever the ids and the query", () => {
    assert.equal(endpointOf('GET', '/v2/agent/demo-project/job/job_12'), ENDPOINTS.getJob);
    assert.equal(endpointOf('GET', '/v2/agent/demo-project/job/job_12')?.counted, false);
    assert.equal(endpointOf('POST', '/v2/agent/demo-project/job/job_12/message'), ENDPOINTS.sendMessage);
    assert.equal(endpointOf('post', '/v2/agent/demo%20project/job'), ENDPOINTS.createJob);
    for (const sent of [ENDPOINTS.sendMessage, ENDPOINTS.createJob]) assert.notEqual((sent as { counted?: false }).counted, false);
    assert.equal(endpointOf('GET', '/v1/analytics/demo-project/feedback?limit=100&cursor=a%2Fb'), ENDPOINTS.getFeedback);
    assert.equal(endpointOf('GET', '/v2/agent/demo-project/job/job_12/message'), undefined, 'no GET of a message');
    assert.equal(endpointOf('GET', '/v2/agent/demo-project/job/a/b'), undefined);
  });
});

describe('parseApiDate', () => {
  it('reads YYYY-MM-DD as UTC midnight', () => assert.equal(parseApiDate('2025-03-01'), Date.UTC(2025, 2, 1)));
  it('reads ISO date-times with a zone', () => assert.equal(parseApiDate('2025-03-01T12:30:00+02:00'), Date.UTC(2025, 2, 1, 10, 30)));
  for (const bad of ['2025-02-30', '2025-13-01', '25-03-01', '2025-03-01T12:00', 'yesterday', '', '2025-3-1']) {
    it(`refuses ${JSON.stringify(bad)}`, () => assert.equal(parseApiDate(bad), undefined));
  }
});

describe('Retry-After', () => {
  it('reads delta seconds', () => assert.equal(parseRetryAfter('120'), 120_000));
  it('reads an HTTP date', () => assert.equal(parseRetryAfter('Wed, 21 Oct 2026 07:28:30 GMT', Date.UTC(2026, 9, 21, 7, 28, 0)), 30_000));
  it('ignores garbage', () => assert.equal(parseRetryAfter('soon'), undefined));
  it('says when in words people read', () => {
    assert.equal(formatWait(400), 'in 1 s');
    assert.equal(formatWait(42_000), 'in 42 s');
    assert.equal(formatWait(10 * 60_000), 'in 10 min');
    assert.equal(formatWait(65 * 60_000), 'in 1 h 5 min');
  });
});

describe('plainText', () => {
  const LINK = /\[([^\]]+)\]\(((?:https?:\/\/|command:|file:)[^)\s]+)\)/i; // how notifications find links
  for (const outside of ['/[Re-enter API key](https://evil.example)', 'boom [x](command:workbench.action.terminal.new)', '[a](file:///etc/passwd)']) {
    it(`keeps ${JSON.stringify(outside)} from becoming a link`, () => {
      assert.match(outside, LINK);
      assert.doesNotMatch(plainText(outside), LINK);
      assert.equal(plainText(outside).replaceAll('\u200b', ''), outside, 'reads the same');
    });
  }
});
