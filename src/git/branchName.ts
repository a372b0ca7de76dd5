// Whether a branch name from the API may be handed to git. The name comes from the platform (the
// agent may have chosen it), and git reads an argument that starts with `-` as an option and one
// with `:` or `+` as a refspec: such a name could make "Review Changes" run a command or move a
// ref instead of reading. Only plain branch names, by git's own rules (git check-ref-format), pass.
// No vscode import: unit-tested directly.

export function isSafeBranchName(name: string): boolean {
  if (!name || name.length > 255) return false;
  if (name.startsWith('-') || name.startsWith('/') || name.endsWith('/') || name.endsWith('.') || name.endsWith('.lock')) return false;
  if (name === '@' || name.includes('..') || name.includes('@{') || name.includes('//')) return false;
  // Control characters, space, and the characters git forbids or gives a meaning: ~ ^ : ? * [ \ and + (a forced refspec).
  // eslint-disable-next-line no-control-regex -- control characters are exactly what this refuses
  if (/[\u0000-\u0020\u007f~^:?*[\\+]/.test(name)) return false;
  return name.split('/').every((part) => part.length > 0 && !part.startsWith('.'));
}
