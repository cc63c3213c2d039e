/**
 * The Corefile linter: checks a Corefile against a CoreDNS release (see docs/lint.md). Pure: no
 * Node APIs.
 */
export { lintCorefile } from './lint-corefile.js';
export { lintParsedCorefile } from './lint.js';
export type { LintModelOptions, LintOptions, LintResult } from './lint.js';
export type { ImportedFile, ImportReader } from './import-reader.js';
export { PluginCfgSyntaxError } from '../coredns/plugin-cfg.js';
export type { PluginCfgLine, PluginCfgSyntaxErrorCode } from '../coredns/plugin-cfg.js';
export { readDestination } from '../coredns/destinations.js';
