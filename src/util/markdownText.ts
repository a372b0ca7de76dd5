// Text from outside (readers, the API) put into a Markdown string as text: every ASCII punctuation
// character is backslash-escaped (CommonMark lets any of them be), so no emphasis, link, code
// span, fence, HTML tag or entity can form, and what renders is exactly `text`. No vscode.

/** `text` for a Markdown string, shown literally. */
export function markdownEscaped(text: string): string {
  return text.replace(/[!-/:-@[-`{-~]/g, (c) => `\\${c}`);
}
