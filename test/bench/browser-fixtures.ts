// What the browser benchmark asks the simulator for: long markdown replies streamed in 8-character chunks, and the
// 100 replies of a seeded history. The text is generated, not read from demo/kb, so its length is exact and every
// part of a reply holds the same mix of blocks: a quarter of the reply costs what any other quarter costs unless the
// widget's own work grows with the reply, which is what the per-quarter numbers look for.
import type { Scenario } from '../../demo/simulator/scenario';

/** The reply sizes the streaming benchmark measures, in characters. */
export const STREAM_SIZES = [5_000, 20_000, 40_000] as const;
/** Characters per stream chunk: the measure, and about what token streams carry. */
export const CHUNK_SIZE = 8;
/** The question whose short reply warms the page up (conversation created, markdown code compiled). */
export const WARM_UP_QUESTION = 'bench warm-up';
/** Exchanges in the seeded history: 200 messages. */
export const HISTORY_EXCHANGES = 100;

/** The question that gets the scripted reply of `size` characters. */
export const streamQuestion = (size: number) => `bench stream-${size / 1000}k`;

const WORDS = (
  'order shipping return refund parcel invoice account widget proxy token stream reply message customer ' +
  'support warehouse courier address payment subscription plan upgrade export import settings browser ' +
  'session history document answer question delivery tracking label carrier window checkout discount'
).split(' ');

/** A small seeded generator (mulberry32): the same seed gives the same reply in every run and build. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The scripted reply of about `size` characters. */
export const streamReply = (size: number) => createMarkdown(size, size);

/**
 * Markdown of about `length` characters (at least `length`, ending on a whole block): headings, paragraphs with
 * bold, inline code and links, bullet and numbered lists, fenced code and quotes, in a fixed rotation.
 */
function createMarkdown(length: number, seed: number): string {
  const next = random(seed);
  const pick = () => WORDS[Math.floor(next() * WORDS.length)] ?? 'word';
  const words = (n: number) => Array.from({ length: n }, pick).join(' ');
  const sentence = () => {
    const text = words(6 + Math.floor(next() * 10));
    return `${text.charAt(0).toUpperCase()}${text.slice(1)}.`;
  };
  const paragraph = () =>
    `${sentence()} See **${words(2)}** and \`${pick()}_${pick()}()\`, or [the ${pick()} guide](https://docs.example.com/${pick()}/${pick()}). ${sentence()} ${sentence()}`;
  const blocks = [
    () => `## ${sentence().slice(0, -1)}`,
    paragraph,
    () => Array.from({ length: 3 + Math.floor(next() * 3) }, () => `- ${sentence()}`).join('\n'),
    paragraph,
    () =>
      `\`\`\`ts\n${Array.from({ length: 3 + Math.floor(next() * 5) }, () => `const ${pick()} = await ${pick()}('${pick()}');`).join('\n')}\n\`\`\``,
    () => Array.from({ length: 3 + Math.floor(next() * 3) }, (_, i) => `${i + 1}. ${sentence()}`).join('\n'),
    () => `> ${sentence()} ${sentence()}`,
  ];
  const out: string[] = [];
  let size = 0;
  for (let i = 0; size < length; i++) {
    const block = (blocks[i % blocks.length] ?? paragraph)();
    out.push(block);
    size += block.length + 2;
  }
  return out.join('\n\n');
}

/**
 * The simulator's script: the warm-up and the long replies answer their questions (`match`); the history's
 * replies, without `match`, answer every other message once each, in order. No delay between chunks: the
 * simulator's smallest (a 0 ms timer per chunk).
 */
export function createBenchScenario(): Scenario {
  return {
    defaults: { chunkSize: CHUNK_SIZE, delayMs: 0 },
    replies: [
      { match: WARM_UP_QUESTION, text: createMarkdown(1_000, 1) },
      ...STREAM_SIZES.map((size) => ({ match: streamQuestion(size), text: streamReply(size) })),
      ...Array.from({ length: HISTORY_EXCHANGES }, (_, i) => ({
        text: createMarkdown(300 + ((i * 7919) % 1500), 1_000 + i),
      })),
    ],
  };
}
