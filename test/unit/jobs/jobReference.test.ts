import assert from 'node:assert/strict';
import { parseJobReference } from '../../../src/jobs/jobReference';

describe('parseJobReference (Track Job… input)', () => {
  const cases: [string, string | undefined][] = [
    ['job_0ihhprf0wte5zr', 'job_0ihhprf0wte5zr'],
    ['  job_123  ', 'job_123'],
    ['', undefined],
    ['   ', undefined],
    ['https://dashboard.mintlify.com/acme/docs/agent/job_42', 'job_42'],
    ['https://dashboard.mintlify.com/acme/docs/agent/job_42/', 'job_42'],
    ['https://dashboard.mintlify.com/acme/jobs/job_7?tab=log', 'job_7'],
    ['https://dashboard.mintlify.com/acme/docs/agent?jobId=job_9', 'job_9'],
    ['https://dashboard.mintlify.com/acme/docs/sessions/a%2Fb', 'a/b'],
    ['https://dashboard.mintlify.com/acme/docs/agent/bad%E0escape', 'bad%E0escape'],
    ['https://dashboard.mintlify.com/acme/docs/job_last', 'job_last'],
    ['https://', undefined],
  ];
  for (const [input, expected] of cases) {
    it(`${JSON.stringify(input)} → ${JSON.stringify(expected)}`, () => assert.equal(parseJobReference(input), expected));
  }
});
