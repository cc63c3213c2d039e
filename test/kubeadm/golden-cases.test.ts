import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { KUBEADM_PROFILE_IDS } from '../../src/kubeadm/profiles.js';
import { memoryIo } from '../support/memory-io.js';

/** The readable per-release cases in golden/kubeadm/cases, run through the CLI. */
const root = join(import.meta.dirname, '../../golden/kubeadm/cases');

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
      expect(io.err()).toBe(expectedWarnings.join(''));
    } else {
      const [stage, ...message] = (error ?? '').trimEnd().split(': ');
      expect(status).toBe(1);
      expect(io.out()).toBe('');
      expect(io.err()).toBe(`${expectedWarnings.join('')}error: kubeadm ${profile} fails (${stage} stage): ${message.join(': ')}\n`);
    }
  });
});
