import { describe, expect, it } from 'vitest';
import { assertConfigMapData, ConfigMapInputError } from '../../src/configmap/config-map-data.js';
import { translateLikeKubeadm } from '../../src/kubeadm/kubeadm-translation.js';
import { translateKubeadmPieces } from '../../src/kubeadm/translate-pieces.js';
import { readKubeDnsConfig } from '../../src/kubedns/read-kube-dns-config.js';
import { translateKubeDns } from '../../src/translate/translate.js';
import type { ConfigMapData } from '../../src/configmap/config-map-data.js';

/** What an untyped (JavaScript) caller can pass where the types say `ConfigMapData | null`. */
function untyped(value: unknown): ConfigMapData | null {
  return value as ConfigMapData | null;
}

describe('assertConfigMapData', () => {
  it('accepts null and objects of strings', () => {
    expect(() => assertConfigMapData(null)).not.toThrow();
    expect(() => assertConfigMapData({})).not.toThrow();
    expect(() => assertConfigMapData({ stubDomains: '{}', other: '' })).not.toThrow();
  });

  it.each([
    [{ stubDomains: null }, 'value-not-string', "data key 'stubDomains' must be a string (ConfigMap data values are text), got null"],
    [{ upstreamNameservers: ['8.8.8.8'] }, 'value-not-string', "data key 'upstreamNameservers' must be a string (ConfigMap data values are text), got an array"],
    [{ federations: 5 }, 'value-not-string', "data key 'federations' must be a string (ConfigMap data values are text), got a number"],
    [['{}'], 'data-not-mapping', 'data must be an object of strings or null, got an array'],
    ['{}', 'data-not-mapping', 'data must be an object of strings or null, got a string'],
    [undefined, 'data-not-mapping', 'data must be an object of strings or null, got undefined'],
  ] as const)('refuses %j with ConfigMapInputError', (data, code, message) => {
    expect(() => assertConfigMapData(data)).toThrow(new ConfigMapInputError(code, message));
    expect(() => assertConfigMapData(data)).toThrow(expect.objectContaining({ code, reason: message, position: undefined, filename: undefined }));
  });
});

describe('the translators check their data argument', () => {
  const bad = untyped({ stubDomains: null });
  it.each([
    ['translateLikeKubeadm', () => translateLikeKubeadm('1.17', bad)],
    ['translateKubeadmPieces', () => translateKubeadmPieces('1.17', bad)],
    ['readKubeDnsConfig', () => readKubeDnsConfig(bad)],
    ['translateKubeDns', () => translateKubeDns(bad)],
  ])('%s throws ConfigMapInputError instead of failing inside', (_name, call) => {
    expect(call).toThrow(ConfigMapInputError);
  });
});
