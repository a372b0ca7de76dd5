// Text from readers and the API (page paths, search terms, questions, comments) shown in labels,
// tooltips and prompts: the characters that reorder or hide text without being seen are shown
// escaped (`\u202e`), so a label cannot pass for another (a path whose right-to-left override
// makes it read backwards) and a prompt says exactly what it quotes. No vscode: unit-tested.

/**
 * Bidirectional embeddings, overrides and isolates (U+202A–202E, U+2066–2069), the direction marks
 * (U+200E, U+200F, U+061C), zero-width characters (U+200B–200D, U+2060–2064, U+FEFF) and the line
 * and paragraph separators (U+2028, U+2029).
 */
const INVISIBLE = /[\u061c\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff]/g;

/** `text` with every invisible control written as its `\uXXXX` escape. */
export function showInvisible(text: string): string {
  return text.replace(INVISIBLE, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** One line of at most `max` characters of `text` (whitespace runs made one space), its controls escaped. */
export function oneLine(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return showInvisible(flat.length > max ? `${flat.slice(0, max - 1)}…` : flat);
}
