import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { goldenReadmes, repositoryFiles, ROOT } from './repository-files.js';

/**
 * Every section number cited in the code and the docs exists in the reference page it cites
 * (docs/reference/README.md describes the citation forms). The section sign is written as
 * `\u00a7` in this file so that its own samples are not taken for citations.
 */

const PAGES = ['kube-dns-and-coredns', 'corefile-syntax', 'kubeadm-translation', 'coredns-install'] as const;
type Page = (typeof PAGES)[number];

const REFERENCE = join(ROOT, 'docs/reference');

/** A reference page's numbered sections: number → the text up to the next section of the same or a higher level. */
export function sectionsOf(markdown: string): Map<string, string> {
  const headings = [...markdown.matchAll(/^(#{1,6})[ \t]+(\d+(?:\.\d+)*)\.?[ \t]/gm)].map((match) => ({
    level: (match[1] as string).length,
    number: match[2] as string,
    start: match.index,
  }));
  const sections = new Map<string, string>();
  headings.forEach((heading, index) => {
    const next = headings.slice(index + 1).find((later) => later.level <= heading.level);
    sections.set(heading.number, markdown.slice(heading.start, next === undefined ? markdown.length : next.start));
  });
  return sections;
}

/** The numbers of a section's numbered list items (`1. …`). */
function itemNumbers(section: string): Set<number> {
  return new Set([...section.matchAll(/^[ \t]*(\d+)\.[ \t]/gm)].map((match) => Number(match[1])));
}

/** One "§N" in a file, resolved to the page it cites (undefined: the file gives no way to tell). */
export interface Citation {
  readonly line: number;
  readonly text: string;
  readonly page: Page | undefined;
  readonly sections: readonly string[];
  readonly items: readonly number[];
}

const PAGE_NAME = String.raw`(kube-dns-and-coredns|corefile-syntax|kubeadm-translation|coredns-install)`;
/** A legend line: `"§N" — docs/reference/<page>.md` or `"§N" = …`, the page within the next few words. */
const LEGEND = new RegExp(String.raw`"\u00a7N"[\s\S]{0,80}?\b${PAGE_NAME}\.md`);
/** Any mention of a reference page by file name. */
const PAGE_MENTION = new RegExp(String.raw`\b${PAGE_NAME}\.md\b`, 'g');
/** A section sign with its number, an optional range end and optional item numbers. */
const CITATION = /\u00a7(\d+(?:\.\d+)*)(?:\s*[–-]\s*\u00a7?(\d+(?:\.\d+)*))?(?:\s+(?:rules?|items?|steps?)\s+(\d+(?:\s*(?:,|and)\s*\d+)*))?/g;
/** What may stand right before a citation, after line breaks and comment markers are folded into one space. */
const PAGE_BEFORE = new RegExp(String.raw`${PAGE_NAME}(?:\.md)?(?:\]\([^)]*\))?\s*$`);
const SYNTAX_BEFORE = /\bsyntax\s*$/;
const KT_BEFORE = /\bKT\s*$/;
const RFC_BEFORE = /\bRFC\s*\d+\s*$/;
/** Right after another citation, separated by a comma, `and` or a dash (a list or a range): the same page as that one. */
const LIST_BEFORE = /\u00a7\d+(?:\.\d+)*(?:\s+(?:rules?|items?|steps?)\s+\d+(?:\s*,\s*\d+)*)?\s*(?:,|and|–|-)\s*$/;

function defaultPage(path: string, text: string): Page | undefined {
  const own = /^docs\/reference\/([\w-]+)\.md$/.exec(path)?.[1];
  if (own !== undefined && (PAGES as readonly string[]).includes(own)) return own as Page;
  const legend = LEGEND.exec(text);
  if (legend !== null) return legend[1] as Page;
  const named = new Set([...text.matchAll(PAGE_MENTION)].map((match) => match[1] as Page));
  return named.size === 1 ? [...named][0] : undefined;
}

/** The "§N" citations of `text` (RFC sections left out), each resolved to its page. */
export function citationsIn(path: string, text: string): Citation[] {
  const fallback = defaultPage(path, text);
  const citations: Citation[] = [];
  for (const match of text.matchAll(CITATION)) {
    const before = text
      .slice(Math.max(0, match.index - 120), match.index)
      .replace(/[ \t]*\n[ \t]*(?:\*(?!\*)|\/\/|#)?[ \t]*/g, ' ');
    if (RFC_BEFORE.test(before)) continue;
    const named = PAGE_BEFORE.exec(before)?.[1] as Page | undefined;
    const previous = citations.at(-1);
    const page: Page | undefined =
      named ?? (SYNTAX_BEFORE.test(before) ? 'corefile-syntax' : KT_BEFORE.test(before) ? 'kubeadm-translation' : LIST_BEFORE.test(before) && previous !== undefined ? previous.page : fallback);
    citations.push({
      line: text.slice(0, match.index).split('\n').length,
      text: match[0],
      page,
      sections: match[2] === undefined ? [match[1] as string] : [match[1] as string, match[2]],
      items: match[3] === undefined ? [] : [...match[3].matchAll(/\d+/g)].map((item) => Number(item[0])),
    });
  }
  return citations;
}

/** Why `citation` does not resolve, or undefined when it does. */
function problem(citation: Citation, pages: ReadonlyMap<Page, Map<string, string>>): string | undefined {
  if (citation.page === undefined) {
    return 'bare section number, but the file names no reference page or several without a legend ("\u00a7N" — docs/reference/<page>.md)';
  }
  const sections = pages.get(citation.page) as Map<string, string>;
  for (const section of citation.sections) {
    const body = sections.get(section);
    if (body === undefined) return `docs/reference/${citation.page}.md has no section ${section}`;
    const missing = citation.items.filter((item) => !itemNumbers(body).has(item));
    if (missing.length > 0) return `section ${section} of docs/reference/${citation.page}.md has no item ${missing.join(', ')}`;
  }
  return undefined;
}

const pages = new Map(PAGES.map((page) => [page, sectionsOf(readFileSync(join(REFERENCE, `${page}.md`), 'utf8'))] as const));

const SCANNED = ['src', 'test', 'scripts', 'docs', 'README.md', 'CHANGELOG.md', ...goldenReadmes()];

describe('citationsIn', () => {
  const S = '\u00a7';

  it('resolves each citation form to its page', () => {
    const text = [
      `// "${S}N" — docs/reference/kube-dns-and-coredns.md; also kubeadm-translation.md`,
      `// bare ${S}2.3 and ${S}1.3–1.6; syntax ${S}5.1, ${S}5.2; KT ${S}7; RFC 4034 ${S}6.1`,
      `// corefile-syntax.md ${S}2–${S}3, kubeadm-translation ${S}13; ${S}6 rule 4, ${S}5 items 1, 4`,
      ` * (docs/reference/corefile-syntax.md`,
      ` * ${S}4 item 5) and [kubeadm-translation.md](kubeadm-translation.md) ${S}14`,
    ].join('\n');
    const found = citationsIn('src/x.ts', text).map(({ page, sections, items }) => [page, sections.join('..'), items.join(',')]);
    expect(found).toEqual([
      ['kube-dns-and-coredns', '2.3', ''],
      ['kube-dns-and-coredns', '1.3..1.6', ''],
      ['corefile-syntax', '5.1', ''],
      ['corefile-syntax', '5.2', ''],
      ['kubeadm-translation', '7', ''],
      ['corefile-syntax', '2..3', ''],
      ['kubeadm-translation', '13', ''],
      ['kube-dns-and-coredns', '6', '4'],
      ['kube-dns-and-coredns', '5', '1,4'],
      ['corefile-syntax', '4', '5'],
      ['kubeadm-translation', '14', ''],
    ]);
  });

  it('takes the only page a file names as the one its bare citations mean, and none when it names several', () => {
    expect(citationsIn('test/a.ts', `corefile-syntax.md ${S}1, then (${S}1.2)`).map((citation) => citation.page)).toEqual(['corefile-syntax', 'corefile-syntax']);
    expect(citationsIn('test/b.ts', `kubeadm-translation.md and corefile-syntax.md; later ${S}4`).map((citation) => citation.page)).toEqual([undefined]);
    expect(citationsIn('test/c.ts', `nothing named, ${S}4`).map((citation) => citation.page)).toEqual([undefined]);
    expect(citationsIn('docs/reference/kubeadm-translation.md', `see ${S}8`).map((citation) => citation.page)).toEqual(['kubeadm-translation']);
  });

  it('reports sections and items the pages lack', () => {
    const report = (text: string): (string | undefined)[] => citationsIn('src/x.ts', text).map((citation) => problem(citation, pages));
    expect(report(`kube-dns-and-coredns.md ${S}2.3, ${S}2.10, ${S}6 rule 99`)).toEqual([
      undefined,
      'docs/reference/kube-dns-and-coredns.md has no section 2.10',
      'section 6 of docs/reference/kube-dns-and-coredns.md has no item 99',
    ]);
    expect(report(`corefile-syntax.md ${S}4.5`)).toEqual(['docs/reference/corefile-syntax.md has no section 4.5']);
  });
});

describe('reference pages', () => {
  it('number their sections', () => {
    for (const page of PAGES) expect((pages.get(page) as Map<string, string>).size, page).toBeGreaterThan(10);
    expect(readdirSync(REFERENCE).sort()).toEqual(['README.md', ...PAGES.map((page) => `${page}.md`)].sort());
  });
});

describe('every section cited in the repository', () => {
  const files = repositoryFiles(SCANNED);
  const citations = files.flatMap((file) => citationsIn(file.path, file.text).map((citation) => ({ file: file.path, citation })));

  it('is found (the code cites the reference pages a lot)', () => {
    expect(citations.filter(({ file }) => file.startsWith('src/')).length).toBeGreaterThan(50);
    expect(new Set(citations.map(({ citation }) => citation.page))).toEqual(new Set(PAGES));
  });

  it('exists in the reference page it cites', () => {
    const broken = citations.flatMap(({ file, citation }) => {
      const why = problem(citation, pages);
      return why === undefined ? [] : [`${file}:${citation.line} ${citation.text}: ${why}`];
    });
    expect(broken).toEqual([]);
  });
});
