/**
 * Test entry for the contract suite: the same runner as the integration suite (mocha over every
 * `*.test.js` beside this file), in a host of its own (test/run.ts, runContract).
 */
export { run } from '../integration';
