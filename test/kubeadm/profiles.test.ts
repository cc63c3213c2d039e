import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { KUBEADM_PROFILE_IDS, KUBEADM_PROFILES } from '../../src/kubeadm/profiles.js';

const templates = join(import.meta.dirname, '../../golden/kubeadm/templates');

describe('kubeadm manifest templates', () => {
  it.each(KUBEADM_PROFILE_IDS)('%s carries kubeadm’s Corefile block verbatim', (id) => {
    // The golden files are the `Corefile: |` blocks of kubeadm's manifests.go, copied by hand.
    const golden = readFileSync(join(templates, `${id}.Corefile-block.yaml`), 'utf8');
    const template = KUBEADM_PROFILES[id].manifestTemplate;
    expect(template.slice(template.indexOf('  Corefile: |'))).toBe(golden);
  });

  it.each(KUBEADM_PROFILE_IDS)('%s starts with the line break of the Go raw string and the ConfigMap header', (id) => {
    const template = KUBEADM_PROFILES[id].manifestTemplate;
    expect(template.split('\n').slice(0, 8)).toEqual([
      '',
      'apiVersion: v1',
      'kind: ConfigMap',
      'metadata:',
      '  name: coredns',
      '  namespace: kube-system',
      'data:',
      '  Corefile: |',
    ]);
  });

  it('translates federations only up to v1.18 and checks values from v1.15', () => {
    const summary = KUBEADM_PROFILE_IDS.map((id) => {
      const profile = KUBEADM_PROFILES[id];
      return `${id} ${profile.forwarder} loop:${profile.stubLoop} check:${profile.nameserverCheck ?? '-'} fed:${profile.translatesFederations}`;
    });
    expect(summary).toEqual([
      'v1.10 proxy loop:false check:- fed:true',
      'v1.11 proxy loop:false check:- fed:true',
      'v1.12 proxy loop:true check:- fed:true',
      'v1.14 forward loop:true check:- fed:true',
      'v1.15 forward loop:true check:atoi fed:true',
      'v1.16 forward loop:true check:atoi fed:true',
      'v1.17 forward loop:true check:atoi fed:true',
      'v1.19 forward loop:true check:uint16 fed:false',
    ]);
  });
});
