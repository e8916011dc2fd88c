import ts from 'typescript';

/**
 * Reads TypeScript sources for writes of the columns one module owns: an order's `status` (owned by
 * the order lifecycle) and stock (a SKU's `stock`, an activity item's `remainingStock` and
 * `reservedStock`: owned by inventory). A write is any of:
 * - a typed-SQL update of the table whose `set` names the column (`updateTable('Order')...set({ status })`);
 * - an entity created with the column (`em.create(Order, { status })`; a SKU or an activity item
 *   may be created empty: `stock: 0`);
 * - an entity's property assigned (`order.status = ...`, `em.assign(order, { status })`,
 *   `em.nativeUpdate(Order, ..., { status })`), known by the type checker;
 * - SQL text that updates the column, or inserts an order with a status.
 */

export interface OwnedColumn {
  /** Entity (class and typed-SQL table) name. */
  entity: string;
  /** The SQL table. */
  table: string;
  /** Property name and its column. */
  property: string;
  column: string;
  /** A created entity may set it to this literal (empty stock). */
  createdAs?: string;
}

export interface Violation {
  file: string;
  line: number;
  what: string;
}

function lineOf(source: ts.SourceFile, node: ts.Node): number {
  return source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1;
}

/** An object literal's property named `name`, if any. */
function propertyNamed(node: ts.Node | undefined, name: string): ts.ObjectLiteralElementLike | undefined {
  if (!node) return undefined;
  if (ts.isArrowFunction(node) || ts.isFunctionExpression(node)) return propertyNamed(bodyValue(node), name);
  if (ts.isParenthesizedExpression(node)) return propertyNamed(node.expression, name);
  if (!ts.isObjectLiteralExpression(node)) return undefined;
  return node.properties.find((p) => (ts.isPropertyAssignment(p) || ts.isShorthandPropertyAssignment(p)) && p.name.getText() === name);
}

/** Whether `set`'s argument is an object literal without spreads (or a function returning one): what the scan can read. */
function readable(node: ts.Node | undefined): boolean {
  if (!node) return false;
  if (ts.isArrowFunction(node) || ts.isFunctionExpression(node)) return readable(bodyValue(node));
  if (ts.isParenthesizedExpression(node)) return readable(node.expression);
  return ts.isObjectLiteralExpression(node) && !node.properties.some(ts.isSpreadAssignment);
}

function bodyValue(fn: ts.ArrowFunction | ts.FunctionExpression): ts.Node | undefined {
  if (ts.isBlock(fn.body)) {
    const ret = fn.body.statements.find(ts.isReturnStatement);
    return ret?.expression;
  }
  return fn.body;
}

/** The typed-SQL table a fluent chain updates (`...updateTable('Order as o')...`), if it does. */
function updatedTable(call: ts.CallExpression): string | undefined {
  let e: ts.Expression = call.expression;
  while (ts.isPropertyAccessExpression(e) || ts.isCallExpression(e)) {
    if (ts.isCallExpression(e)) {
      const callee = e.expression;
      if (ts.isPropertyAccessExpression(callee) && callee.name.text === 'updateTable') {
        const [arg] = e.arguments;
        return arg && ts.isStringLiteralLike(arg) ? arg.text.split(/\s+as\s+/)[0] : undefined;
      }
      e = callee;
    } else {
      e = e.expression;
    }
  }
  return undefined;
}

/** The class an expression's type is (an entity), by name. */
function typeName(checker: ts.TypeChecker, node: ts.Expression): string | undefined {
  const type = checker.getNonNullableType(checker.getTypeAtLocation(node));
  return type.getSymbol()?.getName();
}

export function scanForWrites(program: ts.Program, files: readonly string[], owned: readonly OwnedColumn[]): Violation[] {
  const checker = program.getTypeChecker();
  const violations: Violation[] = [];
  const sqlWrites = owned.map((o) => ({
    o,
    update: new RegExp(`\\bupdate\\s+${o.table}\\b(\\s+\\w+)?\\s+set\\b[^;]*?\\b${o.column}\\s*=`, 'i'),
    insert: new RegExp(`\\binsert\\s+into\\s+${o.table}\\s*\\([^)]*\\b${o.column}\\b`, 'i'),
  }));

  for (const file of files) {
    const source = program.getSourceFile(file);
    if (!source) throw new Error(`not in the program: ${file}`);
    const report = (node: ts.Node, what: string) => violations.push({ file, line: lineOf(source, node), what });

    const visit = (node: ts.Node): void => {
      if (ts.isCallExpression(node) && ts.isPropertyAccessExpression(node.expression)) {
        const method = node.expression.name.text;
        const [first, second, third] = node.arguments;
        if (method === 'set') {
          const table = updatedTable(node);
          for (const o of owned.filter((c) => c.entity === table)) {
            if (!readable(first)) report(node, `updates ${o.entity} with a set this scan cannot read (write it as an object literal)`);
            else if (propertyNamed(first, o.property)) report(node, `updates ${o.entity}.${o.property}`);
          }
        }
        if (method === 'create' && first && ts.isIdentifier(first)) {
          for (const o of owned) {
            const p = propertyNamed(second, o.property);
            if (first.text === o.entity && p && !(o.createdAs !== undefined && ts.isPropertyAssignment(p) && p.initializer.getText() === o.createdAs)) {
              report(node, `creates ${o.entity} with ${o.property}`);
            }
          }
        }
        if (method === 'assign' && first) {
          for (const o of owned) if (typeName(checker, first) === o.entity && propertyNamed(second, o.property)) report(node, `assigns ${o.entity}.${o.property}`);
        }
        if (method === 'nativeUpdate' && first && ts.isIdentifier(first)) {
          for (const o of owned) if (first.text === o.entity && propertyNamed(third, o.property)) report(node, `updates ${o.entity}.${o.property}`);
        }
      }
      if (ts.isBinaryExpression(node) && node.operatorToken.kind >= ts.SyntaxKind.FirstAssignment && node.operatorToken.kind <= ts.SyntaxKind.LastAssignment) {
        const target = node.left;
        if (ts.isPropertyAccessExpression(target)) {
          for (const o of owned) if (target.name.text === o.property && typeName(checker, target.expression) === o.entity) report(node, `sets ${o.entity}.${o.property}`);
        }
      }
      if (ts.isStringLiteralLike(node) || ts.isTemplateExpression(node)) {
        const text = node.getText();
        for (const { o, update, insert } of sqlWrites) {
          if (update.test(text)) report(node, `SQL updates ${o.table}.${o.column}`);
          if (insert.test(text)) report(node, `SQL inserts ${o.table}.${o.column}`);
        }
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return violations;
}

/** A program over the given files with the project's compiler options. */
export function programOf(files: readonly string[], configPath: string): ts.Program {
  const config = ts.readConfigFile(configPath, (p) => ts.sys.readFile(p));
  const parsed = ts.parseJsonConfigFileContent(config.config, ts.sys, configPath.replace(/\/[^/]+$/, ''));
  return ts.createProgram({ rootNames: [...files], options: parsed.options });
}

const SQL_TEXT = /\b(select\s[\s\S]*\bfrom\b|insert\s+into\b|update\s+"?\w+"?\s[\s\S]*\bset\b|delete\s+from\b)/i;

/**
 * SQL text glued from parts: an untagged template with substitutions, or a `+` of strings, that reads
 * as a statement; or `sql.raw` of anything but a literal. Kysely's tagged `sql` templates bind their
 * values and references, so they are not glue.
 */
export function scanForGluedSql(program: ts.Program, files: readonly string[]): Violation[] {
  const violations: Violation[] = [];
  for (const file of files) {
    const source = program.getSourceFile(file);
    if (!source) throw new Error(`not in the program: ${file}`);
    const visit = (node: ts.Node): void => {
      // A tagged template binds its substitutions: only what they hold is read.
      if (ts.isTaggedTemplateExpression(node)) {
        visit(node.tag);
        if (ts.isTemplateExpression(node.template)) for (const span of node.template.templateSpans) visit(span.expression);
        return;
      }
      if (ts.isTemplateExpression(node)) {
        const text = [node.head.text, ...node.templateSpans.map((span) => span.literal.text)].join(' ');
        if (SQL_TEXT.test(text)) violations.push({ file, line: lineOf(source, node), what: 'SQL text glued from a template' });
      }
      if (ts.isBinaryExpression(node) && node.operatorToken.kind === ts.SyntaxKind.PlusToken) {
        // The whole chain of `+` at once: its string pieces read together, its other operands visited.
        const operands: ts.Expression[] = [];
        const flatten = (e: ts.Expression): void => {
          if (ts.isBinaryExpression(e) && e.operatorToken.kind === ts.SyntaxKind.PlusToken) {
            flatten(e.left);
            flatten(e.right);
          } else operands.push(e);
        };
        flatten(node);
        const text = operands.map((p) => (ts.isStringLiteralLike(p) ? p.text : ' x ')).join('');
        if (SQL_TEXT.test(text)) violations.push({ file, line: lineOf(source, node), what: 'SQL text glued with +' });
        for (const operand of operands) visit(operand);
        return;
      }
      if (ts.isCallExpression(node) && node.expression.getText(source) === 'sql.raw' && !(node.arguments[0] && ts.isStringLiteralLike(node.arguments[0]))) {
        violations.push({ file, line: lineOf(source, node), what: 'sql.raw of a computed text' });
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return violations;
}
