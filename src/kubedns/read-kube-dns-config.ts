import { checkArgument } from '../errors/arguments.js';
import { assertConfigMapData } from '../configmap/config-map-data.js';
import type { ConfigMapData } from '../configmap/config-map-data.js';
import { diagnostic, jsonPathStep } from '../diagnostics/diagnostic.js';
import type { Diagnostic } from '../diagnostics/diagnostic.js';
import type { DiagnosticCode } from '../diagnostics/codes.js';
import { validateKubeDnsValues } from '../generated/validate-kube-dns-values.js';
import { PositionCursor } from '../util/source-position.js';
import { parseGoJson, parseGoJsonTree } from './go-json.js';
import type { GoJsonArray, GoJsonMember, GoJsonObject, GoJsonValue } from './go-json.js';
import { isDns1123Label, isDns1123Subdomain } from '../dns/go-net.js';
import { decodeFederations } from './kube-dns-values.js';
import { kubeDnsRules } from './kube-dns-versions.js';
import type { KubeDnsRules } from './kube-dns-versions.js';
import { stubNameserverProblem, upstreamNameserverProblem } from './nameserver-rules.js';
import { settingsInValue } from './settings-in-value.js';

/**
 * The kube-dns ConfigMap read the way kube-dns reads it (pkg/dns/config `processUpdate` and
 * `Validate`): `stubDomains` and `upstreamNameservers` as JSON (Go semantics: last duplicate key
 * wins, null is nil), `federations` as `name=domain` pairs, everything else ignored.
 */
export interface KubeDnsConfig {
  /** Stub domains in first-appearance order, each with the nameservers of its last occurrence. */
  readonly stubDomains: readonly StubDomainEntry[];
  /** `undefined` when the key is absent; an empty list for `[]` or `null`. */
  readonly upstreamNameservers: readonly ValueEntry[] | undefined;
  /**
   * Set only when the list was too long to examine ({@link EXAMINED_LIST_ITEMS}): how many items
   * it had. `upstreamNameservers` then holds the first ones.
   */
  readonly listedUpstreamNameservers?: number;
  /** `undefined` when the key is absent or blank. */
  readonly federations: readonly FederationEntry[] | undefined;
}

/** A string value with where it came from, for diagnostics. */
export interface ValueEntry {
  readonly value: string;
  /** JSON path inside its data key, e.g. `["acme.local"][0]`. */
  readonly path: string;
  /** JavaScript index of the value in the data key's text. */
  readonly offset: number;
}

export interface StubDomainEntry {
  readonly domain: string;
  readonly path: string;
  readonly offset: number;
  readonly nameservers: readonly ValueEntry[];
  /**
   * Set only when the list was too long to examine ({@link EXAMINED_LIST_ITEMS}): how many items
   * it had. `nameservers` then holds the first ones.
   */
  readonly listedNameservers?: number;
}

export interface FederationEntry {
  readonly name: string;
  readonly domain: string;
  readonly path: string;
  readonly offset: number;
}

export interface KubeDnsReading {
  readonly config: KubeDnsConfig;
  readonly diagnostics: readonly Diagnostic[];
  /** False when kube-dns's (all-or-nothing) validation rejected the ConfigMap. */
  readonly acceptedByKubeDns: boolean;
  readonly rules: KubeDnsRules;
}

export const KUBE_DNS_KEYS = ['stubDomains', 'upstreamNameservers', 'federations'] as const;

/**
 * How many items of a nameserver list are read. Nothing longer can be translated (kube-dns took
 * at most 3 upstreams, CoreDNS forwards to at most 15 destinations), so the items after these
 * are only syntax-checked and counted: a list of millions costs no more than the JSON check, and
 * gives one diagnostic (`long-list-not-examined`) instead of one per item.
 */
export const EXAMINED_LIST_ITEMS = 256;
export type KubeDnsKey = (typeof KUBE_DNS_KEYS)[number];

export interface ReadKubeDnsOptions {
  /** The kube-dns version whose rules apply (default: the newest known). */
  readonly kubeDnsVersion?: string;
}

/** Collects diagnostics with positions inside the data value they concern. */
class Reporter {
  readonly diagnostics: Diagnostic[] = [];
  /** One per data key: diagnostics mostly come in source order, so positions cost one pass. */
  private readonly cursors = new Map<string, PositionCursor>();

  constructor(private readonly data: ConfigMapData) {}

  report(code: DiagnosticCode, key: string, path: string, offset: number | undefined, message: string): void {
    const text = this.data[key];
    const position = text !== undefined && offset !== undefined ? this.cursor(key, text).positionAt(offset) : undefined;
    this.diagnostics.push(diagnostic(code, { key, path, message, ...(position === undefined ? {} : { position }) }));
  }

  private cursor(key: string, text: string): PositionCursor {
    let cursor = this.cursors.get(key);
    if (cursor === undefined) {
      cursor = new PositionCursor(text);
      this.cursors.set(key, cursor);
    }
    return cursor;
  }
}

/**
 * Reads and validates the kube-dns side of a ConfigMap. Never throws for bad values: every problem
 * is a diagnostic, and `acceptedByKubeDns` says whether kube-dns would have used the ConfigMap.
 * `data` `null` (no ConfigMap) reads like an empty one; `data` that is not an object of strings
 * (possible only from untyped callers) throws `ConfigMapInputError`.
 */
export function readKubeDnsConfig(data: ConfigMapData | null, options: ReadKubeDnsOptions = {}): KubeDnsReading {
  checkArgument('readKubeDnsConfig', 'options', options, 'object?');
  assertConfigMapData(data);
  const rules = kubeDnsRules(options.kubeDnsVersion);
  const values = data ?? {};
  const reporter = new Reporter(values);
  for (const key of Object.keys(values)) {
    if (!(KUBE_DNS_KEYS as readonly string[]).includes(key)) {
      const nested = settingsInValue(values[key] as string);
      if (nested === undefined) reporter.report('unrelated-key', key, '', undefined, `kube-dns does not read data key '${key}'; it is not translated`);
      else reporter.report('settings-in-other-key', key, '', nested.offset, `data key '${key}' holds kube-dns settings (${nested.settings.join(', ')}) in its text; kube-dns reads only data keys of those names, so it ignored them, and they are not translated`);
    }
  }
  // kube-dns validates federations, then stub domains, then upstreams; report in that order.
  const federations = readFederations(values['federations'], reporter);
  const stubTree = readJson('stubDomains', values['stubDomains'], reporter);
  const upstreamTree = readJson('upstreamNameservers', values['upstreamNameservers'], reporter);
  checkShapes(stubTree, upstreamTree, federations, rules, reporter);
  const stubDomains = stubTree ? stubEntries(stubTree, reporter) : [];
  const upstreamNameservers = upstreamTree ? listEntries(upstreamTree, '') : values['upstreamNameservers'] === undefined ? undefined : [];
  const listedUpstreamNameservers = upstreamTree === undefined ? undefined : listedItems(upstreamTree);
  if (listedUpstreamNameservers !== undefined) {
    reporter.report(
      'long-list-not-examined',
      'upstreamNameservers',
      '',
      upstreamTree?.offset,
      `only the first ${EXAMINED_LIST_ITEMS} of ${listedUpstreamNameservers} upstream nameservers were examined`,
    );
  }
  for (const stub of stubDomains) {
    for (const nameserver of stub.nameservers) {
      const problem = stubNameserverProblem(nameserver.value, rules);
      if (problem !== undefined) {
        reporter.report('kube-dns-invalid-nameserver', 'stubDomains', nameserver.path, nameserver.offset, `'${nameserver.value}': ${problem}`);
      }
    }
  }
  for (const nameserver of upstreamNameservers ?? []) {
    const problem = upstreamNameserverProblem(nameserver.value, rules);
    if (problem !== undefined) {
      reporter.report('kube-dns-invalid-upstream', 'upstreamNameservers', nameserver.path, nameserver.offset, `'${nameserver.value}': ${problem}`);
    }
  }
  const acceptedByKubeDns = !reporter.diagnostics.some(
    (entry) => entry.severity === 'error' || entry.code === 'federations-json',
  );
  return {
    config: {
      stubDomains,
      upstreamNameservers,
      federations: federations?.entries,
      ...(listedUpstreamNameservers === undefined ? {} : { listedUpstreamNameservers }),
    },
    diagnostics: reporter.diagnostics,
    acceptedByKubeDns,
    rules,
  };
}

function readJson(key: KubeDnsKey, text: string | undefined, reporter: Reporter): GoJsonValue | undefined {
  if (text === undefined) return undefined;
  // One member per key (the one Go's map keeps) and short lists: every use of the tree below
  // reads a duplicate key's first position and last value, and at most EXAMINED_LIST_ITEMS items.
  const parsed = parseGoJsonTree(text, { collapseDuplicateKeys: true, keepItems: EXAMINED_LIST_ITEMS });
  if (!parsed.ok) {
    reporter.report('json-syntax', key, '', parsed.error.position.offset, `not valid JSON: ${parsed.error.message}`);
    return undefined;
  }
  return parsed.value;
}

interface FederationsReading {
  readonly entries: readonly FederationEntry[] | undefined;
  /** For the shape check: names to domains, when they were read. */
  readonly plain: Record<string, string> | undefined;
}

/** kube-dns's `ParseFederationsFlag`: `name=domain` items separated by commas. */
function readFederations(text: string | undefined, reporter: Reporter): FederationsReading | undefined {
  if (text === undefined || text.trim() === '') return undefined;
  if (text.trim().startsWith('{')) return readJsonFederations(text, reporter);
  const entries = new Map<string, FederationEntry>();
  let offset = 0;
  for (const item of text.split(',')) {
    const itemOffset = offset + (item.length - item.trimStart().length);
    offset += item.length + 1;
    const equals = item.indexOf('=');
    if (equals < 0) {
      reporter.report('federations-format', 'federations', '', itemOffset, `'${item.trim()}' is not name=domain`);
      continue;
    }
    const name = item.slice(0, equals).trim();
    const domain = item.slice(equals + 1).trim();
    // A repeated name keeps its first position and takes the last domain, like the Go map it filled.
    const first = entries.get(name);
    entries.set(name, { name, domain, path: jsonPathStep(name), offset: first?.offset ?? itemOffset });
  }
  const list = [...entries.values()];
  return { entries: list, plain: Object.fromEntries(list.map((entry) => [entry.name, entry.domain])) };
}

/** kubeadm's reading of `federations`: a JSON object. kube-dns rejected it. */
function readJsonFederations(text: string, reporter: Reporter): FederationsReading | undefined {
  const decoded = decodeFederations(text);
  if (!decoded.ok) {
    reporter.report(
      'federations-format',
      'federations',
      '',
      decoded.error.position.offset,
      `looks like JSON but is neither JSON (${decoded.error.message}) nor name=domain pairs`,
    );
    return undefined;
  }
  reporter.report('federations-json', 'federations', '', 0, 'federations is a JSON object; kube-dns expects name=domain pairs and rejected it');
  const tree = parseGoJson(text);
  const offsets = new Map<string, number>();
  if (tree.ok && tree.value.kind === 'object') {
    for (const member of tree.value.members) if (!offsets.has(member.key)) offsets.set(member.key, member.keyOffset);
  }
  const list = [...(decoded.value ?? [])].map(([name, domain]) => ({ name, domain, path: jsonPathStep(name), offset: offsets.get(name) ?? 0 }));
  return { entries: list, plain: Object.fromEntries(list.map((entry) => [entry.name, entry.domain])) };
}

/** The Go value a JSON tree decodes to, as plain JavaScript (objects: last duplicate wins). */
export function plainGoValue(value: GoJsonValue): unknown {
  switch (value.kind) {
    case 'null':
    case 'bool':
    case 'string':
      return value.kind === 'null' ? null : value.value;
    case 'number':
      return value.value;
    case 'array':
      return value.items.map(plainGoValue);
    case 'object': {
      const result: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
      for (const member of value.members) result[member.key] = plainGoValue(member.value);
      return result;
    }
  }
}

/**
 * The first and the last member of each key of an object, built once per object when errors are
 * mapped back to the tree: searching the members for each error would be quadratic.
 */
class MemberIndex {
  private readonly first = new Map<string, GoJsonMember>();
  private readonly last = new Map<string, GoJsonMember>();

  constructor(members: readonly GoJsonMember[]) {
    for (const member of members) {
      if (!this.first.has(member.key)) this.first.set(member.key, member);
      this.last.set(member.key, member);
    }
  }

  firstOf(key: string): GoJsonMember | undefined {
    return this.first.get(key);
  }

  /** The member whose value Go keeps (the last duplicate). */
  lastOf(key: string): GoJsonMember | undefined {
    return this.last.get(key);
  }
}

/** The {@link MemberIndex} of each object, made when first asked for (while mapping errors). */
class MemberIndexes {
  private readonly indexes = new Map<GoJsonValue, MemberIndex>();

  of(object: GoJsonObject): MemberIndex {
    let index = this.indexes.get(object);
    if (index === undefined) {
      index = new MemberIndex(object.members);
      this.indexes.set(object, index);
    }
    return index;
  }
}

/** Follows a JSON pointer (ajv's instancePath) through the tree, to the winning duplicate. */
function locate(tree: GoJsonValue | undefined, pointer: readonly string[], indexes: MemberIndexes): { offset: number; path: string } | undefined {
  let node = tree;
  let path = '';
  for (const step of pointer) {
    if (node === undefined) return undefined;
    if (node.kind === 'object') {
      const member = indexes.of(node).lastOf(step);
      node = member?.value;
      path += jsonPathStep(step);
    } else if (node.kind === 'array') {
      node = node.items[Number(step)];
      path += jsonPathStep(Number(step));
    } else {
      return undefined;
    }
  }
  return node === undefined ? undefined : { offset: node.offset, path };
}

function keyOffset(tree: GoJsonValue | undefined, key: string, indexes: MemberIndexes): number | undefined {
  return tree?.kind === 'object' ? indexes.of(tree).firstOf(key)?.keyOffset : undefined;
}

const KIND_NAMES: Readonly<Record<string, string>> = { object: 'an object', array: 'an array', string: 'a string', number: 'a number', boolean: 'a boolean', null: 'null' };

function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}

/** Shapes and names: the schema on what was built, and the kinds of the items only counted. */
function checkShapes(
  stubTree: GoJsonValue | undefined,
  upstreamTree: GoJsonValue | undefined,
  federations: FederationsReading | undefined,
  rules: KubeDnsRules,
  reporter: Reporter,
): void {
  checkSchema(stubTree, upstreamTree, federations, rules, reporter);
  if (stubTree?.kind === 'object') {
    for (const member of stubTree.members) reportOmittedKinds('stubDomains', jsonPathStep(member.key), member.value, reporter);
  }
  if (upstreamTree !== undefined) reportOmittedKinds('upstreamNameservers', '', upstreamTree, reporter);
}

/** How many items a list had, when it had more than were built (see {@link EXAMINED_LIST_ITEMS}). */
function listedItems(tree: GoJsonValue): number | undefined {
  return tree.kind === 'array' && tree.omitted !== undefined ? tree.items.length + tree.omitted.count : undefined;
}

const TREE_KIND_NAMES: Readonly<Record<GoJsonValue['kind'], string>> = { object: 'an object', array: 'an array', string: 'a string', number: 'a number', bool: 'a boolean', null: 'null' };

/**
 * A list's items after the built ones are counted by kind: one that is not a string (or null) is
 * a type error for Go as anywhere else in the list. Reported once per list, at the first such item.
 */
function reportOmittedKinds(key: KubeDnsKey, prefix: string, tree: GoJsonValue, reporter: Reporter): void {
  if (tree.kind !== 'array' || tree.omitted === undefined) return;
  let first: { kind: GoJsonValue['kind']; index: number; offset: number } | undefined;
  let wrong = 0;
  for (const [kind, counted] of Object.entries(tree.omitted.kinds) as [GoJsonValue['kind'], { count: number; index: number; offset: number }][]) {
    if (kind === 'string' || kind === 'null') continue;
    wrong += counted.count;
    if (first === undefined || counted.index < first.index) first = { kind, index: counted.index, offset: counted.offset };
  }
  if (first === undefined) return;
  const more = wrong > 1 ? ` (and ${wrong - 1} more item${wrong === 2 ? '' : 's'} of another type after it)` : '';
  reporter.report('json-type', key, `${prefix}${jsonPathStep(first.index)}`, first.offset, `must be a string, not ${TREE_KIND_NAMES[first.kind]}${more}`);
}

/**
 * Shapes and names, declared in schemas/kube-dns-values.schema.json. The schema's `maxItems` is
 * kube-dns's 3; a reader that takes more (`rules.maxUpstreamNameservers`) overrules it.
 */
function checkSchema(
  stubTree: GoJsonValue | undefined,
  upstreamTree: GoJsonValue | undefined,
  federations: FederationsReading | undefined,
  rules: KubeDnsRules,
  reporter: Reporter,
): void {
  if (plainlyFollowsSchema(stubTree, upstreamTree, federations?.plain)) return;
  const document: Record<string, unknown> = {};
  if (stubTree) document['stubDomains'] = plainGoValue(stubTree);
  if (upstreamTree) document['upstreamNameservers'] = plainGoValue(upstreamTree);
  if (federations?.plain) document['federations'] = federations.plain;
  if (validateKubeDnsValues(document)) return;
  const trees: Record<string, GoJsonValue | undefined> = { stubDomains: stubTree, upstreamNameservers: upstreamTree };
  // Federation errors name a federation; look each up once, not by a search per error.
  const federationsByName = new Map<string, FederationEntry>();
  for (const entry of federations?.entries ?? []) if (!federationsByName.has(entry.name)) federationsByName.set(entry.name, entry);
  const indexes = new MemberIndexes();
  for (const error of validateKubeDnsValues.errors ?? []) {
    if (error.keyword === 'propertyNames') continue; // reported through its pattern/maxLength error
    const [key = '', ...pointer] = error.instancePath
      .split('/')
      .slice(1)
      .map((step) => step.replaceAll('~1', '/').replaceAll('~0', '~'));
    const { propertyName } = error;
    const federationName = propertyName ?? pointer[0];
    const federation = federationName === undefined ? undefined : federationsByName.get(federationName);
    if (key === 'federations') {
      const what = propertyName !== undefined ? `name '${propertyName}' is not a DNS-1123 label` : `domain '${federation?.domain ?? ''}' is not a DNS-1123 subdomain`;
      reporter.report('kube-dns-invalid-federation', key, federation?.path ?? '', federation?.offset, what);
    } else if (propertyName !== undefined) {
      reporter.report('kube-dns-invalid-domain', key, jsonPathStep(propertyName), keyOffset(trees[key], propertyName, indexes), `'${propertyName}' is not a DNS-1123 subdomain`);
    } else if (error.keyword === 'maxItems') {
      const tree = trees[key];
      const count = (tree === undefined ? undefined : listedItems(tree)) ?? (Array.isArray(document[key]) ? (document[key] as unknown[]).length : 0);
      if (count <= rules.maxUpstreamNameservers) continue;
      const reader = rules.reader === 'kube-dns' ? 'kube-dns' : "GKE's kube-dns on CoreDNS";
      reporter.report('kube-dns-too-many-upstreams', key, '', trees[key]?.offset, `${count} upstream nameservers; ${reader} accepts at most ${rules.maxUpstreamNameservers}`);
    } else {
      const where = locate(trees[key], pointer, indexes);
      const actual = kindOf(pointer.reduce<unknown>((value, step) => (value as Record<string, unknown> | undefined)?.[step], document[key]));
      const expected = (error.params as { type?: readonly string[] }).type?.filter((type) => type !== 'null').join(' or ') ?? 'another type';
      reporter.report('json-type', key, where?.path ?? '', where?.offset, `must be ${KIND_NAMES[expected] ?? expected}, not ${KIND_NAMES[actual] ?? actual}`);
    }
  }
}

/**
 * Whether the values certainly pass schemas/kube-dns-values.schema.json, decided on the tree
 * without building the plain document ajv needs (for 16,000 stub domains that copy and its
 * validation were a fifth of the reading). It answers true only when every member passes, so
 * anything else — including a duplicate key whose overridden value would fail — goes to ajv,
 * which then decides and words the errors. Must be kept in step with the schema; a property test
 * checks that it never accepts what ajv refuses.
 */
export function plainlyFollowsSchema(stubTree: GoJsonValue | undefined, upstreamTree: GoJsonValue | undefined, federations: Readonly<Record<string, string>> | undefined): boolean {
  if (stubTree !== undefined && stubTree.kind !== 'null') {
    if (stubTree.kind !== 'object') return false;
    for (const member of stubTree.members) {
      if (!isDns1123Subdomain(member.key) || !isNullableStringList(member.value)) return false;
    }
  }
  if (upstreamTree !== undefined && upstreamTree.kind !== 'null') {
    if (!isNullableStringList(upstreamTree) || upstreamTree.kind !== 'array' || upstreamTree.items.length > 3) return false;
  }
  if (federations !== undefined) {
    for (const name of Object.keys(federations)) {
      const domain = federations[name];
      if (!isDns1123Label(name) || typeof domain !== 'string' || !isDns1123Subdomain(domain)) return false;
    }
  }
  return true;
}

/** An array of strings and nulls, or null (Go's `[]string`); items only counted included. */
function isNullableStringList(value: GoJsonValue): boolean {
  if (value.kind === 'null') return true;
  if (value.kind !== 'array') return false;
  for (const item of value.items) if (item.kind !== 'string' && item.kind !== 'null') return false;
  return value.omitted === undefined || onlyStringsOmitted(value);
}

function onlyStringsOmitted(list: GoJsonArray): boolean {
  for (const kind of Object.keys(list.omitted?.kinds ?? {})) if (kind !== 'string' && kind !== 'null') return false;
  return true;
}

function listEntries(tree: GoJsonValue, prefix: string): ValueEntry[] {
  if (tree.kind !== 'array') return [];
  const { items } = tree;
  // Sized up front and cut to what was kept: one list per stub domain, all kept to the end.
  const entries = new Array<ValueEntry>(items.length);
  let kept = 0;
  for (let index = 0; index < items.length; index += 1) {
    const item = items[index] as GoJsonValue;
    // Go decodes a null element of []string as ""; other kinds are type errors, reported already.
    if (item.kind !== 'string' && item.kind !== 'null') continue;
    entries[kept] = { value: item.kind === 'string' ? item.value : '', path: `${prefix}${jsonPathStep(index)}`, offset: item.offset };
    kept += 1;
  }
  entries.length = kept;
  return entries;
}

/** The stub domains of a tree read with `collapseDuplicateKeys` (one member per key). */
function stubEntries(tree: GoJsonValue, reporter: Reporter): StubDomainEntry[] {
  if (tree.kind !== 'object') return [];
  const { members } = tree;
  const entries = new Array<StubDomainEntry>(members.length);
  for (let index = 0; index < members.length; index += 1) {
    const member = members[index] as GoJsonMember;
    const path = jsonPathStep(member.key);
    const nameservers = listEntries(member.value, path);
    const listedNameservers = listedItems(member.value);
    if (listedNameservers === undefined) {
      entries[index] = { domain: member.key, path, offset: member.keyOffset, nameservers };
      continue;
    }
    entries[index] = { domain: member.key, path, offset: member.keyOffset, nameservers, listedNameservers };
    reporter.report('long-list-not-examined', 'stubDomains', path, member.value.offset, `'${member.key}': only the first ${EXAMINED_LIST_ITEMS} of ${listedNameservers} nameservers were examined`);
  }
  return entries;
}
