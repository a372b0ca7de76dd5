// .mintignore's patterns: ours (src/docs/ignoreRules.ts) against Mintlify's matcher
// (`createMintIgnoreMatcher`, its own ignores included), asked as its walk asks it: each folder on
// the way down (`isMintIgnoredBy(…, true)`), an ignored one hiding all below it, then the file.
import fc from 'fast-check';
import { ignoreRules } from '../../src/docs/ignoreRules';
import { judge, SEED, Tally, type Judge } from './judge';

const SEGMENT = fc.constantFrom('a', 'b', 'ab', 'A', 'docs', 'x.md', 'x.mdx', 'README.md', '.mintlify', 'skills', 'node_modules', '.git', 'a b', '#c', '!d');
const PATH = fc.array(SEGMENT, { minLength: 1, maxLength: 4 }).map((s) => s.join('/'));
/**
 * A pattern from the glob alphabet, letters and names: most are nonsense, which is the point. Not
 * generated: a backslash before `*` and a `[` never closed, which Mintlify's matcher (node-ignore
 * 7.0.5, whose regular expressions are built by rewriting the pattern) reads one way alone (`\*` is
 * a wildcard, and so is ours; `[` matches nothing) and others inside longer patterns.
 */
const PATTERN = fc
  .array(fc.oneof(SEGMENT, fc.constantFrom('*', '**', '?', '/', '[ab]', '[!a]', '[^a]', '[a-c]', '\\!', '\\#', '!', '#', ' ', '.md')), {
    minLength: 1,
    maxLength: 6,
  })
  .map((parts) => parts.join(''));

/** Mintlify's answer; undefined when its matcher throws on a pattern (a `[` it cannot compile): its build would fail, so there is nothing to agree with. */
function judgeIgnores(j: Judge, patterns: string[], path: string): boolean | undefined {
  let matcher;
  try {
    // Each line as Mintlify reads the file (trimmed).
    matcher = j.common.createMintIgnoreMatcher(j.common.processMintIgnoreString(patterns.join('\n')));
    matcher.ignores('x');
  } catch {
    return undefined;
  }
  const segments = path.split('/');
  for (let i = 1; i < segments.length; i++) if (j.common.isMintIgnoredBy(segments.slice(0, i).join('/'), matcher, true)) return true;
  return j.common.isMintIgnoredBy(path, matcher, false);
}

describe('conformance: .mintignore', function () {
  let j: Judge;
  before(async function () {
    this.timeout(120_000);
    j = await judge();
  });

  it('ignores the same files as Mintlify, for generated patterns and paths', function () {
    this.timeout(120_000);
    const tally = new Tally<{ patterns: string[]; path: string }>();
    for (const { patterns, paths } of fc.sample(
      fc.record({ patterns: fc.array(PATTERN, { maxLength: 4 }), paths: fc.array(PATH, { minLength: 1, maxLength: 8 }) }),
      {
        seed: SEED,
        numRuns: 1_000,
      },
    )) {
      const ours = ignoreRules(patterns.join('\n'));
      for (const path of paths) {
        const judged = judgeIgnores(j, patterns, path);
        if (judged !== undefined) tally.check({ patterns, path }, ours.ignores(path), judged);
      }
    }
    tally.report('paths under generated .mintignore patterns');
  });
});
