// An API key in its own SecretStorage slot: checked before it is stored, kept only there, cached in
// memory, and in step across windows through secrets.onDidChange. The admin key has the first slot;
// the assistant key of the site's search (src/auth/assistantKey.ts) has its own.
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
  if (key.startsWith('mint_dsc_')) {
    return vscode.l10n.t(
      'This is not an admin API key: keys starting with "{0}" are assistant API keys, for the site\'s search ("Mintlify: Set Assistant Key"). Create an admin API key, starting with "mint_", on the dashboard\'s API keys page ({1}).',
      'mint_dsc_',
      API_KEYS_PAGE,
    );
  }
  if (key.startsWith('mint_us_')) {
    return vscode.l10n.t(
      'This is not an admin API key (keys starting with "{0}" are for other Mintlify APIs). Create an admin API key, starting with "mint_", on the dashboard\'s API keys page ({1}).',
      'mint_us_',
      API_KEYS_PAGE,
    );
  }
  if (!key.startsWith('mint_') || key.length <= 'mint_'.length) {
    return vscode.l10n.t('A Mintlify admin API key starts with "mint_". Create one on the dashboard\'s API keys page ({0}).', API_KEYS_PAGE);
  }
  return undefined;
}

/** A key's slot in SecretStorage and the check a key must pass to be stored there. */
export interface KeySlot {
  readonly secret: string;
  /** A sentence saying what is wrong with the key, or undefined. */
  validate(raw: string): string | undefined;
}

const ADMIN_KEY_SLOT: KeySlot = { secret: SECRET_KEY, validate: validateApiKey };

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
    private readonly slot: KeySlot = ADMIN_KEY_SLOT,
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
        if (e.key !== slot.secret) return;
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
    const problem = this.slot.validate(raw);
    if (problem) throw new Error(problem);
    const key = raw.trim();
    await this.secrets.store(this.slot.secret, key);
    // Ready when set() returns: a command run next must not wait for the change event.
    this.settle(key);
  }

  async clear(): Promise<void> {
    await this.secrets.delete(this.slot.secret);
    this.settle(undefined);
  }

  private settle(key: string | undefined): void {
    this.key = Promise.resolve(key);
    this.present = Boolean(key);
    this.known = key;
    this.emitter.fire();
  }

  private async read(): Promise<string | undefined> {
    const key = await Promise.resolve(this.secrets.get(this.slot.secret)).catch(() => undefined);
    this.present = Boolean(key);
    this.known = key;
    return key;
  }
}
