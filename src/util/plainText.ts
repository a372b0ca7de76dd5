/**
 * Notifications turn `[text](https:…)` and `[text](command:…)` into links that run when clicked.
 * Our messages never mean to link, but they quote paths, links and server text from outside: a
 * zero-width space between `]` and `(` keeps all of it plain text and reads the same.
 */
export function plainText(message: string): string {
  return message.replaceAll('](', ']\u200b(');
}
