// Code blocks and the files a page imports: ours (src/codeFeedback/blockMatching.ts, fenceMeta.ts)
// against Mintlify's own code on generated cases: the fenced blocks and their language as its MDX
// parser reads them (`getAST`), each block's title as its code-block plugin names it
// (`parseMetaString(meta).filename`, what a reader's feedback carries as `filename`), and each import
// as it resolves it (`resolveImportPath`).
import fc from 'fast-check';
import { fencedBlocks, importedFiles, normaliseCode } from '../../src/codeFeedback/blockMatching';
import { fenceMeta } from '../../src/codeFeedback/fenceMeta';
import { judge, SEED, Tally, type Judge } from './judge';

interface CodeNode {
  type: string;
  lang?: string | null;
  meta?: string | null;
  value?: string;
  children?: CodeNode[];
}

function codeNodes(node: CodeNode): CodeNode[] {
  return node.type === 'code' ? [node] : (node.children ?? []).flatMap(codeNodes);
}

const LANG = fc.constantFrom('bash', 'js', 'python', 'ts', 'json', 'c++', '');
const META_WORD = fc.constantFrom(
  ...['install.sh', 'Example', 'Request', 'wrap', 'Wrap', 'lines', 'expandable', 'nocopy', 'twoslash', 'highlight={1,3}', '{2-4}', '/acme/'],
  ...[
    'title="app.js"',
    "title='x y'",
    'title=plain',
    'title="true"',
    'filename="app.py"',
    'filename=app.py',
    'icon="npm"',
    'foo=bar',
    'theme="dark"',
    'lang="ts"',
  ],
);
const INFO = fc.tuple(LANG, fc.array(META_WORD, { maxLength: 4 })).map(([lang, words]) => [lang, ...words].join(' ').trim());

const CODE_LINE = fc.constantFrom('npm i -g acme', '  acme login', '', 'echo "```"', '~~~', '\tindented', 'x = 1 # [!code ++]');
/** A page of paragraphs and fenced blocks, some in `<CodeGroup>`, some with longer or tilde fences, the last maybe unclosed. */
const PAGE = fc
  .array(
    fc.oneof(
      fc.constant('Some text.'),
      fc.record({
        fence: fc.constantFrom('```', '````', '~~~'),
        info: INFO,
        lines: fc.array(CODE_LINE, { maxLength: 4 }),
        grouped: fc.boolean(),
        indent: fc.constantFrom('', ' ', '  '),
      }),
    ),
    { minLength: 1, maxLength: 6 },
  )
  .map((parts) =>
    parts
      .map((part) => {
        if (typeof part === 'string') return part;
        const { fence, info, lines, grouped, indent } = part;
        const pad = grouped ? '  ' : indent;
        const body = lines.filter((l) => !l.trimStart().startsWith(fence.slice(0, 3)));
        const block = [`${pad}${fence}${fence.startsWith('~') ? info : info.replace(/`/g, '')}`, ...body.map((l) => (l ? `${pad}${l}` : l)), `${pad}${fence}`];
        return (grouped ? ['<CodeGroup>', ...block, '</CodeGroup>'] : block).join('\n');
      })
      .join('\n\n'),
  );

const SEGMENT = fc.constantFrom('a', 'snippets', '..', '.', 'b c', '_x');
const SOURCE = fc
  .tuple(fc.constantFrom('/', './', '../', '/snippets/', '../../'), fc.array(SEGMENT, { maxLength: 4 }), fc.constantFrom('x.mdx', 'y.md'))
  .map(([start, segments, name]) => `${start}${[...segments, name].join('/')}`);
const IMPORTING = fc.array(fc.constantFrom('guides', 'api', 'v2'), { maxLength: 3 }).map((folders) => [...folders, 'page.mdx'].join('/'));

describe('conformance: code blocks and imports', function () {
  let j: Judge;
  before(async function () {
    this.timeout(120_000);
    j = await judge();
  });

  it("reads each fence's language and title as Mintlify does", function () {
    const tally = new Tally<string>();
    for (const info of fc.sample(INFO, { seed: SEED, numRuns: 1_000 })) {
      const [node] = codeNodes(j.common.getAST(`\`\`\`${info}\ncode\n\`\`\`\n`));
      const judged = { lang: node?.lang || undefined, title: j.common.parseMetaString(node?.meta ?? '').filename || undefined };
      tally.check(info, fenceMeta(info), judged);
    }
    tally.report("fences' languages and titles");
  });

  it("finds a page's fenced blocks, with the code in each, as Mintlify's parser does", function () {
    const tally = new Tally<string>();
    for (const page of fc.sample(PAGE, { seed: SEED, numRuns: 500 })) {
      const judged = codeNodes(j.common.getAST(page) as CodeNode).map((n) => [n.lang || undefined, normaliseCode(n.value ?? '')]);
      tally.check(
        page,
        fencedBlocks(page).map((b) => [b.lang, normaliseCode(b.code)]),
        judged,
      );
    }
    tally.report("generated pages' code blocks");
  });

  it('resolves each import to the file Mintlify does, inside the docs root', function () {
    const tally = new Tally<{ source: string; importing: string }>();
    for (const { source, importing } of fc.sample(fc.record({ source: SOURCE, importing: IMPORTING }), { seed: SEED, numRuns: 1_000 })) {
      const ours = importedFiles(`import X from '${source}';\n`, importing).map((f) => `/${f}`);
      tally.check({ source, importing }, ours, [j.common.resolveImportPath(source, importing)]);
    }
    tally.report('imports');
  });
});
