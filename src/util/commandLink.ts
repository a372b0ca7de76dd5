// A Markdown link that runs one of our commands with JSON arguments, for trusted tooltips.
// encodeURIComponent leaves ( ) ' ! * as they are: a ')' in an argument (a page's path) would end
// the Markdown link, so those are encoded too.
export function commandLink(title: string, command: string, args?: readonly unknown[]): string {
  const query = args ? `?${encodeURIComponent(JSON.stringify(args)).replace(/[()'!*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)}` : '';
  return `[${title}](command:${command}${query})`;
}
