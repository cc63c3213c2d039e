import { lintCorefile } from '../../src/lint/lint.js';

/** `code@line:column/severity` of every finding, the compact form the lint tests compare. */
export function findings(text: string, coredns?: string, plugins?: readonly string[]): string[] {
  const options = { ...(coredns === undefined ? {} : { coredns }), ...(plugins === undefined ? {} : { plugins }) };
  return lintCorefile(text, options).diagnostics.map((entry) => `${entry.code}@${entry.position?.line}:${entry.position?.column}/${entry.severity}`);
}

/** A Kubernetes-like main block, with `extra` lines before its closing brace. */
export const main = (extra = ''): string => `.:53 {\n    errors\n    kubernetes cluster.local in-addr.arpa ip6.arpa\n    forward . 8.8.8.8\n${extra}}\n`;
