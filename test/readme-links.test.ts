// Every relative link in README.md and docs/*.md leads somewhere: the file exists and, with a
// #fragment into a Markdown file, a heading of that file has that anchor (GitHub's slugs). The
// README was split into docs/ files that link back into its sections, so a renamed heading or a
// moved file would otherwise break links silently.

import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from './real.js';

const DOCS = ['README.md', ...readdirSync(join(ROOT, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)];

/** The text outside fenced code blocks and inline code spans, where Markdown links are links. */
function prose(markdown: string): string {
  return markdown.replace(/^```[^\n]*\n[\s\S]*?^```$/gm, '').replace(/`[^`\n]*`/g, '');
}

/** GitHub's heading anchor: lower case, punctuation but '-' and '_' dropped, spaces to '-'. */
function slug(heading: string): string {
  return heading
    .replace(/`/g, '')
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

/** The anchors of a file's headings; a repeated heading gets -1, -2, … as on GitHub. */
function anchors(file: string): Set<string> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  for (const [, text] of prose(readFileSync(join(ROOT, file), 'utf8')).matchAll(/^#{1,6} +(.+?) *#*$/gm)) {
    const base = slug(text!);
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    out.add(n === 0 ? base : `${base}-${n}`);
  }
  return out;
}

function links(file: string): string[] {
  return [...prose(readFileSync(join(ROOT, file), 'utf8')).matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1]!);
}

describe('links in the README and docs/', () => {
  it('makes GitHub slugs', () => {
    expect(slug('Test isolation: per-test apps, snapshots, journal, faults')).toBe('test-isolation-per-test-apps-snapshots-journal-faults');
    expect(slug('In-process API (vitest example)')).toBe('in-process-api-vitest-example');
    expect(slug('Customers: users, leads, visitors')).toBe('customers-users-leads-visitors');
    expect(slug('`x_y` and  z')).toBe('x_y-and--z');
  });

  for (const file of DOCS) {
    it(`${file}: every relative link names an existing file, and every #anchor a heading of it`, () => {
      const broken: string[] = [];
      let checked = 0;
      for (const link of links(file)) {
        if (/^[a-z][a-z0-9+.-]*:/i.test(link)) continue; // http:, https:, mailto: leave the repository
        checked++;
        const [path = '', fragment] = link.split('#');
        const target = path === '' ? file : relative(ROOT, join(ROOT, dirname(file), path));
        if (!existsSync(join(ROOT, target))) broken.push(`${link}: no file ${target}`);
        else if (fragment !== undefined && target.endsWith('.md') && !anchors(target).has(fragment)) broken.push(`${link}: no heading #${fragment} in ${target}`);
      }
      expect(broken).toEqual([]);
      expect(checked).toBeGreaterThan(0);
    });
  }

  it('the README, or the reference it links, links every file in docs/ (or names the ones the package leaves out)', () => {
    // docs/architecture.md and docs/mutation.md are for people changing the mock and do not ship,
    // so the README names them as repository paths instead of linking them.
    const named = [...readFileSync(join(ROOT, 'README.md'), 'utf8').matchAll(/`(docs\/[\w./-]+\.md)`/g)].map((m) => m[1]!);
    const linked = new Set([...links('README.md'), ...links('docs/reference.md').map((l) => `docs/${l}`), ...named].map((l) => l.split('#')[0]));
    expect(DOCS.filter((f) => f !== 'README.md' && !linked.has(f))).toEqual([]);
  });
});
