import { describe, expect, it } from 'vitest';
import { parseSidecarArgs, readProbe } from '../../src/kubedns/sidecar-args.js';

describe('parseSidecarArgs', () => {
  it('reads the stock manifest probes, which name the cluster domain again', () => {
    const parsed = parseSidecarArgs(['--v=2', '--logtostderr', '--probe=kubedns,127.0.0.1:10053,kubernetes.default.svc.cluster.local,5,SRV', '--probe=dnsmasq,127.0.0.1:53,kubernetes.default.svc.cluster.local,5,SRV']);
    expect(parsed.probes.map((entry) => entry.probe)).toEqual([
      { label: 'kubedns', server: '127.0.0.1:10053', name: 'kubernetes.default.svc.cluster.local.', intervalSeconds: 5, type: 'SRV' },
      { label: 'dnsmasq', server: '127.0.0.1:53', name: 'kubernetes.default.svc.cluster.local.', intervalSeconds: 5, type: 'SRV' },
    ]);
    expect(parsed.otherSettings.map((setting) => setting.name)).toEqual(['v', 'logtostderr']);
    expect(parsed.problem).toBeUndefined();
  });

  it('reports probes the sidecar refuses', () => {
    const parsed = parseSidecarArgs(['--probe=a,b', '--probe=a-b,x,y', '--probe=a,x,y,soon', '--probe=a,x,y,5,MX', '--probe=a,x,y,5,A,extra']);
    expect(parsed.invalid).toHaveLength(5);
    expect(parsed.probes).toEqual([]);
  });
});

describe('readProbe', () => {
  it('fills in the defaults: port 53, a trailing dot, 5 seconds, ANY', () => {
    expect(readProbe('x,10.0.0.10,kubernetes.default.svc.corp.example.')).toEqual({ label: 'x', server: '10.0.0.10:53', name: 'kubernetes.default.svc.corp.example.', intervalSeconds: 5, type: 'ANY' });
  });
});
