// The admin API key: checked before it is stored, kept only in SecretStorage, cached in memory,
// and in step across windows through secrets.onDidChange.
import * as vscode from 'vscode';
import { background, type BackgroundLog } from '../util/background';
import { Disposable } from '../util/lifecycle';

const SECRET_KEY = 'mintlifyAgent.apiKey';
export const API_KEYS_PAGE = 'https://app.mintlify.com/settings/organization/api-keys';

/** Returns a sentence saying what is wrong with the key, or undefined when it looks like an admin key. */
export function validateApiKey(raw: string): string | undefined {
  const key = raw.trim();
  if (!key) return vscode.l10n.t('Paste your Mintlify admin API key.');
  if (/\s/.test(key)) return vscode.l10n.t('An API key has no spaces in it. Paste the key alone.');
  if (key.startsWith('mint_dsc_') || key.startsWith('mint_us_')) {
    return vscode.l10n.t(
      'This is not an admin API key (keys starting with "{0}" are for other Mintlify APIs). Create an admin API key, starting with "mint_", on the dashboard\'s API keys page ({1}).',
      key.startsWith('mint_dsc_') ? 'mint_dsc_' : 'mint_us_',
      API_KEYS_PAGE,
    );
  }
  if (!key.startsWith('mint_') || key.length <= 'mint_'.length) {
    return vscode.l10n.t('A Mintlify admin API key starts with "mint_". Create one on the dashboard\'s API keys page ({0}).', API_KEYS_PAGE);
  }
  return undefined;
}

export class ApiKeyStore extends Disposable {
  private readonly emitter = this.register(new vscode.EventEmitter<void>());
  /** Fires when the key is set or cleared, in this window or another, once it has been read. */
  readonly onDidChange = this.emitter.event;
  private key: Promise<string | undefined>;
  private present = false;
  /** The key as last read or set, to tell whether the change event brings news. */
  private known: string | undefined;

  constructor(
    private readonly secrets: vscode.SecretStorage,
    log: BackgroundLog,
  ) {
    super();
    this.key = this.read();
    // A key stored in an earlier session is news for whoever drew the "no key" state meanwhile.
    background(
      this.key.then((key) => key && this.emitter.fire()),
      log,
      'reading the stored API key',
    );
    this.register(
      secrets.onDidChange((e) => {
        if (e.key !== SECRET_KEY) return;
        const before = this.known;
        this.key = this.read();
        // Our own set() or clear() already told everyone; another window's change is news.
        background(
          this.key.then((key) => key !== before && this.emitter.fire()),
          log,
          'reading the API key another window changed',
        );
      }),
    );
  }

  /** Whether a key is stored, as of the last read (false until the first read has finished). */
  get hasKey(): boolean {
    return this.present;
  }

  get(): Promise<string | undefined> {
    return this.key;
  }

  async set(raw: string): Promise<void> {
    const problem = validateApiKey(raw);
    if (problem) throw new Error(problem);
    const key = raw.trim();
    await this.secrets.store(SECRET_KEY, key);
    // Ready when set() returns: a command run next must not wait for the change event.
    this.settle(key);
  }

  async clear(): Promise<void> {
    await this.secrets.delete(SECRET_KEY);
    this.settle(undefined);
  }

  private settle(key: string | undefined): void {
    this.key = Promise.resolve(key);
    this.present = Boolean(key);
    this.known = key;
    this.emitter.fire();
  }

  private async read(): Promise<string | undefined> {
    const key = await Promise.resolve(this.secrets.get(SECRET_KEY)).catch(() => undefined);
    this.present = Boolean(key);
    this.known = key;
    return key;
  }
}
