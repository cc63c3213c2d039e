import { allPluginNames, compiledPlugins } from '../coredns/plugin-cfg.js';
import type { CoreDnsVersion } from '../coredns/versions.js';

/**
 * The CoreDNS build a Corefile is linted against: the default build of a release (its
 * plugin.cfg, src/coredns/plugin-cfg.ts), or a custom build of that release whose plugins the
 * user names (their plugin.cfg or a list). The release still decides everything else (the
 * feature table, options, destinations).
 *
 * Pure: no Node APIs.
 */
export interface PluginBuild {
  readonly version: CoreDnsVersion;
  /** The directive names a custom build compiles in; `undefined` for the release's default build. */
  readonly custom: ReadonlySet<string> | undefined;
  /** The directive names a Corefile may use in this build. */
  readonly loadable: ReadonlySet<string>;
}

export function pluginBuild(version: CoreDnsVersion, plugins?: readonly string[]): PluginBuild {
  if (plugins !== undefined) {
    const custom = new Set(plugins);
    return { version, custom, loadable: custom };
  }
  let build = DEFAULT_BUILDS.get(version);
  if (build === undefined) {
    const loadable = new Set(compiledPlugins(version).filter((plugin) => plugin.placeholder !== true).map((plugin) => plugin.name));
    build = Object.freeze({ version, custom: undefined, loadable });
    DEFAULT_BUILDS.set(version, build);
  }
  return build;
}

/** The default build of each release linted against so far (a batch lints thousands of Corefiles). */
const DEFAULT_BUILDS = new Map<CoreDnsVersion, PluginBuild>();

/** Every name a directive could be meant as: every plugin of every release, and the custom build's. */
export function knownPluginNames(build: PluginBuild): readonly string[] {
  if (build.custom === undefined) return allPluginNames();
  return [...new Set([...allPluginNames(), ...build.custom])].sort();
}
