import { describe, expect, it } from 'vitest';
import type { Corefile } from '../../src/corefile/model.js';
import { printCorefile } from '../../src/corefile/printer.js';
import { coreDnsFeatures } from '../../src/coredns/features.js';
import { CorefilePrintError } from '../../src/corefile/errors.js';
import { checkTranslatedCorefile, printBuiltCorefile, SelfCheckError } from '../../src/translate/self-check.js';

const features = coreDnsFeatures('1.8.0');

function block(key: string, ...destinations: string[]): Corefile['items'][number] {
  return { kind: 'server-block', keys: [key], directives: [{ name: 'errors', arguments: [] }, { name: 'forward', arguments: ['.', ...destinations] }] };
}

describe('the translator self-check', () => {
  const model: Corefile = { items: [block('.:53', '8.8.8.8'), block('acme.local:53', '10.0.0.1')] };

  it('accepts a Corefile printed from its model', () => {
    expect(() => checkTranslatedCorefile(printCorefile(model), model, features)).not.toThrow();
  });

  it('refuses a text that reads back as another model', () => {
    const other: Corefile = { items: [block('.:53', '8.8.8.8'), block('acme.local:53', '10.0.0.2')] };
    expect(() => checkTranslatedCorefile(printCorefile(other), model, features)).toThrow(SelfCheckError);
    expect(() => checkTranslatedCorefile(`${printCorefile(model)}\nextra:53 {\n}\n`, model, features)).toThrow(SelfCheckError);
  });

  it('turns a printer refusal of a model it built into an internal error', () => {
    expect(printBuiltCorefile(model, 'translated')).toBe(printCorefile(model));
    const unprintable: Corefile = { items: [block('.:53', '{')] };
    expect(() => printCorefile(unprintable)).toThrow(CorefilePrintError);
    expect(() => printBuiltCorefile(unprintable, 'translated')).toThrow(
      expect.objectContaining({ name: 'SelfCheckError', code: 'not-round-trip', category: 'internal', cause: expect.any(CorefilePrintError) }),
    );
    expect(() => printBuiltCorefile(unprintable, 'merged')).toThrow(/^the merged Corefile cannot be printed: cannot print /);
  });

  it('refuses a zone served twice and a forward without destination', () => {
    const twice: Corefile = { items: [block('.:53', '8.8.8.8'), block('acme.local:53', '10.0.0.1'), block('ACME.local.:53', '10.0.0.2')] };
    expect(() => checkTranslatedCorefile(printCorefile(twice), twice, features)).toThrow('zone dns://acme.local.:53 is served twice');
    expect(() => checkTranslatedCorefile(printCorefile(twice), twice, features)).toThrow(expect.objectContaining({ code: 'zone-served-twice', category: 'internal' }));
    const empty: Corefile = { items: [block('.:53')] };
    expect(() => checkTranslatedCorefile(printCorefile(empty), empty, features)).toThrow('forward without a destination');
  });

  it('refuses health set up twice on one address where the release binds each listener on its own', () => {
    const health = { name: 'health', arguments: [] };
    const multiKey: Corefile = { items: [{ kind: 'server-block', keys: ['.:53', 'in-addr.arpa:53'], directives: [health, { name: 'forward', arguments: ['.', '8.8.8.8'] }] }] };
    expect(() => checkTranslatedCorefile(printCorefile(multiKey), multiKey, coreDnsFeatures('1.2.6'))).toThrow('health would listen 2 times on :8080');
    const withHealth = (key: string): Corefile['items'][number] => ({ kind: 'server-block', keys: [key], directives: [health, { name: 'forward', arguments: ['.', '8.8.8.8'] }] });
    const twoBlocks: Corefile = { items: [withHealth('.:53'), withHealth('acme.local:53')] };
    expect(() => checkTranslatedCorefile(printCorefile(twoBlocks), twoBlocks, coreDnsFeatures('1.6.5'))).toThrow(SelfCheckError);
    for (const version of ['1.0.6', '1.6.6', '1.8.0', '1.14.7']) expect(() => checkTranslatedCorefile(printCorefile(multiKey), multiKey, coreDnsFeatures(version))).not.toThrow();
  });
});
