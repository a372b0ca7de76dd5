// Readers' feedback on a code block: which block of a page a snippet is about
// (src/codeFeedback/blockMatching.ts): exact, whitespace and CRLF, indented inside <CodeGroup>,
// equal blocks told apart by file name, a block in an imported snippet file, a changed block,
// twins, a long one-line block, highlight and diff marks. test/conformance/codeBlocks.test.ts holds
// the fence's title and the imports to Mintlify's own code.
// No vscode import.
import assert from 'node:assert/strict';
import { fencedBlocks, generatedApiOperation, importedFiles, matchSnippets, normaliseCode } from '../../../src/codeFeedback/blockMatching';
import { copiedLine, fenceMeta } from '../../../src/codeFeedback/fenceMeta';
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

    it("reads a fence's title as Mintlify does: title=, else the words after the language, its options left out", () => {
      assert.deepEqual(fenceMeta('javascript Example Request {2-4} wrap'), { lang: 'javascript', title: 'Example Request' });
      assert.deepEqual(fenceMeta('ts title=\'index.ts\' icon="npm"'), { lang: 'ts', title: 'index.ts' });
      assert.deepEqual(fenceMeta('bash install.sh lines highlight={1}'), { lang: 'bash', title: 'install.sh' });
      // filename= is no option of Mintlify's: a quoted value is taken out of the title's words, and names nothing.
      assert.deepEqual(fenceMeta('python filename="app.py" lines'), { lang: 'python', title: undefined });
      assert.deepEqual(fenceMeta('python filename=app.py'), { lang: 'python', title: 'filename=app.py' });
      assert.deepEqual(fenceMeta(''), { lang: undefined, title: undefined });
    });

    it('follows the Markdown and MDX files a page imports as Mintlify resolves them, never out of the docs root', () => {
      const text = [
        PAGE,
        'import { Card } from "@acme/ui";',
        "import Other from '/snippets/other.mdx'",
        "import Up from '/snippets/../../../../etc/secret.mdx'",
        "import Near from './near.md'",
        "import Far from '../shared/far.mdx'",
        "import Jsx from '/snippets/card.jsx'",
        '```mdx',
        "import Shown from '/snippets/in-a-code-block.mdx'",
        '```',
        'import {',
        '  Split,',
        "} from '/snippets/split.mdx';",
      ].join('\n');
      assert.deepEqual(importedFiles(text, 'guides/page.mdx'), [
        'snippets/deploy.mdx',
        'snippets/other.mdx',
        'etc/secret.mdx',
        'guides/near.md',
        'shared/far.mdx',
        'snippets/split.mdx',
      ]);
      assert.deepEqual(importedFiles("import X from '../../../x.mdx'", 'a.mdx'), ['x.mdx']);
    });

    it('names the operation of a page whose API reference Mintlify generates', () => {
      assert.equal(generatedApiOperation('---\ntitle: Create\nopenapi: "openapi.json post /users"\n---\n\nBody'), 'POST /users');
      assert.equal(generatedApiOperation('---\nopenapi: GET /users/{id}\n---\n'), 'GET /users/{id}');
      assert.equal(generatedApiOperation("---\napi: 'DELETE https://api.acme.dev/v1/users/{id}'\n---\n"), 'DELETE https://api.acme.dev/v1/users/{id}');
      assert.equal(generatedApiOperation('---\ntitle: Guide\n---\nopenapi: GET /x'), undefined);
      assert.equal(generatedApiOperation('---\nopenapi-schema: User\n---\n'), undefined);
      assert.equal(generatedApiOperation('---\nopenapi: not an operation\n---\n'), undefined);
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

    it('says when other blocks have the same code, and prefers an untitled, unlabelled block for feedback with no file name or language', () => {
      const page = [
        '```bash setup.sh',
        'acme init',
        '```',
        '',
        '```',
        'acme init',
        '```',
        '',
        '```bash',
        'acme init',
        '```',
        '',
        '```',
        'acme init',
        '```',
      ].join('\n');
      const bare = item('acme init');
      const bash = item('acme init', { lang: 'bash' });
      const { blocks } = matchSnippets([bare, bash], [{ key: 'page', text: page }]);
      assert.deepEqual(
        blocks.map((b) => [b.block.startLine, b.items.map((i) => i.id), b.twins]),
        [
          [4, [bare.id], 1],
          [8, [bash.id], 0],
        ],
      );
      const named = matchSnippets([item('acme init', { lang: 'bash', filename: 'setup.sh' })], [{ key: 'page', text: page }]);
      assert.deepEqual(
        named.blocks.map((b) => [b.block.startLine, b.twins]),
        [[0, 0]],
      );
    });

    it('matches a one-line block longer than the characters kept by its kept beginning', () => {
      const line = `curl -H "Authorization: Bearer ${'x'.repeat(3_000)}" https://api.acme.dev`;
      const page = `\`\`\`bash\n${line}\n\`\`\`\n\n\`\`\`bash\necho other\n\`\`\`\n`;
      const { blocks, gone } = matchSnippets([item(line.slice(0, 2_000), { fullLength: line.length })], [{ key: 'page', text: page }]);
      assert.deepEqual([blocks.map((b) => b.block.startLine), gone.length], [[0], 0]);
    });

    it('matches a block with highlight and diff marks by the text a reader copies', () => {
      const page = [
        '```ts',
        'const client = new Acme(); // [!code --]',
        "const client = new Acme({ region: 'eu' }); // [!code ++]",
        '// [!code highlight:2]',
        'await client.deploy(); /* [!code focus] */',
        '```',
        '```python',
        'acme.deploy()  # [!code hl]',
        '```',
      ].join('\n');
      const copied = item("const client = new Acme();\nconst client = new Acme({ region: 'eu' });\nawait client.deploy();", { lang: 'ts' });
      const py = item('acme.deploy()', { lang: 'python' });
      const { blocks, gone } = matchSnippets([copied, py], [{ key: 'page', text: page }]);
      assert.deepEqual([blocks.map((b) => b.block.startLine), gone.length], [[0, 6], 0]);
      assert.equal(copiedLine('x = 1 # [!code ++:3]'), 'x = 1');
      assert.equal(copiedLine('<p>hi</p> <!-- [!code --] -->'), '<p>hi</p>');
      assert.equal(copiedLine('echo "[!code is text here]"'), 'echo "[!code is text here]"');
    });

    it('leaves out feedback with no snippet (kept by an older version), and a snippet of only whitespace is on no block', () => {
      const older: PendingComment = { id: 'old', path: '/quickstart', comment: { text: 'x' }, createdAt: undefined, source: 'code_snippet' };
      const blank = item('  \n\t\n');
      const result = matchSnippets([older, blank], [{ key: 'page', text: '```\n\n```' }]);
      assert.deepEqual([result.blocks.length, result.gone.map((g) => g.id)], [0, [blank.id]]);
    });
  });
});
