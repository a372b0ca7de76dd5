// The preview builds' logs this machine keeps: one file per deployment (its status ID) in
// globalStorageUri/previewLogs, beside the signals snapshot, not in the shared state. Every window
// of the profile sees the same folder, as it sees the shared one; but the shared files are rewritten
// by every window every few seconds and re-read by the others, and a log (up to 200 lines of 1,000
// characters) has no place in them. A log is written once per change by the window that read the
// status (before the record that says the build ended), read when the writer asks (Show Build Log,
// Ask the Agent to Fix the Build), and a file whose deployment no record names any more is removed.
import { createHash } from 'node:crypto';
import * as vscode from 'vscode';
import * as z from 'zod/mini';
import type { Logger } from '../log';
import { writeUriAtomically } from '../util/safeWrite';
import type { BuildLog } from './previewRecord';

const StoredLog = z.object({
  statusId: z.string(),
  lines: z.array(z.string()),
  lengths: z.array(z.number()),
  total: z.number(),
  summary: z.optional(z.string()),
});

/** A file whose deployment no record names is removed once it is this old (a record may reach this window after its log). */
const UNNAMED_LOG_KEPT_MS = 24 * 60 * 60_000;

export class BuildLogs {
  constructor(
    private readonly dir: vscode.Uri,
    private readonly log: Logger,
  ) {}

  /** Keeps the log of its deployment, replacing what was kept of it. */
  async keep(log: BuildLog): Promise<void> {
    await vscode.workspace.fs.createDirectory(this.dir);
    await writeUriAtomically(this.fileOf(log.statusId), JSON.stringify(log));
  }

  /** The kept log of a deployment; undefined when none is kept (or it cannot be read: logged). */
  async read(statusId: string): Promise<BuildLog | undefined> {
    let text: string;
    try {
      text = new TextDecoder().decode(await vscode.workspace.fs.readFile(this.fileOf(statusId)));
    } catch (error) {
      if (!(error instanceof vscode.FileSystemError && error.code === 'FileNotFound'))
        this.log.warn(`the kept build log of ${statusId} could not be read: ${String(error)}`);
      return undefined;
    }
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      json = undefined;
    }
    const parsed = z.safeParse(StoredLog, json);
    if (parsed.success && parsed.data.statusId === statusId) return parsed.data;
    this.log.warn(`the kept build log of ${statusId} is damaged; it is read again from the platform when asked for`);
    return undefined;
  }

  /** Removes the logs of deployments that no record names (`named`), once older than UNNAMED_LOG_KEPT_MS. */
  async prune(named: readonly string[], now = Date.now()): Promise<void> {
    const keep = new Set(named.map((statusId) => nameOf(statusId)));
    let entries: [string, vscode.FileType][];
    try {
      entries = await vscode.workspace.fs.readDirectory(this.dir);
    } catch {
      return; // no folder yet: nothing kept
    }
    for (const [name, type] of entries) {
      if (type !== vscode.FileType.File || keep.has(name) || !/^[0-9a-f]{32}\.json$/.test(name)) continue;
      const file = vscode.Uri.joinPath(this.dir, name);
      try {
        if (now - (await vscode.workspace.fs.stat(file)).mtime >= UNNAMED_LOG_KEPT_MS) await vscode.workspace.fs.delete(file);
      } catch (error) {
        this.log.warn(`the build log ${name} could not be removed: ${String(error)}`);
      }
    }
  }

  private fileOf(statusId: string): vscode.Uri {
    return vscode.Uri.joinPath(this.dir, nameOf(statusId));
  }
}

/** A status ID is an API value: the file is named by its hash, never by the value itself. */
function nameOf(statusId: string): string {
  return `${createHash('sha256').update(statusId).digest('hex').slice(0, 32)}.json`;
}
