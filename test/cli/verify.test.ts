import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { memoryIo } from '../support/memory-io.js';

describe('verify: usage', () => {
  it('refuses --old and --new naming the same server (exit 2), before asking anything', async () => {
    for (const [old, current] of [['10.244.1.7', '10.244.1.7:53'], ['[::ffff:10.244.1.7]:53', '10.244.1.7'], ['127.0.0.1:5353', '127.0.0.1:5353'], ['::1', '[::1]:53']]) {
      const io = memoryIo({ files: { 'kube-dns.yaml': '' } });
      const status = await main(['verify', '--kube-dns', 'kube-dns.yaml', '--old', old as string, '--new', current as string], io);
      expect(status, `${old} ${current}: ${io.err()}`).toBe(2);
      expect(io.err()).toMatch(/--old and --new are the same server .*: every answer would agree with itself/);
      expect(io.out()).toBe('');
    }
  });

  it('places a bad line of --names FILE at FILE:LINE:COL (exit 2)', async () => {
    const io = memoryIo({ files: { 'kube-dns.yaml': readFileSync(join(import.meta.dirname, '../../examples/kube-dns-configmap.yaml'), 'utf8'), 'names.txt': '# probes\nconsul.local A\n\nbad..name\n' } });
    const status = await main(['verify', '--kube-dns', 'kube-dns.yaml', '--names', 'names.txt', '--print-names'], io);
    expect(status, io.err()).toBe(2);
    expect(io.err()).toMatch(/names\.txt:4:1: 'bad\.\.name' is not a domain name/);
    expect(io.out()).toBe('');
  });
});
