import { describe, expect, it } from 'vitest';
import { coreDnsOptionAvailability, coreDnsPluginAvailability } from '../../src/coredns/availability.js';
import { OwnAnswers } from '../../src/lint/release-answers.js';

describe('the release answers lint and migrate share', () => {
  it('are the release tables’ answers', () => {
    const answers = new OwnAnswers('1.11.3');
    for (const name of ['forward', 'proxy', 'kubernetes', 'ready', 'no-such-plugin']) expect(answers.plugin(name)).toEqual(coreDnsPluginAvailability(name, '1.11.3'));
    for (const [plugin, option] of [
      ['forward', 'max_concurrent'],
      ['kubernetes', 'upstream'],
      ['kubernetes', 'resyncperiod'],
      ['forward', 'no_such_option'],
      ['no-such-plugin', 'x'],
    ] as const) {
      expect(answers.option(plugin, option)).toEqual(coreDnsOptionAvailability(plugin, option, '1.11.3'));
    }
    expect(new OwnAnswers('1.2.6').option('forward', 'max_concurrent')).toEqual(coreDnsOptionAvailability('forward', 'max_concurrent', '1.2.6'));
  });

  it('share only what the tables keep (frozen, one per known name), per release', () => {
    const first = new OwnAnswers('1.11.3');
    const second = new OwnAnswers('1.11.3');
    expect(second.plugin('forward')).toBe(first.plugin('forward'));
    expect(second.option('forward', 'max_concurrent')).toBe(first.option('forward', 'max_concurrent'));
    expect(Object.isFrozen(first.plugin('forward'))).toBe(true);
    expect(new OwnAnswers('1.6.7').plugin('ready')).not.toBe(first.plugin('ready'));
    // A name of no table is kept by the one that asked (once), never by the release: a Corefile may
    // spell any number of them.
    const unknown = first.plugin('no-such-plugin-1');
    expect(first.plugin('no-such-plugin-1')).toBe(unknown);
    expect(second.plugin('no-such-plugin-1')).not.toBe(unknown);
    const option = first.option('forward', 'no_such_option');
    expect(first.option('forward', 'no_such_option')).toBe(option);
    expect(second.option('forward', 'no_such_option')).not.toBe(option);
  });
});
