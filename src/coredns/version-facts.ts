import type { CoreDnsVersion } from './versions.js';

/**
 * Version facts the linter needs that the CoreDNS version matrix (the feature table of
 * `src/coredns/features.ts`, the option timelines of `src/coredns/availability.ts`) does not carry
 * as data yet. Each belongs in the matrix (as a feature flag or an option timeline); they live here
 * only until it gains them, and must then be replaced by the matrix's answer.
 */

/**
 * `forward` refuses `grpc://` destinations ("'grpc' is not supported as a destination protocol in
 * forward") from this release on. Read at v1.7.0 (docs/reference/kube-dns-and-coredns.md §2.3);
 * older releases were not checked, so the linter says nothing about them.
 * Belongs in the matrix as a `CoreDnsFeatures` flag (e.g. `forwardGrpcTargetsRefused`).
 */
export const FORWARD_REFUSES_GRPC_FROM: CoreDnsVersion = '1.7.0';

/**
 * A second `forward` in one server block fails (`plugin.ErrOnce`) from this release on; in 1.0.5
 * and 1.0.6 the outcome was not checked. Stated in the TSDoc of
 * `CoreDnsFeatures.multipleForwardPerBlock` (notes 1.1.0), but not as data.
 * Belongs in the matrix next to `multipleForwardPerBlock` (e.g. an enforcement field like
 * `UpstreamLimit.enforcement`).
 */
export const FORWARD_ONCE_PER_BLOCK_ENFORCED_FROM: CoreDnsVersion = '1.1.0';

/**
 * A server key with an empty host (`:53`) is refused from this release on (miekg/dns v1.1.2 made
 * `IsDomainName("")` false); older releases serve it as the root zone
 * (docs/reference/corefile-syntax.md §5.1, run on 1.2.6). Belongs in the matrix.
 */
export const KEY_EMPTY_HOST_REFUSED_FROM: CoreDnsVersion = '1.3.1';

/**
 * A server key with a leading dot (`.example.org`) is refused from this release on (miekg/dns
 * v1.1.50); older releases serve it as written (corefile-syntax.md §5.1, run on 1.2.6). Belongs in
 * the matrix.
 */
export const KEY_LEADING_DOT_REFUSED_FROM: CoreDnsVersion = '1.10.0';

/**
 * "cannot serve … - it is already defined" is the wording from this release on; 1.0.x said
 * "cannot serve … - zone already defined for …" (corefile-syntax.md §5.2). Belongs in the matrix
 * only if messages are ever modelled there.
 */
export const ALREADY_DEFINED_WORDING_FROM: CoreDnsVersion = '1.1.0';
