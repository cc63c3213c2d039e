import { hasPlaceholder } from '../coredns/destinations.js';

/**
 * What lint reads as a placeholder and leaves unchecked (context.ts reports the template variables
 * once per Corefile). Pure: no Node APIs.
 */

/**
 * Whether lint leaves `text` unchecked as a placeholder: an environment placeholder CoreDNS expands
 * (`{$NAME}`, `{%NAME%}`), or a template variable (`__PILLAR__…__`) filled in before CoreDNS reads
 * the text: node-cache fills a node-local-dns template's when it writes the Corefile it starts CoreDNS
 * with, kube-up's scripts fill the addon manifests' (a template is linted as a template).
 */
export function holdsPlaceholder(text: string): boolean {
  return hasPlaceholder(text) || (text.includes('__PILLAR__') && /__PILLAR__[A-Z0-9_]*__/.test(text));
}

/** Whether `text` holds a node-cache variable and no environment placeholder (reported once per lint, not where it is). */
export function holdsOnlyNodeCacheVariables(text: string): boolean {
  return !hasPlaceholder(text) && text.includes('__PILLAR__') && /__PILLAR__[A-Z0-9_]*__/.test(text);
}
