// When node's fetch (undici) has received a response's headers: the moment an answer's body starts,
// seen from the client side, without waiting on a clock.
import { subscribe, unsubscribe } from 'node:diagnostics_channel';

const HEADERS = 'undici:request:headers';

/** Resolves when the next response's headers arrive in this process. */
export function nextResponseHeaders(): Promise<void> {
  return new Promise((resolve) => {
    const onHeaders = () => {
      unsubscribe(HEADERS, onHeaders);
      resolve();
    };
    subscribe(HEADERS, onHeaders);
  });
}
