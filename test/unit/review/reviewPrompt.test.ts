// Send Review to Agent: the follow-up a pending review becomes (src/review/reviewPrompt.ts).
import assert from 'node:assert/strict';
import { commentsIn, composeReviewPrompt, fenceFor, REVIEW_PROMPT_MAX_CHARS, SHORTENED, type ReviewCommentInput } from '../../../src/review/reviewPrompt';

const comment = (path: string, startLine: number, endLine: number, lines: string[], body: string): ReviewCommentInput => ({
  path,
  startLine,
  endLine,
  lines,
  body,
});

describe('composeReviewPrompt (Send Review to Agent)', () => {
  it('puts the instruction first, then every comment in file and line order with its lines quoted and the words', () => {
    const { prompt, shortened } = composeReviewPrompt({
      instruction: '  Keep the tone friendly.  ',
      branch: 'mintlify/agent-x',
      commit: '0123456789abcdef0123',
      comments: [
        comment('docs/quickstart.mdx', 9, 9, ['Run the CLI.'], 'Say which CLI.'),
        comment('docs/guides/errors.mdx', 5, 5, ['A 429 means wait.'], 'Link the rate limits page.'),
        comment('docs/quickstart.mdx', 3, 4, ['Install it:', '`npm i mint`'], 'Use **pnpm** here.\n\nAnd say why.'),
      ],
    });
    assert.equal(shortened, 0);
    assert.equal(
      prompt,
      [
        'Keep the tone friendly.',
        '',
        "Review of your changes on branch mintlify/agent-x (commit 0123456789ab): 3 comments, in file and line order. Each names a file of the repository and lines of your version of it, quotes those lines between fences, then gives the reviewer's words. Address every comment.",
        '',
        '--- Comment 1 of 3: docs/guides/errors.mdx, line 5 ---',
        '```',
        'A 429 means wait.',
        '```',
        'Link the rate limits page.',
        '',
        '--- Comment 2 of 3: docs/quickstart.mdx, lines 3-4 ---',
        '```',
        'Install it:',
        '`npm i mint`',
        '```',
        'Use **pnpm** here.\n\nAnd say why.',
        '',
        '--- Comment 3 of 3: docs/quickstart.mdx, line 9 ---',
        '```',
        'Run the CLI.',
        '```',
        'Say which CLI.',
        '',
        '--- End of review ---',
      ].join('\n'),
    );
  });

  it('quotes lines in a fence longer than any backtick run inside them, so nothing in them can close it', () => {
    assert.equal(fenceFor(['plain']), '```');
    assert.equal(fenceFor(['````ts', 'code', '````']), '`````');
    const lines = ['```', '``````', 'a ` b'];
    const { prompt } = composeReviewPrompt({ comments: [comment('a.mdx', 1, 3, lines, 'ok')] });
    assert.ok(prompt.includes(`\`\`\`\`\`\`\`\n${lines.join('\n')}\n\`\`\`\`\`\`\`\nok`), prompt);
  });

  it('says when a comment is on lines the agent has changed since, quoting them as they were', () => {
    const { prompt } = composeReviewPrompt({
      comments: [{ ...comment('a.mdx', 6, 7, ['old six', 'old seven'], 'Reword'), earlier: { commit: 'aaaaaaaaaaaaaaaaaaaa', changed: true } }],
    });
    assert.match(
      prompt,
      /--- Comment 1 of 1: a\.mdx, lines 6-7 of your earlier version \(commit aaaaaaaaaaaa; you have changed them since\) ---\n```\nold six\nold seven\n```\nReword/,
    );
  });

  it('cuts a prompt over the limit per comment, quoted lines first, and marks each cut "(shortened)"', () => {
    const page = Array.from({ length: 400 }, (_, i) => `Line ${i + 1} of a long page that the writer selected whole.`);
    const small = comment('a.mdx', 1, 1, ['Short line.'], 'Small comment, kept whole.');
    const big = comment('b.mdx', 1, 400, page, 'Rewrite the whole page.');
    const bigger = comment('c.mdx', 1, 400, page, `${'Too many words. '.repeat(800)}The end.`);
    const whole = composeReviewPrompt({ comments: [small, big, bigger], maxChars: 1_000_000 });
    assert.ok(whole.prompt.length > REVIEW_PROMPT_MAX_CHARS, 'the test review is over the default limit');
    const { prompt, shortened, tooLong } = composeReviewPrompt({ comments: [small, big, bigger] });
    assert.ok(prompt.length <= REVIEW_PROMPT_MAX_CHARS, `${prompt.length} characters`);
    assert.equal(tooLong, false);
    assert.equal(shortened, 2);
    assert.ok(prompt.includes('```\nShort line.\n```\nSmall comment, kept whole.'), 'a small comment is kept whole');
    assert.match(prompt, /--- Comment 2 of 3: b\.mdx, lines 1-400 ---\n```\nLine 1 of a long page/);
    assert.match(
      prompt,
      new RegExp(`\\n\`\`\`\\n\\(shortened\\) \\d+ of the 400 lines quoted in full; read the rest in b\\.mdx\\.\\nRewrite the whole page\\.\\n`),
    );
    assert.match(prompt, /Too many words\. Too many words\.[^\n]*…\n\(shortened\)\n\n--- End of review ---$/);
    assert.ok(!prompt.includes('The end.'));
    assert.equal(prompt.split(SHORTENED).length - 1, 3, "two quotes and one comment's words cut");
  });

  it("says it is still too long when the instruction alone is over the limit (the writer's instruction is never cut)", () => {
    const result = composeReviewPrompt({ instruction: 'x'.repeat(500), comments: [comment('a.mdx', 1, 1, ['y'.repeat(300)], 'z')], maxChars: 400 });
    assert.equal(result.tooLong, true);
    assert.ok(result.prompt.startsWith('x'.repeat(500)));
  });

  it('tells which comments the text sent still holds: a comment the writer cut from the preview was not sent', () => {
    const comments = [
      comment('docs/quickstart.mdx', 9, 9, ['Run the CLI.'], 'Say which CLI.'),
      comment('docs/guides/errors.mdx', 5, 5, ['A 429 means wait.'], 'Link the rate limits page.'),
      comment('docs/quickstart.mdx', 3, 4, ['Install it:', '`npm i mint`'], 'Use **pnpm** here.\n\nAnd say why.'),
      comment('docs/quickstart.mdx', 12, 12, ['Say which CLI.'], 'Typo.'),
      comment('docs/quickstart.mdx', 14, 14, ['Run it.'], 'Typo.'),
    ];
    const composed = composeReviewPrompt({ comments });
    assert.deepEqual([...commentsIn(composed.prompt, composed)].sort(), [0, 1, 2, 3, 4], 'sent as composed: all of them');
    // The writer deletes the block of the errors guide's comment, and the first of the two "Typo." ones.
    const blocks = composed.prompt.split('\n\n--- ');
    const cut = blocks.filter((b) => !b.startsWith('Comment 1 of 5') && !b.startsWith('Comment 4 of 5')).join('\n\n--- ');
    assert.deepEqual([...commentsIn(cut, composed)].sort(), [0, 2, 4]);
    // …and numbers the rest again: a heading still names its comment by its file and lines.
    let n = 0;
    const renumbered = cut.replace(/--- Comment \d+ of 5:/g, () => `--- Comment ${++n} of 3:`);
    assert.equal(n, 3);
    assert.deepEqual([...commentsIn(renumbered, composed)].sort(), [0, 2, 4]);
    // Words edited in the preview are not the comment's words; words that are only part of a line are not a comment either.
    assert.deepEqual([...commentsIn(composed.prompt.replace('Say which CLI.\n', 'Say which CLI, please.\n'), composed)].sort(), [1, 2, 3, 4]);
    assert.deepEqual([...commentsIn(composed.prompt.replace(/\n/g, '\r\n'), composed)].sort(), [0, 1, 2, 3, 4], 'line ends as Windows writes them');
    assert.deepEqual([...commentsIn('', composed)], []);
  });

  it('a comment cut to fit is in the text sent by the words the prompt kept of it', () => {
    const long = 'w'.repeat(3_000);
    const composed = composeReviewPrompt({ comments: [comment('a.mdx', 1, 1, ['x'], long), comment('b.mdx', 1, 1, ['y'], 'Short.')], maxChars: 1_000 });
    assert.equal(composed.shortened, 1);
    assert.deepEqual([...commentsIn(composed.prompt, composed)].sort(), [0, 1]);
  });
});
