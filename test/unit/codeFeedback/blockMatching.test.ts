// Readers' feedback on a code block: which block of a page a snippet is about
// (src/codeFeedback/blockMatching.ts): exact, whitespace and CRLF, indented inside <CodeGroup>,
// equal blocks told apart by file name, a block in an imported snippet file, a changed block.
// No vscode import.
import assert from 'node:assert/strict';
import { fencedBlocks, fenceMeta, matchSnippets, normaliseCode, snippetImports } from '../../../src/codeFeedback/blockMatching';
import type { PendingComment } from '../../../src/signals/snapshot';
import { item } from './feedbackItem';

const PAGE = [
  '---',
  'title: Quickstart',
  '---',
  'import Deploy from "/snippets/deploy.mdx";',
  '',
  'Install the CLI:',
  '',
  '```bash',
  'npm i -g acme',
  'acme login',
  '```',
  '',
  '<CodeGroup>',
  '  ```bash install.sh',
  '  npm i -g acme',
  '  acme   login',
  '  ```',
  '  ```powershell install.ps1',
  '  npm i -g acme',
  '  acme login',
  '  ```',
  '</CodeGroup>',
  '',
  '<Deploy />',
].join('\n');

const SNIPPET = [
  'Then deploy:',
  '',
  '```bash title="deploy.sh"',
  'acme deploy --prod',
  '```',
  '',
  '```bash title="deploy-staging.sh"',
  'acme deploy --prod',
  '```',
].join('\n');

const sources = [
  { key: 'page', text: PAGE },
  { key: 'snippet', text: SNIPPET },
];

describe('code-block feedback', () => {
  describe("the page's fenced blocks", () => {
    it('finds each block with its fence lines, language and title, indented ones included', () => {
      const blocks = fencedBlocks(PAGE);
      assert.deepEqual(
        blocks.map((b) => [b.startLine, b.endLine, b.lang, b.title]),
        [
          [7, 10, 'bash', undefined],
          [13, 16, 'bash', 'install.sh'],
          [17, 20, 'powershell', 'install.ps1'],
        ],
      );
    });

    it("reads a fence's title as Mintlify writes it: after the language, or title=/filename=, options left out", () => {
      assert.deepEqual(fenceMeta('javascript Example Request {2-4} wrap'), { lang: 'javascript', title: 'Example Request' });
      assert.deepEqual(fenceMeta('python filename="app.py" lines'), { lang: 'python', title: 'app.py' });
      assert.deepEqual(fenceMeta('ts title=\'index.ts\' icon="npm"'), { lang: 'ts', title: 'index.ts' });
      assert.deepEqual(fenceMeta(''), { lang: undefined, title: undefined });
    });

    it('lists only the /snippets/ imports', () => {
      assert.deepEqual(snippetImports(`${PAGE}\nimport { Card } from "@acme/ui";\nimport Other from '/snippets/other.mdx'`), [
        '/snippets/deploy.mdx',
        '/snippets/other.mdx',
      ]);
    });
  });

  describe('matching', () => {
    it('places an exact snippet on its block', () => {
      const { blocks, gone } = matchSnippets([item('npm i -g acme\nacme login', { lang: 'bash' })], [{ key: 'page', text: PAGE }]);
      assert.deepEqual(
        blocks.map((b) => [b.key, b.block.startLine]),
        [['page', 7]],
      );
      assert.equal(gone.length, 0);
    });

    it('ignores line endings, indentation, inner runs of whitespace and blank lines', () => {
      assert.equal(normaliseCode('  npm i -g acme\r\n\r\n\tacme    login  \r\n'), 'npm i -g acme\nacme login');
      const page = PAGE.replace(/\n/g, '\r\n');
      const { blocks } = matchSnippets([item('npm i -g acme\r\n\r\n   acme  login\r\n', { lang: 'bash' })], [{ key: 'page', text: page }]);
      assert.deepEqual(
        blocks.map((b) => b.block.startLine),
        [7],
      );
    });

    it('finds a block indented inside <CodeGroup> by its file name, and tells equal blocks apart by it', () => {
      const ps = item('npm i -g acme\nacme login', { lang: 'powershell', filename: 'install.ps1' });
      const sh = item('npm i -g acme\nacme login', { lang: 'bash', filename: 'install.sh' });
      const plain = item('npm i -g acme\nacme login', { lang: 'bash' });
      const { blocks } = matchSnippets([ps, sh, plain], [{ key: 'page', text: PAGE }]);
      assert.deepEqual(
        blocks.map((b) => [b.block.startLine, b.items.map((i) => i.id)]),
        [
          [7, [plain.id]],
          [13, [sh.id]],
          [17, [ps.id]],
        ],
      );
    });

    it('uses the language when no file name tells, then reading order', () => {
      const ps = item('npm i -g acme\nacme login', { lang: 'PowerShell' });
      const none = item('npm i -g acme\nacme login');
      const { blocks } = matchSnippets([ps, none], [{ key: 'page', text: PAGE }]);
      assert.deepEqual(
        blocks.map((b) => [b.block.startLine, b.items.map((i) => i.id)]),
        [
          [7, [none.id]],
          [17, [ps.id]],
        ],
      );
    });

    it('finds a block of an imported snippet file there, told apart from its twin by file name', () => {
      const prod = item('acme deploy --prod', { lang: 'bash', filename: 'deploy.sh' });
      const staging = item('acme deploy --prod', { lang: 'bash', filename: 'deploy-staging.sh' });
      const { blocks, gone } = matchSnippets([staging, prod], sources);
      assert.deepEqual(
        blocks.map((b) => [b.key, b.block.startLine, b.items.map((i) => i.id)]),
        [
          ['snippet', 2, [prod.id]],
          ['snippet', 6, [staging.id]],
        ],
      );
      assert.equal(gone.length, 0);
    });

    it('says a snippet whose block changed is about a block no longer on the page; the block back, it is placed again', () => {
      const flagged = item('npm i -g acme\nacme login', { lang: 'bash' });
      const edited = PAGE.replace(/acme {3}login/, 'acme signin')
        .replace(/```bash\nnpm i -g acme\nacme login/, '```bash\nnpm i -g acme@2\nacme login')
        .replace(/ {2}```powershell install.ps1\n {2}npm i -g acme/, '  ```powershell install.ps1\n  npm i -g acme@2');
      const moved = matchSnippets([flagged], [{ key: 'page', text: edited }]);
      assert.deepEqual([moved.blocks.length, moved.gone.map((g) => g.id)], [0, [flagged.id]]);
      const back = matchSnippets([flagged], [{ key: 'page', text: PAGE }]);
      assert.deepEqual([back.blocks.map((b) => b.block.startLine), back.gone.length], [[7], 0]);
    });

    it("matches a snippet kept cut short by the block's beginning, its cut last line left out", () => {
      const long = Array.from({ length: 300 }, (_, i) => `echo line ${i}`).join('\n');
      const page = `\`\`\`bash\n${long}\n\`\`\`\n`;
      const kept = long.slice(0, 2_000);
      const { blocks } = matchSnippets([item(kept, { fullLength: long.length })], [{ key: 'page', text: page }]);
      assert.deepEqual(
        blocks.map((b) => b.block.startLine),
        [0],
      );
      assert.equal(matchSnippets([item(kept, { fullLength: long.length })], [{ key: 'page', text: '```bash\necho other\n```' }]).gone.length, 1);
    });

    it('leaves out feedback with no snippet (kept by an older version), and a snippet of only whitespace is on no block', () => {
      const older: PendingComment = { id: 'old', path: '/quickstart', comment: { text: 'x' }, createdAt: undefined, source: 'code_snippet' };
      const blank = item('  \n\t\n');
      const result = matchSnippets([older, blank], [{ key: 'page', text: '```\n\n```' }]);
      assert.deepEqual([result.blocks.length, result.gone.map((g) => g.id)], [0, [blank.id]]);
    });
  });
});
