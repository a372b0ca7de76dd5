/**
 * Test entry for the Restricted Mode suite: the same runner as the integration suite (mocha over
 * every `*.test.js` beside this file, results to MINTLIFY_TEST_RESULTS), in a host whose folder is
 * not trusted (test/run.ts, runRestrictedHost).
 */
export { run } from '../integration';
