// Writing a file so that a reader sees the old text or the new one, whole, never a part: the text
// goes to a temporary file beside it, which is then renamed over the target (a rename within one
// folder replaces the file in one step). The shared store's files and the kept signals snapshot
// are both written this way. No vscode import: the caller passes its file operations.

export interface AtomicWriteOps {
  writeFile(name: string, text: string): Promise<void>;
  /** Renames `from` over `to`, replacing it. */
  rename(from: string, to: string): Promise<void>;
  /** Best effort: removes a temporary file whose rename failed. */
  remove?(name: string): Promise<void>;
}

let tmp = 0;

export async function writeAtomic(ops: AtomicWriteOps, name: string, text: string): Promise<void> {
  // Unique per write in this process: two writes at once never share a temporary file.
  const temp = `${name}.${++tmp}.tmp`;
  await ops.writeFile(temp, text);
  try {
    await ops.rename(temp, name);
  } catch (error) {
    await ops.remove?.(temp).catch(() => undefined);
    throw error;
  }
}
