/**
 * Comments cite the design documents by their path in this repository (`docs/design.md §4 rule 3`,
 * `docs/conventions.md §4.1`, `docs/style.md §17`), so a clone needs nothing beside it. This
 * checks that every such citation in src/ and test/ names a file that exists and a section (or
 * rule) that the file has, and that nothing cites the team's documents outside the repository
 * (DESIGN, STYLE, "conventions §N", "spec §N", ../shared).
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/strategy-harness.ts';

/** Files of a folder, recursively. */
function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

// The vectors' JSON is a byte-for-byte copy of the team's files (test/fixtures/vectors/README.md):
// its `about` texts say "conventions.md §N", which is docs/conventions.md here.
const SCANNED = ['src', 'test']
  .flatMap((dir) => filesUnder(join(ROOT, dir)))
  .filter((file) => /\.(ts|md|yaml)$/.test(file))
  .map((file) => ({ file: relative(ROOT, file), text: readFileSync(file, 'utf8') }));

/** The section numbers of a document, with the numbered items (rules) under each. */
interface Sections {
  readonly items: Map<string, Set<string>>;
}

/**
 * Numbered headings (`## 4. Order safety`, `### 4.1 Credentials`) are sections; numbered list
 * items at the start of a line are the rules of the section above them. A document without
 * numbered headings (docs/style.md) numbers its items instead: each item is a section.
 */
function sectionsOf(text: string): Sections {
  const items = new Map<string, Set<string>>();
  let current: Set<string> | undefined;
  const headed = /^#{2,4} \d/m.test(text);
  for (const line of text.split('\n')) {
    const heading = /^#{2,4} (\d+(?:\.\d+)*)\.? /.exec(line);
    if (heading?.[1] !== undefined) {
      current = new Set();
      items.set(heading[1], current);
      continue;
    }
    const item = /^(\d+)\. /.exec(line);
    if (item?.[1] === undefined) continue;
    if (headed) current?.add(item[1]);
    else items.set(item[1], new Set());
  }
  return { items };
}

/** A comment's text with the `*` and `//` of continued lines taken out, so a citation may wrap. */
function unwrapped(text: string): string {
  return text.replace(/\n[ \t]*(?:\*(?!\/)|\/\/)?[ \t]*/g, ' ');
}

interface Citation {
  readonly where: string;
  readonly doc: string;
  readonly sections: readonly string[];
  readonly rule: string | undefined;
}

const CITATION =
  /docs\/([\w./-]+\.md)((?:\s*(?:-|,|and)?\s*§\d+(?:\.\d+)*)*)(?:\s+rules?\s+(\d+))?/g;

function citationsIn(file: string, text: string): Citation[] {
  return [...unwrapped(text).matchAll(CITATION)].map((m) => ({
    where: `${file}: ${m[0]}`,
    doc: m[1] ?? '',
    sections: [...(m[2] ?? '').matchAll(/§(\d+(?:\.\d+)*)/g)].map((s) => s[1] ?? ''),
    rule: m[3],
  }));
}

const CITATIONS = SCANNED.flatMap(({ file, text }) => citationsIn(file, text));

describe('docs/ citations in src/ and test/', () => {
  it('are many (the scan finds them)', () => {
    expect(CITATIONS.length).toBeGreaterThan(80);
  });

  it('name files that exist, and sections and rules those files have', () => {
    const wrong: string[] = [];
    const docs = new Map<string, Sections>();
    for (const citation of CITATIONS) {
      const path = join(ROOT, 'docs', citation.doc);
      if (!existsSync(path)) {
        wrong.push(`${citation.where}: no such file`);
        continue;
      }
      let sections = docs.get(path);
      if (sections === undefined) {
        sections = sectionsOf(readFileSync(path, 'utf8'));
        docs.set(path, sections);
      }
      for (const section of citation.sections) {
        const rules = sections.items.get(section);
        if (rules === undefined) wrong.push(`${citation.where}: no §${section}`);
        else if (citation.rule !== undefined && !rules.has(citation.rule))
          wrong.push(`${citation.where}: §${section} has no rule ${citation.rule}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it('finds a missing section, a missing rule and a missing file', () => {
    const style = sectionsOf(readFileSync(join(ROOT, 'docs/style.md'), 'utf8'));
    expect(style.items.has('17')).toBe(true);
    expect(style.items.has('99')).toBe(false);
    const design = sectionsOf(readFileSync(join(ROOT, 'docs/design.md'), 'utf8'));
    expect(design.items.get('4')?.has('3')).toBe(true);
    expect(design.items.get('4')?.has('9')).toBe(false);
    expect(
      citationsIn(
        'x.ts',
        '/** See docs/conventions.md §4.2-§4.5 and\n * §6, docs/design.md §4 rule 3. */',
      ),
    ).toEqual([
      {
        where: 'x.ts: docs/conventions.md §4.2-§4.5 and §6',
        doc: 'conventions.md',
        sections: ['4.2', '4.5', '6'],
        rule: undefined,
      },
      { where: 'x.ts: docs/design.md §4 rule 3', doc: 'design.md', sections: ['4'], rule: '3' },
    ]);
  });

  it('cite nothing outside the repository (DESIGN, STYLE, conventions §N, spec §N, ../shared)', () => {
    const outside =
      /\bDESIGN\b|\bSTYLE\b|(?<!docs\/)\b[Cc]onventions\b|(?<![\w/.-])spec §|\.\.\/shared|\/work\/shared/;
    const found = SCANNED.filter(
      ({ file }) => file !== 'test/unit/docs-references.test.ts',
    ).flatMap(({ file, text }) =>
      text
        .split('\n')
        .map((line, i) => ({ line, at: `${file}:${i + 1}` }))
        .filter(({ line }) => outside.test(line))
        .map(({ line, at }) => `${at}: ${line.trim()}`),
    );
    expect(found).toEqual([]);
  });
});
