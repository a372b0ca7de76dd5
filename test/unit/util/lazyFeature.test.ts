// A feature built on first use: its commands are registered at once, the first call builds it,
// and a build that fails is not tried again.
import assert from 'node:assert/strict';
import { lazyFeature, type CommandHandler } from '../../../src/util/lazyFeature';

function registrar() {
  const registered = new Map<string, CommandHandler>();
  const run = (id: string, ...args: unknown[]) => (registered.get(id) as (...a: unknown[]) => unknown)(...args);
  return { registered, run, register: (id: string, handler: CommandHandler) => void registered.set(id, handler) };
}

describe('lazyFeature', () => {
  it('registers every declared command now and builds the feature only on first use', () => {
    const vsc = registrar();
    let builds = 0;
    const feature = lazyFeature(vsc.register, ['a.one', 'a.two'], (command) => {
      builds++;
      command('a.one', (x: number) => x + 1);
      command('a.two', () => 'two');
      return { name: 'built' };
    });
    assert.deepEqual([...vsc.registered.keys()], ['a.one', 'a.two']);
    assert.equal(builds, 0);
    assert.equal(vsc.run('a.one', 41), 42);
    assert.equal(vsc.run('a.two'), 'two');
    assert.equal(feature.get().name, 'built');
    assert.equal(builds, 1);
  });

  it('refuses a command the feature did not declare', () => {
    const vsc = registrar();
    const feature = lazyFeature(vsc.register, ['a.one'], (command) => {
      command('a.other', () => undefined);
      return {};
    });
    assert.throws(() => feature.get(), /a\.other is not among the commands/);
  });

  it('fails the build when a declared command got no handler, naming it', () => {
    const vsc = registrar();
    const feature = lazyFeature(vsc.register, ['a.one', 'a.two'], (command) => {
      command('a.one', () => undefined);
      return {};
    });
    assert.throws(() => feature.get(), /a\.two: declared, but the feature registered no handler/);
    assert.throws(() => vsc.run('a.one'), /a\.two/, 'no command runs on a feature that lacks one');
  });

  it('does not build again after a build that threw: every later use gets the same error', () => {
    const vsc = registrar();
    let builds = 0;
    const feature = lazyFeature(vsc.register, ['a.one'], () => {
      builds++;
      throw new Error('no storage');
    });
    assert.throws(() => vsc.run('a.one'), /no storage/);
    assert.throws(() => feature.get(), /no storage/);
    assert.equal(builds, 1);
  });
});
