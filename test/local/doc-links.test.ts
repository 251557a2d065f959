// The links a newcomer follows between the README, the root's other pages and docs/: every
// `page.md#heading` names a heading the page has, with GitHub's anchors (lower case, punctuation
// dropped, spaces as hyphens, a repeated heading numbered).

import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from '@jest/globals';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const PAGES = [
  'README.md',
  'CONTRIBUTING.md',
  'CHANGELOG.md',
  'SECURITY.md',
  ...readdirSync(join(ROOT, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`),
];
const textOf = (page: string) => readFileSync(join(ROOT, page), 'utf8').replace(/```[\s\S]*?```/g, '');

/** The anchors GitHub gives a page's headings. */
function anchorsOf(page: string): Set<string> {
  const seen = new Map<string, number>();
  const anchors = new Set<string>();
  for (const [, heading = ''] of textOf(page).matchAll(/^#{1,6}\s+(.*)$/gm)) {
    const slug = heading
      .trim()
      .toLowerCase()
      .replace(/[^\p{L}\p{N}_\- ]/gu, '')
      .replaceAll(' ', '-');
    const count = seen.get(slug);
    seen.set(slug, (count ?? -1) + 1);
    anchors.add(count === undefined ? slug : `${slug}-${count + 1}`);
  }
  return anchors;
}

describe('links between the README and docs/', () => {
  const links = PAGES.flatMap((page) =>
    [...textOf(page).matchAll(/\]\(([^)\s#]*\.md)?#([^)\s]+)\)/g)].map(([, target, anchor]) => ({
      page,
      target: normalize(target ? join(dirname(page), target) : page),
      anchor: anchor ?? '',
    })),
  );

  it('are there to check', () => {
    expect(links.length).toBeGreaterThan(0);
  });

  it('each name a heading of the page they lead to', () => {
    const broken = links.filter(({ target, anchor }) => PAGES.includes(target) && !anchorsOf(target).has(anchor));
    expect(broken).toEqual([]);
  });
});
