/**
 * Checks JSON against the `stripe` package's own TypeScript declarations, so the Stripe fake
 * cannot drift from the API version the SDK pins. The declarations are parsed (not type-checked)
 * with the TypeScript compiler: each interface's properties, whether they are optional, and the
 * types they name are followed into nested objects, lists and generic parameters.
 *
 * `problems(value, 'Charge')` lists every required property the value lacks, every property it
 * has that the type does not declare, and every null where the type allows none.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { ROOT } from './source-tree.ts';

/** The SDK's declaration files that hold the objects webhooks carry (and what they embed). */
const DECLARATION_FILES = [
  'lib.d.ts',
  'shared.d.ts',
  'resources/Charges.d.ts',
  'resources/Checkout/Sessions.d.ts',
  'resources/Coupons.d.ts',
  'resources/Customers.d.ts',
  'resources/Disputes.d.ts',
  'resources/Events.d.ts',
  'resources/InvoiceLineItems.d.ts',
  'resources/InvoicePayments.d.ts',
  'resources/Invoices.d.ts',
  'resources/PaymentIntents.d.ts',
  'resources/Plans.d.ts',
  'resources/Prices.d.ts',
  'resources/PromotionCodes.d.ts',
  'resources/Refunds.d.ts',
  'resources/SubscriptionItems.d.ts',
  'resources/Subscriptions.d.ts',
];

/** A declaration and the namespace path it sits in (names inside resolve from there outwards). */
interface Declared<T extends ts.Node> {
  node: T;
  scope: string[];
}

/** Type parameters bound to the type nodes (and their scopes) a reference supplied. */
type Bindings = Map<string, { type: ts.TypeNode; scope: string[]; env: Bindings }>;

interface Index {
  interfaces: Map<string, Declared<ts.InterfaceDeclaration>[]>;
  aliases: Map<string, Declared<ts.TypeAliasDeclaration>>;
}

/** The declarations of the installed `stripe` package (its CommonJS build ships them). */
const sdkTypesDir = () => path.join(ROOT, 'node_modules', 'stripe', 'cjs');

let cached: Index | null = null;

/** Every interface and type alias of the declaration files, by qualified name. */
function index(): Index {
  if (cached) return cached;
  const found: Index = { interfaces: new Map(), aliases: new Map() };
  const visit = (node: ts.Node, scope: string[]) => {
    if (ts.isModuleDeclaration(node) && node.body && ts.isModuleBlock(node.body)) {
      const inner = [...scope, node.name.text];
      for (const statement of node.body.statements) visit(statement, inner);
    } else if (ts.isInterfaceDeclaration(node)) {
      const name = [...scope, node.name.text].join('.');
      found.interfaces.set(name, [...(found.interfaces.get(name) ?? []), { node, scope }]);
    } else if (ts.isTypeAliasDeclaration(node)) {
      found.aliases.set([...scope, node.name.text].join('.'), { node, scope });
    }
  };
  const dir = sdkTypesDir();
  for (const file of DECLARATION_FILES) {
    const text = readFileSync(path.join(dir, file), 'utf8');
    const source = ts.createSourceFile(file, text, ts.ScriptTarget.ES2022, true);
    for (const statement of source.statements) visit(statement, []);
  }
  cached = found;
  return found;
}

const nameOf = (name: ts.EntityName): string =>
  ts.isIdentifier(name) ? name.text : `${nameOf(name.left)}.${name.right.text}`;

/** A name as TypeScript resolves it: from the innermost namespace outwards. */
function resolve(name: string, scope: string[]) {
  const { interfaces, aliases } = index();
  for (let depth = scope.length; depth >= 0; depth--) {
    const qualified = [...scope.slice(0, depth), name].join('.');
    const found = interfaces.get(qualified);
    if (found) return { qualified, interfaces: found };
    const alias = aliases.get(qualified);
    if (alias) return { qualified, alias };
  }
  return null;
}

interface Property {
  optional: boolean;
  type: ts.TypeNode | undefined;
  scope: string[];
  env: Bindings;
}

/** An object type's properties (inherited ones included) and whether it takes any key. */
function membersOf(
  decls: Declared<ts.InterfaceDeclaration>[],
  env: Bindings,
  allOptional = false,
): { properties: Map<string, Property>; anyKey: boolean } {
  const properties = new Map<string, Property>();
  let anyKey = false;
  for (const { node, scope } of decls) {
    for (const clause of node.heritageClauses ?? []) {
      for (const base of clause.types) {
        if (!ts.isIdentifier(base.expression) && !ts.isPropertyAccessExpression(base.expression))
          continue;
        const found = resolve(base.expression.getText(node.getSourceFile()), scope);
        if (!found?.interfaces) continue;
        const inherited = membersOf(found.interfaces, env, allOptional);
        anyKey ||= inherited.anyKey;
        for (const [key, prop] of inherited.properties) {
          if (!properties.has(key)) properties.set(key, prop);
        }
      }
    }
    const own = literalMembers(node.members, scope, env, allOptional);
    anyKey ||= own.anyKey;
    for (const [key, prop] of own.properties) properties.set(key, prop);
  }
  return { properties, anyKey };
}

function literalMembers(
  members: ts.NodeArray<ts.TypeElement>,
  scope: string[],
  env: Bindings,
  allOptional: boolean,
) {
  const properties = new Map<string, Property>();
  let anyKey = false;
  for (const member of members) {
    if (ts.isIndexSignatureDeclaration(member)) anyKey = true;
    if (!ts.isPropertySignature(member) || !member.name) continue;
    const key =
      ts.isIdentifier(member.name) || ts.isStringLiteral(member.name) ? member.name.text : '';
    properties.set(key, {
      optional: allOptional || member.questionToken !== undefined,
      type: member.type,
      scope,
      env,
    });
  }
  return { properties, anyKey };
}

/** The problems of `value` against a type node; `at` names the place for messages. */
function check(
  value: unknown,
  type: ts.TypeNode | undefined,
  scope: string[],
  env: Bindings,
  at: string,
): string[] {
  if (!type) return [];
  if (ts.isParenthesizedTypeNode(type)) return check(value, type.type, scope, env, at);
  if (ts.isUnionTypeNode(type)) {
    if (value === null) {
      const allowsNull = type.types.some(
        (t) => ts.isLiteralTypeNode(t) && t.literal.kind === ts.SyntaxKind.NullKeyword,
      );
      return allowsNull ? [] : [`${at} is null, which the type does not allow`];
    }
    const objectLike = type.types.filter((t) => acceptsObjects(t, scope, env));
    if (value === null || typeof value !== 'object' || objectLike.length === 0) return [];
    // The member that fits best (e.g. `string | Charge` holding an expanded charge).
    const tries = objectLike.map((t) => check(value, t, scope, env, at));
    return tries.reduce((best, next) => (next.length < best.length ? next : best));
  }
  if (value === null) {
    return ts.isLiteralTypeNode(type) && type.literal.kind === ts.SyntaxKind.NullKeyword
      ? []
      : [`${at} is null, which the type does not allow`];
  }
  if (ts.isArrayTypeNode(type)) return checkArray(value, type.elementType, scope, env, at);
  if (ts.isTypeLiteralNode(type)) {
    return checkObject(value, literalMembers(type.members, scope, env, false), at);
  }
  if (!ts.isTypeReferenceNode(type)) return [];
  const name = nameOf(type.typeName);
  const args = type.typeArguments ?? [];
  const bound = env.get(name);
  if (bound) return check(value, bound.type, bound.scope, bound.env, at);
  if (name === 'Array' && args[0]) return checkArray(value, args[0], scope, env, at);
  if (name === 'Partial' && args[0] && ts.isTypeReferenceNode(args[0])) {
    const inner = resolve(nameOf(args[0].typeName), scope);
    if (inner?.interfaces) return checkObject(value, membersOf(inner.interfaces, env, true), at);
    return [];
  }
  const found = resolve(name, scope);
  if (!found) return [];
  if (found.alias) return check(value, found.alias.node.type, found.alias.scope, env, at);
  const first = found.interfaces[0]!;
  const params = first.node.typeParameters ?? [];
  const inner: Bindings = new Map(
    params.map((p, i) => [p.name.text, { type: args[i]!, scope, env }] as const),
  );
  return checkObject(value, membersOf(found.interfaces, inner), at);
}

/** Whether a union member can hold an object or array (so an object value is checked against it). */
function acceptsObjects(type: ts.TypeNode, scope: string[], env: Bindings): boolean {
  if (ts.isArrayTypeNode(type) || ts.isTypeLiteralNode(type)) return true;
  if (!ts.isTypeReferenceNode(type)) return false;
  const name = nameOf(type.typeName);
  const bound = env.get(name);
  if (bound) return acceptsObjects(bound.type, bound.scope, bound.env);
  if (name === 'Array' || name === 'Partial') return true;
  const found = resolve(name, scope);
  return Boolean(found?.interfaces) || Boolean(found?.alias);
}

function checkArray(
  value: unknown,
  element: ts.TypeNode,
  scope: string[],
  env: Bindings,
  at: string,
): string[] {
  if (!Array.isArray(value)) return [`${at} should be an array`];
  return value.flatMap((item, i) => check(item, element, scope, env, `${at}[${i}]`));
}

function checkObject(
  value: unknown,
  members: { properties: Map<string, Property>; anyKey: boolean },
  at: string,
): string[] {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return [`${at} should be an object`];
  }
  const record = value as Record<string, unknown>;
  const out: string[] = [];
  for (const [key, prop] of members.properties) {
    if (!(key in record)) {
      if (!prop.optional) out.push(`${at}.${key} is required but missing`);
      continue;
    }
    out.push(...check(record[key], prop.type, prop.scope, prop.env, `${at}.${key}`));
  }
  if (!members.anyKey) {
    for (const key of Object.keys(record)) {
      if (!members.properties.has(key)) out.push(`${at}.${key} is not declared by the type`);
    }
  }
  return out;
}

/** Problems of `value` against the declared interface `typeName` (e.g. 'Checkout' is not one: use 'Session'). */
export function problems(value: unknown, typeName: string): string[] {
  const found = resolve(typeName, []);
  if (!found?.interfaces) throw new Error(`the stripe package declares no interface ${typeName}`);
  return checkObject(value, membersOf(found.interfaces, new Map()), typeName);
}

/** The interface of a webhook event type, e.g. 'charge.dispute.created' → ChargeDisputeCreatedEvent. */
export function eventInterfaceOf(type: string): string {
  const { interfaces } = index();
  for (const [name, decls] of interfaces) {
    if (name.includes('.')) continue;
    for (const { node } of decls) {
      const member = node.members.find(
        (m) => ts.isPropertySignature(m) && m.name.getText(node.getSourceFile()) === 'type',
      );
      if (
        member &&
        ts.isPropertySignature(member) &&
        member.type &&
        ts.isLiteralTypeNode(member.type) &&
        ts.isStringLiteral(member.type.literal) &&
        member.type.literal.text === type &&
        name.endsWith('Event')
      ) {
        return name;
      }
    }
  }
  throw new Error(`the stripe package declares no event of type ${type}`);
}
