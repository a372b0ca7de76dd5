// The text "Ask the Agent About This…" sends: the user's instruction, then, clearly delimited, the
// page it is about and the selected text with its line numbers. No vscode import: unit-tested.

/** Longest selection sent, in characters; longer ones are cut and say so. Documented in the README. */
export const MAX_SELECTION_CHARS = 4_000;
const SHORTENED_NOTE = '(selection shortened)';

export interface PromptSubject {
  /** The page's site path (`/quickstart`), or undefined for a file outside the docs root. */
  sitePath?: string;
  /** The file's path relative to the repository root, POSIX separators. */
  repositoryPath: string;
  selection?: {
    text: string;
    /** 1-based, inclusive. */
    startLine: number;
    endLine: number;
  };
}

export function buildAgentPrompt(instruction: string, subject: PromptSubject): string {
  const lines = [instruction.trim(), '', '=== About this page ==='];
  if (subject.sitePath) lines.push(`Site path: ${subject.sitePath}`);
  lines.push(`File in the repository: ${subject.repositoryPath}`);
  const selection = subject.selection;
  if (selection && selection.text.trim()) {
    const where = selection.startLine === selection.endLine ? `line ${selection.startLine}` : `lines ${selection.startLine}-${selection.endLine}`;
    // A whole-line selection ends with the line break; the delimiter line supplies one.
    const text = selection.text.replace(/\r?\n$/, '');
    const shortened = text.length > MAX_SELECTION_CHARS;
    lines.push(`=== Selected text (${where}) ===`, shortened ? text.slice(0, MAX_SELECTION_CHARS) : text);
    if (shortened) lines.push(SHORTENED_NOTE);
  }
  lines.push('=== End ===');
  return lines.join('\n');
}
