// Tables for the browser benchmark: per build, the median of its runs with their range, and the ratio of the current
// build's median to the baseline's. Missing values (a run that timed out) are left out, and counted.

/** One line of a table: `values[b]` holds build b's runs. */
export interface TableRow {
  label: string;
  values: readonly (readonly number[])[];
  /** Decimals to print (default 1). */
  digits?: number;
}

interface Summary {
  median: number;
  min: number;
  max: number;
  missing: number;
}

/** The median of the finite values (NaN when there are none). */
export function median(values: readonly number[]): number {
  const sorted = values.filter(Number.isFinite).sort((a, b) => a - b);
  if (sorted.length === 0) return Number.NaN;
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[middle] ?? Number.NaN)
    : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
}

function summarize(values: readonly number[]): Summary {
  const finite = values.filter(Number.isFinite);
  return {
    median: median(finite),
    min: finite.length > 0 ? Math.min(...finite) : Number.NaN,
    max: finite.length > 0 ? Math.max(...finite) : Number.NaN,
    missing: values.length - finite.length,
  };
}

function format(value: number, digits: number): string {
  return Number.isFinite(value) ? value.toFixed(digits) : '—';
}

function cell(summary: Summary, digits: number): string {
  const range = `[${format(summary.min, digits)}–${format(summary.max, digits)}]`;
  const missing = summary.missing > 0 ? ` (${summary.missing} missing)` : '';
  return `${format(summary.median, digits)} ${range}${missing}`;
}

/**
 * Prints `rows` under `title`: a column per build (`median [min–max]`; blank where a row has no values for it) and,
 * when the first `compared` columns are two builds, the ratio of the first (current) median to the second
 * (baseline): below 1 the current build is cheaper or faster. Columns after the compared ones (the boot's reference
 * launchers) take no part in the ratio.
 */
export function printTable(
  title: string,
  builds: readonly string[],
  rows: readonly TableRow[],
  compared = builds.length,
) {
  const paired = compared === 2;
  const header = ['', ...builds, ...(paired ? ['current/baseline'] : [])];
  const lines = rows.map((row) => {
    const digits = row.digits ?? 1;
    const summaries = row.values.map(summarize);
    const blanks = Array.from({ length: builds.length - summaries.length }, () => '');
    const cells = [row.label, ...summaries.map((summary) => cell(summary, digits)), ...blanks];
    const [current, baseline] = summaries;
    if (paired && current && baseline) {
      const ratio = current.median / baseline.median;
      cells.push(Number.isFinite(ratio) ? ratio.toFixed(2) : '—');
    }
    return cells;
  });
  const widths = header.map((_, column) => Math.max(...[header, ...lines].map((line) => (line[column] ?? '').length)));
  const render = (line: readonly string[]) =>
    line
      .map((text, column) => (column === 0 ? text.padEnd(widths[column] ?? 0) : text.padStart(widths[column] ?? 0)))
      .join('   ');
  console.log(`\n${title}`);
  console.log(render(header));
  for (const line of lines) console.log(render(line));
}
