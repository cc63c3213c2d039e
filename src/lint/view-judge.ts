import type { ViewExpressionVerdict } from '../coredns/view-expression.js';
import type { GoRegexpOptions } from '../dns/go-regexp.js';

/**
 * The view plugin's expression judge (src/coredns/view-expression.ts), loaded only by who may lint a
 * `view` line: the API's lint entry points load it with themselves, the CLI when the Corefile holds
 * `view` (the translator and migrate, which never write one, do not pay for it at start-up). Until
 * it is loaded, `expr` lines are not judged.
 */
export type ViewExpressionJudge = (text: string, regexp: GoRegexpOptions) => ViewExpressionVerdict;

let loaded: ViewExpressionJudge | undefined;

/** Makes `judge` the judge of `expr` lines (idempotent). */
export function useViewExpressionJudge(judge: ViewExpressionJudge): void {
  loaded = judge;
}

/** The judge, when loaded. */
export function viewExpressionJudge(): ViewExpressionJudge | undefined {
  return loaded;
}
