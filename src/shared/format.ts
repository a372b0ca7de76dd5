// Fills `{0}`, `{1}`… in a string the extension worded with vscode.l10n.t, the way l10n.t itself
// does: the webview shows translated text without a localisation library of its own.
export function format(template: string, ...args: (string | number)[]): string {
  return template.replace(/\{(\d+)\}/g, (match, index: string) => (Number(index) < args.length ? String(args[Number(index)]) : match));
}
