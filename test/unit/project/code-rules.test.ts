import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const SRC = fileURLToPath(new URL('../../../src/', import.meta.url));

/**
 * The widget's sources, as paths under src/. The proxy is left out: it is its own build for servers and edge
 * runtimes, with rules of its own.
 */
function widgetSources(): string[] {
  return readdirSync(SRC, { recursive: true, encoding: 'utf8' })
    .map((path) => path.split('\\').join('/'))
    .filter((path) => /\.tsx?$/.test(path) && !path.endsWith('.d.ts') && !path.startsWith('proxy/'))
    .sort();
}

const isAssignmentOperator = (kind: ts.SyntaxKind) =>
  kind >= ts.SyntaxKind.FirstAssignment && kind <= ts.SyntaxKind.LastAssignment;

const isIncrement = (node: ts.PrefixUnaryExpression | ts.PostfixUnaryExpression) =>
  node.operator === ts.SyntaxKind.PlusPlusToken || node.operator === ts.SyntaxKind.MinusMinusToken;

/** A node that writes a variable or property: `x = y`, `x += y`, `x ??= y`, … and `++x`, `x--`. */
function isAssignment(node: ts.Node): boolean {
  if (ts.isBinaryExpression(node)) return isAssignmentOperator(node.operatorToken.kind);
  if (ts.isPrefixUnaryExpression(node) || ts.isPostfixUnaryExpression(node)) return isIncrement(node);
  return false;
}

/**
 * Whether an assignment stands as a statement of its own: `x = y;`, or a for-statement's initializer or
 * incrementor (`for (i = 0; …; i++)`). Anywhere else its value is used, and the write hides inside an expression.
 * Parentheses around the whole statement are allowed, as a destructuring assignment needs them: `({ a } = b);`.
 */
function standsAlone(assignment: ts.Node): boolean {
  let node = assignment;
  while (ts.isParenthesizedExpression(node.parent)) node = node.parent;
  const { parent } = node;
  if (ts.isExpressionStatement(parent)) return true;
  return ts.isForStatement(parent) && (parent.initializer === node || parent.incrementor === node);
}

/**
 * The left side of a destructuring assignment (`[a = 1] = list`) holds defaults written as `=`, which are not
 * assignments of their own; nor is a for-in or for-of's target.
 */
function isPattern(node: ts.Node): boolean {
  if (!ts.isArrayLiteralExpression(node) && !ts.isObjectLiteralExpression(node)) return false;
  const { parent } = node;
  if (ts.isBinaryExpression(parent) && parent.left === node) return isAssignment(parent);
  return (ts.isForOfStatement(parent) || ts.isForInStatement(parent)) && parent.initializer === node;
}

/** Every assignment inside an expression in `text`, as `<name>:<line>: <the assignment's text>`. */
function hiddenAssignments(name: string, text: string): string[] {
  const kind = name.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS;
  const file = ts.createSourceFile(name, text, ts.ScriptTarget.Latest, true, kind);
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if (isAssignment(node) && !standsAlone(node)) {
      const { line } = file.getLineAndCharacterOfPosition(node.getStart(file));
      found.push(`${name}:${line + 1}: ${node.getText(file)}`);
    }
    if (!isPattern(node)) ts.forEachChild(node, visit);
  };
  visit(file);
  return found;
}

describe('hiddenAssignments', () => {
  it.each([
    'void (x = y);',
    'const f = () => (x = y);',
    'const f = () => x++;',
    'a && (b = c);',
    'f((d = e));',
    'Boolean((p = q));',
    'streaming.value = text += chunk;',
    'if ((m = re.exec(s))) use(m);',
    'while ((m = re.exec(s))) use(m);',
    'const n = i++;',
    'list[--i] = 0;',
    'cache ??= new Map(), count += 1;',
    'return (total ||= 1);',
    'const v = (w = 2);',
  ])('finds the assignment hidden in %s', (code) => {
    expect(hiddenAssignments('case.ts', code)).not.toEqual([]);
  });

  it.each([
    'x = y;',
    'x += 1;',
    'cache ??= new Map();',
    'i++;',
    '--i;',
    'if (ready) x = y;',
    'for (i = 0; i < n; i++) total += i;',
    'const a = 1, b = 2;',
    'let { c = 3 } = options;',
    'function f(d = 4) { return d; }',
    '[first = 0, second] = pair;',
    '({ e = 5 } = options);',
    'for ([key = "", value] of entries) use(key, value);',
    'type T = { a: 1 };',
  ])('lets the plain statement %s be', (code) => {
    expect(hiddenAssignments('case.ts', code)).toEqual([]);
  });

  it('names the file, the line and the text', () => {
    expect(hiddenAssignments('src/ui/X.tsx', 'const a = 1;\nconst f = () => <p>{(b = a)}</p>;\n')).toEqual([
      'src/ui/X.tsx:2: b = a',
    ]);
  });
});

describe('the widget sources (src/ but the proxy)', () => {
  it('write every assignment as a statement of its own, never inside an expression', () => {
    const found = widgetSources().flatMap((path) =>
      hiddenAssignments(`src/${path}`, readFileSync(`${SRC}${path}`, 'utf8')),
    );
    expect(found).toEqual([]);
  });
});
