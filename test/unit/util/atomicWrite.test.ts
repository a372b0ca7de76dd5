// The one safe writer (src/util/atomicWrite.ts) that the shared store's files, the kept signals
// snapshot and the exports use: a reader sees the old file or the new one, whole; two processes
// writing one file at once never leave a corrupt or half file; a write that fails leaves the old file
// and no temporary file. Real files and real processes; no vscode.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { promises as fs, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type AtomicWriteOps, writeAtomic, writeOnDisk } from '../../../src/util/atomicWrite';

/** Runs test/support/concurrentWriter.ts in a process of its own, from `startAt` on; resolves with the writes that failed. */
function writerProcess(file: string, writer: string, rounds: number, bytes: number, startAt: number): Promise<number> {
  const child = spawn(
    process.execPath,
    [join(__dirname, '..', '..', 'support', 'concurrentWriter.js'), file, writer, String(rounds), String(bytes), String(startAt)],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  return new Promise<number>((resolve, reject) => {
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve(Number(out.trim())) : reject(new Error(`writer ${writer} exited with ${String(code)}: ${err}`))));
  });
}

describe('the safe writer (src/util/atomicWrite.ts)', function () {
  this.timeout(120_000);
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'atomic-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('two processes writing one file 100 times each at once: every read is one whole write, none fails, no temporary file is left', async () => {
    const target = join(dir, 'proj.json');
    await fs.writeFile(target, JSON.stringify({ writer: 'none', round: -1, pad: '' }));
    const rounds = 100;
    // Both start together, once both processes are loaded (a second is plenty), as two windows restored at once, and write in step.
    const startAt = Date.now() + 1_000;
    const writers = Promise.all([writerProcess(target, 'A', rounds, 200_000, startAt), writerProcess(target, 'B', rounds, 200_000, startAt)]);
    let done = false;
    const finished = writers.finally(() => (done = true));
    const seen = new Set<string>();
    const corrupt: string[] = [];
    // Reads while both write, as another window would.
    while (!done) {
      const text = await fs.readFile(target, 'utf8');
      try {
        const { writer, round, pad } = JSON.parse(text) as { writer: string; round: number; pad: string };
        if (writer !== 'none' && pad !== `${writer}:${round}:`.repeat(25_000)) corrupt.push(`${writer}:${round} with ${pad.length} characters of padding`);
        seen.add(`${writer}:${round}`);
      } catch {
        corrupt.push(`${text.length} characters that are not JSON`);
      }
    }
    const failed = await finished;
    assert.deepEqual(corrupt, [], 'a reader saw a half or mixed file');
    assert.deepEqual(failed, [0, 0], 'a write failed');
    const last = JSON.parse(await fs.readFile(target, 'utf8')) as { writer: string; round: number };
    assert.equal(last.round, rounds - 1, 'the file ends as one writer’s last write');
    assert.ok(seen.size > 1, 'the reader saw the writes');
    assert.deepEqual(await fs.readdir(dir), ['proj.json'], 'no temporary file left behind');
  });

  it('on the disk: a write whose rename fails leaves the old file and no temporary file', async () => {
    // A folder where the file should be: the temporary file is written, the rename over it fails.
    await fs.mkdir(join(dir, 'proj.json'));
    await fs.writeFile(join(dir, 'proj.json', 'old'), 'kept');
    await assert.rejects(writeOnDisk(join(dir, 'proj.json'), '{"fetchedAt":"new"}'));
    assert.deepEqual(await fs.readdir(dir), ['proj.json']);
    assert.equal(await fs.readFile(join(dir, 'proj.json', 'old'), 'utf8'), 'kept');
  });

  it('on the disk: a write cancelled before its rename leaves the old file and no temporary file', async () => {
    await fs.writeFile(join(dir, 'proj.json'), 'old');
    const cancel = new AbortController();
    cancel.abort();
    await assert.rejects(writeOnDisk(join(dir, 'proj.json'), 'new', { signal: cancel.signal }));
    assert.deepEqual(await fs.readdir(dir), ['proj.json']);
    assert.equal(await fs.readFile(join(dir, 'proj.json'), 'utf8'), 'old');
  });

  describe('through a file system’s operations (a virtual one, through vscode.workspace.fs)', () => {
    /** Real files, whose write lands in two halves with `between` run after the first. */
    function slowOps(between: () => Promise<void>): AtomicWriteOps {
      return {
        writeFile: async (name, data) => {
          const text = typeof data === 'string' ? data : new TextDecoder().decode(data);
          const half = Math.floor(text.length / 2);
          await fs.writeFile(join(dir, name), text.slice(0, half));
          await between();
          await fs.appendFile(join(dir, name), text.slice(half));
        },
        rename: (from, to) => fs.rename(join(dir, from), join(dir, to)),
        remove: (name) => fs.rm(join(dir, name), { force: true }),
      };
    }

    it('lets a reader see the old file or the new one, whole, never a half-written one', async () => {
      const target = join(dir, 'proj.json');
      await fs.writeFile(target, JSON.stringify({ fetchedAt: 'old', rows: Array.from({ length: 500 }, (_, i) => i) }));
      const next = JSON.stringify({ fetchedAt: 'new', rows: Array.from({ length: 5000 }, (_, i) => `row ${i}`) });
      const seen: string[] = [];
      const read = async () => {
        const text = await fs.readFile(target, 'utf8');
        seen.push((JSON.parse(text) as { fetchedAt: string }).fetchedAt); // throws on a half-written file
      };
      await writeAtomic(slowOps(read), 'proj.json', next);
      await read();
      assert.deepEqual(seen, ['old', 'new']);
      assert.deepEqual(await fs.readdir(dir), ['proj.json'], 'no temporary file left behind');
    });

    it('leaves the old file in place and no temporary file when the rename fails', async () => {
      await fs.writeFile(join(dir, 'proj.json'), '{"fetchedAt":"old"}');
      const ops = { ...slowOps(() => Promise.resolve()), rename: () => Promise.reject(new Error('disk full')) };
      await assert.rejects(writeAtomic(ops, 'proj.json', '{"fetchedAt":"new"}'), /disk full/);
      assert.deepEqual(await fs.readdir(dir), ['proj.json']);
      assert.equal(await fs.readFile(join(dir, 'proj.json'), 'utf8'), '{"fetchedAt":"old"}');
    });

    it('leaves no temporary file when the write itself fails half-way (a full disk)', async () => {
      await fs.writeFile(join(dir, 'proj.json'), 'old');
      const ops = slowOps(() => Promise.reject(new Error('no space left on device')));
      await assert.rejects(writeAtomic(ops, 'proj.json', 'new text'), /no space/);
      assert.deepEqual(await fs.readdir(dir), ['proj.json']);
    });
  });
});
