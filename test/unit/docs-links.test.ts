// The README and docs/ send readers to each other: every relative link and anchor must lead somewhere,
// with anchors made as GitHub makes them from headings.
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { Lexer, type Token, type Tokens, walkTokens } from 'marked';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');

/** GitHub's heading anchors (github-slugger): lowercase, punctuation dropped, spaces to `-`. */
function slug(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc}\- ]/gu, '')
    .replace(/ /g, '-');
}

/** A heading's text as GitHub renders it: code, emphasis and link labels as their plain text. */
function plainText(tokens: Token[]): string {
  return tokens
    .map((token) => {
      if (token.type === 'html') return '';
      if ('tokens' in token && token.tokens !== undefined && token.type !== 'codespan') {
        return plainText(token.tokens);
      }
      return 'text' in token ? String(token.text) : '';
    })
    .join('');
}

function anchorsOf(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  walkTokens(new Lexer().lex(markdown), (token) => {
    if (token.type !== 'heading') return;
    const base = slug(plainText((token as Tokens.Heading).tokens));
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    anchors.add(count === 0 ? base : `${base}-${count}`);
  });
  return anchors;
}

function linksOf(markdown: string): string[] {
  const hrefs: string[] = [];
  walkTokens(new Lexer().lex(markdown), (token) => {
    if (token.type === 'link' || token.type === 'image') hrefs.push((token as Tokens.Link).href);
  });
  return hrefs;
}

function markdownFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return markdownFiles(path);
    return entry.name.endsWith('.md') ? [path] : [];
  });
}

const GUIDE_FILES = [
  join(ROOT, 'README.md'),
  join(ROOT, 'ARCHITECTURE.md'),
  ...markdownFiles(join(ROOT, 'docs')),
];

/** Every link of a file that leads nowhere, as `file: target (why)`, the file named from `root`. */
function brokenLinks(file: string, root = ROOT): string[] {
  const markdown = readFileSync(file, 'utf8');
  const name = relative(root, file);
  return linksOf(markdown).flatMap((href) => {
    if (/^[a-z][a-z0-9+.-]*:/i.test(href) || href.startsWith('//')) return [];
    const [pathPart = '', anchor] = href.split('#', 2);
    const target = pathPart === '' ? file : resolve(dirname(file), decodeURIComponent(pathPart));
    if (!existsSync(target)) return [`${name}: ${href} (no such file)`];
    if (anchor === undefined || anchor === '') return [];
    if (statSync(target).isDirectory() || !target.endsWith('.md')) {
      return [`${name}: ${href} (an anchor into something that is not a Markdown file)`];
    }
    const anchors = anchorsOf(readFileSync(target, 'utf8'));
    return anchors.has(decodeURIComponent(anchor)) ? [] : [`${name}: ${href} (no such heading)`];
  });
}

describe('links in the README and docs/', () => {
  it('makes anchors as GitHub does', () => {
    const headings =
      '# Slack\'s rate limits\n## Statistics `endDate`\n## Ticket window "one month"\n## Tests\n## Tests\n';
    expect([...anchorsOf(headings)]).toEqual([
      'slacks-rate-limits',
      'statistics-enddate',
      'ticket-window-one-month',
      'tests',
      'tests-1',
    ]);
  });

  it('reports a link to a missing file or heading, and only those', () => {
    const folder = mkdtempSync(join(tmpdir(), 'docs-links-'));
    try {
      writeFileSync(join(folder, 'target.md'), '# Target\n\n## Present\n');
      writeFileSync(
        join(folder, 'page.md'),
        [
          '# Here',
          '[fine](target.md#present) [fine](#here) [fine](https://example.com/x.md#y) `[code](nowhere.md)`',
          '[gone](missing.md) [gone](#no-such-heading) [gone](target.md#absent)',
        ].join('\n'),
      );
      expect(brokenLinks(join(folder, 'page.md'), folder)).toEqual([
        'page.md: missing.md (no such file)',
        'page.md: #no-such-heading (no such heading)',
        'page.md: target.md#absent (no such heading)',
      ]);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });

  it('finds the README and the docs', () => {
    const names = GUIDE_FILES.map((file) => relative(ROOT, file));
    expect(names).toEqual(
      expect.arrayContaining(['README.md', 'docs/configuration.md', 'docs/operations.md']),
    );
  });

  it.each(GUIDE_FILES.map((file) => [relative(ROOT, file), file]))(
    '%s: every relative link resolves',
    (_name, file) => {
      expect(brokenLinks(file)).toEqual([]);
    },
  );
});
