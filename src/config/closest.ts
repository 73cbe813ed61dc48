/**
 * The number of single-character edits (insertions, deletions, substitutions, and swaps of two neighbours) that
 * turn `a` into `b`: the optimal-string-alignment form of the Damerau–Levenshtein distance. A swap counts as one
 * edit because it is the commonest typo (`data-text-sned`).
 */
export function editDistance(a: string, b: string): number {
  // Three rows of the table are enough: a swap looks two rows back. Every index read is inside its row.
  let twoBack: number[] = [];
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      const substitution = previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1);
      let best = Math.min(previous[j]! + 1, row[j - 1]! + 1, substitution);
      if (a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) best = Math.min(best, twoBack[j - 2]! + 1);
      row.push(best);
    }
    twoBack = previous;
    previous = row;
  }
  return previous[b.length]!;
}

/**
 * The name of `known` that `name` is most likely a typo of, or undefined when none is near enough. Case is ignored
 * (HTML lowercases attribute names: `data-botId` arrives as `botid`). Near enough is one edit per three characters,
 * at most two, so that a short name is not matched to any other short name.
 */
export function closestName(name: string, known: Iterable<string>): string | undefined {
  const typed = name.toLowerCase();
  const limit = Math.min(2, Math.floor(typed.length / 3));
  let closest: string | undefined;
  let nearest = limit + 1;
  for (const candidate of known) {
    const distance = editDistance(typed, candidate.toLowerCase());
    if (distance < nearest) {
      closest = candidate;
      nearest = distance;
    }
  }
  return closest;
}
