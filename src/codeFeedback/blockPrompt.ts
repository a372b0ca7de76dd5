// The prompt for "Ask the Agent to Fix It" (and the editor's AI) on a code block readers flagged:
// our instruction naming the file and lines, then the nonce-marked evidence block
// (src/signals/evidencePrompt.ts) holding the block as it is now and the readers' comments, each
// one JSON string. Reader text is never part of the instruction; the page's site path comes from
// readers' traffic, so it stays in the block too. Pure: no vscode.
import { evidenceMarkers, type EvidenceMarkers, type EvidenceText, evidenceText, MAX_ITEMS, quote, quoteText } from '../prompt/quotedEvidence';
import type { PendingComment, SnapshotRange } from '../signals/snapshot';
import { newestFirst } from './feedbackText';

/** The block's characters the prompt quotes; a longer one says how much it left out. */
const MAX_BLOCK_QUOTE = 4_000;

interface FlaggedBlock {
  /** The workspace file holding the block (`docs/quickstart.mdx`, or the snippet file it imports). */
  file: string;
  /** The page's site path, from the feedback. */
  page: string;
  /** 1-based lines of the opening and closing fences. */
  startLine: number;
  endLine: number;
  /** The block's lines between the fences, as the editor has them now. */
  code: string;
  comments: readonly PendingComment[];
  range: SnapshotRange;
}

interface BlockPrompt {
  prompt: string;
  evidence: EvidenceText;
  /** Comments left out by MAX_ITEMS. */
  notIncluded: number;
}

/** Our instruction: the file and lines are the workspace's, not the readers'. */
export function blockInstruction(block: Pick<FlaggedBlock, 'file' | 'startLine' | 'endLine'>): string {
  return `Fix the code block at lines ${block.startLine}-${block.endLine} of ${block.file}: readers flagged it, and their feedback is below. Make the code correct and runnable as readers copy it; change nothing else on the page.`;
}

export function buildBlockPrompt(instruction: string, block: FlaggedBlock, markers: EvidenceMarkers = evidenceMarkers()): BlockPrompt {
  const lines = [
    `Page: ${quote(block.page)}`,
    `File: ${quote(block.file)}, lines ${block.startLine}-${block.endLine}`,
    `Date range: ${block.range.dateFrom} to ${block.range.dateTo} (exclusive)`,
    'The code block as the file has it now, as one JSON string:',
    quoteText({ text: block.code }, MAX_BLOCK_QUOTE),
  ];
  const comments = newestFirst(block.comments);
  lines.push(`Reader feedback on this code block, newest first (${comments.length}):`);
  for (const c of comments.slice(0, MAX_ITEMS)) {
    const about = [
      c.createdAt ? quote(c.createdAt.slice(0, 10)) : undefined,
      quote(c.status ?? 'pending'),
      c.source === 'agent' ? 'from an AI agent' : 'from a reader',
    ]
      .filter(Boolean)
      .join(', ');
    lines.push(`- ${quoteText(c.comment)} (${about})`);
  }
  const notIncluded = Math.max(0, comments.length - MAX_ITEMS);
  if (notIncluded) lines.push(`(${notIncluded} more not included)`);
  const text = evidenceText([instruction.trim()], lines, markers);
  return { prompt: text.text, evidence: text, notIncluded };
}
