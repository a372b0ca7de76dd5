// The API names pages in three ways: a site path (`/quickstart`), a full URL (`pageUrl`,
// sometimes a feedback `path`), each with percent-encoding or not. Everything the signals model
// compares is the decoded site path without a trailing slash, as the visitors rows and src/docs use.

export function sitePathOfUrl(value: string): string {
  let path = value.trim();
  if (/^https?:\/\//i.test(path)) {
    try {
      path = new URL(path).pathname;
    } catch {
      return path;
    }
    path = path
      .split('/')
      .map((segment) => {
        try {
          return decodeURIComponent(segment);
        } catch {
          return segment; // a lone `%` is a character like any other
        }
      })
      .join('/');
  }
  if (!path.startsWith('/')) path = `/${path}`;
  return path.length > 1 ? path.replace(/\/+$/, '') || '/' : path;
}
