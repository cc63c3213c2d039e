/**
 * The bound on YAML alias expansion that kubectl's reader applies (go-yaml's decoder from v2.2.4
 * and v3.0.0, decode.go, under sigs.k8s.io/yaml), shared by every reader of the package: the
 * js-yaml readers of user input (configmap/yaml-documents.ts) and the port of yaml.v2 that the
 * kubeadm profiles run (kubeadm/yaml-v2/compose.ts). See docs/performance.md#yaml-aliases.
 *
 * go-yaml counts, per document, every node it decodes (the document node too) and, apart, the
 * nodes decoded while it follows an alias (each alias decodes its anchor's node again, nested
 * aliases included). It stops with "document contains excessive aliasing" once more than 100
 * nodes came through aliases, more than 1,000 were decoded in all, and the aliased share of the
 * nodes decoded so far is above {@link allowedAliasRatio}.
 */

/** The share of a document's decoded nodes that may come through aliases: 99% up to 400,000 nodes, 10% from 4,000,000, linear in between. */
export function allowedAliasRatio(decodeCount: number): number {
  const low = 400_000;
  const high = 4_000_000;
  if (decodeCount <= low) return 0.99;
  if (decodeCount >= high) return 0.1;
  return 0.99 - 0.89 * ((decodeCount - low) / (high - low));
}

/** Whether go-yaml stops a document that has decoded `decodeCount` nodes, `aliasCount` of them through aliases. */
export function excessiveAliasing(decodeCount: number, aliasCount: number): boolean {
  return aliasCount > 100 && decodeCount > 1000 && aliasCount / decodeCount > allowedAliasRatio(decodeCount);
}
