/**
 * Every sentence the API can answer with, read from the server's source (issue 21): what
 * tests/unit/api-messages.test.ts holds server/core/api-messages-zh.ts to. Run it to list them:
 *   node tests/helpers/api-messages.ts
 *
 * A message is found where the code says it is one:
 * - the message argument of badRequest / unauthorized / forbidden / notFound / conflict, of
 *   `new AppError(status, code, message)` and of `super(status, code, message)` in its subclasses;
 * - the value of a `message:` property (and of a task's `statusMessage` / `errorMessage`);
 * - a constant whose name ends in _MESSAGE, and the values of an object literal bound to a name
 *   ending in MESSAGES (server/ and shared/),
 *   and what its arrow-function values return;
 * - what a function whose name ends in Message returns.
 * A template literal (a sentence with values) is kept as a sample with each value replaced by
 * "X1", "X2", …: a pattern of the catalogue has to match it.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import ts from 'typescript';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const HELPERS = new Set(['badRequest', 'unauthorized', 'forbidden', 'notFound', 'conflict']);
/** Properties whose value a person reads: answers' `message`, a task's status and error. */
const MESSAGE_PROPERTIES = new Set([
  'message',
  'statusMessage',
  'status_message',
  'errorMessage',
  'error_message',
]);

export interface ApiMessage {
  /** The sentence; values of a template are X1, X2, … */
  text: string;
  /** True when the source is a template literal with values. */
  template: boolean;
  /** file:line of the source. */
  where: string;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(path.join(ROOT, dir), { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && /\.ts$/.test(entry.name) && !/\.d\.ts$/.test(entry.name))
    .map((entry) => path.join(entry.parentPath, entry.name));
}

function literalText(node: ts.Node): { text: string; template: boolean } | null {
  if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) {
    return { text: node.text, template: false };
  }
  if (ts.isTemplateExpression(node)) {
    let text = node.head.text;
    node.templateSpans.forEach((span, i) => {
      text += `X${i + 1}${span.literal.text}`;
    });
    return { text, template: true };
  }
  if (ts.isParenthesizedExpression(node)) return literalText(node.expression);
  return null;
}

/** The literals an expression can evaluate to (both arms of a conditional, `a ?? 'b'`). */
function literalsOf(node: ts.Node): { text: string; template: boolean }[] {
  const direct = literalText(node);
  if (direct) return [direct];
  if (ts.isConditionalExpression(node)) {
    return [...literalsOf(node.whenTrue), ...literalsOf(node.whenFalse)];
  }
  if (
    ts.isBinaryExpression(node) &&
    [ts.SyntaxKind.QuestionQuestionToken, ts.SyntaxKind.BarBarToken].includes(
      node.operatorToken.kind,
    )
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

function messagesOfFile(file: string): ApiMessage[] {
  const source = ts.createSourceFile(
    file,
    readFileSync(file, 'utf8'),
    ts.ScriptTarget.Latest,
    true,
  );
  const relative = path.relative(ROOT, file);
  const found: ApiMessage[] = [];
  const add = (node: ts.Node | undefined) => {
    if (!node) return;
    const line = source.getLineAndCharacterOfPosition(node.getStart()).line + 1;
    for (const literal of literalsOf(node)) {
      // Only sentences: a template of values alone ("X1: X2") is a provider's text passed on.
      if (/\p{L}/u.test(literal.text.replace(/X\d+/g, ''))) {
        found.push({ ...literal, where: `${relative}:${line}` });
      }
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
    if (
      ts.isVariableDeclaration(node) &&
      ts.isIdentifier(node.name) &&
      /_MESSAGE$/.test(node.name.text)
    ) {
      add(node.initializer);
    }
    if (
      ts.isVariableDeclaration(node) &&
      ts.isIdentifier(node.name) &&
      /MESSAGES$/.test(node.name.text) &&
      node.initializer
    ) {
      const value = unwrap(node.initializer);
      if (ts.isObjectLiteralExpression(value)) addObjectValues(value);
    }
    if (inMessageFunction && ts.isReturnStatement(node)) add(node.expression);
    const opensMessageFunction =
      ts.isFunctionDeclaration(node) && /Message$/.test(node.name?.text ?? '');
    ts.forEachChild(node, (child) => visit(child, inMessageFunction || opensMessageFunction));
  };
  visit(source, false);
  return found;
}

/** Every API message of the server and of the texts it shares with the site. */
export function apiMessages(): ApiMessage[] {
  const files = [...sourceFiles('server'), ...sourceFiles('shared')];
  return files.flatMap(messagesOfFile);
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  const seen = new Set<string>();
  for (const message of apiMessages()) {
    if (seen.has(message.text)) continue;
    seen.add(message.text);
    console.log(`${message.template ? 'T' : 'S'}\t${message.where}\t${message.text}`);
  }
}
