/**
 * What the server's source says about its messages (issue 32, item 3), read with the TypeScript
 * parser: the catalogue keys it names, and any sentence it still writes inline where a person
 * would read it. tests/unit/api-messages.test.ts holds both to messages/api. Run it to list them:
 *   node tests/helpers/api-messages.ts
 *
 * A key is used where the code passes a string literal to `msg` or `answerText`.
 * A sentence is inline where the code says it is a message and gives text instead of a key:
 * - the message argument of badRequest / unauthorized / forbidden / notFound / conflict, of
 *   `new AppError(status, code, message)` and of `super(status, code, message)` in its subclasses;
 * - the value of a `message:` property (and of a task's `statusMessage` / `errorMessage`,
 *   `status_message` / `error_message`) and of a route's `signInMessage`;
 * - a constant whose name ends in _MESSAGE, and the values of an object literal bound to a name
 *   ending in MESSAGES (and what its arrow-function values return);
 * - what a function whose name ends in Message returns.
 * Left out on purpose, as no person reads them over the API: server/config*.ts (start-up errors
 * for the operator, in English) and server/domains/video/providers/ (a provider's own error text,
 * which goes to logs and the admin view only, issue 17). Log lines are never in these places.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import ts from 'typescript';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const HELPERS = new Set(['badRequest', 'unauthorized', 'forbidden', 'notFound', 'conflict']);
const KEY_FUNCTIONS = new Set(['msg', 'answerText']);
/** Properties whose value a person reads: answers' `message`, a task's status and error. */
const MESSAGE_PROPERTIES = new Set([
  'message',
  'statusMessage',
  'status_message',
  'errorMessage',
  'error_message',
  'signInMessage',
]);
/** Operator-facing or provider-facing files, never sent to a person over the API (see above). */
const EXCLUDED = [/^server\/config[^/]*\.ts$/, /^server\/domains\/video\/providers\//];

export interface SourceText {
  /** The key, or the inline sentence (values of a template are X1, X2, …). */
  text: string;
  /** file:line of the source. */
  where: string;
}

/** The server's TypeScript files this scan reads (the excluded ones left out). */
export function serverFiles(): string[] {
  return readdirSync(path.join(ROOT, 'server'), { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && /\.ts$/.test(entry.name) && !/\.d\.ts$/.test(entry.name))
    .map((entry) => path.relative(ROOT, path.join(entry.parentPath, entry.name)))
    .filter((file) => !EXCLUDED.some((pattern) => pattern.test(file)));
}

function literalText(node: ts.Node): string | null {
  if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return node.text;
  if (ts.isTemplateExpression(node)) {
    let text = node.head.text;
    node.templateSpans.forEach((span, i) => {
      text += `X${i + 1}${span.literal.text}`;
    });
    return text;
  }
  if (ts.isParenthesizedExpression(node)) return literalText(node.expression);
  return null;
}

/** The literals an expression can evaluate to (both arms of a conditional, `a ?? 'b'`, `a + b`). */
function literalsOf(node: ts.Node): string[] {
  const direct = literalText(node);
  if (direct !== null) return [direct];
  if (ts.isConditionalExpression(node)) {
    return [...literalsOf(node.whenTrue), ...literalsOf(node.whenFalse)];
  }
  if (
    ts.isBinaryExpression(node) &&
    [
      ts.SyntaxKind.QuestionQuestionToken,
      ts.SyntaxKind.BarBarToken,
      ts.SyntaxKind.PlusToken,
    ].includes(node.operatorToken.kind)
  ) {
    return [...literalsOf(node.left), ...literalsOf(node.right)];
  }
  return [];
}

function calleeName(node: ts.CallExpression | ts.NewExpression): string {
  const callee = node.expression;
  if (ts.isIdentifier(callee)) return callee.text;
  if (callee.kind === ts.SyntaxKind.SuperKeyword) return 'super';
  return '';
}

/** Keys named and sentences written inline in one file. */
export function scanFile(file: string): { keys: SourceText[]; inline: SourceText[] } {
  const full = path.join(ROOT, file);
  const source = ts.createSourceFile(
    full,
    readFileSync(full, 'utf8'),
    ts.ScriptTarget.Latest,
    true,
  );
  const keys: SourceText[] = [];
  const inline: SourceText[] = [];
  const where = (node: ts.Node) =>
    `${file}:${source.getLineAndCharacterOfPosition(node.getStart()).line + 1}`;
  const add = (node: ts.Node | undefined) => {
    if (!node) return;
    for (const text of literalsOf(node)) {
      // Only sentences: a value alone ("X1: X2", a code) is no text a person reads.
      if (/\p{L}{2,}/u.test(text.replace(/X\d+/g, ''))) inline.push({ text, where: where(node) });
    }
  };
  const addObjectValues = (object: ts.ObjectLiteralExpression) => {
    for (const property of object.properties) {
      if (!ts.isPropertyAssignment(property)) continue;
      const value = property.initializer;
      if (ts.isObjectLiteralExpression(value)) addObjectValues(value);
      else if (ts.isArrowFunction(value) && !ts.isBlock(value.body)) add(value.body);
      else add(value);
    }
  };
  const unwrap = (node: ts.Expression): ts.Expression =>
    ts.isAsExpression(node) || ts.isSatisfiesExpression(node) ? unwrap(node.expression) : node;

  const visit = (node: ts.Node, inMessageFunction: boolean) => {
    if (ts.isCallExpression(node) || ts.isNewExpression(node)) {
      const name = calleeName(node);
      const args = node.arguments ?? ts.factory.createNodeArray();
      if (KEY_FUNCTIONS.has(name) && args[0] && ts.isStringLiteralLike(args[0])) {
        keys.push({ text: args[0].text, where: where(args[0]) });
      }
      if (HELPERS.has(name)) add(args[0]);
      if ((name === 'AppError' && ts.isNewExpression(node)) || name === 'super') {
        if (args.length >= 3) add(args[2]);
      }
    }
    if (
      ts.isPropertyAssignment(node) &&
      ts.isIdentifier(node.name) &&
      MESSAGE_PROPERTIES.has(node.name.text)
    ) {
      add(node.initializer);
    }
    if (ts.isVariableDeclaration(node) && ts.isIdentifier(node.name) && node.initializer) {
      if (/_MESSAGE$/.test(node.name.text)) add(node.initializer);
      const value = unwrap(node.initializer);
      if (/MESSAGES$/.test(node.name.text) && ts.isObjectLiteralExpression(value)) {
        addObjectValues(value);
      }
    }
    if (inMessageFunction && ts.isReturnStatement(node)) add(node.expression);
    const opensMessageFunction =
      ts.isFunctionDeclaration(node) && /Message$/.test(node.name?.text ?? '');
    ts.forEachChild(node, (child) => visit(child, inMessageFunction || opensMessageFunction));
  };
  visit(source, false);
  return { keys, inline };
}

/** Every key the server names and every sentence it writes inline (both with their places). */
export function scanServer(): { keys: SourceText[]; inline: SourceText[] } {
  const scans = serverFiles().map(scanFile);
  return { keys: scans.flatMap((s) => s.keys), inline: scans.flatMap((s) => s.inline) };
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  const { keys, inline } = scanServer();
  for (const key of keys) console.log(`K\t${key.where}\t${key.text}`);
  for (const text of inline) console.log(`S\t${text.where}\t${text.text}`);
}
