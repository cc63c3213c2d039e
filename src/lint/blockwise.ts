import type { CorefileWarning } from '../corefile/errors.js';
import type { Directive, ServerBlock } from '../corefile/model.js';
import type { ServerAddress } from '../corefile/server-key.js';
import { packPosition, unpackPosition } from '../corefile/parsed-nodes.js';
import type { PackedPosition } from '../corefile/parsed-nodes.js';
import { coreDnsFeatures } from '../coredns/features.js';
import type { CoreDnsVersion } from '../coredns/versions.js';
import type { SourcePosition } from '../util/source-position.js';
import { pluginBuild } from './build.js';
import { ACROSS_BLOCKS, LintContext } from './context.js';
import type { BlockInfo, BlockSummary, KeyEntry, NameSet, PlacedDirective } from './context.js';
import { checkDirectives, reportWarnings } from './lint.js';
import { checkFederation } from './rules/federation.js';
import { checkForwarders } from './rules/forwarders.js';
import { plainBlockInfo } from './rules/imports.js';
import { checkKeysAcrossBlocks, readBlockKeys } from './rules/keys.js';
import { checkHealthListeners } from './rules/listeners.js';
import { checkBlockSyntax } from './rules/syntax.js';

/**
 * Whether lint (`lintCorefileModel`) finds an error in a Corefile of server blocks only (no
 * snippets, no top-level imports), reading the blocks one at a time: {@link BlockwiseErrorCheck.block}
 * runs the rules of one block and returns the little the rules across blocks need of it (a
 * {@link CheckedBlock}), so that the block's model can be let go; {@link BlockwiseErrorCheck.hasErrors}
 * runs the rules across blocks over those, in the Corefile's order. The same rules as the whole
 * lint, in another order, so it answers only whether one of them finds an error: the migration's
 * target check (src/migrate/migrate.ts), which lints the whole result for the findings when there is
 * one. Not part of the API.
 *
 * Pure: no Node APIs.
 */
export class BlockwiseErrorCheck {
  readonly #context: LintContext;

  constructor(coredns: CoreDnsVersion) {
    const features = coreDnsFeatures(coredns);
    // Only whether an error is found is read: no other finding is listed (errorsOnly).
    this.#context = new LintContext(features, pluginBuild(features.version, undefined), undefined, true);
  }

  /**
   * Directives of a caller's model found without an error by the directive rules (see
   * {@link KnownBlock}): frozen ones only, which a model shares among its blocks.
   */
  readonly #clean: Directive[] = [];

  /** The rules of one server block (`known`: what the caller knows of it already). */
  block(item: ServerBlock, known?: KnownBlock): CheckedBlock {
    const context = this.#context;
    const before = context.errorCount;
    const info = plainBlockInfo(context, item);
    const checked = new CheckedBlock(info);
    // The block's entries belong to what is kept of it (the rules across blocks compare owners);
    // the block's own rules read them from `info.keys` too.
    readBlockKeys(context, checked, item.keys, keyPosition(item, info.position), info.keys, known?.addresses);
    if (known === undefined) checkDirectives(context, item.directives, info.label);
    else this.#checkNewDirectives(item.directives, known.model.directives, info.label);
    checkForwarders(context, info);
    checkFederation(context, info);
    checkBlockSyntax(context, info);
    checked.done(context.errorCount > before);
    return checked;
  }

  /**
   * The directive rules over `directives`, except those whose twin in the caller's model (`twins`,
   * index for index, equal to them) was found without an error before: the directive rules read
   * a directive's words and nested lines and the release, nothing else, so an equal directive has
   * no error either (they may count other findings, which this check does not read).
   */
  #checkNewDirectives(directives: readonly Directive[], twins: readonly Directive[], label: string): void {
    const clean = this.#clean;
    let unchecked: Directive[] | undefined;
    let fresh: Directive[] | undefined;
    for (let index = 0; index < directives.length; index += 1) {
      const twin = twins[index] as Directive;
      if (clean.includes(twin)) continue;
      (unchecked ??= []).push(directives[index] as Directive);
      if (Object.isFrozen(twin)) (fresh ??= []).push(twin);
    }
    if (unchecked === undefined) return;
    const context = this.#context;
    const before = context.errorCount;
    checkDirectives(context, unchecked, label);
    if (fresh === undefined || context.errorCount > before) return;
    for (const twin of fresh) if (clean.length < CLEAN_LIMIT && !clean.includes(twin)) clean.push(twin);
  }

  /** Whether the lint of the Corefile of `blocks` (in its order) with the parser's `warnings` finds an error. */
  hasErrors(blocks: readonly CheckedBlock[], warnings: readonly CorefileWarning[]): boolean {
    if (blocks.some((block) => block.errors)) return true;
    const context = new LintContext(this.#context.features, this.#context.build, undefined, true);
    reportWarnings(context, warnings);
    checkKeysAcrossBlocks(context, blocks, blocks.flatMap((block) => block.keys));
    checkHealthListeners(context, blocks);
    return context.errorCount > 0;
  }
}

/**
 * What a caller of {@link BlockwiseErrorCheck.block} knows of a block already (the translator's
 * self-check, which compared the parsed block with the block of its model and ran its own rules).
 */
export interface KnownBlock {
  /** The block's keys as `readServerAddress` reads them, index for index: lint reads them so too, and takes these. */
  readonly addresses: readonly ServerAddress[];
  /** The block of the caller's model the parsed block is equal to (`itemsEqual`). */
  readonly model: ServerBlock;
}

/** The most directives {@link BlockwiseErrorCheck} remembers as found without an error (a model shares a handful). */
const CLEAN_LIMIT = 16;

/** Where the key at an index of `item` is written (`fallback`: the block's position). */
function keyPosition(item: ServerBlock, fallback: SourcePosition): (index: number) => SourcePosition {
  const positions = item.keyPositions;
  return (index) => positions?.[index] ?? fallback;
}

const NO_PLACED: readonly PlacedDirective[] = Object.freeze([]);

/**
 * What {@link BlockwiseErrorCheck} keeps of a server block: whether its own rules found an error,
 * and a {@link BlockSummary} with only the directives and names of {@link ACROSS_BLOCKS}, its valid
 * keys as read, and its position packed into a number (a few hundred bytes instead of the block's
 * model: everything kept survives into the old generation, which is what made the whole parse slow).
 */
export class CheckedBlock implements BlockSummary {
  errors = false;
  readonly label: string;
  readonly keyCount: number;
  readonly directives: readonly PlacedDirective[];
  readonly plugins: NameSet;
  readonly written: NameSet;
  /** Filled in by the key rules, then cut to its length (`done`). */
  keys: KeyEntry[] = [];
  readonly #at: PackedPosition;

  constructor(info: BlockInfo) {
    this.label = info.label;
    this.keyCount = info.keyCount;
    let directives: PlacedDirective[] | undefined;
    for (const placed of info.directives) if (ACROSS_BLOCKS.includes(placed.directive.name)) (directives ??= []).push(placed);
    this.directives = directives ?? NO_PLACED;
    this.plugins = info.plugins.among(ACROSS_BLOCKS);
    this.written = info.written.among(ACROSS_BLOCKS);
    this.#at = packPosition(info.position.line, info.position.column);
  }

  get position(): SourcePosition {
    return unpackPosition(this.#at);
  }

  /** The block's rules have run: `errors`, whether they found one. */
  done(errors: boolean): void {
    this.errors = errors;
    // A list grown by push keeps spare room; the kept one is cut to its length.
    this.keys = this.keys.length === 1 ? [this.keys[0] as KeyEntry] : this.keys.slice();
  }
}
