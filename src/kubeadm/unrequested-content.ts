import { InternalError } from '../errors/internal-error.js';
import { CorefileError } from '../corefile/errors.js';
import type { Block, Directive, ServerBlock } from '../corefile/model.js';
import { parseCorefile } from '../corefile/parser.js';
import { printable } from '../util/printable-text.js';
import { plainLiteralBlock, renderKubeadmManifest } from './manifest.js';
import type { KubeadmProfile } from './profiles.js';
import type { KubeadmRequest } from './translate-pieces.js';
import { pushAll } from '../util/lists.js';

/**
 * kubeadm pasted every ConfigMap value into its manifest unescaped, so a value holding a line
 * break, a brace or a quote could add server blocks or plugins to the stored Corefile (a stub
 * domain `evil.com {\n whoami\n}\nx.com` adds a block `evil.com { whoami }`). The profiles
 * reproduce that on purpose; this check says when it happened.
 *
 * The Corefile is parsed with the Corefile model and compared with what the input asked for: the
 * profile's main block (with the upstreams, the cluster domain and the federations in their
 * places) and one block per stub domain (`errors`, `cache 30`, `loop` where the profile has it, the
 * forwarder with the kept nameservers). Comments and layout are not compared: they change nothing
 * CoreDNS does.
 */
export function findUnrequestedContent(profile: KubeadmProfile, request: KubeadmRequest, dnsDomain: string, corefile: string): string[] {
  return onlyPlainValues(request, dnsDomain) ? [] : compareWithRequest(profile, request, dnsDomain, corefile);
}

/** {@link findUnrequestedContent} without the shortcut for plain values: always parses and compares. */
export function compareWithRequest(profile: KubeadmProfile, request: KubeadmRequest, dnsDomain: string, corefile: string): string[] {
  let blocks: readonly ServerBlock[];
  const findings: string[] = [];
  try {
    const { items } = parseCorefile(corefile).corefile;
    blocks = items.filter((item): item is ServerBlock => item.kind === 'server-block');
    for (const item of items) {
      if (item.kind === 'import') findings.push(unrequested(`an import of ${quoted(item.pattern)}${at(item.position?.line)}`));
      if (item.kind === 'snippet') findings.push(unrequested(`a snippet definition ${quoted(`(${item.name})`)}${at(item.position?.line)}`));
    }
  } catch (error) {
    if (!(error instanceof CorefileError)) throw error;
    const where = error.position === undefined ? '' : ` (line ${error.position.line}, column ${error.position.column}: ${printable(error.reason)})`;
    return [`the input changed the Corefile's structure so that it no longer parses${where}; CoreDNS would not start with it`];
  }
  // Expected blocks by their keys, each list in order; a produced block takes the first left.
  const expectedByKeys = new Map<string, ExpectedBlock[]>();
  for (const block of expectedBlocks(profile, request, dnsDomain)) {
    const keys = keysId(block.keys);
    const list = expectedByKeys.get(keys);
    if (list === undefined) expectedByKeys.set(keys, [block]);
    else list.push(block);
  }
  for (const block of blocks) {
    const match = expectedByKeys.get(keysId(block.keys))?.shift();
    if (match === undefined) findings.push(unrequested(`a server block ${blockName(block)}${at(block.position?.line)}`));
    else pushAll(findings, unrequestedDirectives(block, match));
  }
  return findings;
}

function keysId(keys: readonly string[]): string {
  return keys.join('\u0000');
}

function unrequested(what: string): string {
  return `the Corefile holds ${what} that the input did not ask for`;
}

/** A server block as the input asked for it: keys and directives (arguments and nested blocks compared; no comments). */
interface ExpectedBlock {
  readonly keys: readonly string[];
  readonly directives: readonly Directive[];
}

/**
 * Value text that stays one token where the template puts it, whatever YAML, FromJSON and the
 * Corefile lexer do around it: letters, marks and digits of any script, and the punctuation of
 * names, addresses and ports — no space, quote, brace, `#`, `,`, backslash or control, nor a
 * character YAML reads as a line break. An empty value leaves no token at all, which changes the
 * arguments of its line but no plugin; only a federation name must not be empty (its domain would
 * take the name's place). When every value of the request is like that, the Corefile has exactly
 * the requested shape and the parse is skipped (it would cost more than the translation on a 1 MiB
 * ConfigMap); a law in the tests checks that the comparison agrees.
 */
const PLAIN_VALUE = /^[\p{L}\p{M}\p{N}._:/[\]%*@+=~-]*$/u;

export function onlyPlainValues(request: KubeadmRequest, dnsDomain: string): boolean {
  if (!PLAIN_VALUE.test(dnsDomain)) return false;
  for (const stub of request.stubDomains) {
    if (!PLAIN_VALUE.test(stub.domain)) return false;
    for (const nameserver of stub.nameservers) if (!PLAIN_VALUE.test(nameserver)) return false;
  }
  for (const nameserver of request.upstreamNameservers ?? []) if (!PLAIN_VALUE.test(nameserver)) return false;
  for (const [name, domain] of request.federations ?? []) if (name === '' || !PLAIN_VALUE.test(name) || !PLAIN_VALUE.test(domain)) return false;
  return true;
}

/** Stand-ins rendered into the template to find the places of the cluster domain and the upstreams. */
const DNS_DOMAIN_SLOT = 'dns-domain.slot';
const UPSTREAM_SLOT = 'upstream.slot';

const mainBlocks = new Map<KubeadmProfile['id'], ServerBlock>();

/** The profile's main block as its template reads, with the slots in place of the values. */
function templateMainBlock(profile: KubeadmProfile): ServerBlock {
  let block = mainBlocks.get(profile.id);
  if (block === undefined) {
    const manifest = renderKubeadmManifest(profile, { stubDomains: '', upstreamNameservers: UPSTREAM_SLOT, federations: '' }, DNS_DOMAIN_SLOT);
    const corefile = plainLiteralBlock(manifest);
    if (corefile === undefined) throw new InternalError(`the ${profile.id} template has no plain Corefile block`);
    block = parseCorefile(corefile).corefile.items[0] as ServerBlock;
    mainBlocks.set(profile.id, block);
  }
  return block;
}

function expectedBlocks(profile: KubeadmProfile, request: KubeadmRequest, dnsDomain: string): ExpectedBlock[] {
  const main = templateMainBlock(profile);
  const upstreams = request.upstreamNameservers ?? ['/etc/resolv.conf'];
  const directives: Directive[] = [];
  for (const directive of main.directives) {
    const args = directive.arguments.flatMap((argument) => (argument === DNS_DOMAIN_SLOT ? [dnsDomain] : argument === UPSTREAM_SLOT ? upstreams : [argument]));
    // Only what is compared: parsed nodes compute their positions on access.
    directives.push(directive.block === undefined ? { name: directive.name, arguments: args } : { name: directive.name, arguments: args, block: directive.block });
    if (directive.name === 'kubernetes' && request.federations !== undefined) {
      const lines = request.federations.map(([name, domain]): Directive => ({ name, arguments: [domain] }));
      directives.push({ name: 'federation', arguments: [dnsDomain], block: { directives: lines } });
    }
  }
  const stubPlugins: Directive[] = [
    { name: 'errors', arguments: [] },
    { name: 'cache', arguments: ['30'] },
    ...(profile.stubLoop ? [{ name: 'loop', arguments: [] }] : []),
  ];
  return [
    { keys: main.keys, directives },
    ...request.stubDomains.map((stub) => ({
      keys: [`${stub.domain}:53`],
      directives: [...stubPlugins, { name: profile.forwarder, arguments: ['.', ...stub.nameservers] }],
    })),
  ];
}

/**
 * The directives of `block` (and the options inside their blocks, at any depth) that the expected
 * block does not have: matched by name, each expected directive once. Arguments are not compared:
 * a value kubeadm split into two arguments or lost (`1.1.1.1 2.2.2.2`, an empty string) changes
 * what the line says, not which plugins run.
 */
function unrequestedDirectives(block: ServerBlock, expected: ExpectedBlock): string[] {
  const findings: string[] = [];
  compareDirectives(block.directives, expected.directives, `in server block ${blockName(block)}`, 'a plugin', findings);
  return findings;
}

function compareDirectives(actual: readonly Directive[], expected: readonly Directive[], where: string, kind: string, findings: string[]): void {
  const unused = [...expected];
  for (const directive of actual) {
    const index = unused.findIndex((candidate) => candidate.name === directive.name);
    // Positions are computed on access: only for what is reported.
    const described = () => `${quoted(directive.name)}${at(directive.position?.line)}`;
    if (index < 0) {
      findings.push(unrequested(`${kind} ${described()} ${where}`));
      continue;
    }
    const [match] = unused.splice(index, 1) as [Directive];
    if (directive.block === undefined) continue;
    if (match.block === undefined) findings.push(unrequested(`a block under ${described()} ${where}`));
    else if (!sameNames(directive.block.directives, match.block.directives)) {
      compareDirectives(directive.block.directives, match.block.directives, `under ${described()} ${where}`, 'an option', findings);
    }
  }
}

/** Same directive names in the same order, at every depth (the common case, decided without building messages). */
function sameNames(a: readonly Directive[], b: readonly Directive[]): boolean {
  if (a.length !== b.length) return false;
  for (let index = 0; index < a.length; index += 1) {
    const left = a[index] as Directive;
    const right = b[index] as Directive;
    if (left.name !== right.name || (left.block === undefined) !== (right.block === undefined)) return false;
    if (left.block !== undefined && !sameNames(left.block.directives, (right.block as Block).directives)) return false;
  }
  return true;
}

function blockName(block: ServerBlock): string {
  return block.keys.length === 1 ? quoted(block.keys[0] as string) : `with keys ${block.keys.map(quoted).join(', ')}`;
}

function quoted(text: string): string {
  return `'${printable(text)}'`;
}

function at(line: number | undefined): string {
  return line === undefined ? '' : ` (line ${line})`;
}
