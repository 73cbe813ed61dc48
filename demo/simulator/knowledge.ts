import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Document } from './store';

/** A knowledge-base document before it is given an id. */
export interface KnowledgeSource {
  name: string;
  content: string;
}

/** Reads every `.md` file of `dir`; a document's name is its first `# ` heading. */
export function loadKnowledgeBase(dir: string): KnowledgeSource[] {
  return readdirSync(dir)
    .filter((file) => file.endsWith('.md'))
    .sort()
    .map((file) => {
      const content = readFileSync(join(dir, file), 'utf8');
      const name = /^# (.+)$/m.exec(content)?.[1]?.trim() ?? file.replace(/\.md$/, '');
      return { name, content };
    });
}

interface Section {
  doc: Document;
  heading: string;
  body: string;
  titleWords: Set<string>;
  words: Set<string>;
}

const STOP = new Set(
  'the and for you your are can how what when where which who why with does this that have from into about will there their our any all its not but was were has had get got one'.split(
    ' ',
  ),
);

const words = (text: string) =>
  new Set(
    (text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [])
      .filter((w) => w.length > 2 && !STOP.has(w))
      .map((w) => w.replace(/(ies|es|s)$/, '')),
  );

function sections(doc: Document): Section[] {
  return doc.content
    .split(/^## /m)
    .slice(1)
    .map((part) => {
      const [heading = '', ...rest] = part.split('\n');
      const body = rest.join('\n').trim();
      return { doc, heading: heading.trim(), body, titleWords: words(`${doc.name} ${heading}`), words: words(body) };
    });
}

/** A deterministic reply: the knowledge-base sections that best match the question, with the documents used. */
export function answer(question: string, docs: readonly Document[]): { text: string; sourceIds: string[] } {
  const asked = words(question);
  if (/^\s*(hi|hello|hey|hallo|bonjour)\b/i.test(question) && asked.size <= 1) {
    return {
      text: 'Hello! 👋 Ask me about **shipping**, **returns**, **pricing** or **getting started** with Askbox.',
      sourceIds: [],
    };
  }
  const ranked = docs
    .flatMap(sections)
    // A word in a heading or document name says far more about a section than one in its body.
    .map((section) => ({
      section,
      score: [...asked].reduce(
        (sum, w) => sum + (section.titleWords.has(w) ? 3 : 0) + (section.words.has(w) ? 1 : 0),
        0,
      ),
    }))
    .filter((r) => r.score > 0)
    .sort((a, b) => b.score - a.score)
    .slice(0, 2)
    .map((r) => r.section);
  const [best, second] = ranked;
  if (!best) {
    return {
      text: "I couldn't find anything about that in the knowledge base. Try asking about *shipping*, *returns*, *pricing* or *getting started*.",
      sourceIds: [],
    };
  }
  let text = `Here is what I found about **${best.heading.toLowerCase()}**:\n\n${best.body}`;
  if (second) text += `\n\nRelated — **${second.heading}** (from *${second.doc.name}*):\n\n${second.body}`;
  return { text, sourceIds: [...new Set(ranked.map((s) => s.doc.id))] };
}
