/**
 * Type test for the result types of the public API (checked by test/types/results.test.ts and by
 * `npm run typecheck`; nothing here runs). Every result with an `ok` flag is a discriminated union:
 * after `if (result.ok)` its payload has a non-optional type, and before it does not.
 */
import { expectTypeOf } from 'vitest';
import {
  decodeStubDomains,
  lintCorefile,
  mergeTranslation,
  translateKubeadmPieces,
  translateKubeDns,
  translateLikeKubeadm,
} from '../../src/index.js';
import type {
  Corefile,
  GoJsonError,
  GoJsonResult,
  KubeadmPieces,
  KubeadmPiecesResult,
  KubeadmResult,
  MergeResult,
  TranslationResult,
} from '../../src/index.js';

// The snippet from the issue: TS18048 ('t.corefile' is possibly 'undefined') before the fix.
const t = translateKubeDns({});
if (t.ok) t.corefile.toUpperCase();

export function translation(result: TranslationResult): void {
  expectTypeOf(translateKubeDns({})).toEqualTypeOf<TranslationResult>();
  // @ts-expect-error not narrowed yet: the Corefile may be missing
  result.corefile.toUpperCase();
  if (result.ok) {
    expectTypeOf(result.corefile).toEqualTypeOf<string>();
    expectTypeOf(result.model).toEqualTypeOf<Corefile>();
  } else {
    expectTypeOf(result.corefile).toEqualTypeOf<undefined>();
    expectTypeOf(result.model).toEqualTypeOf<undefined>();
  }
}

export function merge(existing: string): void {
  const result = mergeTranslation(existing, translateKubeDns({}));
  expectTypeOf(result).toEqualTypeOf<MergeResult>();
  // @ts-expect-error not narrowed yet: the merged Corefile may be missing
  result.corefile.toUpperCase();
  if (result.ok) {
    expectTypeOf(result.corefile).toEqualTypeOf<string>();
    expectTypeOf(result.model).toEqualTypeOf<Corefile>();
  } else {
    expectTypeOf(result.corefile).toEqualTypeOf<undefined>();
  }
}

export function kubeadm(): void {
  const outcome = translateLikeKubeadm('1.17', null);
  expectTypeOf(outcome).toEqualTypeOf<KubeadmResult>();
  // @ts-expect-error not narrowed yet: a failed outcome has no Corefile
  outcome.corefile.toUpperCase();
  if (outcome.ok) expectTypeOf(outcome.corefile).toEqualTypeOf<string>();
  else expectTypeOf(outcome.error).toEqualTypeOf<string>();

  const pieces = translateKubeadmPieces('1.17', null);
  expectTypeOf(pieces).toEqualTypeOf<KubeadmPiecesResult>();
  if (pieces.ok) expectTypeOf(pieces.pieces).toEqualTypeOf<KubeadmPieces>();
  else expectTypeOf(pieces.error).toEqualTypeOf<string>();
}

export function goJson(): void {
  const stubs = decodeStubDomains('{}');
  expectTypeOf(stubs).toEqualTypeOf<GoJsonResult<Map<string, string[] | null> | null>>();
  // @ts-expect-error not narrowed yet: a failed decode has no value
  stubs.value.size;
  if (!stubs.ok) expectTypeOf(stubs.error).toEqualTypeOf<GoJsonError>();
  if (stubs.ok) expectTypeOf(stubs.value).toEqualTypeOf<Map<string, string[] | null> | null>();
}

export function lint(): void {
  // No payload depends on `ok`: the release and the diagnostics are there either way.
  const result = lintCorefile('.:53 {\n}\n');
  expectTypeOf(result.ok).toEqualTypeOf<boolean>();
  expectTypeOf(result.diagnostics.length).toEqualTypeOf<number>();
}
