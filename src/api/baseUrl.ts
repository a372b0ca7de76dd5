// The API key goes wherever the base URL points, so the base URL is checked before every request:
// https only, except plain http to this machine for local testing against the simulator.
import { ApiError } from './errors';

export const DEFAULT_BASE_URL = 'https://api.mintlify.com';

function isLoopbackHost(hostname: string): boolean {
  return hostname === 'localhost' || hostname === '[::1]' || /^127(\.\d{1,3}){3}$/.test(hostname);
}

/** Returns the base URL without a trailing slash, or throws ApiError('insecureBaseUrl'). */
export function checkBaseUrl(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    throw new ApiError('insecureBaseUrl', `The API base URL "${raw}" is not a valid URL. Fix "mintlifyAgent.apiBaseUrl" in your user settings.`, {
      subject: raw,
    });
  }
  const allowed = url.protocol === 'https:' || (url.protocol === 'http:' && isLoopbackHost(url.hostname));
  if (!allowed || url.username || url.password || url.search || url.hash) {
    throw new ApiError(
      'insecureBaseUrl',
      `The API base URL "${url.origin}" is not allowed: use https (or http only to 127.0.0.1 or localhost). Fix "mintlifyAgent.apiBaseUrl" in your user settings.`,
      { subject: url.origin },
    );
  }
  return url.href.replace(/\/+$/, '');
}
