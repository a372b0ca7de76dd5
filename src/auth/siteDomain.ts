// The site's domain identifier (the `<domain>` of `<domain>.mintlify.site`, which the site's own
// search takes in its path) in whatever the writer pasted: the identifier, the site's address, or
// the dashboard's URL, whose end names it. No vscode import: unit-tested.
import { checkDomain } from '../api/inputs';

/**
 * The site's domain identifier in what was pasted: the identifier itself (`acme`), the site's address
 * (`https://acme.mintlify.site/quickstart`, `acme.mintlify.app`), or the dashboard's URL, whose end
 * names it (`app.mintlify.com/<organisation>/<domain>`). Undefined when none can be told.
 */
export function parseSiteDomain(raw: string): string | undefined {
  const text = raw.trim();
  if (!text) return undefined;
  const valid = (candidate: string | undefined) => {
    try {
      return candidate === undefined ? undefined : checkDomain(decodeURIComponent(candidate));
    } catch {
      return undefined;
    }
  };
  if (!/[/:]/.test(text) && !/\.mintlify\.(site|app|com)$/i.test(text)) return valid(text);
  let url: URL;
  try {
    url = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(text) ? text : `https://${text}`);
  } catch {
    return undefined;
  }
  const host = url.hostname.toLowerCase();
  const site = /^([^.]+)\.mintlify\.(site|app)$/.exec(host);
  if (site) return valid(site[1]);
  if (host === 'app.mintlify.com' || host === 'dashboard.mintlify.com') {
    const segments = url.pathname.split('/').filter(Boolean);
    // The spec's example: app.mintlify.com/organization/domain has the identifier `domain`.
    return valid(segments.length >= 2 ? segments[1] : segments[0]);
  }
  return undefined;
}
