// The endpoint table (src/api/endpoints.ts): the endpoint a request went to, and whether the
// platform counts it in the hour.
import assert from 'node:assert/strict';
import { endpointOf, ENDPOINTS } from '../../../src/api';

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
