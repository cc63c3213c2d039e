import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { KUBEADM_PROFILE_IDS } from '../../src/kubeadm/profiles.js';
import { memoryIo } from '../support/memory-io.js';

/** The readable per-release cases in golden/kubeadm/cases, run through the CLI. */
const root = join(import.meta.dirname, '../../golden/kubeadm/cases');

/**
 * The cases whose values add server blocks, plugins or options kubeadm pasted unescaped (v1.19
 * ignores federations; where v1.15+ refuse the values, there is no Corefile).
 */
const UNREQUESTED_CONTENT = new Set(['05-stub-key-with-space-quote-braces', '07-stub-values-needing-quotes', '08-federations-needing-quotes']);

function optional(path: string): string | undefined {
  return existsSync(path) ? readFileSync(path, 'utf8') : undefined;
}

describe.each(readdirSync(root).sort())('golden case %s', (name) => {
  const directory = join(root, name);
  const input = readFileSync(join(directory, 'kube-dns.yaml'), 'utf8');

  it.each(KUBEADM_PROFILE_IDS)('kubeadm %s', async (profile) => {
    const corefile = optional(join(directory, `${profile}.Corefile`));
    const error = optional(join(directory, `${profile}.error`));
    const warnings = optional(join(directory, `${profile}.warnings`));
    const io = memoryIo({ files: { 'kube-dns.yaml': input } });
    const status = await main(['--kubeadm', profile, 'kube-dns.yaml'], io);

    const expectedWarnings = (warnings ?? '').split('\n').filter((line) => line !== '').map((line) => `warning: kubeadm ${profile}: ${line}\n`);
    if (corefile !== undefined) {
      expect(status).toBe(0);
      expect(io.out()).toBe(corefile);
      // kubeadm's warnings, then ours about content the input did not ask for (not kubeadm's, so not in golden/).
      const kubeadmWarnings = expectedWarnings.join('');
      expect(io.err().startsWith(kubeadmWarnings)).toBe(true);
      const ours = io.err().slice(kubeadmWarnings.length).split('\n').filter((line) => line !== '');
      expect(ours.every((line) => /^warning: the (Corefile holds|input changed) .*\(kubeadm v1\.\d+ pasted the ConfigMap's values into its manifest unescaped; the Corefile is what it stored\)$/.test(line))).toBe(true);
      if (UNREQUESTED_CONTENT.has(name) && !(name.includes('federations') && profile === 'v1.19')) expect(ours.length).toBeGreaterThan(0);
      else expect(ours).toEqual([]);
    } else {
      const [stage, ...message] = (error ?? '').trimEnd().split(': ');
      expect(status).toBe(1);
      expect(io.out()).toBe('');
      expect(io.err()).toBe(`${expectedWarnings.join('')}error: kubeadm ${profile} fails (${stage} stage): ${message.join(': ')}\n`);
    }
  });
});
