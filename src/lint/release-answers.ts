import { coreDnsOptionAvailability, coreDnsPluginAvailability } from '../coredns/availability.js';
import type { Availability } from '../coredns/availability.js';
import type { CoreDnsVersion } from '../coredns/versions.js';

/**
 * The release tables' answers for one release, asked by name, shared by every lint and migration
 * of that release in the process (a batch lints and migrates thousands of Corefiles for the same
 * release, each of which asked the tables afresh). Only the answers the tables keep themselves are
 * shared: they are frozen, and there is one per plugin or option the tables know, so the cache is
 * bounded by the tables. Any other answer (a name no release has, which a Corefile may spell in
 * any number of ways) is kept by the one lint or migration that asked ({@link OwnAnswers}).
 *
 * Pure: no Node APIs.
 */
interface SharedAnswers {
  readonly plugins: Map<string, Availability>;
  readonly options: Map<string, Map<string, Availability>>;
}

/** Per release: bounded by the release table. */
const SHARED = new Map<CoreDnsVersion, SharedAnswers>();

function sharedAnswers(version: CoreDnsVersion): SharedAnswers {
  let shared = SHARED.get(version);
  if (shared === undefined) {
    shared = { plugins: new Map(), options: new Map() };
    SHARED.set(version, shared);
  }
  return shared;
}

/**
 * {@link coreDnsPluginAvailability} and {@link coreDnsOptionAvailability} in one release, asked
 * once per name: the tables' own answers from the release's shared cache, the others kept here
 * (made on the first such answer: most Corefiles have none).
 */
export class OwnAnswers {
  readonly #version: CoreDnsVersion;
  readonly #shared: SharedAnswers;
  #plugins: Map<string, Availability> | undefined;
  #options: Map<string, Map<string, Availability>> | undefined;

  constructor(version: CoreDnsVersion) {
    this.#version = version;
    this.#shared = sharedAnswers(version);
  }

  plugin(name: string): Availability {
    const shared = this.#shared.plugins.get(name);
    if (shared !== undefined) return shared;
    const own = this.#plugins?.get(name);
    if (own !== undefined) return own;
    const answer = coreDnsPluginAvailability(name, this.#version);
    if (Object.isFrozen(answer)) this.#shared.plugins.set(name, answer);
    else (this.#plugins ??= new Map()).set(name, answer);
    return answer;
  }

  option(plugin: string, option: string): Availability {
    const shared = this.#shared.options.get(plugin)?.get(option);
    if (shared !== undefined) return shared;
    const own = this.#options?.get(plugin)?.get(option);
    if (own !== undefined) return own;
    const answer = coreDnsOptionAvailability(plugin, option, this.#version);
    const options = Object.isFrozen(answer) ? this.#shared.options : (this.#options ??= new Map());
    let byOption = options.get(plugin);
    if (byOption === undefined) options.set(plugin, (byOption = new Map()));
    byOption.set(option, answer);
    return answer;
  }
}
